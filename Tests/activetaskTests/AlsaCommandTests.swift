import Foundation
import Glibc
import Testing
import TestSupport

/// `record audio --source alsa:DEVICE` and `tone --play alsa:DEVICE` through the real libasound,
/// with no sound card: an ALSA configuration (ALSA_CONFIG_PATH: the system's, then the test's)
/// defines `type file` PCMs over the `null` slave, capture reading a known signal from `infile`,
/// playback writing what it is given to `file`.
@Suite struct AlsaCommandTests {
    /// A folder with an asoundrc whose `cap` reads `in.raw` and whose `play` writes `out.raw`.
    struct Devices {
        let folder: String
        var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["ALSA_CONFIG_PATH"] = "/usr/share/alsa/alsa.conf:\(folder)/asoundrc"
            return environment
        }

        init(input: [UInt8]) throws {
            folder = NSTemporaryDirectory() + "atk-alsa-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(input).write(to: URL(fileURLWithPath: folder + "/in.raw"))
            let configuration = """
                pcm.cap { type file slave.pcm "null" file "/dev/null" infile "\(folder)/in.raw" format "raw" }
                pcm.play { type file slave.pcm "null" file "\(folder)/out.raw" format "raw" }
                """
            try configuration.write(toFile: folder + "/asoundrc", atomically: true, encoding: .utf8)
        }

        /// Removes the folder and everything the test wrote into it.
        func remove() {
            try? FileManager.default.removeItem(atPath: folder)
        }

