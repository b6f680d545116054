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
        ("[voice]\nsets = \"atk\"", "[voice] sets must be an array"),
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

    /// A 19-KB header of 10,000 dotted keys once crashed the conversion (one recursion per
    /// level). Every way TOML nests — table headers, dotted keys, inline tables, arrays — is
    /// refused past ``TOMLParser/maximumDepth`` levels by the parser (with the line) and past
    /// ``BatchConfiguration/maximumDepth`` by the conversion (with the path), and a file exactly
    /// that deep is still read (the guard is the depth, not the shape).
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
            return description.hasPrefix("deep.toml") && description.contains("deeper than \(TOMLParser.maximumDepth) levels")
        }
        let limit = BatchConfiguration.maximumDepth
        let atLimit = "[" + Array(repeating: "a", count: limit - 1).joined(separator: ".") + "]\nx = 1\n"
        #expect {
            try BatchConfiguration.parse(toml: atLimit, file: "deep.toml")
        } throws: { error in "\(error)".contains("unknown section [a]") }
    }

    /// Malformed headers and brackets (toml++ aborted the process on several of these; found by
    /// fuzz-config) are refused with the line that holds the fault.
    @Test("malformed headers and brackets are refused naming the file and the line", arguments: [
        ("[;gait.analysis]\nrateHz = 1\n", 1), ("[\nx = 1\n", 1), ("[\r\nx = 1\n", 1), ("[[;a]]\n", 1), ("a = 1\n  [ #c\n", 2), ("[=a]\n", 1), ("[", 1),
        ("x = [}\n", 1), ("[gait]\nx = {a = 1]\n", 2), ("x = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[}\u{0}\u{0}[[]]\n", 1),
    ])
    func malformedSyntax(text: String, line: Int) {
        #expect {
            try BatchConfiguration.parse(toml: text, file: "h.toml")
        } throws: { error in
            guard let error = error as? ReadError else { return false }
            return error.description.hasPrefix("h.toml") && error.description.contains("not TOML") && error.line == line
        }
    }

    /// What fooled the line-by-line pre-parser that once stood before toml++: CRLF line ends, a
    /// byte-order mark, quotes and brackets inside multi-line strings. All are TOML (tomllib reads
    /// them; the BOM is this reader's documented allowance).
    @Test("CRLF, a BOM, quotes and brackets inside multi-line strings read as TOML")
    func textThePreParserMisread() throws {
        let crlf = try BatchConfiguration.parse(toml: "[voice]\r\npitchFloorHz = 60\r\n[gait.analysis]\r\nminimumBoutSeconds = 4\r\n", file: "crlf.toml")
        #expect(crlf.parameters.voice.pitchFloorHz == 60 && crlf.parameters.gait.analysis.minimumBoutSeconds == 4)
        let bom = try BatchConfiguration.parse(toml: [0xEF, 0xBB, 0xBF] + Array("[voice]\npitchFloorHz = 61\n".utf8), file: "bom.toml")
        #expect(bom.parameters.voice.pitchFloorHz == 61)
        let text = "note = \"\"\"\n[voice] is \"not\" a header; ] } { # nor a comment\n\"\"\"\nliteral = '''\nx = [}'''\n[voice]\npitchFloorHz = 62\n"
        let strings = try TOMLParser.parse(Array(text.utf8))
        #expect(strings["note"] == .string("[voice] is \"not\" a header; ] } { # nor a comment\n"))
        #expect(strings["literal"] == .string("x = [}"))
        var voice = TOMLTable()
        voice.append("pitchFloorHz", .integer(62))
        #expect(strings["voice"] == .table(voice))
        let multiline = try BatchConfiguration.parse(toml: "[batch]\nanalyzers = [\"voice\", \"\"\"tapping\"\"\"]  # ] } \"\"\"\n[tapping]\nconvention = '''\nlittle'''\n[voice]\npitchFloorHz = 62\n", file: "s.toml")
        #expect(multiline.analyzers == [.voice, .tapping] && multiline.parameters.tapping.convention == .little && multiline.parameters.voice.pitchFloorHz == 62)
    }

    /// A value of the wrong kind for an integer parameter is refused naming the section and the key.
    @Test("an integer parameter given 5.5, −2^63, a hex literal or 1e300 is refused naming its key", arguments: ["5.5", "-9223372036854775808", "0x7fffffffffffffff", "1e300", "inf", "nan", "-0.5"])
    func integerKeys(value: String) {
        #expect {
            try BatchConfiguration.parse(toml: "[voice]\nmaximumSamples = \(value)\n", file: "i.toml")
        } throws: { error in
            "\(error)".hasPrefix("i.toml") && "\(error)".contains("maximumSamples")
        }
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
}
