import Analysis
import ArgumentParser
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
    var tables: String = "rk-3.2"

    @Option(name: .long, help: "Write the audiogram as SVG to this file.")
    var svg: String?

    func run() throws {
        var warnings: [String] = []
        let audiogram: Audiogram
        var legend: [String] = []
        var corrected: Audiogram?
        var dialect = "ResearchKit dBHL result"
        if options.file.lowercased().hasSuffix(".csv") {
            audiogram = try auxuAudiogram(options.file, row: row)
            dialect = "AUXU CSV row \(row)"
        } else {
            let contents = try readContents(options)
            warnings += contents.warnings.map(\.description)
            let results = contents.dBHLResults
            guard !results.isEmpty else {
                printError(ReadError(file: options.file, reason: .notFound("no ORKdBHLToneAudiometryResult in this file (\(contents.layout.name))")).description)
                throw ExitCode(ActiveTask.Status.invalidInput)
            }
            let result: DBHLToneAudiometryResult
            if let identifier {
                guard let match = results.first(where: { $0.identifier == identifier }) else {
                    printError("\(options.file): no dB HL result with identifier \"\(identifier)\"; found: \(results.map { $0.identifier ?? "(none)" }.joined(separator: ", "))")
                    throw ExitCode(ActiveTask.Status.badInvocation)
                }
                result = match
            } else {
                result = results[0]
                if results.count > 1 { warnings.append("the file holds \(results.count) dB HL results; scored the first, choose with --identifier") }
            }
            audiogram = Audiogram(result)
            legend.append("headphone \(result.headphoneType ?? "unknown"), output volume \(result.outputVolume.map { String($0) } ?? "unknown")")
            if let volume = result.outputVolume, volume < 1 {
                guard let version = HeadphoneCalibration.TableVersion(rawValue: tables) else {
                    printError("--tables must be rk-2.x, rk-3.0 or rk-3.2")
                    throw ExitCode(ActiveTask.Status.badInvocation)
                }
                if let headphone = result.headphoneType, let table = HeadphoneCalibration.tables(for: headphone, version: version),
                    let played = HeadphoneCalibration.volumeOffset(table, volume: volume, rule: .correct),
                    let assumed = HeadphoneCalibration.volumeOffset(table, volume: volume, rule: .researchKit3_1)
                {
                    let offset = played - assumed
                    corrected = audiogram.shifted(by: offset)
                    warnings.append("outputVolume \(volume) < 1: volumeCorrected adds \(offset) dB (\(headphone), \(tables) volume curve), assuming ResearchKit ≥ 3.1.0 and a volume that did not change during the test")
                    legend.append("plotted: volume-corrected thresholds = recorded + (\(offset)) dB (\(tables) volume curve)")
                } else {
                    warnings.append("outputVolume \(volume) < 1 but headphone \"\(result.headphoneType ?? "unknown")\" has no \(tables) volume curve: thresholds not volume-corrected")
                }
            }
        }
        let recorded = audiogram.features()
        warnings += recorded.warnings
        var sets = [recorded.set]
        if let corrected { sets.append(corrected.features(name: "volumeCorrected").set) }
        if let svg {
            let picture = (corrected ?? audiogram).svg(title: URL(fileURLWithPath: options.file).lastPathComponent, legend: legend)
            do { try picture.write(toFile: svg, atomically: true, encoding: .utf8) } catch {
                printError("\(svg): cannot write: \(error.localizedDescription)")
                throw ExitCode(ActiveTask.Status.invalidInput)
            }
        }
        ScoreReport(kind: "audiometry", file: options.file, dialect: dialect, sets: sets, warnings: warnings).print(json: options.json)
        let tested = Audiogram.Ear.allCases.contains { !(audiogram.thresholds[$0]?.isEmpty ?? true) }
        if !tested {
            printError("\(options.file): no thresholds")
            throw ExitCode(ActiveTask.Status.unusable)
        }
    }

}

/// A CSV with `AUXU…R/L` columns (NHANES AUX layout) and its header.
func auxuTable(_ file: String) throws -> (header: [String], table: CSVTable) {
    let table: CSVTable
    do {
        table = try CSVTable.parse(FileBytes.read(file), file: file)
    } catch {
        printError(error.description)
        throw ExitCode(ActiveTask.Status.invalidInput)
    }
    guard let header = table.header, header.contains(where: { $0.hasPrefix("AUXU") && ($0.hasSuffix("R") || $0.hasSuffix("L")) }) else {
        printError("\(file): no header with AUXU…R/L columns (NHANES AUX layout)")
        throw ExitCode(ActiveTask.Status.invalidInput)
    }
    return (header, table)
}

/// The audiogram of data row `row` (first = 1) of an AUXU CSV.
func auxuAudiogram(_ file: String, row: Int) throws -> Audiogram {
    let (header, table) = try auxuTable(file)
    guard row >= 1, row <= table.rowCount else {
        printError("\(file): --row \(row) outside 1…\(table.rowCount)")
        throw ExitCode(ActiveTask.Status.badInvocation)
    }
    return Audiogram(columns: header, values: table.columns.map { $0.numbers?[row - 1] ?? .nan })
}
