import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport
@testable import SensorData

/// `record step` with an ALSA microphone and an IIO accelerometer at once: the ALSA `type file`
/// PCM reads its `infile` from a FIFO and the IIO buffer device is a FIFO, both fed in real time
/// by the test (20 chunks a second), so the two recorders run side by side as on a device.
@Suite(.serialized) struct DeviceStepTests {
    struct Rig {
        let tree: IIOCommandTests.Tree
        var audioFIFO: String { tree.root + "/mic.fifo" }
        var asoundrc: String { tree.root + "/asoundrc" }
        var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["ALSA_CONFIG_PATH"] = "/usr/share/alsa/alsa.conf:\(asoundrc)"
            return environment
        }

        init() throws {
            tree = try IIOCommandTests.Tree(channels: ["x", "y", "z"].enumerated().map {
                IIOCommandTests.Channel(name: "in_accel_\($1)", index: $0, type: "le:s16/16>>0")
            } + [IIOCommandTests.Channel(name: "in_timestamp", index: 3, type: "le:s64/64>>0")],
            attributes: ["sampling_frequency": "100", "in_accel_scale": "0.001"])
            guard mkfifo(tree.root + "/mic.fifo", 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
            try """
                pcm.mic { type file slave.pcm "null" file "/dev/null" infile "\(tree.root)/mic.fifo" format "raw" }
                """.write(toFile: tree.root + "/asoundrc", atomically: true, encoding: .utf8)
        }

        func configuration(duration: Double) throws -> String {
            let path = tree.root + "/step.json"
            try """
                {"identifier": "voiceAndWalk", "duration": \(duration), "recorders": [
                  {"kind": "audio", "source": "alsa:mic", "sampleRate": 16000, "channels": 1},
                  {"kind": "accelerometer", "source": "iio:device0", "iioRoot": "\(tree.root)", "frequency": 100, "flushInterval": 0.2}]}
                """.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
    }

    /// Audio sample `k` (16-bit) and accelerometer count of scan `k` on axis `axis`.
    static func audioSample(_ k: Int) -> Int16 { Int16(truncatingIfNeeded: (k &* 2_654_435_761) >> 7) }
    static func count(_ k: Int, axis: Int) -> Int16 { Int16(truncatingIfNeeded: k * 7 + axis * 1000) }

    /// Writes both FIFOs in 50-ms chunks for `seconds` (800 frames of audio, 5 scans stamped
    /// `startNanoseconds` + k · 10 ms), until `stop`.
    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        func raise() { value.store(true, ordering: .relaxed) }
        var isRaised: Bool { value.load(ordering: .relaxed) }
    }

    static func feed(_ rig: Rig, seconds: Double, stop: Flag, startNanoseconds: Int64 = 0) -> Thread {
        let thread = Thread {
            // Read-write: the open does not wait for the recorder's, in whichever order it opens them.
            let iio = open(rig.tree.fifo, O_RDWR), mic = open(rig.audioFIFO, O_RDWR)
            defer { close(iio); close(mic) }
            guard iio >= 0, mic >= 0 else { return }
            signal(SIGPIPE, SIG_IGN)
            let start = Date()
            for chunk in 0..<Int(seconds * 20) where !stop.isRaised {
                var audio: [UInt8] = []
                for k in (chunk * 800)..<((chunk + 1) * 800) { audio += IIOCommandTests.littleEndian(audioSample(k)) }
                var scans: [UInt8] = []
                for k in (chunk * 5)..<((chunk + 1) * 5) {
                    let nanoseconds = startNanoseconds + Int64(k) * 10_000_000
                    scans += (0..<3).flatMap { IIOCommandTests.littleEndian(count(k, axis: $0)) } + [0, 0] + IIOCommandTests.littleEndian(nanoseconds)
                }
                if audio.withUnsafeBytes({ write(mic, $0.baseAddress, $0.count) }) < 0 { break }
                if scans.withUnsafeBytes({ write(iio, $0.baseAddress, $0.count) }) < 0 { break }
                let due = start.addingTimeInterval(Double(chunk + 1) * 0.05)
                let wait = due.timeIntervalSinceNow
                if wait > 0 { usleep(UInt32(wait * 1e6)) }
            }
        }
        thread.start()
        return thread
    }

