import Glibc
import InputGuards

/// Whole-file reads without Foundation.
public enum FileBytes {
    /// The default bound of whole-file reads: 512 MiB. The JSON and CSV readers hold the file and
    /// then its columns, and the analyzers copies of those (docs/reliability.md, "Memory model").
    public static let defaultMaximumBytes = 1 << 29

    /// The bound in force for reads in this task and the tasks it starts (a resource limit the
    /// front ends set from `--max-file-bytes` with `FileBytes.$maximumBytes.withValue(…)`).
    @TaskLocal public static var maximumBytes = defaultMaximumBytes

    /// Reads a whole regular file into memory (``RegularFile``: FIFOs and devices are refused).
    ///
    /// - Throws: `ReadError` with `.unreadable` and the system's message (missing file, a folder,
    ///   a FIFO, permission denied, I/O error), or `.tooLarge` above `maximumBytes`.
    public static func read(_ path: String, maximumBytes: Int = FileBytes.maximumBytes) throws(ReadError) -> [UInt8] {
        let fd: Int32
        do { fd = try RegularFile.openForReading(path) } catch { throw ReadError(file: path, reason: .unreadable(error.description)) }
        defer { FileSystem.close(fd) }
        return try read(descriptor: fd, path: path, maximumBytes: maximumBytes)
    }

    /// Reads the rest of an open descriptor (from its current offset) the same way; `path`
    /// names it in errors. The caller closes it.
    public static func read(descriptor fd: Int32, path: String, maximumBytes: Int = FileBytes.maximumBytes) throws(ReadError) -> [UInt8] {
        let size: Int64
        do { size = try FileSystem.status(descriptor: fd, path: path).size } catch { throw ReadError(file: path, reason: .unreadable(error.reason)) }
        guard size <= maximumBytes else {
            throw ReadError(file: path, reason: .tooLarge(bytes: Int(clamping: size), limit: maximumBytes))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(0, Int(clamping: size)))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int
            do { count = try FileSystem.read(fd, path: path, into: &chunk) } catch { throw ReadError(file: path, reason: .unreadable(error.reason)) }
            if count == 0 { break }
            // A file that grows while it is read is bounded the same way.
            guard bytes.count + count <= maximumBytes else {
                throw ReadError(file: path, reason: .tooLarge(bytes: bytes.count + count, limit: maximumBytes))
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }
}
