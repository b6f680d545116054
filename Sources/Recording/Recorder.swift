import InputGuards
import AudioIO
import Foundation
import SensorData

/// What a recorder records and how (ResearchKit's `ORKRecorderConfiguration`).
public struct RecorderConfiguration: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A data-logger recorder of `RecorderKind` items.
        case sensor(RecorderKind)
        /// A streaming WAV recorder.
        case audio(sampleRateHz: Int, channels: Int, encoding: WAVWriter.Encoding)
    }

    /// The file result's identifier (`accelerometer`, `deviceMotion`, `audio`, …; docs/formats.md §3.3).
    public var identifier: String
    /// What is recorded: a sensor recorder's items or audio in a format.
    public var kind: Kind
    /// Requested sampling frequency, Hz (motion recorders; written to the file result's userInfo).
    public var frequencyHz: Double?
    /// Roll JSON logs over at this size, bytes (0: never; ResearchKit's `rollingFileSizeThreshold`).
    public var rollingFileSizeThreshold: Int
    /// Items reach the file at least this often, s (the loss bound of a killed process).
    public var flushIntervalSeconds: Double
    /// File names without `.json` (ResearchKit before 3.2.0).
    public var legacyFileNames: Bool

    /// What a recorder takes when neither a command nor a step configuration says otherwise.
    public enum Defaults {
        /// Motion recorders (accelerometer, deviceMotion), Hz (ResearchKit's walking tasks).
        public static let motionFrequencyHz = 100.0
        /// Audio recorders, Hz.
        public static let sampleRateHz = 44_100
        /// Items reach the file at least this often, s.
        public static let flushIntervalSeconds = 1.0
    }

    public init(identifier: String, kind: Kind, frequencyHz: Double? = nil, rollingFileSizeThreshold: Int = 0,
                flushIntervalSeconds: Double = Defaults.flushIntervalSeconds, legacyFileNames: Bool = false) {
        self.identifier = identifier
        self.kind = kind
        self.frequencyHz = frequencyHz
        self.rollingFileSizeThreshold = rollingFileSizeThreshold
        self.flushIntervalSeconds = flushIntervalSeconds
        self.legacyFileNames = legacyFileNames
    }
}

/// ResearchKit's `ORKFileResult` for one finished file.
public struct FileResult: Sendable, Hashable {
    /// The file result's identifier (the recorder configuration's).
    public var identifier: String
    /// MIME type (`application/json`; none for streaming audio, as ResearchKit).
    public var contentType: String?
    /// The file name inside the output directory, with its `recorder-<UUID>/` folder.
    public var fileName: String
    /// Unix seconds.
    public var startSeconds: Double
    /// When the file was finished, s since 1970.
    public var endSeconds: Double
    /// ResearchKit's userInfo (accelerometer: `{"frequency": Hz}`).
    public var userInfo: [String: Double]

    /// `ORKFileResult` in dialect A (docs/formats.md §6); dates in the given UTC offset.
    public func researchKitJSON(utcOffsetSeconds: Int) -> JSONValue {
        var object = JSONObject()
        object.append("_class", .string("ORKFileResult"))
        object.append("identifier", .string(identifier))
        object.append("startDate", .string(DateString(secondsSince1970: startSeconds, utcOffsetSeconds: utcOffsetSeconds).researchKitText))
        object.append("endDate", .string(DateString(secondsSince1970: endSeconds, utcOffsetSeconds: utcOffsetSeconds).researchKitText))
        var info = JSONObject()
        for key in userInfo.keys.sorted() { info.append(key, .number(userInfo[key]!)) }
        object.append("userInfo", .object(info))
        if let contentType { object.append("contentType", .string(contentType)) }
        object.append("fileName", .string(fileName))
        return .object(object)
    }
}

/// The folder and file-name stem of one recorder instance (docs/formats.md §3.1).
struct RecorderLocation {
    let uuid: String
    let folder: String
    let relativeFolder: String

    init(outputDirectory: String, uuid: String) throws(RecordingError) {
        self.uuid = uuid
        relativeFolder = "recorder-\(uuid)"
        folder = outputDirectory + "/" + relativeFolder
        do { try FileSystem.makeDirectory(folder) } catch { throw .system(error) }
    }
}

/// Records sensor items into ResearchKit data-logger files (docs/formats.md §2–§4).
public final class SensorRecorder {
    public let configuration: RecorderConfiguration
    public let kind: RecorderKind
    /// Items refused because they cannot be written (NaN in a required field, …), with the reason of the first.
    public private(set) var rejectedItems = 0
    public private(set) var firstRejection: String?
    private let logger: DataLogger
    private let encoder: RecorderItemEncoder
    private let location: RecorderLocation

    /// Creates `recorder-<UUID>/` in `outputDirectory` and the current log file.
    public init(_ configuration: RecorderConfiguration, outputDirectory: String, uuid: String = UUID().uuidString,
                clock: @escaping @Sendable () -> Double = SystemClock.wall) throws(RecordingError) {
        guard case .sensor(let kind) = configuration.kind else {
            throw RecordingError(file: outputDirectory, reason: .sample("\(configuration.identifier) is not a sensor recorder"))
        }
        self.configuration = configuration
        self.kind = kind
        encoder = RecorderItemEncoder(kind: kind)
        location = try RecorderLocation(outputDirectory: outputDirectory, uuid: uuid)
        var logConfiguration = DataLogger.Configuration(
            directory: location.folder, logName: "\(kind.recorderType)_\(uuid.replacingOccurrences(of: "-", with: "_"))")
        logConfiguration.jsonExtension = !configuration.legacyFileNames
        logConfiguration.rolloverBytes = configuration.rollingFileSizeThreshold
        logConfiguration.flushIntervalSeconds = configuration.flushIntervalSeconds
        logger = try DataLogger(logConfiguration, clock: clock)
    }

    /// Items on disk and waiting for the next flush.
    public var itemsWritten: Int { logger.itemsWritten }
    public var itemsBuffered: Int { logger.itemsBuffered }
    public var currentPath: String { logger.currentPath }

    /// Appends every item of `batch` (a series of this recorder's kind). Items that cannot be
    /// written are counted in `rejectedItems`, not written, and do not stop the recording.
    public func record(_ batch: SensorSeries) throws(RecordingError) {
        guard batch.kind == kind else {
            throw RecordingError(file: logger.currentPath, reason: .sample("a \(batch.kind.rawValue) batch given to a \(kind.rawValue) recorder"))
        }
        let writer = JSONWriter()
        for index in 0..<batch.count {
            let item: JSONValue
            do { item = try encoder.item(index, of: batch) } catch {
                rejectedItems += 1
                if firstRejection == nil { firstRejection = error.description }
                continue
            }
            try logger.append(Array(writer.string(item).utf8))
        }
    }

    /// Writes what is buffered now.
    public func flush() throws(RecordingError) { try logger.flush() }

    /// Writes what is buffered if the flush interval has passed.
    public func flushIfDue() throws(RecordingError) { try logger.flushIfDue() }

    /// Finishes the log and returns one file result per finished file.
    public func stop() throws(RecordingError) -> [FileResult] {
        let files = try logger.finish()
        let info = configuration.frequencyHz.map { ["frequency": $0] } ?? [:]
        return files.map { file in
            FileResult(identifier: configuration.identifier, contentType: "application/json",
                       fileName: location.relativeFolder + "/" + file.fileName, startSeconds: file.startSeconds,
                       endSeconds: file.endSeconds, userInfo: kind == .accelerometer ? info : [:])
        }
    }
}