    /// The WAV's 16-bit samples after a 44-byte header whose data size matches the file.
    static func wavSamples(_ path: String) throws -> [Int16] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.count >= 44)
        let declared = data[40..<44].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        #expect(declared == data.count - 44, "data chunk declares \(declared) bytes, the file holds \(data.count - 44)")
        return stride(from: 44, to: data.count - 1, by: 2).map { Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8) }
    }

    static func files(in folder: String, prefix: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
            .filter { URL(fileURLWithPath: $0).lastPathComponent.hasPrefix(prefix) }.map { folder + "/" + $0 }
    }

    @Test("record step with alsa:mic and iio:device0 at once: the WAV holds exactly the microphone's samples, the accelerometer file every scan's value, and both are timed on one clock")
    func microphoneAndAccelerometer() throws {
        let rig = try Rig()
        defer { rig.tree.remove() }
        let stop = Flag()
        let started = Date().timeIntervalSince1970
        let startNanoseconds = Int64(started * 1e9)
        let feeder = Self.feed(rig, seconds: 3.5, stop: stop, startNanoseconds: startNanoseconds)
        let out = rig.tree.root + "/out"
        let run = try Run(["record", "step", try rig.configuration(duration: 3), "--out", out], environment: rig.environment)
        stop.raise()
        while feeder.isExecuting { usleep(10_000) }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("recording audio from alsa:mic (S16_LE, 16000 Hz, 1 channel(s)"), "\(run.stderr)")
        let step = try #require(run.json)
        let results = try #require(step["results"] as? [[String: Any]])
        #expect(results.map { $0["identifier"] as? String } == ["audio", "accelerometer"])
        // The WAV: 3 s at 16 kHz, the samples as written.
        let wav = try #require(Self.files(in: out, prefix: "streamingAudio_").first)
        let samples = try Self.wavSamples(wav)
        #expect(samples.count == 48_000)
        #expect(samples == (0..<samples.count).map(Self.audioSample))
        // The accelerometer: scans in order, values as written, times inside the step on the wall clock.
        let accel = try #require(Self.files(in: out, prefix: "accel_").first)
        let series = try #require(try JSONContents.read(accel).series.first?.series)
        #expect(series.count >= 200 && series.count <= 350, "\(series.count)")
        let x = series["x"]!, unix = series["timestampSince1970"]!
        #expect(x == (0..<series.count).map { -Double(Self.count($0, axis: 0)) * 0.001 / 9.80665 })
        let ended = Date().timeIntervalSince1970
        #expect(unix.allSatisfy { $0 >= started - 0.1 && $0 <= ended }, "\(unix.first!)…\(unix.last!) outside \(started)…\(ended)")
        // The device's clock is CLOCK_REALTIME (no current_timestamp_clock): its stamps, carried unchanged (within the offset's two clock reads).
        #expect((0..<unix.count).allSatisfy { abs(unix[$0] - Double(startNanoseconds + Int64($0) * 10_000_000) * 1e-9) < 1e-4 })
        #expect((results[1]["userInfo"] as? [String: Any])?["frequency"] as? Double == 100)
        #expect((results[0]["userInfo"] as? [String: Any])?["alsaOverruns"] as? Double == 0)
    }

    @Test("SIGKILL during record step with alsa:mic and iio:device0: the WAV plays with every frame its header counts, the accelerometer JSON is valid")
    func killedStep() throws {
        let rig = try Rig()
        defer { rig.tree.remove() }
        let stop = Flag()
        let feeder = Self.feed(rig, seconds: 20, stop: stop, startNanoseconds: Int64(Date().timeIntervalSince1970 * 1e9))
        let out = rig.tree.root + "/out"
        let process = Process()
        process.executableURL = Run.executable
        process.arguments = ["record", "step", try rig.configuration(duration: 30), "--out", out]
        process.environment = rig.environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<500 where Self.files(in: out, prefix: "accel_").isEmpty { usleep(10_000) }
        usleep(1_500_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        stop.raise()
        while feeder.isExecuting { usleep(10_000) }
        #expect(process.terminationReason == .uncaughtSignal)
        let wav = try #require(Self.files(in: out, prefix: "streamingAudio_").first)
        let samples = try Self.wavSamples(wav)
        #expect(samples.count >= 8_000, "\(samples.count) frames")
        #expect(samples == (0..<samples.count).map(Self.audioSample))
        let accel = try #require(Self.files(in: out, prefix: "accel_").first)
        let data = try Data(contentsOf: URL(fileURLWithPath: accel))
        #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "not valid JSON: …\(String(decoding: data.suffix(40), as: UTF8.self))")
        let series = try #require(try JSONContents.read(accel).series.first?.series)
        #expect(series.count >= 50, "\(series.count) items")
        #expect(series["x"]! == (0..<series.count).map { -Double(Self.count($0, axis: 0)) * 0.001 / 9.80665 })
    }
}
