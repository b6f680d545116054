import Glibc

/// Whole-file reads without Foundation.
public enum FileBytes {
    /// Reads a whole file into memory.
    ///
    /// - Throws: `ReadError` with `.unreadable` and the system's message (missing file, a folder,
    ///   permission denied, I/O error).
    public static func read(_ path: String) throws(ReadError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(file: path, reason: .unreadable(systemMessage())) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw ReadError(file: path, reason: .unreadable(systemMessage()))
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            throw ReadError(file: path, reason: .unreadable("is a directory"))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(0, Int(status.st_size)))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(file: path, reason: .unreadable(systemMessage()))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    static func systemMessage() -> String {
        String(cString: strerror(errno))
    }
}
