import Analysis
import ArgumentParser
import AudioIO
import Glibc
import InputGuards
import Recording
import Scoring
import SensorData

/// `activetask hearing-test`: a dB HL pure-tone test at the terminal.
struct HearingTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hearing-test",
        abstract: "Take a dB HL pure-tone hearing test at the terminal: calibrated tones through ALSA, space when heard.",
        discussion: """
            For each ear and frequency the procedure's levels are played (dB HL → dB SPL through the headphone's RETSPL \
            → dBFS, as `tone` computes them) with ResearchKit's trial: a pre-stimulus delay (a key then counts as a \
            pre-stimulus response), the tone with 0.2-s ramps, and the response window after it. Space = heard; q stops. \
            Writes DIR/hearing-test.json (an ORKdBHLToneAudiometryResult, rewritten after every trial; userInfo.incomplete \
            until the end), DIR/trials.jsonl (one line per trial, synced) and DIR/audiogram.svg.
            """
    )

    @Option(name: .long, help: "ResearchKit headphone id (AIRPODSV1, AIRPODSPROV2, EARPODS, …); or --calibration.") var headphone: String?
    @Option(name: .long, help: "A measured calibration table (CSV or JSON: frequency → dB SPL at a reference dBFS, RETSPL) in place of --headphone.") var calibration: String?
    @Option(name: .long, help: "Table version for --headphone: rk-2.x, rk-3.0, rk-3.2.") var tables: HeadphoneCalibration.TableVersion = .researchKit3_2
    @Option(name: .long, help: "System output volume 0–1 the --headphone tables are read at (a measured table holds at its own volume only).") var volume: Double = 1
    @Option(name: .long, help: "Output folder.") var out: String
    @Option(name: .long, help: "researchkit or asha.") var procedure: AudiometrySimulation.Procedure = .researchkit
    @Option(name: .long, help: "Ears in order: left, right or both, comma-separated.") var ears: String = "right,left"
    @Option(name: .long, help: "Frequencies in order, Hz, comma-separated.") var frequencies: String = "1000,2000,4000,8000,500,250"
    @Option(name: .long, help: "Playback device, alsa:DEVICE.") var device: String = "alsa:default"
    @Option(name: .long, help: "Sample rate of the tones, Hz.") var sampleRate: Int = 48_000
    @Option(name: .long, help: "Full-level tone duration, s (ResearchKit's toneDuration: 1).") var toneSeconds: Double = 1
    @Option(name: .long, help: "Shortest pre-stimulus delay, s (ResearchKit: 1.0).") var preStimulusMin: Double = 1
    @Option(name: .long, help: "Longest pre-stimulus delay, s, drawn in 0.1-s steps (ResearchKit: 1.9).") var preStimulusMax: Double = 1.9
    @Option(name: .long, help: "Response window after the tone, s (ResearchKit's postStimulusDelay: 1).") var postStimulusSeconds: Double = 1
    @Option(name: .long, help: "Seed of the pre-stimulus delays (default: the clock).") var seed: UInt64?
    @Option(name: .long, help: "Microphone for the ambient-noise check (alsa:DEVICE): before the test and between trials, the one-third-octave bands 31.5 Hz–8 kHz against ISO 8253-1:2010's limits.") var mic: String?
    @Option(name: .long, help: "The microphone's calibration: an offset in dB SPL at RMS 1.0, or the JSON `calibrate --json` writes (default: ResearchKit's iPhone offset, with a warning that the check is uncalibrated).") var micCalibration: String?
    @Option(name: .long, help: "Earphones for the ambient limits (ISO 8253-1 Table 3): supra-aural, ER-3A or HDA-200.") var earphone: AmbientNoiseLimits.Earphone = .supraAural
    @Option(name: .long, parsing: .unconditional, help: "The lowest hearing level the ambient limits must allow, dB HL (ISO 8253-1 clause 11: the limits move with it).") var lowestLevel: Double = 0
    @Option(name: .long, help: "Length of the ambient check before the test, s.") var ambientSeconds: Double = 3

    func validate() throws {
        try OptionCheck.require(volume, "--volume", in: 0...1)
        try OptionCheck.require(sampleRate, "--sample-rate", in: 8_000...384_000)
        try OptionCheck.require(toneSeconds, "--tone-seconds", in: 0.05...30, "s")
        try OptionCheck.require(preStimulusMin, "--pre-stimulus-min", in: 0...30, "s")
        try OptionCheck.require(preStimulusMax, "--pre-stimulus-max", in: preStimulusMin...30, "s")
        try OptionCheck.require(postStimulusSeconds, "--post-stimulus-seconds", in: 0.1...30, "s")
        guard (headphone == nil) != (calibration == nil) else { throw ValidationError("give --headphone ID or --calibration FILE") }
        if calibration != nil, volume != 1 { throw ValidationError("--volume is for --headphone tables; a measured table holds at the volume it was measured at") }
        guard Self.alsaDevice(device) != nil else { throw ValidationError("--device takes alsa:DEVICE, got \"\(device)\"") }
        try OptionCheck.require(lowestLevel, "--lowest-level", in: -20...80, "dB HL")
        try OptionCheck.require(ambientSeconds, "--ambient-seconds", in: 0.5...600, "s")
        if let mic, Self.alsaDevice(mic) == nil { throw ValidationError("--mic takes alsa:DEVICE, got \"\(mic)\"") }
        if mic == nil, micCalibration != nil { throw ValidationError("--mic-calibration needs --mic") }
        _ = try parsedEars()
        _ = try parsedFrequencies()
    }

    /// The ALSA device `text` names (`alsa:DEVICE`), nil for any other source.
    static func alsaDevice(_ text: String) -> String? {
        if case .alsa(let device) = SourceAddress(text) { device } else { nil }
    }

    /// The microphone's offset, dB SPL at RMS 1.0, and whether it is a calibration.
    func microphoneOffset() throws -> (offset: Double, calibrated: Bool) {
        guard let micCalibration else { return (SPLScorer.Parameters().calibrationOffsetDecibels, false) }
        if let value = Double(micCalibration) {
            guard value.isFinite, abs(value) <= 400 else { throw CommandFailure(.badInvocation, "--mic-calibration \(micCalibration): an offset within ±400 dB is required") }
            return (value, true)
        }
        do {
            return (try CalibrationFile(path: micCalibration).offsetDecibels, true)
        } catch {
            throw CommandFailure(.invalidInput, error.description)
        }
    }

    func parsedEars() throws -> [Audiogram.Ear] {
        var list: [Audiogram.Ear] = []
        for name in ears.split(separator: ",") {
            switch name {
            case "left": list.append(.left)
            case "right": list.append(.right)
            case "both": list += [.right, .left]
            default: throw ValidationError("--ears: left, right or both, got \"\(name)\"")
            }
        }
        guard !list.isEmpty, Set(list).count == list.count else { throw ValidationError("--ears names each ear at most once") }
        return list
    }

    func parsedFrequencies() throws -> [Double] {
        let list = frequencies.split(separator: ",").map { Double($0) }
        guard !list.isEmpty, list.count <= 64, list.allSatisfy({ $0.map { $0.isFinite && $0 >= 20 && $0 <= 20_000 } ?? false }) else {
            throw ValidationError("--frequencies: 1 to 64 frequencies in 20–20000 Hz, comma-separated")
        }
        return list.compactMap { $0 }
    }

    func run() throws {
        let frequencyList = try parsedFrequencies()
        let headphoneName: String
        let table: HeadphoneCalibration.Tables
        if let calibration {
            do {
                let measured = try HeadphoneCalibration.Measured(bytes: try FileBytes.read(calibration, maximumBytes: 1 << 20), file: calibration)
                (headphoneName, table) = (measured.headphone, measured.tables)
            } catch {
                throw CommandFailure(.invalidInput, error.description)
            }
        } else {
            guard let headphone, let found = HeadphoneCalibration.tables(for: headphone, version: tables) else {
                throw CommandFailure(.badInvocation, "unknown headphone \"\(headphone ?? "")\" for tables \(tables.rawValue)")
            }
            (headphoneName, table) = (headphone.uppercased(), found)
        }
        let missing = frequencyList.filter { table.retspl[$0] == nil || table.dBSPL[$0] == nil }
        guard missing.isEmpty else {
            throw CommandFailure(calibration == nil ? .badInvocation : .invalidInput,
                                 "\(calibration ?? headphoneName) has no calibration for \(missing.map { $0.compactDescription }.joined(separator: ", ")) Hz")
        }
        let (micOffset, micCalibrated) = try microphoneOffset()
        let terminal: RawTerminal
        do { terminal = try RawTerminal() } catch {
            throw CommandFailure(.badInvocation, "standard input is not a terminal: the hearing test takes key presses (\(error.description))")
        }
        defer { terminal.restore() }
        // Opening a device, and the room check, end by a deadline (a device that never answers).
        let opening = DeviceWait(seconds: RecorderPlan.DeviceOptions().openTimeoutSeconds)
        let pcm: AlsaPCM
        do {
            pcm = try opening.openPCM(Self.alsaDevice(device)!, direction: .playback, format: .float, sampleRateHz: sampleRate, channels: 2)
        } catch {
            throw CommandFailure(.invalidInput, error.description)
        }
        guard pcm.negotiated.sampleRateHz == sampleRate, pcm.negotiated.channels == 2 else {
            throw CommandFailure(.invalidInput, "\(device) gives \(pcm.differences(format: .float, sampleRateHz: sampleRate, channels: 2).joined(separator: ", ")); "
                + "the tones need \(sampleRate) Hz in 2 channels (a plughw: device converts)")
        }
        var monitor: AmbientMonitor?
        if let mic {
            // The column of the lowest frequency tested (Table 2 starts at 125 Hz).
            guard let limits = AmbientNoiseLimits.limits(lowestTestFrequencyHz: max(125, frequencyList.min()!), lowestHearingLevel: lowestLevel, earphone: earphone) else {
                throw CommandFailure(.badInvocation, "no ISO 8253-1 limits for these frequencies")
            }
            let ambient: AmbientMonitor
            let micDevice = Self.alsaDevice(mic)!, seconds = ambientSeconds
            do {
                ambient = try opening.run("open", source: mic) { () throws(RecordingError) in
                    do throws(AudioError) { return try AmbientMonitor(device: micDevice, sampleRateHz: 48_000, offsetDecibels: micOffset, limits: limits) } catch {
                        throw RecordingError(file: mic, reason: .sample(error.message))
                    }
                }
            } catch {
                throw CommandFailure(.invalidInput, error.description)
            }
            if !micCalibrated { printError("warning: --mic-calibration not given: the ambient check uses ResearchKit's iPhone offset \(micOffset) dB and is uncalibrated") }
            try print("Checking the room for \(ambientSeconds.compactDescription) s; keep quiet.", terminator: "\r\n")
            // The check reads 0.5 s more (the filters settle) and may lag the clock by the monitor's stale bound.
            let reading: AmbientMonitor.Reading
            do {
                reading = try DeviceWait(seconds: seconds + 0.5 + AmbientMonitor.staleSeconds).run("deliver \(seconds.compactDescription) s of sound", source: mic) {
                    () throws(RecordingError) in
                    do throws(AudioError) { return try ambient.measure(seconds: seconds) } catch { throw RecordingError(file: mic, reason: .sample(error.message)) }
                }
            } catch {
                throw CommandFailure(.invalidInput, error.description)
            }
            guard reading.exceedances.isEmpty else {
                throw CommandFailure(.unusable, "the room is too loud for a test down to \(lowestLevel.compactDescription) dB HL (ISO 8253-1:2010, \(earphone.rawValue) earphones): "
                    + reading.exceedances.map(\.description).joined(separator: "; "))
            }
            try print("The room is within ISO 8253-1's limits in every band (\(earphone.rawValue) earphones, down to \(lowestLevel.compactDescription) dB HL).", terminator: "\r\n")
            ambient.start()
            monitor = ambient
        } else {
            printError("warning: no --mic: the room's noise is not checked (ISO 8253-1)")
        }
        defer { monitor?.stop() }
        do { try FileSystem.makeDirectory(out) } catch { throw CommandFailure(.badInvocation, "\(out): \(error.description)") }
        let plan = HearingTestPlan(
            procedure: procedure, ears: try parsedEars(), frequenciesHz: frequencyList, headphone: headphoneName, tables: table, volume: volume,
            toneSeconds: toneSeconds, preStimulusDelaySeconds: preStimulusMin...preStimulusMax, postStimulusSeconds: postStimulusSeconds,
            sampleRateHz: sampleRate, seed: seed ?? UInt64(clamping: Int(SystemClock.wall() * 1e6)))
        let resultPath = out + "/hearing-test.json"
        try print("Hearing test: \(plan.ears.map(\.name).joined(separator: " then ")) ear, \(frequencyList.map { $0.compactDescription }.joined(separator: ", ")) Hz, \(headphoneName), \(procedure.rawValue) procedure.", terminator: "\r\n")
        try print("Press space as soon as you hear a tone, however faint; q stops.", terminator: "\r\n")
        let session: HearingTestSession
        do {
            session = try HearingTestSession(plan: plan, pcm: pcm, terminal: terminal, resultPath: resultPath, logPath: out + "/trials.jsonl",
                                             monitor: monitor) { line in
                // Straight to the terminal, unbuffered: the progress line is rewritten in place.
                try StandardStream.output.write("\r\u{1B}[K" + line)
            }
        } catch {
            throw CommandFailure(.invalidInput, error.description)
        }
        let (result, ending): (DBHLToneAudiometryResult, HearingTestSession.Ending)
        do {
            (result, ending) = try session.run()
        } catch let error as RecordingError {
            throw CommandFailure(.invalidInput, error.description)
        } catch let error as AudioError {
            throw CommandFailure(.invalidInput, error.description)
        } catch let refusal as OutputFile.Refusal {
            throw refusal.failure
        } catch let failure as FileSystem.Failure {
            throw CommandFailure(failure)
        }
        try print("", terminator: "\r\n")
        let audiogram = Audiogram(result)
        try OutputFile.writeOrExit(audiogram.svg(title: "Hearing test, \(headphoneName)", legend: ["\(procedure.rawValue) procedure"]), to: out + "/audiogram.svg", inputs: [])
        let unfinished = result.unfinishedEntries
        for sample in result.samples {
            let threshold = sample.calculatedThresholdDecibelsHL.map { "\($0.compactDescription) dB HL" }
                ?? (unfinished.contains(.init(sample)) ? "not finished" : "none (no response)")
            try print("\(sample.channel == 0 ? "left " : "right") \(sample.frequencyHz.compactDescription) Hz: \(threshold)", terminator: "\r\n")
        }
        try print("wrote \(resultPath)\(ending == .stopped ? " (stopped: incomplete)" : "")", terminator: "\r\n")
        if ending == .stopped { throw CommandFailure(.unusable) }
    }
}
extension AmbientNoiseLimits.Earphone: ExpressibleByArgument {}
