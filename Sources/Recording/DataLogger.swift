import InputGuards
import Glibc

/// ResearchKit's data logger (`ORKDataLogger`, docs/formats.md §2): a `{"items":[…]}` file that is a
/// complete JSON document after every append. Items are buffered in memory and appended in one
/// write per flush (every `flushIntervalSeconds`, or on `flush()`); a process killed at any moment
/// leaves a valid file holding every item up to the last completed flush. The buffer is also
/// flushed when it reaches `maximumBufferBytes`, so memory stays bounded at any item rate.
///
/// Write protocol (§2.2): the first append writes `{"items":[`, the items and `]}`; later appends
/// overwrite the footer with `,` + items + `]}` in one `pwrite`. A failed write restores the footer
/// and truncates to the checkpoint. Finishing or rolling over renames the file to
/// `<logName>-<yyyyMMddHHmmss local>[-NN][.json]` (§2.3); a file without items is deleted.
public final class DataLogger {
    public struct Configuration: Sendable {
        /// Directory of the log files (must exist).
        public var directory: String
        /// `<recorderType>_<UUID with _>` (docs/formats.md §3.1).
        public var logName: String
        /// `.json` on file names (ResearchKit ≥ 3.2.0); false for the older names without extension.
        public var jsonExtension = true
        /// Roll over when the file reaches this many bytes (0: never; ResearchKit's
        /// `rollingFileSizeThreshold`).
        public var rolloverBytes = 0
        /// Roll over when the file is this old, s (0: never).
        public var rolloverSeconds = 0.0
        /// Buffered items are appended when the last append is this old, s (0: every item).
        public var flushIntervalSeconds = 1.0
        /// Buffered items are appended once they reach this many bytes, whatever the interval
        /// (bounds memory when items arrive faster than real time).
        public var maximumBufferBytes = 65_536
        /// `fsync` after every append (survives power loss, not only a killed process).
        public var syncToDisk = false

        public init(directory: String, logName: String) {
            self.directory = directory
            self.logName = logName
        }
    }

    /// A finished log file.
    public struct FinishedFile: Sendable, Hashable {
        public var path: String
        public var fileName: String
        /// Unix seconds of the first item's append and of the finish.
        public var startSeconds: Double
        public var endSeconds: Double
        public var items: Int
        public var bytes: Int
    }

    public let configuration: Configuration
    public private(set) var finishedFiles: [FinishedFile] = []
    /// Items appended to disk so far (all files).
    public private(set) var itemsWritten = 0

    private let clock: @Sendable () -> Double
    private var descriptor: Int32 = -1
    private var length = 0
    private var itemsInFile = 0
    private var fileStart = 0.0
    private var lastFlush: Double
    private var buffer: [UInt8] = []
    /// Items waiting in the buffer for the next flush.
    public private(set) var itemsBuffered = 0

    /// The path of the file being written.
    public var currentPath: String {
        configuration.directory + "/" + configuration.logName + (configuration.jsonExtension ? ".json" : "")
    }

    /// Creates the current (empty) log file.
    public init(_ configuration: Configuration, clock: @escaping @Sendable () -> Double = SystemClock.wall) throws(RecordingError) {
        self.configuration = configuration
        self.clock = clock
        self.lastFlush = clock()
        try openCurrent()
    }

    deinit {
        if descriptor >= 0 { FileSystem.close(descriptor) }
    }

    /// Buffers one serialized item (a compact JSON object) and flushes when the interval has passed.
    public func append(_ item: [UInt8]) throws(RecordingError) {
        guard descriptor >= 0 else { throw RecordingError(file: currentPath, reason: .stopped) }
        if itemsBuffered > 0 { buffer.append(UInt8(ascii: ",")) }
        buffer += item
        itemsBuffered += 1
        if buffer.count >= configuration.maximumBufferBytes { try flush() } else { try flushIfDue() }
    }

    /// Appends the buffered items to the file (one write), then rolls over if a limit is reached.
    /// Flushes when the flush interval has passed since the last flush (call it while no items
    /// arrive, so buffered ones still reach the file in time).
    public func flushIfDue() throws(RecordingError) {
        if clock() - lastFlush >= configuration.flushIntervalSeconds { try flush() }
    }

