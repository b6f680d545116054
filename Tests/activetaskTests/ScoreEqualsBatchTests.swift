import Foundation
import Scoring
import Testing
import TestSupport

/// `score` is a batch of one: the same parameters (defaults, a configuration, options) give the
/// same features, warnings and result key as the row a batch stores.
@Suite struct ScoreEqualsBatchTests {
    /// Non-default values in every analyzer's section, so a default kept anywhere but in the
    /// `Parameters` types would show.
    static let configuration = """
        [batch]
        analyzers = ["tapping", "gait", "balance", "spl", "voice", "loudness", "audiometry", "rangeOfMotion", "walkTest", "tremor", "heartRate"]
        audio = "both"
        [tapping]
        depressThreshold = 15
        [gait.analysis]
        minimumBoutSeconds = 4
        [balance.analysis]
        gravityCutoffHz = 0.25
        [spl]
        calibrationOffsetDecibels = 110
        thresholdDecibels = 40
        [voice]
        pitchFloorHz = 70
        [loudness]
        countIdenticalChannelsOnce = true
        [audiometry]
        tables = "rk-3.0"
        [rangeOfMotion]
        orientation = "landscape"
        [walkTest]
        maximumHorizontalAccuracyMeters = 30
        [tremor.analysis]
        gravityCutoffHz = 0.4
        [heartRate.analysis]
        windowSeconds = 8
        [gait]
        mhealthtools = false
        """

    @Test("for all eleven analyzers, score --json --config on each file equals that recording's batch row with the same configuration: features, warnings, kind, dialect and the key (content, analyzer version, parameters)")
    func scoreEqualsBatch() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let samples = folder.path("samples")
        try FileManager.default.copyItem(atPath: SharedData.sampleData.path, toPath: samples)
        // A rest recording, so that balance has a file: the walk's accelerometer named as a rest part.
        let walk = try #require(try FileManager.default.contentsOfDirectory(atPath: samples).first { $0.hasPrefix("accel_") })
        // (A trailing newline: other bytes, so a recording of its own, not a second path of the walk's content.)
        try (Data(contentsOf: URL(fileURLWithPath: "\(samples)/\(walk)")) + Data("\n".utf8)).write(to: URL(fileURLWithPath: "\(samples)/accel_walking.rest.json"))
        let config = try folder.write("c.toml", Self.configuration)
        let db = folder.path("r.sqlite")
        let batch = try Run(["batch", samples, "--db", db, "--config", config])
        #expect(batch.status == 0, "\(batch.stderr)")
        let export = try Run(["batch", "export", "--db", db, "--jsonl"])
        let rows = export.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(Set(rows.compactMap { $0["analyzer"] as? String }) == Set(Analyzer.allCases.map(\.rawValue)), "every analyzer has a row")
        for row in rows {
            let analyzer = try #require(row["analyzer"] as? String), recording = try #require(row["recording"] as? String)
            let parameters = try #require(row["parameters"] as? [String: Any])
            var arguments = ["score", analyzer, "--json", "--config", config, recording]
            if analyzer == "audiometry", let line = parameters["row"] as? Int { arguments += ["--row", "\(line)"] }
            let score = try Run(arguments)
            let status = row["status"] as? String
            #expect(score.status == (status == "unusable" ? 1 : 0), "\(analyzer) \(recording): \(score.stderr)")
            let scored = try #require(score.json, "\(analyzer) \(recording): \(score.stdout.prefix(200))")
            let what = "\(analyzer) \(URL(fileURLWithPath: recording).lastPathComponent)"
            #expect(Self.canonical(scored["features"]) == Self.canonical(row["features"]), "\(what): features")
            #expect(scored["warnings"] as? [String] == row["warnings"] as? [String], "\(what): warnings")
            #expect(scored["kind"] as? String == row["kind"] as? String && scored["dialect"] as? String == row["dialect"] as? String, "\(what)")
            let key = try #require(scored["key"] as? [String: Any], "\(what): no key")
            #expect(key["contentSHA256"] as? String == row["content_sha256"] as? String, "\(what): content")
            #expect(key["analyzerVersion"] as? String == row["analyzer_version"] as? String, "\(what): version")
            let scoredParameters = try JSONSerialization.jsonObject(with: Data(try #require(key["parameters"] as? String).utf8))
            #expect(Self.canonical(scoredParameters) == Self.canonical(parameters), "\(what): parameters \(key["parameters"] ?? "")")
        }
        // The configuration's values reached the keys (not the defaults).
        #expect(rows.contains { ($0["parameters"] as? [String: Any])?["pitchFloorHz"] as? Double == 70 })
    }

    @Test("each parameter of each analyzer is an option of score KIND named after its key, and an option given overrides --config")
    func everyParameterIsAnOption() throws {
        let defaults = AnalyzerParameters()
        let leaves: [Analyzer: [String]] = [
            .tapping: ["convention", "depressThreshold", "identifier"],
            .gait: ["oxford", "timeColumn", "xColumn", "yColumn", "zColumn", "timeUnit", "accelerationUnit", "mhealthtools"] + Self.keys(defaults.gait.analysis),
            .balance: Self.keys(defaults.balance.analysis) + ["mhealthtools"],
            .spl: Self.keys(defaults.spl).filter { $0 != "lenient" },
            .voice: Self.keys(defaults.voice) + ["calibrationOffsetDecibels"],
            .loudness: Self.keys(defaults.loudness),
            .audiometry: Self.keys(defaults.audiometry).filter { $0 != "lenient" } + ["identifier"],
            .rangeOfMotion: Self.keys(defaults.rangeOfMotion),
            .walkTest: Self.keys(defaults.walkTest).filter { $0 != "analysis" } + Self.keys(defaults.walkTest.analysis),
            .tremor: Self.keys(defaults.tremor.analysis),
            .heartRate: Self.keys(defaults.heartRate.analysis),
        ]
        for analyzer in Analyzer.allCases {
            let help = try Run(["score", analyzer.rawValue, "--help"]).stdout
            for key in try #require(leaves[analyzer]) {
                let option = "--" + key.reduce(into: "") { $0 += $1.isUppercase ? "-" + $1.lowercased() : String($1) }
                #expect(help.contains(option + " ") || help.contains(option + "/") || help.contains(option + "\n"), "score \(analyzer.rawValue): no \(option)")
            }
            #expect(help.contains("--config"), "score \(analyzer.rawValue): no --config")
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = try folder.write("c.toml", "[voice]\npitchFloorHz = 70\npitchCeilingHz = 500\n")
        let wav = SharedData.sampleData.appendingPathComponent("voice_aaah.wav").path
        let both = try #require(try Run(["score", "voice", "--json", "--config", config, "--pitch-floor-hz", "80", wav]).json)
        let parameters = try #require((both["key"] as? [String: Any])?["parameters"] as? String)
        #expect(parameters.contains(#""pitchFloorHz":80"#) && parameters.contains(#""pitchCeilingHz":500"#), "\(parameters)")
        let refused = try Run(["score", "voice", "--pitch-floor-hz", "700", wav])
        #expect(refused.status == 2 && refused.stderr.contains("[voice] pitch range 700.0–600.0 Hz"), "\(refused.stderr)")
    }

    /// A parsed JSON value as sorted-key JSON text (one comparison for every value type).
    static func canonical(_ value: Any?) -> String {
        guard let value, let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The keys of `parameters` as encoded (nil optionals omitted), lenient included.
    static func keys(_ parameters: some Encodable) -> [String] {
        let data = try? JSONEncoder().encode(parameters)
        return ((data.flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any]) ?? [:]).keys.filter { $0 != "lenient" }.sorted()
    }
}
