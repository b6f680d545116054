import Foundation
import SensorData
import Testing
import TestSupport
@testable import Batch
@testable import Scoring

/// `batch --config FILE` (issue 17, item 5): TOML sections per analyzer over the scorers'
/// defaults, errors that name the file and the key, and results keyed by what was set.
@Suite struct BatchConfigurationTests {
    @Test("sections set exactly the keys they name; everything else keeps the scorers' defaults")
    func parse() throws {
        let configuration = try BatchConfiguration.parse(toml: """
            [batch]
            analyzers = ["spl", "voice"]
            audio = "both"
            [spl]
            calibrationOffsetDecibels = 111.28
            thresholdDecibels = 40
            [voice]
            pitchFloorHz = 60
            [tapping]
            convention = "little"
            [gait.analysis]
            minimumBoutSeconds = 4
            [gait.csv]
            timeUnit = "ms"
            """, file: "c.toml")
        #expect(configuration.analyzers == [.spl, .voice] && configuration.audio == .both)
        var expected = AnalyzerParameters()
        expected.spl.calibrationOffsetDecibels = 111.28
        expected.spl.calibrationSource = "configuration file"
        expected.spl.thresholdDecibels = 40
        expected.voice.pitchFloorHz = 60
        expected.tapping.convention = .little
        expected.gait.analysis.minimumBoutSeconds = 4
        expected.gait.csv.timeUnit = .milliseconds
        #expect(configuration.parameters == expected)
        // The path the configuration was named by keys nothing: ./c.toml, c.toml and /tmp/x/c.toml alike.
        for file in ["./c.toml", "/tmp/x/c.toml"] {
            #expect(try BatchConfiguration.parse(toml: "[spl]\ncalibrationOffsetDecibels = 111.28\nthresholdDecibels = 40\n", file: file).parameters.spl == expected.spl)
        }
        #expect(try BatchConfiguration.parse(toml: "", file: "empty.toml") == BatchConfiguration())
    }

    @Test("errors name the file, the section and the key", arguments: [
        ("[volume]\nx = 1", #"unknown section [volume]"#),
        ("[voice]\npitchFloor = 60", #"unknown key "pitchFloor" in [voice]"#),
        ("[gait.analysis]\nrate = 60", #"unknown key "analysis.rate" in [gait]"#),
        ("[spl]\nthresholdDecibels = \"quiet\"", "[spl] thresholdDecibels must be a number"),
        ("[spl]\nthresholdDecibels = 1e300", "[spl] threshold 1e+300 dB is not a level"),
        ("[voice]\npitchFloorHz = 700", "[voice] pitch range 700.0–600.0 Hz is not a range"),
        ("[gait.analysis]\nrateHz = 0", "[gait.analysis] rateHz 0.0 is outside 10…1000 Hz"),
        ("[tapping]\nconvention = \"fast\"", "[tapping] convention"),
        ("[batch]\nanalyzers = [\"read\"]", #"unknown analyzer "read""#),
        ("[batch]\naudio = \"noise\"", "[batch] audio must be one of"),
        ("[batch]\nsince = 2020-01-01", "dates and times are not parameters"),
        ("x = = 1", "not TOML"),
    ])
    func errors(text: String, message: String) {
        #expect {
            try BatchConfiguration.parse(toml: text, file: "c.toml")
        } throws: { error in
            let description = "\(error)"
            return description.hasPrefix("c.toml: ") && description.contains(message)
        }
    }

    /// Hardening 3: a 19-KB header of 10,000 dotted keys crashed the conversion (one recursion
    /// per level). Every way TOML nests — table headers, dotted keys, inline tables, arrays — is
    /// refused past ``BatchConfiguration/maximumDepth`` levels with the file and the path, and a
    /// file exactly that deep is still read (the guard is the depth, not the shape).
    @Test("configurations nested 10,000 deep are refused by depth, whatever the syntax", arguments: [
        "[" + Array(repeating: "a", count: 10_000).joined(separator: ".") + "]\nx = 1\n",
        Array(repeating: "a", count: 10_000).joined(separator: ".") + " = 1\n",
        "x = " + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "\n",
        "x = " + String(repeating: "{a = ", count: 200) + "1" + String(repeating: "}", count: 200) + "\n",
    ])
    func depth(text: String) {
        #expect {
            try BatchConfiguration.parse(toml: text, file: "deep.toml")
        } throws: { error in
            let description = "\(error)"
            return description.hasPrefix("deep.toml: ") && description.contains("deeper than \(BatchConfiguration.maximumDepth) levels")
        }
        let limit = BatchConfiguration.maximumDepth
        let atLimit = "[" + Array(repeating: "a", count: limit - 1).joined(separator: ".") + "]\nx = 1\n"
        #expect {
            try BatchConfiguration.parse(toml: atLimit, file: "deep.toml")
        } throws: { error in "\(error)".contains("unknown section [a]") }
    }

    /// toml++ (in TOMLKit) aborts the process on these headers (an assertion in its parser; found
    /// by fuzz-config): they are refused before it sees them, and valid headers still parse.
    @Test("table headers whose key does not start on their line with a key character are refused before the TOML parser sees them", arguments: [
        "[;gait.analysis]\nrateHz = 1\n", "[\nx = 1\n", "[\r\nx = 1\n", "[[;a]]\n", "a = 1\n  [ #c\n", "[=a]\n", "[",
    ])
    func headersTheParserAssertsOn(text: String) {
        #expect {
            try BatchConfiguration.parse(toml: text, file: "h.toml")
        } throws: { error in "\(error)".hasPrefix("h.toml: ") && "\(error)".contains("a table header at line") }
    }

