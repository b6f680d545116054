import Foundation
import Testing
import TestSupport

/// Every command's `--help`, as written, against `Snapshots/help/` (regenerate after a deliberate
/// change with `ATK_UPDATE_SNAPSHOTS=1 swift test --filter HelpSnapshotTests`, then review the diff).
@Suite struct HelpSnapshotTests {
    static let folder = SharedData.packageRoot.appendingPathComponent("Tests/activetaskTests/Snapshots/help")

    /// Every command path (`[]`, `["score"]`, `["score", "gait"]`, …), from the SUBCOMMANDS of each help.
    static func commands(_ path: [String] = []) throws -> [[String]] {
        let help = try Run(path + ["--help"]).stdout
        guard path.count < 4, let section = help.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first?.components(separatedBy: "\n\n").first else {
            return [path]
        }
        // Lines "  name   abstract…" (continuations are indented further); the list ends at its blank line.
        let names = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first,
                name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }), name != "help" else { return nil }
            return String(name)
        }
        return try [path] + names.flatMap { try commands(path + [$0]) }
    }

    static func file(_ path: [String]) -> URL { folder.appendingPathComponent((["activetask"] + path).joined(separator: "-") + ".txt") }

    @Test("each command's --help equals its snapshot, and each snapshot is a command's")
    func snapshots() throws {
        let commands = try Self.commands()
        #expect(commands.count >= 26 && commands.contains(["score", "gait"]) && commands.contains(["batch", "export"]), "\(commands)")
        let update = ProcessInfo.processInfo.environment["ATK_UPDATE_SNAPSHOTS"] == "1"
        if update { try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true) }
        for path in commands {
            let help = try Run(path + ["--help"]).stdout
            if update {
                try Data(help.utf8).write(to: Self.file(path))
                continue
            }
            let snapshot = try? String(contentsOf: Self.file(path), encoding: .utf8)
            #expect(snapshot == help, "activetask \(path.joined(separator: " ")) --help differs from \(Self.file(path).lastPathComponent)")
        }
        let files = Set((try? FileManager.default.contentsOfDirectory(atPath: Self.folder.path)) ?? [])
        #expect(files == Set(commands.map { Self.file($0).lastPathComponent }), "stale or missing snapshots")
    }

    /// `ActiveTask.parsed` parses a command named by subcommands alone as a root of its own,
    /// which gives the same values only while the commands above it take no options.
    @Test("a command with subcommands has no options of its own: --version and --help only")
    func groupsHaveNoOptions() throws {
        var groups = 0
        for path in try Self.commands() {
            let help = try Run(path + ["--help"]).stdout
            guard help.contains("SUBCOMMANDS:\n") else { continue }
            groups += 1
            let options = help.components(separatedBy: "OPTIONS:\n").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
            let flags = options.split(separator: "\n").filter { $0.hasPrefix("  -") }.map { $0.split(separator: " ").prefix { $0.hasPrefix("-") }.joined(separator: " ") }
            #expect(flags == ["--version"] || flags == ["--version", "-h, --help"] || flags == ["-h, --help"], "activetask \(path.joined(separator: " ")): \(flags)")
        }
        #expect(groups >= 5)
    }
}