        /// Appends PCM definitions to the asoundrc.
        func add(_ definitions: String) throws {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/asoundrc"))
            handle.seekToEndOfFile()
            handle.write(Data(("\n" + definitions + "\n").utf8))
            try handle.close()
        }
    }

    /// 16-bit samples from a fixed linear congruential sequence, full scale included.
    static func signal(count: Int) -> [Int16] {
        var state: UInt32 = 12345
        return (0..<count).map { i in
            if i == 0 { return Int16.min }
            if i == 1 { return Int16.max }
            state = state &* 1_103_515_245 &+ 12345
            return Int16(truncatingIfNeeded: state >> 16)
        }
    }

    static func bytes(_ samples: [Int16]) -> [UInt8] { samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] } }

    @Test("record audio from alsa:cap (S16_LE, 16 kHz, stereo): the WAV holds the device's samples exactly, the file result says no overrun")
    func captureEqualsInput() throws {
        let input = Self.signal(count: 2 * 24_000)  // 1.5 s of stereo
        let devices = try Devices(input: Self.bytes(input))
        defer { devices.remove() }
        let out = devices.folder + "/rec"
        let run = try Run(["record", "audio", "--source", "alsa:cap", "--out", out, "--sample-rate", "16000", "--channels", "2", "--duration", "1.5"],
                          environment: devices.environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("S16_LE, 16000 Hz, 2 channel(s)"), "\(run.stderr)")
        let results = try #require((try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [[String: Any]], "\(run.stdout)")
        let result = try #require(results.first)
        let userInfo = try #require(result["userInfo"] as? [String: Any])
        #expect(userInfo["alsaOverruns"] as? Double == 0)
        let path = out + "/" + (try #require(result["fileName"] as? String))
        let wav = try Data(contentsOf: URL(fileURLWithPath: path))
        // The canonical 44-byte header, then the samples as written.
        #expect(wav.count == 44 + 2 * input.count)
        let recorded = wav.dropFirst(44).withUnsafeBytes { raw in (0..<input.count).map { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self)) } }
        #expect(recorded == input)
    }

    @Test("float32 asks FLOAT_LE, which the file PCM gives: the infile's floats exactly")
    func captureFloatToTheEnd() throws {
        let floats: [Float] = (0..<8_000).map { Float(sin(Double($0) * 0.05)) * 0.5 }
        let devices = try Devices(input: floats.flatMap { value in withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init) })
        defer { devices.remove() }
        let out = devices.folder + "/rec"
        let run = try Run(["record", "audio", "--source", "alsa:cap", "--out", out, "--sample-rate", "8000", "--encoding", "float32", "--duration", "1"],
                          environment: devices.environment)
        #expect(run.status == 0, "\(run.stderr)")
        let results = try #require((try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [[String: Any]], "\(run.stdout)")
        let path = out + "/" + (try #require(results.first?["fileName"] as? String))
        let wav = try Data(contentsOf: URL(fileURLWithPath: path))
        let data = try #require(wav.range(of: Data("data".utf8)))
        let samples = wav[(data.upperBound + 4)...].withUnsafeBytes { raw in
            (0..<raw.count / 4).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))) }
        }
        #expect(samples == floats)
    }

    @Test("a device that does not exist: exit 3 naming alsa:DEVICE and libasound's reason; no recorder folder left")
    func missingDevice() throws {
        let devices = try Devices(input: [])
        defer { devices.remove() }
        let out = devices.folder + "/rec"
        let run = try Run(["record", "audio", "--source", "alsa:nosuchdevice", "--out", out], environment: devices.environment)
        #expect(run.status == 3)
        #expect(run.stderr.contains("alsa:nosuchdevice: cannot open audio:"), "\(run.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).isEmpty)
    }

    @Test("record --list-devices lists the configuration's capture PCMs")
    func listDevices() throws {
        let devices = try Devices(input: [])
        defer { devices.remove() }
        let run = try Run(["record", "audio", "--list-devices"], environment: devices.environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").contains { $0.hasPrefix("null") }, "\(run.stdout)")
    }

    @Test("tone --play alsa:play: the played samples are the tone --out writes; audiometry verify passes them (1 kHz, −20 dBFS)")
    func playTone() throws {
        let devices = try Devices(input: [])
        defer { devices.remove() }
        let wav = devices.folder + "/tone.wav"
        let run = try Run(["tone", "--frequency", "1000", "--level-dbfs", "-20", "--duration", "1", "--out", wav, "--play", "alsa:play"],
                          environment: devices.environment)
        #expect(run.status == 0, "\(run.stderr)")
        let played = try Data(contentsOf: URL(fileURLWithPath: devices.folder + "/out.raw"))
        let written = try Data(contentsOf: URL(fileURLWithPath: wav))
        let data = try #require(written.range(of: Data("data".utf8)))
        let samples = written[(data.upperBound + 4)...]
        // The file PCM writes whole periods: the tone, then the rest of the last period (silence).
        #expect(played.count >= samples.count)
        #expect(played.prefix(samples.count) == samples)
        #expect(played.dropFirst(samples.count).allSatisfy { $0 == 0 })
        // The played samples as a WAV, verified as a tone.
        let header = written.prefix(data.upperBound + 4)
        let replayed = devices.folder + "/played.wav"
        try (header + samples).write(to: URL(fileURLWithPath: replayed))
        let verify = try Run(["audiometry", "verify", "--json", replayed])
        #expect(verify.status == 0, "\(verify.stderr)")
        let json = try #require(verify.json)
        #expect(abs((json["levelDbfs"] as? Double ?? 0) - -20) <= 0.01)
        #expect(abs((json["frequencyHz"] as? Double ?? 0) - 1000) <= 0.01)
        #expect((json["thdDecibels"] as? Double ?? 0) < -100)
    }

    @Test("tone needs --out or --play, and --play names alsa:DEVICE")
    func toneOptions() throws {
        #expect(try Run(["tone", "--frequency", "1000", "--level-dbfs", "-20"]).status == 2)
        #expect(try Run(["tone", "--frequency", "1000", "--level-dbfs", "-20", "--play", "default"]).status == 2)
    }

    @Test("overruns: the reader stalled (SIGSTOP) for 0.7 s on a device whose pointer runs with the clock: one overrun recovered, counted and its lost time measured; the WAV still holds the frames asked",
          .enabled(if: Peer.alsaPlugin.runs, Peer.alsaPlugin.skipMessage))
    func stalledReaderOverruns() throws {
        guard let devices = try Self.pacedDevices() else { return }
        defer { devices.remove() }
        defer { try? FileManager.default.removeItem(atPath: devices.folder) }
        let out = devices.folder + "/rec"
        let process = Process()
        process.executableURL = Run.executable
        process.arguments = ["record", "audio", "--source", "alsa:paced", "--sample-rate", "16000", "--duration", "2.5", "--out", out]
        process.environment = devices.environment
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        usleep(800_000)
        kill(process.processIdentifier, SIGSTOP)
        usleep(700_000)
        kill(process.processIdentifier, SIGCONT)
        let output = stdout.fileHandleForReading.readDataToEndOfFile(), errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(errors)")
        #expect(errors.contains("alsa:paced: 1 overrun(s), about 0."), "\(errors)")
        let results = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
        let info = try #require(results.first?["userInfo"] as? [String: Any])
        #expect(info["alsaOverruns"] as? Double == 1)
        // The stall (0.7 s, and however long the stopped process took to be scheduled again) is the time lost.
        let lost = try #require(info["alsaLostSeconds"] as? Double)
        #expect(lost >= 0.6 && lost <= 1.5, "\(lost) s")
        let name = try #require(results.first?["fileName"] as? String)
        let wav = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
        #expect(wav.count == 44 + 2 * 40_000)
    }

    /// A fresh devices folder with the paced plugin (Tests/Devices/alsa-paced-capture.c) built into it and
    /// named in its asoundrc: `paced`, `busy` (open fails with EBUSY), `vanishing` (ENODEV after
    /// 0.5 s), `broken` (an overrun at every step).
    /// Nil, with an issue recorded (so the test fails), when gcc or the plugin headers are missing.
    static func pacedDevices() throws -> Devices? {
        guard let gcc = Peer.alsaPlugin.require() else { return nil }
        let devices = try Devices(input: [])
        let build = Process()
        build.executableURL = URL(fileURLWithPath: gcc)
        build.arguments = ["-DPIC", "-shared", "-fPIC", "-o", devices.folder + "/libasound_module_pcm_atkpaced.so",
                           SharedData.packageRoot.appendingPathComponent("Tests/Devices/alsa-paced-capture.c").path, "-lasound"]
        try build.run()
        build.waitUntilExit()
        #expect(build.terminationStatus == 0)
        try devices.add("""
            pcm_type.atkpaced { lib "\(devices.folder)/libasound_module_pcm_atkpaced.so" }
            pcm.paced { type atkpaced }
            pcm.busy { type atkpaced busy 1 }
            pcm.vanishing { type atkpaced vanish_ms 500 }
            pcm.broken { type atkpaced broken 1 }
            """)
        return devices
    }

    @Test("a busy device, one that vanishes mid-recording, one no recovery helps: exit 3 naming the device; the WAV of the vanished one keeps the frames before, playable",
          .enabled(if: Peer.alsaPlugin.runs, Peer.alsaPlugin.skipMessage))
    func busyAndVanishingDevices() throws {
        guard let devices = try Self.pacedDevices() else { return }
        defer { devices.remove() }
        defer { try? FileManager.default.removeItem(atPath: devices.folder) }
        let busy = try Run(["record", "audio", "--source", "alsa:busy", "--sample-rate", "16000", "--duration", "1", "--out", devices.folder + "/busy"],
                           environment: devices.environment)
        #expect(busy.status == 3)
        #expect(busy.stderr.contains("alsa:busy: cannot open audio: Device or resource busy"), "\(busy.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: devices.folder + "/busy")) ?? []).isEmpty)
        let out = devices.folder + "/vanishing"
        let gone = try Run(["record", "audio", "--source", "alsa:vanishing", "--sample-rate", "16000", "--duration", "5", "--out", out],
                           environment: devices.environment)
        #expect(gone.status == 3)
        #expect(gone.stderr.contains("alsa:vanishing") && gone.stderr.contains("No such device"), "\(gone.stderr)")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(gone.stdout.utf8)) as? [[String: Any]])
        let name = try #require(results.first?["fileName"] as? String)
        let wav = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
        let declared = wav[40..<44].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        #expect(declared == wav.count - 44 && declared >= 2 * 4_000 && declared <= 2 * 12_000, "\(declared) bytes of 16-bit frames")
        // A device on which every recovery is in vain ends the recording instead of holding it forever.
        let broken = try Run(["record", "audio", "--source", "alsa:broken", "--sample-rate", "16000", "--duration", "5", "--out", devices.folder + "/broken"],
                             environment: devices.environment)
        #expect(broken.status == 3)
        #expect(broken.stderr.contains("alsa:broken: ") && broken.stderr.contains("failed 64 times in a row, each recovery in vain"), "\(broken.stderr)")
    }
}
