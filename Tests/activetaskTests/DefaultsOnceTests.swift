import Batch
import Foundation
import Scoring
import SensorData
import Testing
import TestSupport

/// Each parameter's default exists once, in its `Parameters` type: `score` without options,
/// `batch` without a configuration and the configuration example of docs/batch.md all state it.
@Suite struct DefaultsOnceTests {
    @Test("score without options and batch without a configuration key their results with the Parameters defaults of every analyzer")
    func scoreAndBatchUseTheDefaults() throws {
        let defaults = AnalyzerParameters()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let db = folder.path("r.sqlite")
        #expect(try Run(["batch", SharedData.sampleData.path, "--db", db, "--analyzers", Analyzer.allCases.map(\.rawValue).joined(separator: ",")]).status == 0)
        let rows = try Run(["batch", "export", "--db", db, "--jsonl"]).stdout.split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        var seen = Set<String>()
        for row in rows {
            let analyzer = try #require(Analyzer(rawValue: row["analyzer"] as? String ?? ""))
            let stored = try JSONSerialization.data(withJSONObject: row["parameters"] ?? [:], options: [.sortedKeys, .withoutEscapingSlashes])
            #expect(String(decoding: stored, as: UTF8.self) == defaults.canonical(analyzer), "batch \(analyzer)")
            guard seen.insert(analyzer.rawValue).inserted, let recording = row["recording"] as? String else { continue }
            let key = try #require(try Run(["score", analyzer.rawValue, "--json", recording]).json?["key"] as? [String: Any], "score \(analyzer)")
            #expect(key["parameters"] as? String == defaults.canonical(analyzer), "score \(analyzer)")
        }
        #expect(seen.count >= 6, "\(seen)")
    }

    @Test("every default the configuration example of docs/batch.md names (# default X) is the Parameters default, and the example itself is a valid configuration")
    func documentedExampleStatesTheDefaults() throws {
        let page = try String(contentsOf: SharedData.packageRoot.appendingPathComponent("docs/batch.md"), encoding: .utf8)
        let block = try #require(page.components(separatedBy: "```toml\n").dropFirst().first?.components(separatedBy: "```").first)
        let configuration = try BatchConfiguration.parse(toml: block, file: "docs/batch.md")
        #expect(configuration.parameters.voice.pitchFloorHz == 60)
        let defaults = AnalyzerParameters()
        var section: [String] = [], checked = 0
        for line in block.split(separator: "\n").map(String.init) {
            if line.hasPrefix("[") {
                section = String(line.dropFirst().prefix { $0 != "]" }).split(separator: ".").map(String.init)
                continue
            }
            guard let comment = line.range(of: "# default ") else { continue }
            let key = line.prefix { $0 != " " && $0 != "=" }
            let stated = line[comment.upperBound...].prefix { $0 != " " && $0 != ";" }
            let value = try #require(Analyzer(rawValue: section[0]).flatMap { defaults.section($0).value(at: Array(section.dropFirst()) + [String(key)]) }, "\(section) \(key)")
            switch value {
            case .number(let number): #expect(Double(stated) == number, "\(section).\(key): docs/batch.md says \(stated), Parameters \(number)")
            case .string(let text): #expect(stated == "\"\(text)\"", "\(section).\(key): docs/batch.md says \(stated), Parameters \(text)")
            case .bool(let flag): #expect(stated == "\(flag)", "\(section).\(key): docs/batch.md says \(stated), Parameters \(flag)")
            case .array: #expect(stated == JSONWriter().string(value), "\(section).\(key): docs/batch.md says \(stated), Parameters \(JSONWriter().string(value))")
            default: Issue.record("\(section).\(key): \(value)")
            }
            checked += 1
        }
        #expect(checked == 11)
    }
}
