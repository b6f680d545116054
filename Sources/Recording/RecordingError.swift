import InputGuards
import Glibc

/// Why a recording step failed: the file (or source) and what went wrong.
public struct RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// A system call failed; the text is `strerror(errno)`.
        case system(call: String, message: String)
        /// A sample that cannot be written (NaN in a required field, …).
        case sample(String)
        /// A source line that cannot be parsed, with its 1-based line number.
        case source(line: Int, message: String)
        /// The recorder was used after `stop()`.
        case stopped
    }

    public var file: String
    public var reason: Reason

    public init(file: String, reason: Reason) {
        self.file = file
        self.reason = reason
    }

    /// The current `errno` as a system-call failure of `call`.
    /// A failure of the file-system layer, as the recording's error.
    static func system(_ failure: FileSystem.Failure) -> RecordingError {
        RecordingError(file: failure.path, reason: .system(call: failure.operation, message: failure.reason))
    }

    public var description: String {
        switch reason {
        case .system(let call, let message): "\(file): \(call) failed: \(message)"
        case .sample(let message): "\(file): \(message)"
        case .source(let line, let message): "\(file):\(line): \(message)"
        case .stopped: "\(file): the recorder is stopped"
        }
    }
}
