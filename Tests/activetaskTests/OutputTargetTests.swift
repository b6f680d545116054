import Foundation
import Glibc
import Testing
import TestSupport

/// The command's own output when it cannot go where it was sent: standard output or error full
/// (`/dev/full`) or closed is exit status 4 with a message (never a trap, never exit 0 with the
/// output lost); an output path that exists and is not a regular file is refused, never
/// replaced (docs/reliability.md § Output that cannot be written, § Outputs that are not files).
@Suite struct OutputTargetTests {
    static let tapping = SharedData.sampleData.appendingPathComponent("tapping_results.json").path

    /// `sh -c` running the executable with `redirection` applied to it.
    static func launcher(_ redirection: String) -> [String] { ["/bin/sh", "-c", "exec \"$0\" \"$@\" \(redirection)"] }

    @Test("stdout to /dev/full or closed: status 4 and a message naming standard output", arguments: [
        (["info", tapping], ">/dev/full"), (["score", "tapping", tapping, "--json"], ">/dev/full"), (["score", "tapping", tapping], ">&-"),
        (["--help"], ">/dev/full"), (["info", tapping], ">&-"), (["--version"], ">/dev/full"),
    ])
    func standardOutput(arguments: [String], redirection: String) throws {
        let run = try Run(arguments, launcher: Self.launcher(redirection))
        #expect(run.status == 4, "\(arguments) \(redirection): \(run.status) \(run.stderr)")
        #expect(run.stderr.contains("cannot write to standard output"), "\(run.stderr)")
    }

    @Test("--version: one line, major.minor.patch, status 0; with anything after it ArgumentParser answers the same")
    func version() throws {
        let run = try Run(["--version"])
        #expect(run.status == 0 && run.stderr.isEmpty && run.stdout.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+\n/) != nil, "\(run.status) \(run.stdout) \(run.stderr)")
        let parsed = try Run(["--version", "--version"])
        #expect(parsed.status == 0 && parsed.stdout == run.stdout, "\(parsed.status) \(parsed.stdout) \(parsed.stderr)")
    }

    @Test("stderr to /dev/full: a failure whose message cannot be written ends with status 4; a command that writes nothing there succeeds")
    func standardError() throws {
        let failing = try Run(["info", "/nonexistent/file.json"], launcher: Self.launcher("2>/dev/full"))
        #expect(failing.status == 4, "\(failing.status)")
        let quiet = try Run(["info", Self.tapping], launcher: Self.launcher("2>/dev/full"))
        #expect(quiet.status == 0, "nothing was written to stderr, so nothing failed: \(quiet.status)")
    }

    @Test("an output path that exists and is a device, a FIFO or a folder is refused (status 2) and left as it was", arguments: ["fifo", "folder", "/dev/null"])
    func outputsThatAreNotFiles(kind: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target: String
        switch kind {
        case "fifo":
            target = folder.path("out.fifo")
            #expect(mkfifo(target, 0o600) == 0)
        case "folder":
            target = folder.path("out")
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        default:
            target = kind
        }
        let before = try #require(FileSystemStatus(target))
        for arguments in [["tone", "--frequency", "1000", "--level-dbfs", "-20", "--duration", "0.1", "--out", target],
                          ["score", "tapping", Self.tapping, "--html", target]] {
            let run = try Run(arguments)
            #expect(run.status == 2, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("not a regular file"), "\(run.stderr)")
            #expect(FileSystemStatus(target) == before, "\(target) was replaced")
        }
    }

    @Test("a score's extra output in a folder that does not exist ends the command before the analysis: status 3, the path named, no report printed, nothing left behind")
    func outputsThatCannotBeCreated() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = folder.path("missing/out")
        let voice = SharedData.sampleData.appendingPathComponent("voice_aaah.wav").path
        let audiogram = SharedData.sampleData.appendingPathComponent("dbhl_tone_audiometry_result.json").path
        for arguments in [["score", "voice", voice, "--egemaps-lld", missing], ["score", "voice", voice, "--html", missing],
                          ["score", "audiometry", audiogram, "--svg", missing], ["score", "tapping", Self.tapping, "--json", "--html", missing]] {
            let run = try Run(arguments)
            #expect(run.status == 3 && run.stderr.contains("\(missing): cannot write: No such file or directory"), "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments): the report was printed before the output failed: \(run.stdout.prefix(200))")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("two of a score's outputs in one file (the same path, or another spelling of it) are refused before anything is written: status 2, both options named, an existing file left as it was")
    func outputsInOneFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let voice = SharedData.sampleData.appendingPathComponent("voice_aaah.wav").path
        let audiogram = SharedData.sampleData.appendingPathComponent("dbhl_tone_audiometry_result.json").path
        let target = try folder.write("out", Array("kept".utf8))
        for arguments in [["score", "voice", voice, "--html", target, "--egemaps-lld", target],
                          ["score", "voice", voice, "--html", target, "--egemaps-lld", folder.path("./sub/../out")],
                          ["score", "audiometry", audiogram, "--html", target, "--svg", target]] {
            try FileManager.default.createDirectory(atPath: folder.path("sub"), withIntermediateDirectories: true)
            let run = try Run(arguments)
            let options = arguments.filter { $0.hasPrefix("--") }
            #expect(run.status == 2 && run.stderr.contains("named by both \(options[0]) and \(options[1])"), "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stdout.isEmpty && (try? String(contentsOfFile: target, encoding: .utf8)) == "kept", "\(arguments)")
        }
    }
}

/// The kind, device and inode of a path (nil: none), to see that it was not replaced.
private struct FileSystemStatus: Equatable {
    var mode: mode_t
    var device: UInt64
    var inode: UInt64

    init?(_ path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        (mode, device, inode) = (status.st_mode & S_IFMT, UInt64(status.st_dev), UInt64(status.st_ino))
    }
}
