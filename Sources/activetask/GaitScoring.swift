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
                for path in try inputFiles(file) {
                    let contents = try JSONContents.read(path, options: .init(lenient: lenient))
                    recordings += contents.series.map { ($0.file, $0.series) }
                    warnings += contents.allWarnings.map(\.description)
                    // A task result names its recorder files: read those that sit next to it,
                    // labelled with their step (walking.outbound, …).
                    let folder = (path as NSString).deletingLastPathComponent
                    for reference in contents.fileResults {
                        guard let name = reference.fileName, !name.isEmpty else { continue }
                        let sibling = (folder as NSString).appendingPathComponent(name)
                        guard FileManager.default.fileExists(atPath: sibling), !recordings.contains(where: { $0.name.hasSuffix("/" + name) }) else { continue }
                        let recorder = try JSONContents.read(sibling, options: .init(lenient: lenient))
                        let step = reference.stepIdentifier.map { " (\($0))" } ?? ""
                        recordings += recorder.series.map { ($0.file + step, $0.series) }
                        warnings += recorder.allWarnings.map(\.description)
                    }
                }
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
        let pedometer = pedometers.first.map { (label: GaitScoring.label($0.name, index: -1), features: PedometerAnalysis.features($0.series)) }
        for (index, recording) in motion.enumerated() {
            guard let signal = MotionSignal(recording.series) else { continue }
            let label = GaitScoring.label(recording.name, index: index)
            var set = GaitAnalysis.analyze(signal).features.renamed(motion.count == 1 ? "atk" : "atk." + label)
            // The pedometer joins the recording of its own step (or the only one).
            if let pedometer, motion.count == 1 || pedometer.label == label { set.append(contentsOf: pedometer.features) }
            sets.append(set)
        }
        if sets.isEmpty, let pedometer { sets.append(pedometer.features.renamed("atk")) }
        let dialect = recordings.map { "\($0.series.kind.rawValue)" }.joined(separator: ", ")
        return ScoreReport(kind: "gait", file: file, dialect: dialect, sets: sets, warnings: warnings)
    }

    /// The file itself, or for a folder (an unpacked upload) its JSON files in name order.
    static func inputFiles(_ path: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
        return try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            .map { (path as NSString).appendingPathComponent($0) }
            .filter { InputSniffer.sniff($0) == .json }
    }

    /// A short label for one recording of a task: its step (outbound, return, rest) or file name.
    static func label(_ name: String, index: Int) -> String {
        for step in ["outbound", "return", "rest"] where name.contains(step) { return step }
        return "\(index + 1)"
    }
}
