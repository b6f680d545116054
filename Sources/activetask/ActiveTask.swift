import ArgumentParser
import Foundation
import InputGuards

/// `activetask`: records and analyses ResearchKit active-task data (docs/cli.md,
/// "Exit status, errors and renamed options"). Exit status: 0 success, 1 analysed but unusable, 2 bad invocation,
/// 3 unreadable or invalid input, 4 its own output (standard output or error) could not be written.
@main
struct ActiveTask: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activetask",
        abstract: "Record and analyse the sensor data of ResearchKit active tasks.",
        version: "0.1.0",
        subcommands: [Info.self, ScoreCommand.self, BatchCommand.self, Report.self, Unpack.self, Record.self, Calibrate.self, Tone.self, HearingTestCommand.self, AudiometryCommand.self, Evaluate.self, GenerateSamples.self, GenerateCorpus.self]
    )

    static func main() async {
        do { try ProcessSetup.prepare { peak in printError("peak resident memory \(peak.map(String.init) ?? "unknown") MB") } } catch {
            printError(error.description)
            Foundation.exit(CommandFailure.Status.invalidInput.rawValue)
        }
        do {
            // File names are bytes: arguments are decoded losslessly (FileName), not repaired to U+FFFD.
            let given = (1..<Int(CommandLine.argc)).compactMap { CommandLine.unsafeArgv[$0].map { FileName.string(cString: $0) } }
            let (arguments, notes) = DeprecatedSpellings.rewrite(NegativeOptionValues.joined(given))
            for note in notes { printError(note) }
            // Answered before any parse: ArgumentParser's own answer builds the help of every
            // command first (`--version` 6.84 ms instead of 3.97, Benchmarks/README.md "Start-up").
            if arguments == ["--version"] {
                try print(configuration.version)
                return
            }
            var command = try parsed(arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            if let failure = StandardStream.errorFailure { Foundation.exit(CommandFailure(failure).status.rawValue) }
        } catch let failure as CommandFailure {
            // The one place a failure becomes a message and an exit status.
            if let message = failure.message { printError(message) }
            Foundation.exit(StandardStream.errorFailure == nil ? failure.status.rawValue : CommandFailure.Status.outputFailed.rawValue)
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                do { try print(fullMessage(for: error)) } catch {
                    printError(error.message ?? "")
                    Foundation.exit(error.status.rawValue)
                }
                Foundation.exit(0)
            }
            // Usage errors: the contract's status 2 instead of sysexits' 64.
            StandardStream.writeError(TerminalText.escaped(fullMessage(for: error), keepingLineBreaks: true) + "\n")
            if StandardStream.errorFailure != nil { Foundation.exit(CommandFailure.Status.outputFailed.rawValue) }
            Foundation.exit(code == .validationFailure ? CommandFailure.Status.badInvocation.rawValue : code.rawValue)
        }
    }

    /// The command `arguments` name, parsed. One reached through subcommand names alone (`score
    /// spl …`) is parsed as a root of its own first: a parse from the top builds the argument sets
    /// of the commands above it and their subcommands (reflection and conformance look-ups, a
    /// third of `score spl` on 1 s of sound: docs/cli.md, "Start-up"), and no command with
    /// subcommands has options of its own (HelpSnapshotTests). Whatever that parse does not
    /// accept — help, a mistake, a built-in flag — is parsed again from the top, so every
    /// message and usage line is the whole command's.
    static func parsed(_ arguments: [String]) throws -> any ParsableCommand {
        var command: any ParsableCommand.Type = Self.self
        var rest = arguments[...]
        while let name = rest.first, let next = command.configuration.subcommands.first(where: { $0._commandName == name }) {
            command = next
            rest = rest.dropFirst()
        }
        // A request for help parses as ArgumentParser's help command, not as `command`.
        if command != Self.self, command.configuration.subcommands.isEmpty,
           let leaf = try? command.parseAsRoot(Array(rest)), type(of: leaf) == command {
            return leaf
        }
        return try parseAsRoot(arguments)
    }
}

/// Writes one line to standard error, with the options that set the parameters it names. The
/// message quotes data (names, fields), so it is escaped whole (``TerminalText``): one line, and
/// nothing in it acts on a terminal.
/// A failed write is kept for the exit status (``StandardStream/writeError(_:)``).
func printError(_ message: String) {
    StandardStream.writeError("activetask: " + TerminalText.escaped(CommandFailure.withOptionHints(message)) + "\n")
}

/// Every `print` of this tool goes here (it shadows `Swift.print` in the module): the text is
/// escaped (``TerminalText``), keeping the line breaks and tabs of its layout, so no data field
/// printed to stdout — a path, a category, a table cell — acts on the terminal that shows it.
/// A write that fails (a full disk, a closed descriptor, a reader gone) ends the command with
/// status 4 (``CommandFailure/Status/outputFailed``).
func print(_ text: String, terminator: String = "\n") throws(CommandFailure) {
    do { try StandardStream.output.write(TerminalText.escaped(text, keepingLineBreaks: true) + terminator) } catch {
        throw CommandFailure(error)
    }
}

extension CommandConfiguration {
    /// The configuration of a command without subcommands. ``ActiveTask/parsed(_:)`` parses such a
    /// command as a root of its own first, and a root command's parse looks for a completion-script
    /// request by parsing two more commands by reflection (a fifth of `score spl`'s CPU time on
    /// 1 s of sound, docs/cli.md "Start-up"). Named as a pseudo-command of `activetask` it skips
    /// that; such a request fails the leaf's parse and is answered by the parse from the top, as
    /// are help and every error. The name is shown only when the command is a help text's root,
    /// which it never is.
    func leaf() -> CommandConfiguration {
        var configuration = self
        configuration._superCommandName = "activetask"
        return configuration
    }
}
