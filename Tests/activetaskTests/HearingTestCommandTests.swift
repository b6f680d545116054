import InputGuards
import Foundation
import Glibc
import Testing
import TestSupport
@testable import Analysis
import SignalProcessing

/// `hearing-test` driven as a person would take it: in a pseudo-terminal, its tones played through
/// an ALSA `type file` PCM; a virtual listener with a known audiogram reads each tone from the
/// file as it is written, measures its level, decides with the psychometric listener whether it
/// hears it and presses space in the terminal.
@Suite(.serialized) struct HearingTestCommandTests {
    /// A devices folder (``AlsaCommandTests/Devices``) whose `ears` writes `played.raw` and whose
    /// `room` reads `room.raw`.
    struct Setup {
        let devices: AlsaCommandTests.Devices
        var folder: String { devices.folder }
        var environment: [String: String] { devices.environment }
        var played: String { folder + "/played.raw" }

        init(_ devices: AlsaCommandTests.Devices? = nil) throws {
            self.devices = try devices ?? AlsaCommandTests.Devices(input: [])
            try self.devices.add("""
                pcm.ears { type file slave.pcm "null" file "\(folder)/played.raw" format "raw" }
                pcm.room { type file slave.pcm "null" file "/dev/null" infile "\(folder)/room.raw" format "raw" }
                """)
        }

