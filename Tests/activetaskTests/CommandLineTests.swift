import Glibc
import Foundation
import Testing
import TestSupport

/// Runs the built `activetask` executable (the CLI is tested by running it, as a user does).
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String

    static var executable: URL {
        // The test bundle lives in the products folder next to the executable.
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [products, products.deletingLastPathComponent(), products.deletingLastPathComponent().deletingLastPathComponent()]
        return candidates.map { $0.appendingPathComponent("activetask") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
            ?? SharedData.packageRoot.appendingPathComponent(".build/debug/activetask")
    }

    /// Runs `activetask ARGUMENTS`, with `input` on its stdin (then closed) when given; through
    /// `launcher` (a program and its arguments, e.g. `sh -c 'ulimit -f 64; exec "$0" "$@"'`) when given.
    init(_ arguments: [String], environment: [String: String]? = nil, input: Data? = nil, launcher: [String] = []) throws {
        let process = Process()
        process.executableURL = launcher.first.map { URL(fileURLWithPath: $0) } ?? Self.executable
        process.arguments = launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [Self.executable.path] + arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = input.map { _ in Pipe() }
        if let stdin { process.standardInput = stdin }
        try process.run()
        if let stdin, let input {
            stdin.fileHandleForWriting.write(input)
            stdin.fileHandleForWriting.closeFile()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        status = process.terminationStatus
        stdout = String(decoding: outData, as: UTF8.self)
        stderr = String(decoding: errData, as: UTF8.self)
    }

    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
    }

    /// Starts `activetask ARGUMENTS` without waiting for it, its output discarded.
    static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}

/// A client of `activetask record --source unix:PATH`.
enum UnixSocket {
    struct ConnectError: Error { var errno: Int32 }

    /// A stream socket connected to `path`.
    /// The socket file appears at bind(2), before listen(2): a connect in between is refused, so
    /// a refusal is retried for up to 5 s.
    static func connect(_ path: String) throws -> Int32 {
        for _ in 0..<500 {
            do { return try connectOnce(path) } catch let error as ConnectError where error.errno == ECONNREFUSED { usleep(10_000) }
        }
        return try connectOnce(path)
    }

    private static func connectOnce(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw ConnectError(errno: code)
        }
        return fd
    }
}

@Suite struct InfoCommandTests {
    @Test("bad invocations exit with status 2")
    func badInvocation() throws {
        #expect(try Run(["info"]).status == 2)
        #expect(try Run(["info", "--no-such-flag", "x"]).status == 2)
        #expect(try Run(["no-such-command"]).status == 2)
        #expect(try Run(["--help"]).status == 0)
    }

