import AudioIO
import Foundation
import Testing
import TestSupport
@testable import SensorData

/// `activetask record`: real child processes, really killed.
@Suite struct RecordCommandTests {
    /// Starts `activetask ARGS` in the background.
    func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = Run.executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// The first file under `folder` whose name starts with `prefix`, once it is non-empty (≤ 10 s).
    func waitForFile(in folder: String, prefix: String) throws -> String {
        for _ in 0..<1000 {
            let paths = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
                .filter { URL(fileURLWithPath: $0).lastPathComponent.hasPrefix(prefix) }
            if let path = paths.first.map({ folder + "/" + $0 }),
                let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size > 0
            {
                return path
            }
            usleep(10_000)
        }
        throw CocoaError(.fileNoSuchFile)
    }

    /// Every file under `folder`, recursively.
    func files(in folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).map { folder + "/" + $0 }
            .filter { (try? FileManager.default.attributesOfItem(atPath: $0)[.type] as? FileAttributeType) == .typeRegular }
    }

    @Test("SIGKILL during an accelerometer recording (100 Hz, flush every 0.2 s, 50-ms batches): the file left is valid and holds every item up to the last flush")
    func killAccelerometer() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let process = try start(["record", "accelerometer", "--source", "simulate", "--out", folder.url.path, "--duration", "60",
                                 "--frequency", "100", "--flush-interval", "0.2"])
        let path = try waitForFile(in: folder.url.path, prefix: "accel_")
        let seen = Date()
        usleep(1_500_000)
        let elapsed = Date().timeIntervalSince(seen)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(!URL(fileURLWithPath: path).lastPathComponent.contains("-"))  // the current log, never renamed
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "not valid JSON: …\(String(decoding: data.suffix(40), as: UTF8.self))")
        let series = try #require(try JSONContents.read(path).series.first?.series)
        let time = series.time
        // Contiguous from the first item: no gaps inside what was written.
        #expect(abs((time.last! - time.first!) * 100 - Double(series.count - 1)) < 1e-6)
        // Loss bound: at the kill, everything older than one flush interval plus one batch (0.25 s)
        // is on disk. The file already held ≥ 1 flush when first seen, so ≥ (elapsed − 0.25 s) × 100
        // items; 0.5 s more is allowed for a child descheduled on a loaded 2-core CI machine.
        #expect(Double(series.count) >= (elapsed - 0.25 - 0.5) * 100, "\(series.count) items after \(elapsed) s")
        #expect(Double(series.count) <= (elapsed + 1) * 100)
    }

    @Test("SIGINT, SIGTERM or SIGHUP end a recording as its duration would: exit 0, a finished file holding the items so far", arguments: [SIGINT, SIGTERM, SIGHUP])
    func interruptedRecording(signalNumber: Int32) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let process = try start(["record", "accelerometer", "--source", "simulate", "--out", folder.url.path, "--duration", "60", "--frequency", "100"])
        _ = try waitForFile(in: folder.url.path, prefix: "accel_")
        usleep(500_000)
        kill(process.processIdentifier, signalNumber)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(process.terminationReason) \(process.terminationStatus)")
        let path = try waitForFile(in: folder.url.path, prefix: "accel_")  // renamed when finished
        let series = try #require(try JSONContents.read(path).series.first?.series)
        #expect(series.count >= 20 && series.count < 6_000, "\(series.count) items")
    }

    @Test("SIGKILL during a 16 kHz WAV recording: the file plays and its header counts every frame written")
    func killAudio() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let process = try start(["record", "audio", "--source", "simulate", "--out", folder.url.path, "--duration", "60",
                                 "--sample-rate", "16000"])
        let path = try waitForFile(in: folder.url.path, prefix: "streamingAudio_")
        usleep(1_000_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let file = try SoundFile(reading: path)
        let frames = try #require(file.format.frames)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(frames >= 16_000 * 8 / 10, "\(frames) frames")  // ≥ 0.8 s of the ≥ 1 s recorded
        #expect(Int(frames) * 2 + 44 == size)  // 16-bit mono: the header's count matches the data on disk
        #expect(try file.readAll().count == Int(frames))
    }

    @Test("stdin JSON lines: a bad line is reported with its number; the lines before it are kept in a finished file")
    func badLine() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try Run(["record", "accelerometer", "--source", "stdin", "--out", folder.url.path], input: Data("""
            {"timestamp":1.00,"x":0.1,"y":-1,"z":0}
            {"timestamp":1.01,"x":0.2,"y":-1,"z":0}
            {"timestamp":1.02,"x":0.3,"y":

            """.utf8))
        let (stderr, stdout) = (run.stderr, Data(run.stdout.utf8))
        #expect(run.status == 3)
        #expect(stderr.contains("stdin:3: "), "\(stderr)")
        let results = try #require(try JSONSerialization.jsonObject(with: stdout) as? [[String: Any]])
        let name = try #require(results.first?["fileName"] as? String)
        let series = try #require(try JSONContents.read(folder.path(name)).series.first?.series)
        #expect(series["x"] == [0.1, 0.2])
    }

    @Test("a simulated walk at 110 steps/min records a file that the gait analyzer scores at 110 steps/min")
    func simulatedWalk() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try Run(["record", "accelerometer", "--source", "simulate", "--out", folder.url.path, "--duration", "30", "--fast"])
        #expect(run.status == 0, "\(run.stderr)")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let name = try #require(results.first?["fileName"] as? String)
        #expect((results.first?["userInfo"] as? [String: Any])?["frequency"] as? Double == 100)
        let score = try Run(["score", "gait", "--json", folder.path(name)])
        let atk = try #require((score.json?["features"] as? [String: Any])?["atk"] as? [String: Any])
        #expect(abs((atk["cadenceStepsPerMinute"] as? Double ?? 0) - 110) < 1)
    }

    @Test("a sustained 10-minute step (1 kHz accelerometer, 100 Hz device motion, 48 kHz audio) with bounded memory")
    func sustainedStep() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = try folder.write("step.json", """
            {"identifier": "sustained", "duration": 600, "realTime": false,
             "recorders": [{"kind": "accelerometer", "frequency": 1000}, {"kind": "deviceMotion", "frequency": 100},
                           {"kind": "audio", "sampleRate": 48000, "encoding": "pcm16"}]}
            """)
        let run = try Run(["record", "step", config, "--out", folder.path("out")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("accelerometer: 600000 items") && run.stderr.contains("deviceMotion: 60000 items")
            && run.stderr.contains("audio: 28800000 frames"), "\(run.stderr)")
        // 57.6 MB of PCM and ~70 MB of JSON were written; a recorder that kept them would need more than that.
        // Under a sanitizer the runtime's own memory comes on top: ASan's shadow and its 256-MB
        // quarantine (655 MB peak seen), TSan's shadow (5–10× the heap).
        let peak = try #require(run.stderr.split(separator: "peak resident memory ").last.flatMap { Int($0.prefix { $0.isNumber }) })
        #expect(peak < (Sanitizer.active == nil ? 100 : 1_000), "peak resident \(peak) MB (sanitizer: \(Sanitizer.active?.rawValue ?? "none"))")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let files = try #require(results["results"] as? [[String: Any]]).compactMap { $0["fileName"] as? String }
        #expect(files.count == 3)
        for name in files {
            let path = folder.path("out/" + name)
            if name.hasSuffix(".wav") {
                #expect(try SoundFile(reading: path).format.frames == 28_800_000)
            } else if name.contains("deviceMotion") {
                #expect(try JSONContents.read(path).series.first?.series.count == 60_000)
            } else {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                #expect(data.prefix(10) == Data(#"{"items":["#.utf8) && data.suffix(2) == Data("]}".utf8))
            }
        }
    }

    @Test("heart rate from Bluetooth 0x2A37 hex lines: 72 and 75 bpm recorded; a truncated value is reported by line")
    func gattHex() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try Run(["record", "heartRate", "--source", "stdin", "--format", "gatt-hex", "--out", folder.url.path],
                          input: Data("06 48\n16 4B 00 04 4A 04\n11 50\n".utf8))
        let (stderr, stdout) = (run.stderr, Data(run.stdout.utf8))
        #expect(run.status == 3 && stderr.contains("stdin:3: value ends inside a 16-bit field"), "\(stderr)")
        let results = try #require(try JSONSerialization.jsonObject(with: stdout) as? [[String: Any]])
        let name = try #require(results.first?["fileName"] as? String)
        let series = try #require(try JSONContents.read(folder.path(name)).series.first?.series)
        #expect(series["value"] == [72, 75] && series.textColumn("unit") == ["count/min", "count/min"])
        // Line 2's RR intervals 0x0400 = 1 s and 0x044A = 1098/1024 s are in the second file.
        #expect(results.map { $0["identifier"] as? String } == ["heartRate", "heartRateRRIntervals"])
        let rrName = try #require(results.last?["fileName"] as? String)
        let rr = try #require(try JSONContents.read(folder.path(rrName)).series.first?.series)
        #expect(rr["value"] == [1, 1098.0 / 1024] && rr.textColumn("type") == ["RRInterval", "RRInterval"])
    }

    @Test("CSV lines at 50 Hz under --frequency 100: recorded, and the rate is reported with the lines it was measured on")
    func csvWrongRate() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let csv = "timestamp,x,y,z\n" + (0..<150).map { "\(Double($0) / 50),0.1,-1,0" }.joined(separator: "\n") + "\n"
        let run = try Run(["record", "accelerometer", "--source", "stdin", "--format", "csv", "--frequency", "100", "--out", folder.url.path],
                          input: Data(csv.utf8))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("accelerometer: warning: lines 1–151: items arrive at 50.0 Hz, the recorder is configured for 100 Hz"), "\(run.stderr)")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let name = try #require(results.first?["fileName"] as? String)
        #expect(try JSONContents.read(folder.path(name)).series.first?.series.count == 150)
    }

    /// A clock that stands still or runs backwards: every item recorded as it came, and said on
    /// stderr and in the file result's userInfo (ClockMonitor).
    @Test("3,000 items with one timestamp, timestamps running backwards, 1e-20 s apart or at 1e300 s: recorded, and the clock's fault said on stderr and in userInfo", arguments: [
        ("frozen", "the source's clock stood still: 2999 of 3000 items have the time of the item before them (first: item 2); every item has one time", "clockRepeatedItems", 2999.0),
        ("backwards", "the source's clock ran backwards: 2999 of 3000 items are earlier than the item before them (first: in the chunk from item 1)", "clockBackwardItems", 2999.0),
        ("close", "the source's clock is implausible: 2999 of 3000 items are less than 1 µs after the item before them or beyond ±10^10 s (first: item 2)", "clockImplausibleItems", 2999.0),
        ("huge", "the source's clock is implausible: 3000 of 3000 items are less than 1 µs after the item before them or beyond ±10^10 s (first: item 1)", "clockImplausibleItems", 3000.0),
    ])
    func stoppedClock(kind: String, warning: String, key: String, count: Double) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let lines = (0..<3_000).map { index in
            let time = switch kind {
            case "frozen": "5"
            case "backwards": "\(100 - Double(index) / 100)"
            case "close": "\(Double(index) * 1e-20)"
            default: "\(1e300 * (1 + Double(index) / 100))"
            }
            return "{\"timestamp\":\(time),\"x\":0.1,\"y\":-1,\"z\":0}"
        }
        let run = try Run(["record", "accelerometer", "--source", "stdin", "--out", folder.url.path], input: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("accelerometer: warning: " + warning), "\(run.stderr)")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect((results.first?["userInfo"] as? [String: Any])?[key] as? Double == count, "\(results)")
        let name = try #require(results.first?["fileName"] as? String)
        #expect(try JSONContents.read(folder.path(name)).series.first?.series.count == 3_000)
    }

    @Test("a WAV stream on stdin at another rate than --sample-rate is refused before any file is created")
    func wavStreamWrongRate() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let wav = folder.path("in.wav")
        do {
            let writer = try WAVWriter(path: wav, sampleRateHz: 22_050, channels: 1, encoding: .pcm16)
            try writer.write([Float](repeating: 0.25, count: 2_205))
        }
        let out = folder.path("out")
        let run = try Run(["record", "audio", "--source", "stdin", "--sample-rate", "44100", "--out", out],
                          input: try Data(contentsOf: URL(fileURLWithPath: wav)))
        #expect(run.status == 3 && run.stderr.contains("stdin: the WAV stream is 22050 Hz, 1 channel(s); the recorder is set to 44100 Hz"), "\(run.stderr)")
        #expect(files(in: out).isEmpty)
        let good = try Run(["record", "audio", "--source", "stdin", "--sample-rate", "22050", "--out", out],
                           input: try Data(contentsOf: URL(fileURLWithPath: wav)))
        #expect(good.status == 0, "\(good.stderr)")
        let recorded = try #require(files(in: out).first { $0.hasSuffix(".wav") })
        let sound = try SoundFile(reading: recorded)
        #expect(sound.format.frames == 2_205 && sound.format.sampleRateHz == 22_050)
    }

    @Test("simulated room noise at 50 dB(A) reads 50 dB(A) in `score spl` (4× oversampled weighting) with the same calibration (117.3 dB at RMS 1)")
    func roomNoise() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try Run(["record", "audio", "--source", "simulate", "--noise-dba", "50", "--sample-rate", "48000", "--duration", "5",
                           "--fast", "--out", folder.url.path])
        #expect(run.status == 0, "\(run.stderr)")
        let wav = try #require(files(in: folder.url.path).first { $0.hasSuffix(".wav") })
        // White noise puts half its power above 12 kHz, where the 1× bilinear A filter reads low
        // (docs/analyses.md §3.3); oversampled, the meter follows the analogue curve the noise is set by.
        let score = try Run(["score", "spl", "--json", "--oversampling", "4", wav])
        let laeq = try #require(((score.json?["features"] as? [String: Any])?["atk"] as? [String: Any])?["laeqDecibels"] as? Double)
        #expect(abs(laeq - 50) < 0.15, "LAeq \(laeq)")
    }

    @Test("a sender on a Unix socket: its lines are recorded and the recording ends when it closes the connection")
    func unixSocket() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socketPath = folder.path("in.sock")
        let process = Process()
        process.executableURL = Run.executable
        process.arguments = ["record", "accelerometer", "--source", "unix:" + socketPath, "--out", folder.url.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socketPath) { usleep(10_000) }
        let fd = try UnixSocket.connect(socketPath)
        let lines = (0..<100).map { #"{"timestamp":\#(Double($0) / 100),"x":\#($0),"y":-1,"z":0}"# }.joined(separator: "\n") + "\n"
        _ = lines.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let results = try #require(try JSONSerialization.jsonObject(with: stdout) as? [[String: Any]])
        let name = try #require(results.first?["fileName"] as? String)
        let series = try #require(try JSONContents.read(folder.path(name)).series.first?.series)
        #expect(series["x"] == (0..<100).map(Double.init))
    }
}
