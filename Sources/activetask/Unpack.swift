import ArgumentParser
import Foundation
import Glibc
import InputGuards
import SensorData

/// `activetask unpack`: writes the entries of a flattened archive (docs/formats.md §8.4) as the files
/// of an upload folder, which `batch`, `score` and `info` read like any unpacked upload.
///
/// Entry names come from the input, so they are checked before anything is written: a name that
/// is not a plain file name (empty, `.`, `..`, or holding `/`, `\` or NUL) refuses the whole
/// archive. Every entry is written or none (``writeAll(_:inputs:)``): nothing existing is
/// overwritten, no link in the output folder is followed out of it, and a failure or a signal
/// leaves neither a torn file nor a temporary one.
struct Unpack: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unpack",
        abstract: "Write the files of a flattened archive (one JSON object of file name → content) into a folder.",
        discussion: "Each entry becomes one file of the same name holding its JSON content. Every entry is written or none: names that would leave the output folder, an existing file of an entry's name (never overwritten) or a failed write leave the folder as it was. Exit status 3 for an unreadable, non-archive or unsafe input or a failed write."
    )

    @Argument(help: "The flattened archive (e.g. PDScores' tapping.json).")
    var archive: String

    @Option(name: .long, help: "Output folder (created if missing).")
    var out: String

    func run() throws {
        let entries: [(name: String, value: JSONValue)]
        do throws(ReadError) {
            entries = try Self.entries(FileBytes.read(archive), file: archive)
        } catch {
            throw CommandFailure(.invalidInput, error.description)
        }
        do { try FileSystem.makeDirectories(out) } catch { throw CommandFailure(.invalidInput, "\(FileName.display(out)): cannot create: \(error.reason)") }
        let paths = entries.map { (out as NSString).appendingPathComponent($0.name) }
        do {
            try Self.writeAll(zip(paths, entries.map { JSONWriter(indent: 2).bytes($0.value) + [UInt8(ascii: "\n")] }).map { ($0, $1) }, inputs: [archive])
        } catch {
            throw CommandFailure(error.isBadInvocation ? .badInvocation : .invalidInput, error.description + "; nothing of \(FileName.display(archive)) was written")
        }
        for path in paths { try print(path) }
    }

    /// Writes every file or none: each to a temporary file beside its target (``OutputFile``),
    /// then each put in place without replacing anything; an existing target, a failed write (a
    /// full disk, a file-size limit) or a failed placement removes every temporary and every file
    /// this call placed, so the folder is as it was.
    static func writeAll(_ files: [(path: String, bytes: [UInt8])], inputs: [String]) throws(OutputFile.Refusal) {
        for (path, _) in files where FileSystem.statusIfAny(path) != nil {
            throw OutputFile.Refusal(description: "\(FileName.display(path)): exists (not overwritten)")
        }
        var pending: [OutputFile] = []
        for (path, bytes) in files {
            let file = try OutputFile(path, inputs: inputs)
            pending.append(file)
            try file.write(bytes)
        }
        var placed: [String] = []
        do {
            for file in pending {
                try file.commit(replacing: false)
                placed.append(file.path)
            }
        } catch {
            for path in placed { try? FileSystem.remove(path) }
            throw error
        }
    }

    /// The archive's entries in file order, every name checked.
    static func entries(_ bytes: [UInt8], file: String) throws(ReadError) -> [(name: String, value: JSONValue)] {
        let entries = try JSONContents.flattenedArchiveEntries(bytes, file: file)
        for (name, _) in entries where !isPlainFileName(name) {
            throw ReadError(file: file, reason: .invalidValue("entry name \(ReadError.quote(name)) is not a plain file name (no \"/\", \"\\\\\", NUL, \".\" or \"..\"); nothing written"))
        }
        return entries
    }

    /// A name that stays in its folder: not empty, not `.` or `..`, without `/`, `\` or NUL.
    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains(where: { $0 == "/" || $0 == "\\" || $0 == "\0" })
    }
}
