import Foundation
import Testing
import TestSupport

/// Library errors name parameters, never this tool's flags (issue 17, item 7): the command line
/// adds its options to a message in one place (`CommandFailure.withOptionHints`).
@Suite struct LibraryMessageTests {
    @Test("no string literal in a library module names a command-line flag (--name), other than swift build's --traits")
    func noFlagsInLibraries() throws {
        let sources = SharedData.packageRoot.appendingPathComponent("Sources")
        let libraries = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { !["activetask"].contains($0) && !$0.hasPrefix("C") }
        #expect(libraries.count >= 9)
        let flag = try Regex(#""[^"\n]*[ (]--[a-z][a-z-]+[^"\n]*""#)
        var found: [String] = []
        for library in libraries {
            let folder = sources.appendingPathComponent(library)
            guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where !line.trimmingCharacters(in: .whitespaces).hasPrefix("///") && !line.contains("--traits") {
                    if line.contains(flag) { found.append("\(library)/\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))") }
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("the command line names its options beside the parameters a message names")
    func optionHints() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let csv = try folder.write("t.csv", "a,b,c,d\n1,2,3,4\n2,3,4,5\n")
        let run = try CommandAttackTests.run(["score", "gait", csv, "--time-column", "nope", "--x-column", "b", "--y-column", "c", "--z-column", "d"])
        #expect(run.status == 3 && run.stderr.contains(#"timeColumn "nope" names no column"#) && run.stderr.contains("[options: --time-column]"), "\(run.stderr)")
    }
}
