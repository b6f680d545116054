import ArgumentParser
import Foundation
import Glibc

/// A command's output file, written so nothing is lost or destroyed (architecture.md): the bytes
/// go to a new temporary file beside the target (`O_EXCL`, never through a link) and replace the
/// target by `rename` only when complete, so a failing or killed command leaves the previous
/// output as it was and never a file that looks complete; and a target that is one of the
/// command's inputs (the same file by device and inode, whatever the path) is refused before
/// anything is written.
final class OutputFile {
    let path: String
    /// Where the bytes go until `commit()`.
    let temporaryPath: String
    private var descriptor: Int32
    private var committed = false

    struct Refusal: Error, CustomStringConvertible {
        var description: String
        /// The output is one of the inputs: a bad invocation (exit 2), not a failed write (3).
        var isInput = false

        var failure: CommandFailure { CommandFailure(isInput ? .badInvocation : .invalidInput, description) }
    }

    /// Refuses `path` if it is one of `inputs`; creates the temporary file.
    init(_ path: String, inputs: [String]) throws(Refusal) {
        try Self.refuseIfInput(path, inputs: inputs)
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var attempt = 0
        while true {
            let candidate = (folder.isEmpty ? "" : folder + "/") + ".\(name).partial-\(getpid())-\(attempt)"
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 {
                temporaryPath = candidate
                descriptor = fd
                break
            }
            guard errno == EEXIST, attempt < 100 else { throw Refusal(description: "\(path): cannot write: \(String(cString: strerror(errno)))") }
            attempt += 1
        }
        self.path = path
    }

    deinit {
        if !committed { discard() }
    }

    /// Refuses `path` when it names the same file as any of `inputs` (or an input's SQLite
    /// journal files), by device and inode, so links and relative paths do not hide it.
    static func refuseIfInput(_ path: String, inputs: [String]) throws(Refusal) {
        var target = stat()
        guard stat(path, &target) == 0 else { return }
        for input in inputs.flatMap({ [$0, $0 + "-wal", $0 + "-shm", $0 + "-journal"] }) {
            var other = stat()
            if stat(input, &other) == 0, other.st_dev == target.st_dev, other.st_ino == target.st_ino {
                throw Refusal(description: "\(path): is the input \(input); refusing to write over it (give another output path)", isInput: true)
            }
        }
    }

    func write(_ text: String) throws(Refusal) {
        try write(Array(text.utf8))
    }

    func write(_ bytes: [UInt8]) throws(Refusal) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw Refusal(description: "\(path): cannot write: \(String(cString: strerror(errno))); the previous file is unchanged") }
            offset += written
        }
    }

    /// Flushes to disk and puts the file in place of `path`.
    func commit() throws(Refusal) {
        if descriptor >= 0 {
            guard fsync(descriptor) == 0, close(descriptor) == 0 else {
                descriptor = -1
                throw Refusal(description: "\(path): cannot write: \(String(cString: strerror(errno))); the previous file is unchanged")
            }
            descriptor = -1
        }
        guard rename(temporaryPath, path) == 0 else {
            throw Refusal(description: "\(path): cannot replace: \(String(cString: strerror(errno))); the previous file is unchanged")
        }
        committed = true
    }

    /// Closes the descriptor so another writer (libsndfile) can fill `temporaryPath` by name.
    func closeForExternalWriter() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    /// Removes the temporary file; `path` is untouched.
    func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(temporaryPath)
    }

    /// ``refuseIfInput(_:inputs:)`` with the error printed and its exit status thrown.
    static func refuseIfInputOrExit(_ path: String, inputs: [String]) throws {
        do { try refuseIfInput(path, inputs: inputs) } catch {
            throw error.failure
        }
    }

    /// Writes `text` to `path` in one go (refusing inputs); errors name the file and exit 3.
    static func write(_ text: String, to path: String, inputs: [String]) throws {
        do {
            let file = try OutputFile(path, inputs: inputs)
            try file.write(text)
            try file.commit()
        } catch {
            throw error.failure
        }
    }
}
