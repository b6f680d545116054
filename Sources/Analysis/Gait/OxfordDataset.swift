import InputGuards
import SensorData

/// The Oxford Step Counter dataset (Salvi et al. 2018, ORA 4de4b8a6-…): one folder per walk under
/// `data/`, each with `accelerometer.csv` (ns, accuracy, x, y, z in m/s², no header) and
/// `stepcounter.csv` (the foot-contact ground truth), read for ``GaitEvaluation``.
public struct OxfordDataset: Sendable {
    /// The dataset's `data/` folder.
    public let dataFolder: String

    /// The dataset whose root folder is `folder` (the one holding `data/`).
    public init(folder: String) {
        dataFolder = folder.hasSuffix("/") ? folder + "data" : folder + "/data"
    }

    /// The walks: the subfolders of `data/` with an `accelerometer.csv`, by name.
    public func walkNames() throws(ReadError) -> [String] {
        let names: [String]
        switch DirectoryListing.names(in: dataFolder) {
        case .success(let listing): names = listing.names
        case .failure(let refusal): throw ReadError(file: dataFolder, reason: .unreadable(refusal.description))
        }
        return names.sorted().filter { FileSystem.statusIfAny("\(dataFolder)/\($0)/accelerometer.csv")?.isRegularFile == true }
    }

    /// One walk's accelerometer and ground-truth step times (s, the accelerometer's clock); nil
    /// when its step counter file is not the Oxford ground-truth layout.
    public func walk(_ name: String, group: String = "") throws(ReadError) -> GaitEvaluation.LabelledWalk? {
        let accelerometer = "\(dataFolder)/\(name)/accelerometer.csv", steps = "\(dataFolder)/\(name)/stepcounter.csv"
        let table = try CSVTable.parse(FileBytes.read(accelerometer), file: accelerometer)
        let (series, _) = try SensorSeries.accelerometer(from: table, layout: .oxfordStepCounter, file: accelerometer)
        guard let truth = StepGroundTruth(try CSVTable.parse(FileBytes.read(steps), file: steps)), let signal = MotionSignal(series) else { return nil }
        return GaitEvaluation.LabelledWalk(name: name, group: group, signal: signal, truth: truth.stepTimesSeconds)
    }
}
