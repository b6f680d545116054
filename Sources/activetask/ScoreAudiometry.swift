import Analysis
import ArgumentParser
import Batch
import Foundation
import SensorData

/// `activetask score audiometry FILE`: thresholds, averages, grades and an SVG audiogram.
struct ScoreAudiometry: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiometry",
        abstract: "Audiogram of a ResearchKit dB HL result or an AUXU… CSV row: thresholds, PTA3/PTA4, WHO 2021 grades, asymmetry.",
        discussion: "When outputVolume < 1 the recorded thresholds are reported unchanged and a second set, volumeCorrected, adds the volume offset ResearchKit ≥ 3.1.0 did not apply (audiometry.md §7.5), assuming the volume did not change during the test."
    )

    @OptionGroup var options: ScoreOptions

    @Option(name: .long, help: "Data row of a CSV (first = 1).")
    var row: Int = 1

    @Option(name: .long, help: "Which dB HL result to score when the file holds several (its step identifier).")
    var identifier: String?

    @Option(name: .long, help: "Headphone table version for the volume correction: rk-2.x, rk-3.0, rk-3.2.")
    var tables: HeadphoneCalibration.TableVersion = .researchKit3_2

    @Option(name: .long, help: "Write the audiogram as SVG to this file.")
    var svg: String?

    func validate() throws {
        try OptionCheck.require(row, "--row", in: 1...100_000_000)
    }

    func run() throws {
        var parameters = AudiometryScorer.Parameters()
        parameters.row = row
        parameters.identifier = identifier
        parameters.tables = tables
        parameters.lenient = options.lenient
        let scored: AudiometryScorer.Scored
        do { scored = try AudiometryScorer.score(options.file, parameters) } catch { throw failure(error) }
        if let svg {
            let picture = scored.plotted.svg(title: URL(fileURLWithPath: options.file).lastPathComponent, legend: scored.legend)
            try OutputFile.write(picture, to: svg, inputs: [options.file])
        }
        try emit(options) { scored.report }
    }
}

/// The AUXU CSV `file`, errors as exit statuses.
func auxuTable(_ file: String) throws -> AUXUTable {
    do { return try AUXUTable(file) } catch { throw failure(error) }
}

/// The audiogram of data row `row` (first = 1) of an AUXU CSV.
func auxuAudiogram(_ file: String, row: Int) throws -> Audiogram {
    do { return try auxuTable(file).audiogram(row: row) } catch let error as ScoringError { throw failure(error) }
}

extension HeadphoneCalibration.TableVersion: ExpressibleByArgument {}
