import Glibc

/// The one layer through which the toolkit's own code calls the file system (as
/// apple/swift-system routes every call through one place): a path goes in as bytes
/// (``FileName``), an `EINTR` is retried, and an `errno` comes out as a ``FileSystem/Failure``
/// naming the operation and the path. Readers open through ``RegularFile``, outputs are written
/// through ``OutputFile``; both use this layer. `scripts/lint-sources.sh` (run by the tests)
/// fails when a system call appears anywhere else.
public enum FileSystem {
    /// A system call that failed: which, on what, and the system's reason.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var operation: String
        public var path: String
        public var code: Int32

        public init(operation: String, path: String, code: Int32) {
            (self.operation, self.path, self.code) = (operation, path, code)
        }

        /// The error number, typed.
        public var errno: Errno { Errno(rawValue: code) }
        /// The system's reason (`No such file or directory`).
        public var reason: String { errno.description }
        public var description: String { "\(FileName.display(path)): \(operation): \(reason)" }
    }

    /// What `stat` says of a file.
    public struct Status: Sendable, Hashable {
        public var mode: mode_t
        public var device: UInt64
        public var inode: UInt64
        public var size: Int64
        /// Modification and status-change times, ns since 1970 (wrapping beyond ±292 years: they
        /// are identities here, not quantities).
        public var modifiedNanoseconds: Int64
        public var changedNanoseconds: Int64

        init(_ info: stat) {
            mode = info.st_mode
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modifiedNanoseconds = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
            changedNanoseconds = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
        }

        public var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
        public var isRegularFile: Bool { mode & S_IFMT == S_IFREG }
        /// "a directory", "a FIFO", … (``RegularFile/kind(of:)``).
        public var kind: String { RegularFile.kind(of: mode) }
    }

    /// `stat(2)` of `path`, links followed.
    public static func status(_ path: String) throws(Failure) -> Status {
        var info = stat()
        try check(FileName.withCString(path) { stat($0, &info) }, "stat", path)
        return Status(info)
    }

    /// `stat(2)` of `path`, or nil when it cannot be had (absent, a dangling link, no permission).
    public static func statusIfAny(_ path: String) -> Status? { try? status(path) }

    /// `fstat(2)` of an open descriptor (`path` names it in a failure).
    public static func status(descriptor: Int32, path: String) throws(Failure) -> Status {
        var info = stat()
        try check(fstat(descriptor, &info), "fstat", path)
        return Status(info)
    }

    /// `open(2)`; the caller closes the descriptor (``close(_:)``).
    public static func open(_ path: String, flags: Int32, mode: mode_t = 0) throws(Failure) -> Int32 {
        var descriptor: Int32 = -1
        repeat {
            descriptor = FileName.withCString(path) { Glibc.open($0, flags, mode) }
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        return descriptor
    }

    public static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }

    /// `pread(2)` of up to `buffer.count` bytes at `offset`: the count read (0 at the end).
    public static func read(_ descriptor: Int32, path: String, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Failure) -> Int {
        guard buffer.count > 0 else { return 0 }
        while true {
            let got = pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
            if got >= 0 { return got }
            guard errno == EINTR else { throw Failure(operation: "read", path: path, code: errno) }
        }
    }

    /// `read(2)` of up to `buffer.count` bytes at the descriptor's offset: the count read (0 at the end).
    public static func read(_ descriptor: Int32, path: String, into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int {
        guard buffer.count > 0 else { return 0 }
        while true {
            let got = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if got >= 0 { return got }
            guard errno == EINTR else { throw Failure(operation: "read", path: path, code: errno) }
        }
    }

    /// `read(2)` (`offset` nil) or `pread(2)` into `buffer` from its start: the count read (0 at the end).
    public static func read(_ descriptor: Int32, path: String, into buffer: inout [UInt8], at offset: Int64? = nil) throws(Failure) -> Int {
        let result = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(Failure) in
                if let offset { try read(descriptor, path: path, into: raw, at: offset) } else { try read(descriptor, path: path, into: raw) }
            }
        }
        return try result.get()
    }

    /// `pwrite(2)` of all of `bytes` at `offset`.
    public static func write(_ descriptor: Int32, path: String, _ bytes: [UInt8], at offset: Int64) throws(Failure) {
        try bytes.withUnsafeBytes { raw in Result { () throws(Failure) in try write(descriptor, path: path, raw, at: offset) } }.get()
    }

    /// `write(2)` of all of `bytes` (short writes continued).
    public static func write(_ descriptor: Int32, path: String, _ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var done = 0
        while done < bytes.count {
            let wrote = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if wrote < 0 {
                guard errno == EINTR else { throw Failure(operation: "write", path: path, code: errno) }
                continue
            }
            done += wrote
        }
    }

    /// `pwrite(2)` of all of `bytes` at `offset` (short writes continued).
    public static func write(_ descriptor: Int32, path: String, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(Failure) {
        var done = 0
        while done < bytes.count {
            let wrote = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if wrote < 0 {
                guard errno == EINTR else { throw Failure(operation: "pwrite", path: path, code: errno) }
                continue
            }
            done += wrote
        }
    }

    /// `ftruncate(2)` to `length` bytes.
    public static func truncate(_ descriptor: Int32, path: String, to length: Int64) throws(Failure) {
        try check(ftruncate(descriptor, off_t(length)), "ftruncate", path)
    }

    /// `close(2)` whose failure matters (data written and not yet on the disk may report an I/O error here).
    public static func closeChecked(_ descriptor: Int32, path: String) throws(Failure) {
        try check(Glibc.close(descriptor), "close", path)
    }

    /// `lstat(2)` of `path`: a link itself, not what it names; nil when nothing is there.
    public static func linkStatusIfAny(_ path: String) -> Status? {
        var info = stat()
        return FileName.withCString(path, { lstat($0, &info) }) == 0 ? Status(info) : nil
    }

    /// `fsync(2)`: the descriptor's data and metadata on the disk.
    public static func synchronize(_ descriptor: Int32, path: String) throws(Failure) {
        try check(fsync(descriptor), "fsync", path)
    }

    /// `mkdir(2)`; an existing directory is fine when `existingAllowed`.
    public static func makeDirectory(_ path: String, mode: mode_t = 0o755, existingAllowed: Bool = true) throws(Failure) {
        guard FileName.withCString(path, { mkdir($0, mode) }) != 0 else { return }
        let code = errno
        if code == EEXIST, existingAllowed, statusIfAny(path)?.isDirectory == true { return }
        throw Failure(operation: "mkdir", path: path, code: code)
    }

    /// `mkdir -p`: `path` and every missing folder above it (an existing folder is fine).
    public static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws(Failure) {
        if statusIfAny(path)?.isDirectory == true { return }
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        if let slash = trimmed.lastIndex(of: "/"), slash > trimmed.startIndex {
            try makeDirectories(String(trimmed[..<slash]), mode: mode)
        }
        try makeDirectory(String(trimmed), mode: mode)
    }

    /// Whether `path` is a file this process may execute (`access(2)`, X_OK).
    public static func isExecutable(_ path: String) -> Bool {
        statusIfAny(path)?.isRegularFile == true && FileName.withCString(path, { access($0, X_OK) }) == 0
    }

    /// `rename(2)`: atomically replaces `destination` on the same file system.
    public static func rename(_ source: String, to destination: String) throws(Failure) {
        let result = FileName.withCString(source) { from in FileName.withCString(destination) { to in Glibc.rename(from, to) } }
        try check(result, "rename to \(FileName.display(destination))", source)
    }

    /// `unlink(2)`.
    public static func remove(_ path: String) throws(Failure) {
        try check(FileName.withCString(path) { unlink($0) }, "unlink", path)
    }

    private static func check(_ result: Int32, _ operation: String, _ path: String) throws(Failure) {
        guard result == 0 else { throw Failure(operation: operation, path: path, code: errno) }
    }
}

extension FileSystem {
    /// What `poll(2)` saw on a descriptor.
    public struct PollEvents: Sendable, Hashable {
        /// Data to read (or, with ``hangUp``, the end of it).
        public var readable: Bool
        /// The writer is gone (a FIFO's last writer closed; a device went away).
        public var hangUp: Bool
        /// An error condition or a descriptor that is not open.
        public var error: Bool
    }

    /// `poll(2)` of one descriptor for input, waiting at most `milliseconds`; all false on a timeout.
    public static func poll(_ descriptor: Int32, path: String, milliseconds: Int32) throws(Failure) -> PollEvents {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let count = Glibc.poll(&entry, 1, milliseconds)
            if count >= 0 { break }
            guard errno == EINTR else { throw Failure(operation: "poll", path: path, code: errno) }
        }
        let events = Int32(entry.revents)
        return PollEvents(readable: events & Int32(POLLIN) != 0, hangUp: events & Int32(POLLHUP) != 0,
                          error: events & (Int32(POLLERR) | Int32(POLLNVAL)) != 0)
    }
}
