import InputGuards
import Analysis
import Foundation
import SensorData

/// Scores walking recordings (accelerometer or device-motion JSON, CSV motion, pedometer files;
/// a folder of an unpacked upload; a task result whose recorder files sit next to it) with
/// ``GaitAnalysis`` and ``PedometerAnalysis`` (analysis.md §2), one feature set per recording.
public enum GaitScorer {
    public struct Parameters: Sendable, Hashable, Codable {
        /// What the caller states about a CSV table (columns, units, the Oxford layout); the
        /// rest is detected from the header and the data.
        public var csv = MotionCSVOverrides()
        public var lenient = false
        /// The gait analysis's own parameters (analysis.md §2).
        public var analysis = GaitAnalysis.Parameters()
        public init() {}
    }

    public static func score(_ file: String, _ parameters: Parameters = .init()) throws(ScoringError) -> ScoreReport {
        let (recordings, readWarnings, csvLayout) = try self.recordings(file, parameters)
        var warnings = readWarnings
        let motion = recordings.filter { $0.series.kind == .accelerometer || $0.series.kind == .deviceMotion }
        let pedometers = recordings.filter { $0.series.kind == .pedometer }
        guard !motion.isEmpty || !pedometers.isEmpty else {
            throw ScoringError(.invalidInput, "\(FileName.display(file)): no accelerometer, device-motion or pedometer recording in this file")
        }
        var sets: [FeatureSet] = []
        let pedometer = pedometers.first.map { (label: label($0.name, index: -1), features: PedometerAnalysis.features($0.series)) }
        for (index, recording) in motion.enumerated() {
            guard let signal = MotionSignal(recording.series) else { continue }
            let name = label(recording.name, index: index)
            let analysis = GaitAnalysis.analyze(signal, parameters: parameters.analysis)
            var set = analysis.features.renamed(motion.count == 1 ? "atk" : "atk." + name)
            warnings += analysis.warnings.map { motion.count == 1 ? $0 : "\(name): \($0)" }
            // The pedometer joins the recording of its own step (or the only one).
            if let pedometer, motion.count == 1 || pedometer.label == name { set.append(contentsOf: pedometer.features) }
            sets.append(set)
        }
        if sets.isEmpty, let pedometer { sets.append(pedometer.features.renamed("atk")) }
        let usable = sets.contains { set in
            (set["stepCount"]?.number ?? 0) > 0 || set["cadencePedometerStepsPerMinute"]?.number != nil
                || set["tremorDominantFrequencyHzAccel"]?.number != nil
        }
        return ScoreReport(kind: "gait", file: file, dialect: csvLayout?.summary ?? recordings.map(\.series.kind.rawValue).joined(separator: ", "), sets: sets,
                           warnings: warnings, unusable: usable ? nil : "too little motion data to analyse (no walking, less than 5 s for rest and tremor)")
    }

    /// The motion and pedometer recordings a gait score reads from `file` (labelled with their
    /// file and step), the readers' warnings, and for a CSV table the layout it was read with.
    public static func recordings(_ file: String, _ parameters: Parameters = .init()) throws(ScoringError)
        -> (recordings: [(name: String, series: SensorSeries)], warnings: [String], csvLayout: MotionCSVLayout?)
    {
        var warnings: [String] = []
        var csvLayout: MotionCSVLayout?
        var recordings: [(name: String, series: SensorSeries)] = []
        do throws(ReadError) {
            switch InputSniffer.sniff(file) {
            case .csv:
                let table = try CSVTable.parse(FileBytes.read(file), file: file)
                let layout = try parameters.csv.layout(for: table, file: file)
                csvLayout = layout
                let (series, readWarnings) = try SensorSeries.accelerometer(from: table, layout: layout, file: file)
                recordings.append((file, series))
                warnings += readWarnings.map(\.description)
            default:
                for path in inputFiles(file) {
                    let contents = try JSONContents.read(path, options: .init(lenient: parameters.lenient))
                    recordings += contents.series.map { ($0.file, $0.series) }
                    warnings += contents.allWarnings.map(\.description)
                    // A task result names its recorder files: read those that sit next to it,
                    // labelled with their step (walking.outbound, …).
                    for sibling in siblingFiles(of: path, contents) where !recordings.contains(where: { $0.name == sibling.path }) {
                        let recorder = try JSONContents.read(sibling.path, options: .init(lenient: parameters.lenient))
                        let step = sibling.step.map { " (\($0))" } ?? ""
                        recordings += recorder.series.map { ($0.file + step, $0.series) }
                        warnings += recorder.allWarnings.map(\.description)
                    }
                }
            }
        } catch {
            throw .input(error)
        }
        return (recordings, warnings, csvLayout)
    }

    /// The recorder files a task result names that exist next to it, with their step identifiers.
    /// Names are relative to the result's folder (a recorder's `recorder-…/` subfolder included);
    /// an absolute name or one with a `..` component is never opened: a result cannot point
    /// outside its folder.
    public static func siblingFiles(of path: String, _ contents: JSONContents) -> [(path: String, step: String?)] {
        let folder = (path as NSString).deletingLastPathComponent
        return contents.fileResults.compactMap { reference in
            guard let name = reference.fileName, !name.isEmpty, !name.hasPrefix("/"),
                !name.split(separator: "/").contains("..")
            else { return nil }
            let sibling = (folder as NSString).appendingPathComponent(name)
            return FileManager.default.fileExists(atPath: sibling) ? (sibling, reference.stepIdentifier) : nil
        }
    }

    /// The file itself, or for a folder (an unpacked upload) its JSON files in name order.
    public static func inputFiles(_ path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
            .map { (path as NSString).appendingPathComponent($0) }
            .filter { InputSniffer.sniff($0) == .json }
    }

    /// A short label for one recording of a task: its step (outbound, return, rest) or file name.
    static func label(_ name: String, index: Int) -> String {
        for step in ["outbound", "return", "rest"] where name.contains(step) { return step }
        return "\(index + 1)"
    }
}
