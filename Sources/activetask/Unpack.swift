import ArgumentParser
import Foundation
import Glibc
import SensorData

/// `activetask unpack`: writes the entries of a flattened archive (formats.md §8.4) as the files
/// of an upload folder, which `batch`, `score` and `info` read like any unpacked upload.
///
/// Entry names come from the input, so they are checked before anything is written: a name that
/// is not a plain file name (empty, `.`, `..`, or holding `/`, `\` or NUL) refuses the whole
/// archive. Files are created with `O_EXCL | O_NOFOLLOW`: nothing existing is overwritten and no
/// link in the output folder is followed out of it.
struct Unpack: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unpack",
        abstract: "Write the files of a flattened archive (one JSON object of file name → content) into a folder.",
        discussion: "Each entry becomes one file of the same name holding its JSON content. Names that would leave the output folder refuse the archive before anything is written; existing files are never overwritten. Exit status 3 for an unreadable, non-archive or unsafe input."
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
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var failed = false
        for (name, value) in entries {
            let path = (out as NSString).appendingPathComponent(name)
            let bytes = JSONWriter(indent: 2).bytes(value) + [UInt8(ascii: "\n")]
            if let problem = Self.create(path, bytes) {
                printError("\(path): \(problem); entry \"\(name)\" of \(archive) not written")
                failed = true
            } else {
                print(path)
            }
        }
        if failed { throw CommandFailure(.invalidInput) }
    }

    /// The archive's entries in file order, every name checked.
    static func entries(_ bytes: [UInt8], file: String) throws(ReadError) -> [(name: String, value: JSONValue)] {
        let layout = try JSONContents.decode(bytes, file: file).layout
        guard case .flattenedArchive = layout, case .object(let object) = try JSONValue.parse(bytes, file: file) else {
            throw ReadError(file: file, reason: .unrecognisedLayout("not a flattened archive (this is a \(layout.name))"))
        }
        for name in object.keys where !isPlainFileName(name) {
            throw ReadError(file: file, reason: .invalidValue("entry name \(ReadError.quote(name)) is not a plain file name (no \"/\", \"\\\\\", NUL, \".\" or \"..\"); nothing written"))
        }
        return Array(zip(object.keys, object.values))
    }

    /// A name that stays in its folder: not empty, not `.` or `..`, without `/`, `\` or NUL.
    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains(where: { $0 == "/" || $0 == "\\" || $0 == "\0" })
    }

    /// Creates `path` (never an existing file, never through a link) with `bytes`; the problem, or nil.
    static func create(_ path: String, _ bytes: [UInt8]) -> String? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return errno == EEXIST ? "exists (not overwritten)" : String(cString: strerror(errno)) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return "write failed: \(String(cString: strerror(errno)))" }
            written += n
        }
        return nil
    }
}