    /// Each bad file: exit status 3 and exactly one stderr line naming the file, what is wrong
    /// and where.
    @Test("bad input: exit 3 and one line with the file, the problem and the position")
    func badInput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cases: [(String, [UInt8], String)] = [
            ("truncated.json", Array(#"{"items":[{"timestamp":1,"x":0.1,"y":"#.utf8), "truncated JSON: the text ends inside a value at byte 37 (line 1, column 38)"),
            ("empty.json", [], "empty file (0 bytes)"),
            ("wrongtype.json", Array(#"[{"timestamp":1,"x":"0.1","y":0,"z":0}]"#.utf8), #"expected number, found string "0.1" at [0].x (byte 20)"#),
            ("nan.json", Array(#"{"items":[{"timestamp":1,"x":1,"y":0,"z":0},{"timestamp":NaN,"x":1,"y":0,"z":0}]}"#.utf8), "at items[1].timestamp (byte 57)"),
            ("infinity.json", Array(#"[{"timestamp":Infinity,"x":1,"y":0,"z":0}]"#.utf8), "found \"Infinity\" at byte 14"),
            ("deep.json", Array((String(repeating: "[", count: 64) + String(repeating: "]", count: 64)).utf8), "nesting deeper than 48 levels at byte 48"),
            ("garbage.bin", (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }, "unrecognised layout: binary data"),
            ("unknown.json", Array(#"{"hello":"world"}"#.utf8), "unrecognised layout: a JSON object with keys [\"hello\"]"),
            ("rom.json", Array(#"{"_class":"ORKRangeOfMotionResult","start":"60","finish":0,"minimum":0,"maximum":0,"range":0}"#.utf8), #"expected number, found string "60" at start"#),
            ("rom-infinite.json", Array(#"{"_class":"ORKRangeOfMotionResult","start":60,"finish":1e400,"minimum":0,"maximum":0,"range":0}"#.utf8), "finish inf° is outside -720–720° at finish"),
        ]
        for (name, bytes, expected) in cases {
            let path = try folder.write(name, bytes)
            let run = try Run(["info", path])
            #expect(run.status == 3, "\(name)")
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(name): \(run.stderr)")
            #expect(run.stderr.hasPrefix("activetask: \(path): "), "\(name): \(run.stderr)")
            #expect(run.stderr.contains(expected), "\(name): \(run.stderr)")
        }
    }

    @Test("info names an ORKRangeOfMotionResult by its step, with its angles")
    func rangeOfMotionResult() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = #"{"_class":"ORKRangeOfMotionResult","identifier":"","start":60,"finish":80,"minimum":60,"maximum":130,"range":70}"#
        let path = try folder.write("rom.json", Array(#"{"_class":"ORKTaskResult","results":[{"_class":"ORKStepResult","identifier":"knee.range.of.motion","results":[\#(result)]}]}"#.utf8))
        let run = try Run(["info", path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("kind      range of motion result"), "\(run.stdout)")
        #expect(run.stdout.contains("knee.range.of.motion: start 60°, finish 80°, minimum 60°, maximum 130°, range 70°"), "\(run.stdout)")
    }

    @Test("--lenient reads the complete items before a torn tail, with a warning")
    func lenient() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("accel_A-20190527003506.json", #"{"items":[{"timestamp":1,"x":0,"y":0,"z":-1},{"timestamp":1.01,"x":0,"y":0,"z":-1},{"timestamp":1.02,"x":0,"#)
        #expect(try Run(["info", path]).status == 3)
        let run = try Run(["info", "--json", "--lenient", path])
        #expect(run.status == 0)
        let file = try #require((run.json?["files"] as? [[String: Any]])?.first)
        #expect(file["samples"] as? Int == 2)
        #expect((file["warnings"] as? [String])?.first?.hasPrefix("truncatedTail: text truncated at byte 107") == true)
    }

    @Test("a WAV whose header declares more than the file holds: the frames present, with the sizes; no whole frame: exit 3 naming the data chunk")
    func lyingWAV() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A 44-byte PCM header declaring 1,000,000 data bytes, followed by 100.
        var header = Array("RIFF".utf8) + le32(36 + 1_000_000) + Array("WAVEfmt ".utf8) + le32(16)
        header += [1, 0, 1, 0] + le32(8000) + le32(16_000) + [2, 0, 16, 0] + Array("data".utf8) + le32(1_000_000)
        let path = try folder.write("lie.wav", header + [UInt8](repeating: 0, count: 100))
        let run = try Run(["info", path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("samples   50\n"), "\(run.stdout)")
        #expect(run.stdout.contains("unfinishedHeader: the WAV header declares 1000000 data bytes, the file holds 100"), "\(run.stdout)")
        let torn = try folder.write("torn.wav", header + [0])
        let refused = try Run(["info", torn])
        #expect(refused.status == 3)
        #expect(refused.stderr == "activetask: \(torn): WAV header declares 1000000 data bytes but only 1 follow the data chunk at byte 36: not one whole frame\n")
    }

    func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    @Test("one JSON object with --json; good and bad files together exit 3 with both listed")
    func jsonOutput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let good = try folder.write("accel_A-20190527003506.json", #"{"items":[{"timestamp":1,"x":0,"y":0,"z":-1},{"timestamp":1.01,"x":0,"y":0,"z":-1}]}"#)
        let bad = try folder.write("b.json", "{")
        let run = try Run(["info", "--json", good, bad])
        #expect(run.status == 3)
        let object = try #require(run.json)
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.count == 1)
        #expect(files[0]["kind"] as? String == "accelerometer")
        #expect(files[0]["samples"] as? Int == 2)
        #expect(abs((files[0]["samplingRateHz"] as? Double ?? 0) - 100) < 1e-9)
        let errors = try #require(object["errors"] as? [[String: Any]])
        #expect(errors.first?["file"] as? String == bad)
    }

    @Test("the .m4a without any decoder: exit 3 saying how to enable one", .enabled(if: !ProcessInfo.processInfo.environment.keys.contains("ATK_FFMPEG_TRAIT")))
    func m4aWithoutDecoder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("a.m4a", [0, 0, 0, 0x20] + Array("ftypM4A ".utf8) + [UInt8](repeating: 0, count: 64))
        let run = try Run(["info", path], environment: ["PATH": "/nonexistent"])
        #expect(run.status == 3)
        // Built with the FFmpeg trait the library rejects the bogus file; without it, the message
        // says which package enables decoding.
        #expect(run.stderr.hasPrefix("activetask: \(path): "))
        if !run.stderr.contains("cannot open audio") {
            #expect(run.stderr.contains("apt-get install ffmpeg"))
        }
    }
}

@Suite(.enabled(if: SharedData.runs, SharedData.skipMessage))
struct InfoOnRealDataTests {
    @Test("info --json on the flattened mPower upload")
    func archive() throws {
        let run = try Run(["info", "--json", SharedData.path("mpower/pdscores_tapping.json")])
        #expect(run.status == 0)
        let file = try #require((run.json?["files"] as? [[String: Any]])?.first)
        let parts = try #require(file["parts"] as? [[String: Any]])
        #expect(parts.map { $0["kind"] as? String } == ["archive manifest", "tapping result", "accelerometer"])
        #expect(parts[1]["samples"] as? Int == 210)
        #expect(parts[2]["samples"] as? Int == 2006)
    }

    @Test("info on a whole folder of fixtures: every file recognised, exit 0")
    func folder() throws {
        let run = try Run(["info", SharedData.path("researchkit/fixtures")])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.components(separatedBy: "ResearchKit serializer result (").count - 1 == SharedData.files(in: "researchkit/fixtures").count)
    }
}

@Suite struct SampleDataTests {
    /// `SampleData/` is what `generate-samples` writes: byte-identical, so it is deterministic
    /// and up to date.
    @Test("generate-samples reproduces SampleData/ byte for byte, and info reads every sample")
    func reproducible() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try Run(["generate-samples", "--out", folder.url.path])
        #expect(run.status == 0, "\(run.stderr)")
        let generated = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        let committed = try FileManager.default.contentsOfDirectory(atPath: SharedData.sampleData.path).filter { $0 != "README.md" }.sorted()
        #expect(generated == committed)
        for name in generated {
            let fresh = try Data(contentsOf: folder.url.appendingPathComponent(name))
            let stored = try Data(contentsOf: SharedData.sampleData.appendingPathComponent(name))
            #expect(fresh == stored, "\(name)")
        }
        let info = try Run(["info", "--json", SharedData.sampleData.path])
        #expect(info.status == 0, "\(info.stderr)")
        let kinds = Set((info.json?["files"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } ?? [])
        for kind in ["accelerometer", "device motion", "pedometer", "health quantity", "location", "touch", "tapping result",
                     "environment SPL meter result", "dB HL tone audiometry result", "audio", "range of motion result"] {
            #expect(kinds.contains(kind), "\(kind)")
        }
    }

    /// Every regular file under `folder`, by relative path, with its bytes.
    static func contents(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for case let name as String in FileManager.default.enumerator(atPath: folder)! {
            var directory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &directory), !directory.boolValue {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            }
        }
        return files
    }

    /// A generator run again over its own output changes nothing; a file of other content under
    /// one of its names (a user's `tapping_results.json`, a voice recording of the corpus's name) is kept,
    /// the command exits 3 naming it, and no file of the set, nor any temporary, is written.
    @Test("generate-samples and generate-corpus replace no file of other content, writing all of a set or none",
          arguments: [(["generate-samples"], "tapping_results.json", "voice_aaah.wav"),
                      (["generate-corpus", "--runs", "1"], "run-00000/voice/audio_audio.wav", "run-00000/tapping/info.json")])
    func generatorsKeepOtherFiles(command: [String], theirs: String, removed: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.path("out")
        #expect(try Run(command + ["--out", out]).status == 0)
        let first = try Self.contents(out)
        let again = try Run(command + ["--out", out])
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        #expect(try Self.contents(out) == first)

        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: out + "/" + theirs))
        try FileManager.default.removeItem(atPath: out + "/" + removed)
        let refused = try Run(command + ["--out", out])
        #expect(refused.status == 3)
        #expect(refused.stderr.contains(theirs) && refused.stderr.contains("other content"), "\(refused.stderr)")
        var expected = first
        expected[theirs] = Data("precious\n".utf8)
        expected[removed] = nil
        #expect(try Self.contents(out) == expected)

        // An --out that is a file: the contract's status 3 naming it (was 1 and "Error: … mkdir").
        let file = out + "/" + theirs
        let notAFolder = try Run(command + ["--out", file])
        #expect(notAFolder.status == 3 && notAFolder.stderr.hasPrefix("activetask: ") && notAFolder.stderr.contains("cannot create: File exists"), "\(notAFolder.stderr)")
    }
}
