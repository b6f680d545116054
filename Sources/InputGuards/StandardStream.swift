import Glibc
import Synchronization

/// Standard output and standard error as the toolkit writes them: every byte through
/// ``FileSystem/write(_:path:_:)``, unbuffered, so a write that fails — a full disk or
/// `/dev/full`, a closed descriptor, a reader that went away (EPIPE; the executable ignores
/// SIGPIPE) — is an error the command turns into its exit status (docs/reliability.md § Output
/// that cannot be written). Foundation's `FileHandle.write` traps on such a failure, and stdio's
/// buffer is flushed at exit where a failure is not reported: neither is used.
public enum StandardStream: Sendable {
    case output
    case error

    public var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }
    public var name: String { self == .output ? "standard output" : "standard error" }

    /// Writes all of `text`.
    public func write(_ text: String) throws(FileSystem.Failure) {
        var failure: FileSystem.Failure?
        Array(text.utf8).withUnsafeBytes { bytes in
            do throws(FileSystem.Failure) { try FileSystem.write(descriptor, path: name, bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes `text` to standard error; a failure is kept (``errorFailure``) for the exit status,
    /// since there is nowhere left to report it.
    public static func writeError(_ text: String) {
        do { try StandardStream.error.write(text) } catch {
            _ = firstErrorCode.compareExchange(expected: 0, desired: error.code, ordering: .relaxed)
        }
    }

    /// The first write to standard error that failed, if any.
    public static var errorFailure: FileSystem.Failure? {
        let code = firstErrorCode.load(ordering: .relaxed)
        return code == 0 ? nil : FileSystem.Failure(operation: "write", path: StandardStream.error.name, code: code)
    }

    private static let firstErrorCode = Atomic<Int32>(0)
}