        /// `room.raw`: float32 mono at 48 kHz, white noise of RMS 1e-5 with a 250-Hz sine of
        /// amplitude 1e-3 during `loud` (s).
        func room(seconds: Double, loud: Range<Double>) throws {
            var random = SplitMix64(seed: 9)
            let samples: [Float] = (0..<Int(seconds * 48_000)).map { n in
                let t = Double(n) / 48_000
                return Float(1e-5 * random.normal() + (loud.contains(t) ? 1e-3 * sin(2 * .pi * 250 * t) : 0))
            }
            try samples.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: folder + "/room.raw"))
        }
    }

    /// `activetask ARGUMENTS` with a pseudo-terminal as stdin, stdout and stderr: the process and
    /// the master side.
    static func spawn(_ arguments: [String], environment: [String: String]) throws -> (Process, Int32) {
        let (unlockRequest, numberRequest): (UInt, UInt) = (0x4004_5431, 0x8004_5430)  // TIOCSPTLCK, TIOCGPTN
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0, number: UInt32 = 0
        try #require(master >= 0 && ioctl(master, unlockRequest, &unlock) == 0 && ioctl(master, numberRequest, &number) == 0)
        let slave = try #require(FileHandle(forUpdatingAtPath: "/dev/pts/\(number)"))
        let process = Process()
        process.executableURL = Run.executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = slave
        process.standardOutput = slave
        process.standardError = slave
        try process.run()
        try slave.close()
        return (process, master)
    }

    /// The listener: NHANES-like thresholds per ear and frequency, the logistic listener, one
    /// random draw per tone it hears played.
    struct Listener {
        var truth: [Int: [Double: Double]]  // channel → frequency → dB HL
        var model = VirtualListener(slopeDecibels: 2, falseAlarmRate: 0.01, lapseRate: 0.01)
        var seed: UInt64
        let tables = HeadphoneCalibration.tables(for: "AIRPODSV1")!

        /// The thresholds the procedure reaches for this listener, run without sound: the same
        /// engine, the same stream, a clipped level unplayed (no draw).
        func expected(_ procedure: AudiometrySimulation.Procedure, ears: [Int], frequencies: [Double]) -> [[Double?]] {
            var random = SplitMix64(seed: seed)
            return ears.map { ear in
                frequencies.map { f in
                    let maximum = HeadphoneCalibration.maximumHearingLevel(frequencyHz: f, tables: tables)!
                    var engine = procedure.engine(ashaCeiling: ((maximum / 5).rounded(.up) - 1) * 5)  // the grid level below the clipping one
                    engine.run { level in
                        guard HeadphoneCalibration.researchKitAmplitude(hearingLevel: level, frequencyHz: f, tables: tables)?.amplitude != nil else { return .clipped }
                        return random.unit() < model.probabilityOfYes(level: level, threshold: truth[ear]![f]!) ? .heard : .missed
                    }
                    return engine.threshold
                }
            }
        }
    }

    /// Watches `played` (float32 stereo at `rate`) as it is written: each tone is measured 0.25 s
    /// after its first non-zero frame (past the 0.2-s ramp: peak → dB HL through the tables,
    /// frequency from the zero crossings, ear from the channel) and answered with a space when the
    /// listener hears it; a tone ends with 0.2 s of zeros. Returns, per tone, the level asked (the
    /// measured level to the nearest 0.5 dB) minus the measured level, once `done()` says so.
    static func listen(played: String, rate: Double, listener: Listener, frequencies: [Double], master: Int32,
                       done: @escaping @Sendable () -> Bool) -> [Double] {
        var random = SplitMix64(seed: listener.seed)
        var samples: [Float] = []
        var position = 0
        var toneStart: Int?
        var zeros = 0
        var errors: [Double] = []
        let ramp = Int(0.2 * rate), look = Int(0.05 * rate)
        while !done() {
            if let data = FileManager.default.contents(atPath: played), data.count / 8 > samples.count / 2 {
                let all = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
                samples.append(contentsOf: all[samples.count..<(all.count - all.count % 2)])
            }
            let frames = samples.count / 2
            guard position < frames else {
                usleep(2_000)
                continue
            }
            while position < frames {
                let silent = samples[2 * position] == 0 && samples[2 * position + 1] == 0
                if let start = toneStart {
                    zeros = silent ? zeros + 1 : 0
                    if position - start == ramp + look {
                        let channel = samples[2 * (start + ramp) + 1] != 0 || samples[2 * (start + ramp + 1) + 1] != 0 ? 1 : 0
                        let x = (start + ramp..<start + ramp + look).map { Double(samples[2 * $0 + channel]) }
                        let crossings = zip(x, x.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
                        let estimate = Double(crossings) / 0.05
                        let f = frequencies.min { abs($0 - estimate) < abs($1 - estimate) }!
                        let level = HeadphoneCalibration.levels(amplitude: x.map(abs).max()!, frequencyHz: f, tables: listener.tables)!.hearingLevel
                        let requested = (level * 2).rounded() / 2
                        errors.append(requested - level)
                        if random.unit() < listener.model.probabilityOfYes(level: requested, threshold: listener.truth[channel]![f]!) {
                            _ = write(master, " ", 1)
                        }
                    }
                    if zeros >= ramp { toneStart = nil }
                } else if !silent {
                    toneStart = position
                    zeros = 0
                }
                position += 1
            }
        }
        return errors
    }

    /// Reads the terminal's output so the program never blocks on it.
    static func drain(_ master: Int32) -> Thread {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while read(master, &buffer, buffer.count) > 0 {}
        }
        thread.start()
        return thread
    }

    static func thresholds(_ path: String) throws -> (samples: [[String: Any]], userInfo: [String: Any]) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        return (try #require(object["samples"] as? [[String: Any]]), try #require(object["userInfo"] as? [String: Any]))
    }

    static let fast = ["--tone-seconds", "0.1", "--pre-stimulus-min", "0.1", "--pre-stimulus-max", "0.3", "--post-stimulus-seconds", "0.8"]

    @Test("a virtual listener takes the test in a terminal: the thresholds equal the procedure's for the same listener and seed (ResearchKit and ASHA), every tone within 0.5 dB of its level, a result score audiometry reads", arguments: [AudiometrySimulation.Procedure.researchkit, .asha])
    func listenerTakesTheTest(procedure: AudiometrySimulation.Procedure) throws {
        let setup = try Setup()
        defer { setup.devices.remove() }
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        let listener = Listener(truth: [1: [1000: 15, 4000: 32], 0: [1000: 8, 4000: 47]], seed: 11)
        let frequencies = [1000.0, 4000]
        let out = setup.folder + "/test"
        let (process, master) = try Self.spawn(["hearing-test", "--headphone", "AIRPODSV1", "--out", out, "--device", "alsa:ears", "--procedure", procedure.rawValue,
                                                "--ears", "right,left", "--frequencies", "1000,4000", "--seed", "5"] + Self.fast, environment: setup.environment)
        let reader = Self.drain(master)
        let finished = Locked(false)
        let errors = Self.listen(played: setup.played, rate: 48_000, listener: listener, frequencies: frequencies, master: master) {
            if !process.isRunning { finished.withLock { $0 = true } }
            return finished.withLock { $0 }
        }
        process.waitUntilExit()
        close(master)
        _ = reader
        #expect(process.terminationStatus == 0)
        let (samples, userInfo) = try Self.thresholds(out + "/hearing-test.json")
        #expect(userInfo["incomplete"] as? Bool == false)
        let expected = listener.expected(procedure, ears: [1, 0], frequencies: frequencies)
        let got: [[Double?]] = [1, 0].map { ear in
            frequencies.map { f in
                let sample = samples.first { ($0["channel"] as? Double) == Double(ear) && ($0["frequency"] as? Double) == f }
                return (sample?["calculatedThreshold"] as? Double).flatMap { $0 >= 1e308 ? nil : $0 }
            }
        }
        #expect(got == expected, "\(procedure): thresholds \(got), the procedure without sound \(expected)")
        let presentations = samples.reduce(0) { $0 + (($1["units"] as? [Any])?.count ?? 0) }
        #expect(errors.count == presentations && errors.allSatisfy { abs($0) <= 0.5 }, "\(errors.count) tones heard of \(presentations): \(errors) \(samples)")
        let score = try Run(["score", "audiometry", out + "/hearing-test.json", "--json"])
        #expect(score.status == 0, "\(score.stderr)")
        #expect(FileManager.default.fileExists(atPath: out + "/audiogram.svg"))
    }

    @Test("SIGKILL in the middle of the test leaves a result that score audiometry reads, marked incomplete, with every finished trial")
    func killedTestLeavesAPartialResult() throws {
        let setup = try Setup()
        defer { setup.devices.remove() }
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        let out = setup.folder + "/test"
        let (process, master) = try Self.spawn(["hearing-test", "--headphone", "AIRPODSV1", "--out", out, "--device", "alsa:ears", "--seed", "3"] + Self.fast,
                                               environment: setup.environment)
        let reader = Self.drain(master)
        var lines = 0
        for _ in 0..<1_200 where lines < 3 {  // up to 30 s on a loaded machine
            usleep(25_000)
            lines = (try? String(contentsOfFile: out + "/trials.jsonl", encoding: .utf8))?.split(separator: "\n").count ?? 0
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        close(master)
        _ = reader
        #expect(lines >= 3)
        let (samples, userInfo) = try Self.thresholds(out + "/hearing-test.json")
        #expect(userInfo["incomplete"] as? Bool == true)
        let units = samples.reduce(0) { $0 + (($1["units"] as? [Any])?.count ?? 0) }
        let logged = try String(contentsOfFile: out + "/trials.jsonl", encoding: .utf8).split(separator: "\n").count
        // The log line of a trial is synced before the result is rewritten: a kill between the two
        // leaves the result one trial behind the log.
        #expect(logged >= 3 && units >= logged - 1 && units <= logged, "\(units) trials in the result, \(logged) logged")
        // The entry it was in (its first) is not finished: no threshold, not a no-response, so
        // nothing was tested yet (status 1), and the output says which entry did not finish.
        #expect(userInfo["unfinishedFrequencies"] as? [[String: Double]] == [["frequency": 1000, "channel": 1]], "\(userInfo)")
        let score = try Run(["score", "audiometry", out + "/hearing-test.json", "--json"])
        #expect(score.status == 1, "\(score.stderr)")
        #expect(score.stdout.contains("did not finish") && score.stdout.contains("not finished (no threshold, and not a no-response): right 1000 Hz"), "\(score.stdout)")
        // No key was pressed: the first tone played whole (30 dB HL, 1 kHz, right ear). As a WAV
        // through `audiometry verify`: its frequency, its level as the tables give it, the right
        // channel, ResearchKit's ramp (rise time 0.2·19/40 s = 95 ms) and no distortion.
        let played = try Data(contentsOf: URL(fileURLWithPath: setup.played)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let first = try #require((0..<played.count / 2).first { (i: Int) -> Bool in played[2 * i] != 0 || played[2 * i + 1] != 0 })
        // Its end: the first frame of 10 ms of silence.
        let silent = { (frame: Int) in (frame..<min(played.count / 2, frame + 480)).allSatisfy { played[2 * $0] == 0 && played[2 * $0 + 1] == 0 } }
        let end = try #require((first..<played.count / 2).first(where: silent))
        let wav = setup.folder + "/first.wav"
        try Data(CommandAttackTests.floatWAV(Array(played[(2 * max(0, first - 480))..<(2 * min(played.count / 2, end + 480))]), rate: 48_000, channels: 2))
            .write(to: URL(fileURLWithPath: wav))
        let verify = try #require(try Run(["audiometry", "verify", "--json", wav]).json)
        let tables = try #require(HeadphoneCalibration.tables(for: "AIRPODSV1"))
        let asked = try #require(HeadphoneCalibration.researchKitAmplitude(hearingLevel: 30, frequencyHz: 1000, tables: tables)).attenuationDecibels
        #expect(abs((verify["levelDbfs"] as? Double ?? 0) - asked) <= 0.5, "\(verify)")
        #expect(abs((verify["frequencyHz"] as? Double ?? 0) - 1000) <= 0.01 && verify["channel"] as? Int == 1, "\(verify)")
        #expect(abs((verify["riseTimeMilliseconds"] as? Double ?? 0) - 95) <= 2 && (verify["thdDecibels"] as? Double ?? 0) < -80, "\(verify)")
    }

    /// Each option guard of `hearing-test`, alone: the invocation it refuses, the status and the
    /// message (all before a terminal or a device is needed).
    @Test("each refused option says what is wrong, with exit 2 (3 for a file's content)", arguments: [
        ([], 2, "give --headphone ID or --calibration FILE"),
        (["--headphone", "EARPODS", "--calibration", "c.csv"], 2, "give --headphone ID or --calibration FILE"),
        (["--calibration", "c.csv", "--volume", "0.5"], 2, "--volume is for --headphone tables"),
        (["--headphone", "EARPODS", "--device", "hw:0"], 2, "--device takes alsa:DEVICE, got \"hw:0\""),
        (["--headphone", "EARPODS", "--device", "alsa:"], 2, "--device takes alsa:DEVICE, got \"alsa:\""),
        (["--headphone", "EARPODS", "--mic", "hw:1"], 2, "--mic takes alsa:DEVICE, got \"hw:1\""),
        (["--headphone", "EARPODS", "--mic-calibration", "3"], 2, "--mic-calibration needs --mic"),
        (["--headphone", "EARPODS", "--ears", "left,up"], 2, "--ears: left, right or both, got \"up\""),
        (["--headphone", "EARPODS", "--ears", "both,left"], 2, "--ears: names each ear at most once"),
        (["--headphone", "EARPODS", "--frequencies", "1000,nan"], 2, "--frequencies: 1 to 64 frequencies in 20–20000 Hz"),
        (["--headphone", "EARPODS", "--frequencies", "19.9"], 2, "--frequencies: 1 to 64 frequencies in 20–20000 Hz"),
        (["--headphone", "EARPODS", "--frequencies", Array(repeating: "1000", count: 65).joined(separator: ",")], 2, "--frequencies: 1 to 64 frequencies in 20–20000 Hz"),
        (["--headphone", "EARPODS", "--mic", "alsa:m", "--mic-calibration", "1e999"], 2, "microphoneCalibration 1e999: an offset within ±400 dB is required [options: --mic-calibration]"),
        (["--headphone", "EARPODS", "--mic", "alsa:m", "--mic-calibration", "offset.json"], 3, "offset.json: invalid value: no calibrationOffsetDecibels within ±400 dB"),
    ] as [([String], Int32, String)])
    func refusedOptions(options: [String], status: Int32, message: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try #"{"calibrationOffsetDecibels": 401}"#.write(toFile: folder.path("offset.json"), atomically: true, encoding: .utf8)
        let arguments = options.map { $0 == "offset.json" ? folder.path($0) : $0 }
        let run = try Run(["hearing-test", "--out", folder.path("out")] + arguments, input: Data())
        #expect(run.status == status && run.stderr.contains(message), "\(run.status) \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }

    @Test("--config: the file's settings over the defaults, the options over the file; a bad file exits 3 naming the file and field")
    func configFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let spec = try folder.write("spec.json", #"{"headphone": "TDH39", "frequenciesHz": [1000]}"#)
        let fromFile = try Run(["hearing-test", "--out", folder.path("out"), "--config", spec], input: Data())
        #expect(fromFile.status == 2 && fromFile.stderr.contains("unknown headphone \"TDH39\""), "\(fromFile.stderr)")
        let overridden = try Run(["hearing-test", "--out", folder.path("out"), "--config", spec, "--headphone", "EARPODS"], input: Data())
        #expect(overridden.status == 2 && overridden.stderr.contains("not a terminal"), "\(overridden.stderr)")
        let bad = try folder.write("bad.json", #"{"headphone": "EARPODS", "toneSeconds": 100}"#)
        let refused = try Run(["hearing-test", "--out", folder.path("out"), "--config", bad], input: Data())
        #expect(refused.status == 3 && refused.stderr.contains("bad.json: toneSeconds 100.0 is outside 0.05…30.0"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }

    @Test("bad starts: stdin not a terminal, an unknown headphone, a calibration table with a gap or an absurd value, a device that does not exist — each exit 2 or 3 saying which, before any tone")
    func badStarts() throws {
        let setup = try Setup()
        defer { setup.devices.remove() }
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        let out = setup.folder + "/test"
        let notTTY = try Run(["hearing-test", "--headphone", "AIRPODSV1", "--out", out, "--device", "alsa:ears"], environment: setup.environment, input: Data())
        #expect(notTTY.status == 2 && notTTY.stderr.contains("not a terminal"), "\(notTTY.stderr)")
        let unknown = try Run(["hearing-test", "--headphone", "TDH39", "--out", out], environment: setup.environment, input: Data())
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown headphone \"TDH39\""), "\(unknown.stderr)")
        let gap = setup.folder + "/gap.csv"
        try "# headphone: HDA 300\n# reference_dbfs: -20\nfrequency_hz,spl_db,retspl_db\n1000,90,7.5\n2000,91,9\n".write(toFile: gap, atomically: true, encoding: .utf8)
        let gapRun = try Run(["hearing-test", "--calibration", gap, "--out", out, "--frequencies", "1000,2000,4000"], environment: setup.environment, input: Data())
        #expect(gapRun.status == 3 && gapRun.stderr.contains("no calibration for 4000 Hz"), "\(gapRun.stderr)")
        let absurd = setup.folder + "/absurd.json"
        try #"{"headphone": "HDA 300", "referenceLevelDbfs": -20, "points": [{"frequencyHz": 1000, "splDb": 1e308, "retsplDb": 7.5}]}"#
            .write(toFile: absurd, atomically: true, encoding: .utf8)
        let absurdRun = try Run(["hearing-test", "--calibration", absurd, "--out", out, "--frequencies", "1000"], environment: setup.environment, input: Data())
        #expect(absurdRun.status == 3 && absurdRun.stderr.contains("points[0]: the measured level must be in 0–160 dB SPL"), "\(absurdRun.stderr)")
        let (process, master) = try Self.spawn(["hearing-test", "--headphone", "AIRPODSV1", "--out", out, "--device", "alsa:nonesuch"], environment: setup.environment)
        let text = Self.readAll(master)
        process.waitUntilExit()
        #expect(process.terminationStatus == 3 && text.contains("alsa:nonesuch"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: out + "/hearing-test.json"))
    }

    /// With --mic-calibration 100 (dB SPL at RMS 1), a 250-Hz sine of amplitude 1e-3 reads
    /// 20·lg(1e-3/√2) + 100 = 37.0 dB SPL in the 250-Hz band, over ISO 8253-1 Table 2's 19 dB for a
    /// test from 250 Hz; the noise (RMS 1e-5, about −25 dB SPL per band) and the sine's skirts in
    /// the bands beside it stay under theirs.
    @Test("the room check: noise over ISO 8253-1's limit in one band (250 Hz) blocks the start and names that band alone with its level")
    func loudRoomBlocksTheStart() throws {
        let setup = try Setup()
        defer { setup.devices.remove() }
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        try setup.room(seconds: 4, loud: 0..<4)
        let out = setup.folder + "/test"
        let (process, master) = try Self.spawn(["hearing-test", "--headphone", "AIRPODSV1", "--out", out, "--device", "alsa:ears", "--mic", "alsa:room",
                                                "--mic-calibration", "100", "--ambient-seconds", "2"], environment: setup.environment)
        let text = Self.readAll(master)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(text)")
        #expect(text.contains("the room is too loud") && text.contains("250 Hz band 37.0 dB SPL > 19 dB"), "\(text)")
        #expect(text.components(separatedBy: " Hz band ").count == 2, "\(text)")
        #expect(!FileManager.default.fileExists(atPath: out + "/hearing-test.json"))
    }

    @Test("a microphone that delivers nothing (its infile a FIFO a writer holds open and never writes): the room check ends at its deadline with exit 3 naming the device")
    func silentMicrophone() throws {
        let setup = try Setup()
        defer { setup.devices.remove() }
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        let fifo = setup.folder + "/silent.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR)
        defer { close(writer) }
        try setup.devices.add(#"pcm.silentmic { type file slave.pcm "null" file "/dev/null" infile "\#(fifo)" format "raw" }"#)
        let (process, master) = try Self.spawn(["hearing-test", "--headphone", "AIRPODSV1", "--out", setup.folder + "/test", "--device", "alsa:ears",
                                                "--mic", "alsa:silentmic", "--mic-calibration", "100", "--ambient-seconds", "1"], environment: setup.environment)
        let text = Self.readAll(master)
        process.waitUntilExit()
        #expect(process.terminationStatus == 3, "\(text)")
        #expect(text.contains("alsa:silentmic: the device did not deliver 1 s of sound within 4.5 s"), "\(text)")
    }

    @Test("a microphone that stops delivering during the test (a FIFO fed 3 s in real time, then held open): the monitor's stale bound ends the test with exit 3 naming it, the trials before kept")
    func microphoneThatStops() throws {
        let setup = try Setup()
        defer { setup.devices.remove() }
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        let fifo = setup.folder + "/mic.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR)
        defer { close(writer) }
        try setup.devices.add(#"pcm.stoppingmic { type file slave.pcm "null" file "/dev/null" infile "\#(fifo)" format "raw" }"#)
        // 3 s of quiet noise (float32 mono, 48 kHz) in 50-ms chunks, then nothing.
        let feeder = Thread {
            var random = SplitMix64(seed: 11)
            for _ in 0..<60 {
                let chunk: [Float] = (0..<2_400).map { _ in Float(1e-5 * random.normal()) }
                _ = chunk.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
                usleep(50_000)
            }
        }
        feeder.start()
        let out = setup.folder + "/test"
        let (process, master) = try Self.spawn(["hearing-test", "--headphone", "AIRPODSV1", "--out", out, "--device", "alsa:ears", "--mic", "alsa:stoppingmic",
                                                "--mic-calibration", "100", "--ambient-seconds", "1", "--seed", "5"] + Self.fast, environment: setup.environment)
        let text = Self.readAll(master)
        process.waitUntilExit()
        #expect(process.terminationStatus == 3, "\(text)")
        #expect(text.contains("alsa:stoppingmic: the ambient-noise microphone failed: no whole second of sound for"), "\(text)")
        #expect(try Self.thresholds(out + "/hearing-test.json").userInfo["incomplete"] as? Bool == true)
    }

    @Test("a microphone that delivers exact zeros (muted, unplugged): the room check refuses it with exit 3 naming it, instead of reading the room as -∞ dB")
    func mutedMicrophone() throws {
        let setup = try Setup()
        defer { setup.devices.remove() }
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        try Data(count: 4 * 48_000 * 4).write(to: URL(fileURLWithPath: setup.folder + "/room.raw"))
        let (process, master) = try Self.spawn(["hearing-test", "--headphone", "AIRPODSV1", "--out", setup.folder + "/test", "--device", "alsa:ears",
                                                "--mic", "alsa:room", "--mic-calibration", "100", "--ambient-seconds", "1"], environment: setup.environment)
        let text = Self.readAll(master)
        process.waitUntilExit()
        #expect(process.terminationStatus == 3, "\(text)")
        #expect(text.contains("alsa:room: the microphone delivered only zeros for 0.5 s: muted, unplugged or at its end"), "\(text)")
    }

    @Test("the room check during the test: a quiet start passes; noise in the 250-Hz band pauses the test before the next trial, naming the band, and a quiet second resumes it")
    func noiseDuringTheTestPausesIt() throws {
        let setup = try Setup()
        defer { setup.devices.remove() }
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        try setup.room(seconds: 60, loud: 3.0..<4.5)
        let out = setup.folder + "/test"
        let (process, master) = try Self.spawn(["hearing-test", "--headphone", "AIRPODSV1", "--out", out, "--device", "alsa:ears", "--mic", "alsa:room",
                                                "--mic-calibration", "100", "--ambient-seconds", "2", "--seed", "1"] + Self.fast, environment: setup.environment)
        let reader = Self.drain(master)
        var events: [[String: Any]] = []
        for _ in 0..<600 where !events.contains(where: { $0["event"] as? String == "resumed" }) {
            usleep(50_000)
            let text = (try? String(contentsOfFile: out + "/trials.jsonl", encoding: .utf8)) ?? ""
            events = text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        _ = write(master, "q", 1)
        process.waitUntilExit()
        close(master)
        _ = reader
        let paused = try #require(events.firstIndex { $0["event"] as? String == "paused" }, "\(events)")
        let resumed = try #require(events.firstIndex { $0["event"] as? String == "resumed" }, "\(events)")
        #expect(paused < resumed && events[paused]["bands"] as? [Double] == [250])
        let pausedAt = try #require(events[paused]["time"] as? Double), resumedAt = try #require(events[resumed]["time"] as? Double)
        // The loud 1.5 s began 0.5 s into the test (after 2.5 s of checking): no pause before it,
        // and the pause lasts until a whole quiet second has passed.
        #expect(pausedAt >= 0.5 && resumedAt - pausedAt >= 0.5 && resumedAt <= 30, "\(pausedAt) \(resumedAt)")
        #expect(process.terminationStatus == 1)
        #expect(try Self.thresholds(out + "/hearing-test.json").userInfo["incomplete"] as? Bool == true)
    }

    @Test("a microphone that goes away during the test ends it with exit 3 naming the device; the trials before are kept, marked incomplete; an uncalibrated check says so",
          .enabled(if: Peer.alsaPlugin.runs, Peer.alsaPlugin.skipMessage))
    func microphoneVanishes() throws {
        guard let devices = try AlsaCommandTests.pacedDevices() else { return }
        defer { devices.remove() }
        let setup = try Setup(devices)
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        try devices.add("pcm.fadingmic { type atkpaced vanish_ms 3000 }")
        let out = devices.folder + "/test"
        let (process, master) = try Self.spawn(["hearing-test", "--headphone", "AIRPODSV1", "--out", out, "--device", "alsa:ears", "--mic", "alsa:fadingmic",
                                                "--ambient-seconds", "1", "--seed", "2"] + Self.fast, environment: setup.environment)
        let text = Self.readAll(master)
        process.waitUntilExit()
        #expect(process.terminationStatus == 3, "\(text)")
        #expect(text.contains("uncalibrated") && text.contains("alsa:fadingmic") && text.contains("the ambient-noise microphone failed"), "\(text)")
        let (samples, userInfo) = try Self.thresholds(out + "/hearing-test.json")
        #expect(userInfo["incomplete"] as? Bool == true && !samples.isEmpty)
    }

    @Test("a listener who presses space all the time: every tap falls before the tone; ResearchKit counts them (its cap of 20 presentations ends the entry), ASHA repeats the trial up to 100 times; no threshold either way")
    func tapsBeforeEveryTone() throws {
        for (procedure, trials) in [("researchkit", 20), ("asha", 100)] {
            let setup = try Setup()
            defer { setup.devices.remove() }
            defer { try? FileManager.default.removeItem(atPath: setup.folder) }
            let out = setup.folder + "/test"
            let (process, master) = try Self.spawn(["hearing-test", "--headphone", "AIRPODSV1", "--out", out, "--device", "alsa:ears", "--procedure", procedure,
                                                    "--ears", "right", "--frequencies", "1000", "--seed", "4"] + Self.fast, environment: setup.environment)
            let reader = Self.drain(master)
            while process.isRunning {
                _ = write(master, " ", 1)
                usleep(20_000)
            }
            close(master)
            _ = reader
            #expect(process.terminationStatus == 0)
            let (samples, _) = try Self.thresholds(out + "/hearing-test.json")
            let units = try #require(samples.first?["units"] as? [[String: Any]])
            #expect(units.count == trials, "\(procedure): \(units.count) trials")
            #expect(units.allSatisfy { unit in
                let start = unit["startOfUnitTimeStamp"] as? Double ?? 0, pre = unit["preStimulusDelay"] as? Double ?? 0
                return (unit["userTapTimeStamp"] as? Double ?? 0) < start + pre
            })
            #expect((samples.first?["calculatedThreshold"] as? Double ?? 0) >= 1e308)
            let played = FileManager.default.contents(atPath: setup.played) ?? Data()
            #expect(played.allSatisfy { $0 == 0 }, "no tone is played")
        }
    }

    /// ResearchKit's rule R4 protects the listener's ears: a level the headphone tables cannot
    /// produce unclipped is not played. A listener who hears nothing drives both procedures to the
    /// top of the range; every tone written to the ALSA file is measured (peak after the ramp →
    /// dB HL through the tables) and none is above the tables' maximum.
    @Test("a listener who hears nothing: the procedure climbs to the tables' maximum and no tone is played above it (ResearchKit and ASHA)", arguments: ["researchkit", "asha"])
    func deafListenerNeverGetsAClippedTone(procedure: String) throws {
        let setup = try Setup()
        defer { setup.devices.remove() }
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        let out = setup.folder + "/test"
        let (process, master) = try Self.spawn(["hearing-test", "--headphone", "AIRPODSV1", "--out", out, "--device", "alsa:ears", "--procedure", procedure,
                                                "--ears", "right", "--frequencies", "4000", "--seed", "6"] + Self.fast, environment: setup.environment)
        let reader = Self.drain(master)
        process.waitUntilExit()
        close(master)
        _ = reader
        #expect(process.terminationStatus == 0)
        let tables = try #require(HeadphoneCalibration.tables(for: "AIRPODSV1"))
        let maximum = try #require(HeadphoneCalibration.maximumHearingLevel(frequencyHz: 4000, tables: tables))
        let played = try Data(contentsOf: URL(fileURLWithPath: setup.played)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // Tones: runs of non-zero frames on the right channel, apart by 0.2 s of zeros.
        var levels: [Double] = []
        var frame = 0
        let frames = played.count / 2
        while frame < frames {
            guard played[2 * frame + 1] != 0 else { frame += 1; continue }
            var end = frame, zeros = 0
            while end < frames, zeros < 9_600 {
                zeros = played[2 * end + 1] == 0 ? zeros + 1 : 0
                end += 1
            }
            let peak = (frame..<end).map { Double(abs(played[2 * $0 + 1])) }.max() ?? 0
            levels.append(try #require(HeadphoneCalibration.levels(amplitude: peak, frequencyHz: 4000, tables: tables)).hearingLevel)
            frame = end
        }
        let (samples, _) = try Self.thresholds(out + "/hearing-test.json")
        let presented = samples.flatMap { ($0["units"] as? [[String: Any]]) ?? [] }.compactMap { $0["dBHLValue"] as? Double }
        #expect(levels.count >= 5 && levels.count <= presented.count, "\(levels.count) tones played, \(presented.count) presentations")
        #expect(levels.allSatisfy { $0 <= maximum + 0.01 }, "tones above the tables' maximum \(maximum) dB HL: \(levels.filter { $0 > maximum })")
        // The procedure reached the top: a tone within one step of the maximum was played.
        #expect(levels.contains { $0 > maximum - 5 - 0.01 }, "highest tone \(levels.max() ?? -1), maximum \(maximum)")
        #expect((samples.first?["calculatedThreshold"] as? Double ?? 0) >= 1e308)
    }

    @Test("headphones that go away during a tone end the test with exit 3 naming the device, the result kept and marked incomplete",
          .enabled(if: Peer.alsaPlugin.runs, Peer.alsaPlugin.skipMessage))
    func headphonesVanish() throws {
        guard let devices = try AlsaCommandTests.pacedDevices() else { return }
        defer { devices.remove() }
        let setup = try Setup(devices)
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        try devices.add("pcm.fadingears { type atkpaced vanish_ms 300 }")
        let out = devices.folder + "/test"
        let (process, master) = try Self.spawn(["hearing-test", "--headphone", "AIRPODSV1", "--out", out, "--device", "alsa:fadingears", "--seed", "2"] + Self.fast,
                                               environment: setup.environment)
        let text = Self.readAll(master)
        process.waitUntilExit()
        #expect(process.terminationStatus == 3, "\(text)")
        #expect(text.contains("alsa:fadingears") && text.contains("No such device"), "\(text)")
        #expect(try Self.thresholds(out + "/hearing-test.json").userInfo["incomplete"] as? Bool == true)
    }

    /// Everything the terminal shows until the program closes it.
    static func readAll(_ master: Int32) -> String {
        var text: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count <= 0 { break }
            text += buffer.prefix(count)
        }
        close(master)
        return String(decoding: text, as: UTF8.self)
    }
}
