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
/// archive. Every entry is written or none (``OutputFile/writeAll(_:inputs:)``): nothing existing is
/// overwritten, no link in the output folder is followed out of it, and a failure or a signal
/// leaves neither a torn file nor a temporary one.
struct Unpack: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unpack",
        abstract: "Write the files of a flattened archive (one JSON object of file name → content) into a folder.",
        discussion: "Each entry becomes one file of the same name holding its JSON content as the archive spells it. Every entry is written or none: names that would leave the output folder, an existing file of an entry's name (never overwritten) or a failed write leave the folder as it was. Exit status 3 for an unreadable, non-archive or unsafe input or a failed write."
    ).leaf()

    @Argument(help: "The flattened archive (e.g. PDScores' tapping.json).") var archive: String
    @Option(name: .long, help: "Output folder (created if missing).") var out: String

    func run() throws {
        let entries: [(name: String, bytes: [UInt8])]
        do throws(ReadError) {
            entries = try JSONContents.plainFileEntryBytes(FileBytes.read(archive), file: archive)
        } catch {
            throw CommandFailure(.invalidInput, error.description)
        }
        do { try FileSystem.makeDirectories(out) } catch { throw CommandFailure(.invalidInput, "\(FileName.display(out)): cannot create: \(error.reason)") }
        let paths = entries.map { (out as NSString).appendingPathComponent($0.name) }
        do {
            try OutputFile.writeAll(zip(paths, entries.map(\.bytes)).map { ($0, $1) }, inputs: [archive])
        } catch {
            throw CommandFailure(error.isBadInvocation ? .badInvocation : .invalidInput, error.description + "; nothing of \(FileName.display(archive)) was written")
        }
        for path in paths { try print(path) }
    }
}
