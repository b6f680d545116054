import ArgumentParser
import Foundation
import InputGuards
import Scoring

/// How a command ends unsuccessfully: the contract's status and the message for stderr. Every
/// command throws these (or library errors, mapped by ``init(_:)``); `ActiveTask.main` alone
/// prints the message and exits with the status.
struct CommandFailure: Error {
    /// The exit statuses of the command-line contract (docs/cli.md, "Exit status, errors and renamed options").
    enum Status: Int32 {
        /// Analysed, but the recording is unusable.
        case unusable = 1
        /// The request does not fit (options, an output that is an input).
        case badInvocation = 2
        /// Unreadable or invalid input.
        case invalidInput = 3
        /// The command's own output (standard output or standard error) could not be written.
        case outputFailed = 4
    }

    var status: Status
    /// Printed to stderr (nil: already said).
    var message: String?

    init(_ status: Status, _ message: String? = nil) {
        self.status = status
        self.message = message
    }

    /// A write to standard output or standard error that failed.
    init(_ failure: FileSystem.Failure) {
        self.init(.outputFailed, "cannot write to \(failure.path): \(failure.reason)")
    }

    /// A scoring error: bad invocation (2) or invalid input (3).
    init(_ error: ScoringError) {
        self.init(error.status == .badInvocation ? .badInvocation : .invalidInput, error.description)
    }

    /// What a library error names as a parameter, as this tool's option: library messages name
    /// parameters (`timeColumn`), never flags; the hint is added here, once, for every message.
    static let optionHints: [(parameter: String, option: String)] = [
        ("FileBytes.maximumBytes", "--max-file-bytes"), ("maximumSamples", "--maximum-samples (score voice) or --max-voice-samples (batch)"),
        ("timeColumn", "--time-column"), ("xColumn", "--x-column"), ("yColumn", "--y-column"), ("zColumn", "--z-column"),
        ("timeUnit", "--time-unit"), ("accelerationUnit", "--acceleration-unit"), ("oxford layout", "--oxford"),
        ("sampleRateHz", "--sample-rate"), ("channels)", "--channels"), ("step identifier", "--identifier"), ("data rows", "--row"),
        ("parameter channel", "--channel"), ("microphoneCalibration", "--mic-calibration"), ("microphone has no calibration", "--mic-calibration"), ("no microphone:", "--mic"),
    ]

    /// `message` with the options that set the parameters it names, when there are any.
    static func withOptionHints(_ message: String) -> String {
        let options = optionHints.filter { message.contains($0.parameter) }.map(\.option)
        return options.isEmpty ? message : message + " [options: " + options.joined(separator: ", ") + "]"
    }
}