    public func flush() throws(RecordingError) {
        lastFlush = clock()
        guard itemsBuffered > 0 else { return }
        guard descriptor >= 0 else { throw RecordingError(file: currentPath, reason: .stopped) }
        let checkpoint = length
        var bytes: [UInt8]
        let offset: Int
        if length == 0 {
            bytes = Array(#"{"items":["#.utf8)
            offset = 0
            fileStart = lastFlush
        } else {
            bytes = itemsInFile > 0 ? [UInt8(ascii: ",")] : []
            offset = length - 2
        }
        bytes += buffer
        bytes += Array("]}".utf8)
        do throws(RecordingError) {
            try writeFully(bytes, at: offset)
            if configuration.syncToDisk {
                do { try FileSystem.synchronize(descriptor, path: currentPath) } catch { throw .system(error) }
            }
        } catch {
            // Restore the last complete document (docs/formats.md §2.2 step 3).
            if checkpoint >= 2 { try? writeFully(Array("]}".utf8), at: checkpoint - 2) }
            try? FileSystem.truncate(descriptor, path: currentPath, to: Int64(checkpoint))
            throw error
        }
        length = offset + bytes.count
        itemsInFile += itemsBuffered
        itemsWritten += itemsBuffered
        buffer.removeAll(keepingCapacity: true)
        itemsBuffered = 0
        let size = configuration.rolloverBytes > 0 && length >= configuration.rolloverBytes
        let age = configuration.rolloverSeconds > 0 && lastFlush - fileStart >= configuration.rolloverSeconds
        if size || age {
            try finishCurrent()
            try openCurrent()
        }
    }

    /// Flushes, renames the current file to its finished name (or deletes it when it holds no
    /// items) and closes the logger. Returns every finished file, in order.
    @discardableResult
    public func finish() throws(RecordingError) -> [FinishedFile] {
        guard descriptor >= 0 else { return finishedFiles }
        try flush()
        try finishCurrent()
        return finishedFiles
    }

    private func openCurrent() throws(RecordingError) {
        do { descriptor = try FileSystem.open(currentPath, flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o644) } catch { throw .system(error) }
        length = 0
        itemsInFile = 0
    }

    private func finishCurrent() throws(RecordingError) {
        let path = currentPath
        let fd = descriptor
        descriptor = -1
        do { try FileSystem.closeChecked(fd, path: path) } catch { throw .system(error) }
        if length == 0 {
            try? FileSystem.remove(path)
            return
        }
        let end = clock()
        let stamp = Self.localStamp(end)
        let suffix = configuration.jsonExtension ? ".json" : ""
        var name = "\(configuration.logName)-\(stamp)\(suffix)"
        var sequence = 1
        while FileSystem.linkStatusIfAny(configuration.directory + "/" + name) != nil {
            name = "\(configuration.logName)-\(stamp)-\(sequence < 10 ? "0" : "")\(sequence)\(suffix)"
            sequence += 1
        }
        let target = configuration.directory + "/" + name
        do { try FileSystem.rename(path, to: target) } catch { throw .system(error) }
        finishedFiles.append(FinishedFile(path: target, fileName: name, startSeconds: fileStart, endSeconds: end,
                                          items: itemsInFile, bytes: length))
    }

    private func writeFully(_ bytes: [UInt8], at offset: Int) throws(RecordingError) {
        do { try FileSystem.write(descriptor, path: currentPath, bytes, at: Int64(offset)) } catch { throw .system(error) }
    }

    /// `yyyyMMddHHmmss` in the machine's local time zone, as ResearchKit's formatter (no time zone set).
    static func localStamp(_ seconds: Double) -> String {
        var time = time_t(seconds.rounded(.down))
        var parts = tm()
        localtime_r(&time, &parts)
        func pad(_ v: Int32, _ width: Int) -> String {
            let text = String(v)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return pad(parts.tm_year + 1900, 4) + pad(parts.tm_mon + 1, 2) + pad(parts.tm_mday, 2)
            + pad(parts.tm_hour, 2) + pad(parts.tm_min, 2) + pad(parts.tm_sec, 2)
    }
}
