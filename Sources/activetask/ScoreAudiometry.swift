import Analysis
import ArgumentParser
import Batch
import Scoring
import Foundation
import InputGuards
import SensorData

/// `activetask score audiometry FILE`: thresholds, averages, grades and an SVG audiogram.
struct ScoreAudiometry: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiometry",
        abstract: "Audiogram of a ResearchKit dB HL result or an AUXU… CSV row: thresholds, PTA3/PTA4, WHO 2021 grades, asymmetry.",
        discussion: "When outputVolume < 1 the recorded thresholds are reported unchanged and a second set, volumeCorrected, adds the volume offset ResearchKit ≥ 3.1.0 did not apply (audiometry.md §7.5), assuming the volume did not change during the test."
    )

    @OptionGroup var options: ScoreOptions

    @OptionGroup(title: "Audiometry") var parameters: AudiometryParameterOptions

    @Option(name: .long, help: "Write the audiogram as SVG to this file.")
    var svg: String?

    func run() throws {
        if let svg { try OutputFile.refuseIfInputOrExit(svg, inputs: [options.file]) }
        let score = try emit(options, .audiometry, [parameters])
        if let svg, case .audiometry(let audiogram) = score {
            let picture = audiogram.plotted.svg(title: URL(fileURLWithPath: options.file).lastPathComponent, legend: audiogram.legend)
            try OutputFile.writeOrExit(picture, to: svg, inputs: [options.file])
        }
    }
}

/// The AUXU CSV `file` (read once), errors as exit statuses.
func auxuTable(_ file: String) throws -> AUXUTable {
    let input: LoadedInput
    do { input = try LoadedInput.load(file) } catch { throw failure(error) }
    guard case .table(_, .audiogram(let table)) = input.kind else {
        throw failure(ScoringError(.invalidInput, "\(FileName.display(file)): no header with AUXU…R/L columns (NHANES AUX layout); this file is \(input.kind.summary)"))
    }
    return table
}

/// The audiogram of data row `row` (first = 1) of an AUXU CSV.
func auxuAudiogram(_ file: String, row: Int) throws -> Audiogram {
    do { return try auxuTable(file).audiogram(row: row) } catch let error as ScoringError { throw failure(error) }
}