    @Test("valid headers and multi-line lists are not refused by the header check")
    func validHeaders() throws {
        let configuration = try BatchConfiguration.parse(toml: "[ gait.analysis ]\nminimumBoutSeconds = 4\n[\"voice\"]\npitchFloorHz = 60\n[batch]\nanalyzers = [\n  \"voice\",\n]\n", file: "h.toml")
        #expect(configuration.parameters.gait.analysis.minimumBoutSeconds == 4 && configuration.parameters.voice.pitchFloorHz == 60)
        #expect(configuration.analyzers == [.voice])
    }

    @Test("calibrationFile takes the offset a calibration measured, relative to the configuration's folder")
    func calibrationFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("cal"), withIntermediateDirectories: true)
        _ = try folder.write("cal/calibration.json", #"{"kind": "calibration", "calibrationOffsetDecibels": 108.5}"#)
        let config = try folder.write("c.toml", "[spl]\ncalibrationFile = \"cal/calibration.json\"\n")
        let configuration = try BatchConfiguration.read(config)
        #expect(configuration.parameters.spl.calibrationOffsetDecibels == 108.5)
        // By content: SHA-256 of the calibration file's bytes (sha256sum), whatever path reached it.
        #expect(configuration.parameters.spl.calibrationSource == "calibration file sha256:\(try SHA256Sum.of(folder.path("cal/calibration.json")))")
        let dotted = try folder.write("dotted.toml", "[spl]\ncalibrationFile = \"./cal/../cal/calibration.json\"\n")
        #expect(try BatchConfiguration.read(dotted).parameters == configuration.parameters)
        let both = try folder.write("both.toml", "[spl]\ncalibrationFile = \"cal/calibration.json\"\ncalibrationOffsetDecibels = 100\n")
        #expect(throws: ReadError.self) { try BatchConfiguration.read(both) }
    }

    @Test("changing one analyzer's parameter in the configuration recomputes exactly that analyzer's results")
    func recomputesWhatChanged() async throws {
        let folder = try DiscoveryTests.corpus()
        defer { folder.remove() }
        // An audio file whose name and upload name no task: the configuration decides how it is scored.
        try FileManager.default.moveItem(atPath: folder.path("upload/audio_audio.wav"), toPath: folder.path("upload/recording.wav"))
        let store = try ResultStore(path: folder.path("r.sqlite"))
        let paths = [folder.path("upload"), folder.path("task"), folder.path("loose")]
        var options = BatchOptions(toolkitVersion: "test")
        options.jobs = 2
        options.configuration = try BatchConfiguration.parse(toml: "[batch]\naudio = \"both\"", file: "a.toml")
        let first = try await BatchRunner.run(paths, store: store, options: options)
        let rows = try store.resultRows()
        let count = { (analyzer: String) in rows.filter { $0.key.analyzer == analyzer }.count }
        #expect(first.errors == 0 && count("spl") == 2 && count("gait") == 2 && count("voice") == 1 && count("tapping") == 1)

        options.configuration = try BatchConfiguration.parse(toml: "[batch]\naudio = \"both\"\n[spl]\nthresholdDecibels = 45", file: "b.toml")
        let spl = try await BatchRunner.run(paths, store: store, options: options)
        #expect(spl.computed == count("spl") && spl.alreadyStored == rows.count - count("spl"))

        options.configuration = try BatchConfiguration.parse(toml: "[batch]\naudio = \"both\"\n[spl]\nthresholdDecibels = 45\n[gait.analysis]\nminimumBoutSeconds = 4", file: "c.toml")
        let gait = try await BatchRunner.run(paths, store: store, options: options)
        #expect(gait.computed == count("gait") && gait.alreadyStored == rows.count - count("gait"))

        // Without `audio = "both"`, audio no task names is a voice recording only.
        options.configuration = BatchConfiguration()
        options.force = true
        _ = try await BatchRunner.run([folder.path("upload")], store: try ResultStore(path: folder.path("voice-only.sqlite")), options: options)
        let voiceOnly = try ResultStore(path: folder.path("voice-only.sqlite")).resultRows().filter { ["voice", "spl"].contains($0.key.analyzer) }
        #expect(voiceOnly.map(\.key.analyzer) == ["voice"])
    }

    @Test("a } closing an array or a ] closing an inline table is refused with its line (toml++ aborted the process on x = [}); brackets in strings and comments are text", arguments: [
        ("x = [}\n", "line 1 closes an array with"),
        ("[gait]\nx = {a = 1]\n", "line 2 closes an inline table with"),
        ("x = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[}\u{0}\u{0}[[]]\n", "line 1 closes an array with"),
    ])
    func mismatchedBrackets(text: String, message: String) throws {
        #expect(throws: ReadError.self) { try BatchConfiguration.parse(toml: text, file: "c.toml") }
        do { _ = try BatchConfiguration.parse(toml: text, file: "c.toml") } catch { #expect(error.description.contains(message), "\(error)") }
        // The same characters inside strings and comments are not brackets.
        _ = try BatchConfiguration.parse(toml: "# x = [}\n[voice]\npitchFloorHz = 75 # ]}\n", file: "c.toml")
    }
}
