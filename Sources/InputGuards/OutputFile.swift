import CProcess
import Glibc

/// A command's output file, written so nothing is lost or destroyed (docs/reliability.md, "Rules now in the code"): the bytes
/// go to a new temporary file beside the target (`O_EXCL`, never through a link), are flushed
/// (`fsync`) and replace the target by `rename` only when complete, so a failing or killed command
/// leaves the previous output as it was and never a file that looks complete. The temporary file
/// is removed on every failure (``discard()``, and when the object goes away uncommitted) and when
/// SIGINT, SIGTERM or SIGHUP ends the process (it is registered with the C handler of
/// `CProcess` while it exists). A target that is one of the command's inputs (the same file by
/// device and inode, whatever the path) is refused before anything is written.
public final class OutputFile {
    public let path: String
    /// Where the bytes go until `commit()`.
    public let temporaryPath: String
    private var descriptor: Int32
    private var slot: Int32
    private var finished = false

    public struct Refusal: Error, CustomStringConvertible {
        public var description: String
        /// The output cannot be what was named (it is one of the inputs, or it exists and is not a
        /// regular file): a bad invocation, not a failed write.
        public var isBadInvocation = false

        public init(description: String, isBadInvocation: Bool = false) {
            self.description = description
            self.isBadInvocation = isBadInvocation
        }
    }

    /// Refuses `path` if it is one of `inputs`; creates the temporary file.
    public init(_ path: String, inputs: [String]) throws(Refusal) {
        try Self.refuseIfInput(path, inputs: inputs)
        atk_interrupts_install()
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var attempt = 0
        while true {
            let candidate = folder + ".\(name).partial-\(getpid())-\(attempt)"
            // Registered before it exists: a signal between open and registration leaves nothing.
            let slot = atk_interrupts_register(candidate)
            let fd = FileName.withCString(candidate) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644) }
            if fd >= 0 {
                temporaryPath = candidate
                descriptor = fd
                self.slot = slot
                break
            }
            let failure = errno
            atk_interrupts_unregister(slot)
            guard failure == EEXIST, attempt < 100 else { throw Refusal(description: "\(FileName.display(path)): cannot write: \(String(cString: strerror(failure)))") }
            attempt += 1
        }
        self.path = path
    }

    deinit {
        if !finished { discard() }
    }

    /// Refuses `path` when it names the same file as any of `inputs` (or an input's SQLite
    /// journal files), by device and inode, so links and relative paths do not hide it; and when
    /// it exists and is not a regular file (a device such as `/dev/stdout`, a FIFO, a folder,
    /// also behind a symbolic link), which the rename of ``commit(replacing:)`` would replace.
    public static func refuseIfInput(_ path: String, inputs: [String]) throws(Refusal) {
        var target = stat()
        guard FileName.withCString(path, { stat($0, &target) }) == 0 else { return }
        guard target.st_mode & S_IFMT == S_IFREG else {
            throw Refusal(description: "\(FileName.display(path)): exists and is \(RegularFile.kind(of: target.st_mode)), not a regular file; refusing to replace it (give a file path)",
                          isBadInvocation: true)
        }
        for input in inputs.flatMap({ [$0, $0 + "-wal", $0 + "-shm", $0 + "-journal"] }) {
            var other = stat()
            if FileName.withCString(input, { stat($0, &other) }) == 0, other.st_dev == target.st_dev, other.st_ino == target.st_ino {
                throw Refusal(description: "\(FileName.display(path)): is the input \(FileName.display(input)); refusing to write over it (give another output path)", isBadInvocation: true)
            }
        }
    }

    public func write(_ text: String) throws(Refusal) {
        try write(Array(text.utf8))
    }

    public func write(_ bytes: [UInt8]) throws(Refusal) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw failure("cannot write") }
            offset += written
        }
    }

    /// Flushes to disk and puts the file in place of `path`; with `replacing` false an existing
    /// `path` is kept and the commit refused (`link`, which never replaces, then `unlink`).
    public func commit(replacing: Bool = true) throws(Refusal) {
        if descriptor < 0 {
            // Written by another writer (closeForExternalWriter): flushed through a descriptor of its own.
            descriptor = FileName.withCString(temporaryPath) { open($0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
            guard descriptor >= 0 else { throw failure("cannot write") }
        }
        let synced = fsync(descriptor) == 0
        let closed = close(descriptor) == 0
        descriptor = -1
        guard synced, closed else { throw failure("cannot write") }
        let placed = FileName.withCString(temporaryPath) { from in
            FileName.withCString(path) { to in replacing ? rename(from, to) : link(from, to) }
        }
        guard placed == 0 else {
            let reason = errno == EEXIST && !replacing ? "exists (not overwritten)" : String(cString: strerror(errno))
            throw Refusal(description: "\(FileName.display(path)): cannot put in place: \(reason)\(replacing ? "; the previous file is unchanged" : "")")
        }
        if !replacing { _ = FileName.withCString(temporaryPath) { unlink($0) } }
        finished = true
        atk_interrupts_unregister(slot)
        syncFolder()
    }

    /// Closes the descriptor so another writer (libsndfile) can fill `temporaryPath` by name.
    public func closeForExternalWriter() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    /// Removes the temporary file; `path` is untouched.
    public func discard() {
        guard !finished else { return }
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        _ = FileName.withCString(temporaryPath) { unlink($0) }
        finished = true
        atk_interrupts_unregister(slot)
    }

    /// Writes `text` to `path` in one go, refusing inputs.
    public static func write(_ text: String, to path: String, inputs: [String]) throws(Refusal) {
        let file = try OutputFile(path, inputs: inputs)
        try file.write(text)
        try file.commit()
    }

    /// The failure of a write or flush, which leaves `path` as it was: the temporary is removed now.
    private func failure(_ what: String) -> Refusal {
        let reason = String(cString: strerror(errno))
        discard()
        return Refusal(description: "\(FileName.display(path)): \(what): \(reason); the file is as it was before")
    }

    /// Makes the rename durable: the folder's entry is flushed too (a crash after the command
    /// reported success must not bring the old file back).
    private func syncFolder() {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let fd = FileName.withCString(folder.isEmpty ? "/" : folder) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if fd >= 0 {
            _ = fsync(fd)
            close(fd)
        }
    }
}
