import Analysis
import ArgumentParser
import Batch
import Foundation
import SensorData

/// Reading and scoring for `score gait`.
enum GaitScoring {
    static func score(file: String, lenient: Bool, csvLayout: String) throws -> ScoreReport {
        var warnings: [String] = []
        var recordings: [(name: String, series: SensorSeries)] = []
        do {
            switch InputSniffer.sniff(file) {
            case .csv:
                let table = try CSVTable.parse(FileBytes.read(file), file: file)
                let layout = csvLayout == "oxford" ? MotionCSVLayout.oxfordStepCounter : MotionCSVLayout.detect(table)
                guard let layout else {
                    throw ReadError(file: file, reason: .unrecognisedLayout("CSV without time/x/y/z columns; give --csv-layout oxford or a header naming them"))
                }
                let (series, readWarnings) = try SensorSeries.accelerometer(from: table, layout: layout, file: file)
                recordings.append((file, series))
                warnings += readWarnings.map(\.description)
            default:
                let contents = try JSONContents.read(file, options: .init(lenient: lenient))
                recordings = contents.series.map { ($0.file, $0.series) }
                warnings += contents.allWarnings.map(\.description)
            }
        } catch let error as ReadError {
            printError(error.description)
            throw ExitCode(ActiveTask.Status.invalidInput)
        }
        let motion = recordings.filter { $0.series.kind == .accelerometer || $0.series.kind == .deviceMotion }
        let pedometers = recordings.filter { $0.series.kind == .pedometer }
        guard !motion.isEmpty || !pedometers.isEmpty else {
            printError("\(file): no accelerometer, device-motion or pedometer recording in this file")
            throw ExitCode(ActiveTask.Status.invalidInput)
        }
        var sets: [FeatureSet] = []
        let pedometer = pedometers.first.map { PedometerAnalysis.features($0.series) }
        for (index, recording) in motion.enumerated() {
            guard let signal = MotionSignal(recording.series) else { continue }
            var set = GaitAnalysis.analyze(signal).features
            let name = motion.count == 1 ? "atk" : "atk." + GaitScoring.label(recording.name, index: index)
            set = set.renamed(name)
            if let pedometer { set.append(contentsOf: pedometer) }
            sets.append(set)
        }
        if sets.isEmpty, let pedometer { sets.append(pedometer.renamed("atk")) }
        let dialect = recordings.map { "\($0.series.kind.rawValue)" }.joined(separator: ", ")
        return ScoreReport(kind: "gait", file: file, dialect: dialect, sets: sets, warnings: warnings)
    }

    /// A short label for one recording of a task: its step (outbound, return, rest) or file name.
    static func label(_ name: String, index: Int) -> String {
        for step in ["outbound", "return", "rest"] where name.contains(step) { return step }
        return "\(index + 1)"
    }
}
