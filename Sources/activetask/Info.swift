import InputGuards
import ArgumentParser
import Batch
import Scoring
import Foundation
import SensorData

/// `activetask info FILE…`: what each file is.
struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Say what each file is: kind, dialect, samples, duration, rate, channels, and what results contain.",
        discussion: "Folders are expanded to the files under them. Exit status 3 if any file is unreadable or invalid."
    )

    @Flag(name: .long, help: "Print one JSON object instead of a table.")
    var json = false

    @Flag(name: .long, help: "Keep the complete items before a torn tail (a recording killed mid-write), with a warning.")
    var lenient = false

    @OptionGroup var limits: FileLimitOptions

    @Argument(help: "Files or folders to describe.")
    var paths: [String]

    func run() throws {
        try limits.applied { try describeAll() }
    }

    private func describeAll() throws {
        var descriptions: [FileDescription] = []
        let (files, refused) = expand(paths)
        var failures = refused.map { (file: $0.path, message: "\(FileName.display($0.path)): \($0.reason)") }
        for failure in failures { printError(failure.message) }
        for path in files {
            do {
                descriptions.append(try FileDescription.describe(path, lenient: lenient))
            } catch {
                let message = String(describing: error)
                failures.append((path, message))
                printError(message)
            }
        }
        if json {
            var root = JSONObject()
            root.append("files", .array(descriptions.map(\.jsonValue)))
            root.append("errors", .array(failures.map { .object(JSONObject(["file": .string($0.file), "error": .string($0.message)])) }))
            try print(JSONWriter(indent: 2).string(.object(root)))
        } else {
            for description in descriptions { try print(description.table, terminator: "") }
        }
        if !failures.isEmpty { throw CommandFailure(.invalidInput) }
    }

    /// Files as given; folders replaced by the regular files under them, sorted, and what a
    /// folder walk refused (folders that cannot be listed, FIFOs, sockets, devices).
    private func expand(_ paths: [String]) -> (files: [String], refused: [(path: String, reason: String)]) {
        var files: [String] = []
        var refused: [(path: String, reason: String)] = []
        for path in paths {
            guard FileSystem.statusIfAny(path)?.isDirectory == true else {
                files.append(path)
                continue
            }
            let found = Discovery.files(under: path, includeHidden: true)
            files += found.files
            refused += found.refused
        }
        return (files, refused)
    }
}

extension FileDescription {
    var jsonValue: JSONValue {
        var object = JSONObject()
        object.append("file", .string(file))
        object.append("kind", .string(kind))
        object.append("dialect", dialect.map { .string($0) } ?? .null)
        object.append("samples", samples.map { .number(Double($0)) } ?? .null)
        object.append("durationSeconds", durationSeconds.map { .number($0) } ?? .null)
        object.append("samplingRateHz", samplingRateHz.map { .number($0) } ?? .null)
        object.append("channels", channels.map { .number(Double($0)) } ?? .null)
        object.append("contents", .array(contents.map { .string($0) }))
        if !parts.isEmpty { object.append("parts", .array(parts.map(\.jsonValue))) }
        object.append("warnings", .array(warnings.map { .string($0) }))
        return .object(object)
    }

    /// Readable block: the file, then one aligned row per property.
    var table: String {
        var rows: [(String, String)] = [("kind", kind)]
        if let dialect { rows.append(("dialect", dialect)) }
        if let samples { rows.append(("samples", String(samples))) }
        if let durationSeconds { rows.append(("duration", Self.format(durationSeconds) + " s")) }
        if let samplingRateHz { rows.append(("rate", Self.format(samplingRateHz) + " Hz")) }
        if let channels { rows.append(("channels", String(channels))) }
        rows += contents.map { ("contains", $0) }
        rows += warnings.map { ("warning", $0) }
        // Every field is data (a file name, an info.json field): escaped so it can neither act on
        // the terminal nor forge a line of this table.
        var text = TerminalText.escaped(FileName.display(file)) + "\n"
        for (key, value) in rows { text += "  " + key.padding(toLength: 9, withPad: " ", startingAt: 0) + " " + TerminalText.escaped(value) + "\n" }
        for part in parts {
            text += part.table.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .enumerated().map { $0.offset == 0 ? "  ▸ part: \($0.element.replacingOccurrences(of: file + " › ", with: ""))" : "  " + $0.element }
                .joined(separator: "\n") + "\n"
        }
        return parts.isEmpty ? text + "\n" : text
    }

    static func format(_ value: Double) -> String {
        String(format: "%.3f", value)
    }
}
