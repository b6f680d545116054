import Analysis
import AudioIO
import InputGuards
import Recording
import Scoring
import SensorData

/// How a hearing test ended: its result as written, the files and a line per threshold.
public struct HearingTestOutcome: Sendable {
    /// The result as last written to ``resultPath``.
    public var result: DBHLToneAudiometryResult
    /// Whether every entry was tested or the listener stopped.
    public var ending: HearingTestSession.Ending
    /// `DIR/hearing-test.json`.
    public var resultPath: String

    /// One line per ear and frequency: its threshold, "none (no response)" or "not finished".
    public var thresholdLines: [String] {
        let unfinished = result.unfinishedEntries
        return result.samples.map { sample in
            let threshold = sample.calculatedThresholdDecibelsHL.map { "\($0.compactDescription) dB HL" }
                ?? (unfinished.contains(.init(sample)) ? "not finished" : "none (no response)")
            return "\(sample.channel == 0 ? "left " : "right") \(sample.frequencyHz.compactDescription) Hz: \(threshold)"
        }
    }
}

extension HearingTestSpec {
    /// The headphone's name and tables: a measured table read from ``calibration`` or
    /// ResearchKit's tables of ``headphone``, holding every frequency tested.
    public func headphoneTables() throws(HearingTestError) -> (name: String, tables: HeadphoneCalibration.Tables) {
        let found: (name: String, tables: HeadphoneCalibration.Tables)
        if let calibration {
            do {
                let measured = try HeadphoneCalibration.Measured(bytes: try FileBytes.read(calibration, maximumBytes: 1 << 20), file: calibration)
                found = (measured.headphone, measured.tables)
            } catch {
                throw HearingTestError(.invalidInput, error.description)
            }
        } else {
            guard let headphone, let tables = HeadphoneCalibration.tables(for: headphone, version: tables) else {
                throw HearingTestError(.badRequest, "unknown headphone \"\(headphone ?? "")\" for tables \(tables.rawValue)")
            }
            found = (headphone.uppercased(), tables)
        }
        let missing = frequenciesHz.filter { found.tables.retspl[$0] == nil || found.tables.dBSPL[$0] == nil }
        guard missing.isEmpty else {
            throw HearingTestError(calibration == nil ? .badRequest : .invalidInput,
                                   "\(calibration ?? found.name) has no calibration for \(missing.map { $0.compactDescription }.joined(separator: ", ")) Hz")
        }
        return found
    }

    /// The microphone's offset, dB SPL at RMS 1.0, and whether it is a calibration (else
    /// ResearchKit's iPhone offset).
    public func microphoneOffset() throws(HearingTestError) -> (offset: Double, calibrated: Bool) {
        guard let microphoneCalibration else { return (SPLScorer.Parameters().calibrationOffsetDecibels, false) }
        if let value = Double(microphoneCalibration) {
            guard value.isFinite, abs(value) <= 400 else {
                throw HearingTestError(.badRequest, "microphoneCalibration \(microphoneCalibration): an offset within ±400 dB is required")
            }
            return (value, true)
        }
        do {
            return (try CalibrationFile(path: microphoneCalibration).offsetDecibels, true)
        } catch {
            throw HearingTestError(.invalidInput, error.description)
        }
    }

    /// Takes the test at the terminal on standard input: resolves the calibration, opens the
    /// playback device (and the microphone, checking the room first), runs the session and
    /// writes `folder`/hearing-test.json, trials.jsonl and audiogram.svg. `say` prints a line,
    /// `show` rewrites the progress line, `warn` goes to the error stream; their errors end the
    /// test unchanged.
    public func run(folder: String, say: (String) throws -> Void, show: @escaping (String) throws -> Void,
                    warn: (String) -> Void) throws -> HearingTestOutcome {
        if let problem = problems.first { throw HearingTestError(.badRequest, problem) }
        let (headphoneName, table) = try headphoneTables()
        let (micOffset, micCalibrated) = try microphoneOffset()
        let terminal: RawTerminal
        do { terminal = try RawTerminal() } catch {
            throw HearingTestError(.badRequest, "standard input is not a terminal: the hearing test takes key presses (\(error.description))")
        }
        defer { terminal.restore() }
        // Opening a device, and the room check, end by a deadline (a device that never answers).
        let opening = DeviceWait(seconds: RecorderPlan.DeviceOptions().openTimeoutSeconds)
        let pcm: AlsaPCM
        do { pcm = try opening.openPlayback(SourceAddress(device)!.alsaDevice!, sampleRateHz: sampleRateHz, channels: 2, purpose: "the tones") } catch {
            throw HearingTestError(.invalidInput, error.description)
        }
        let monitor = try checkRoom(opening: opening, offset: micOffset, calibrated: micCalibrated, say: say, warn: warn)
        defer { monitor?.stop() }
        do { try FileSystem.makeDirectory(folder) } catch { throw HearingTestError(.badRequest, "\(folder): \(error.description)") }
        let plan = HearingTestPlan(
            procedure: procedure, ears: ears, frequenciesHz: frequenciesHz, headphone: headphoneName, tables: table, volume: volume,
            toneSeconds: toneSeconds, preStimulusDelaySeconds: preStimulusMinSeconds...preStimulusMaxSeconds, postStimulusSeconds: postStimulusSeconds,
            sampleRateHz: sampleRateHz, seed: seed ?? UInt64(clamping: Int(SystemClock.wall() * 1e6)))
        let resultPath = folder + "/hearing-test.json"
        try say("Hearing test: \(ears.map(\.name).joined(separator: " then ")) ear, \(frequenciesHz.map { $0.compactDescription }.joined(separator: ", ")) Hz, "
            + "\(headphoneName), \(procedure.rawValue) procedure.")
        try say("Press space as soon as you hear a tone, however faint; q stops.")
        let session: HearingTestSession
        do {
            session = try HearingTestSession(plan: plan, pcm: pcm, terminal: terminal, resultPath: resultPath, logPath: folder + "/trials.jsonl",
                                             monitor: monitor, show: show)
        } catch {
            throw HearingTestError(.invalidInput, error.description)
        }
        let (result, ending): (DBHLToneAudiometryResult, HearingTestSession.Ending)
        do {
            (result, ending) = try session.run()
        } catch let error as RecordingError {
            throw HearingTestError(.invalidInput, error.description)
        } catch let error as AudioError {
            throw HearingTestError(.invalidInput, error.description)
        }
        try say("")
        try OutputFile.write(Audiogram(result).svg(title: "Hearing test, \(headphoneName)", legend: ["\(procedure.rawValue) procedure"]),
                             to: folder + "/audiogram.svg", inputs: [])
        return HearingTestOutcome(result: result, ending: ending, resultPath: resultPath)
    }

    /// With a ``microphone``: opens it, measures the room for ``ambientSeconds`` against ISO
    /// 8253-1's limits (too loud: an error naming each band) and returns the started monitor;
    /// without one, nil and a warning that the room is not checked.
    private func checkRoom(opening: DeviceWait, offset: Double, calibrated: Bool, say: (String) throws -> Void,
                           warn: (String) -> Void) throws -> AmbientMonitor? {
        guard let microphone else {
            warn("warning: no microphone: the room's noise is not checked (ISO 8253-1)")
            return nil
        }
        // The column of the lowest frequency tested (Table 2 starts at 125 Hz).
        guard let limits = AmbientNoiseLimits.limits(lowestTestFrequencyHz: max(125, frequenciesHz.min() ?? 125), lowestHearingLevel: lowestLevelDecibelsHL,
                                                     earphone: earphone) else {
            throw HearingTestError(.badRequest, "no ISO 8253-1 limits for these frequencies")
        }
        let micDevice = SourceAddress(microphone)!.alsaDevice!, seconds = ambientSeconds, micRate = microphoneSampleRateHz
        let ambient: AmbientMonitor
        let reading: AmbientMonitor.Reading
        do {
            ambient = try opening.run("open", source: microphone) { () throws(RecordingError) in
                do throws(AudioError) { return try AmbientMonitor(device: micDevice, sampleRateHz: micRate, offsetDecibels: offset, limits: limits) } catch {
                    throw RecordingError(file: microphone, reason: .sample(error.message))
                }
            }
            if !calibrated { warn("warning: the microphone has no calibration: the ambient check uses ResearchKit's iPhone offset \(offset) dB and is uncalibrated") }
            try say("Checking the room for \(seconds.compactDescription) s; keep quiet.")
            // The check reads 0.5 s more (the filters settle) and may lag the clock by the monitor's stale bound.
            reading = try DeviceWait(seconds: seconds + 0.5 + AmbientMonitor.staleSeconds).run("deliver \(seconds.compactDescription) s of sound", source: microphone) {
                () throws(RecordingError) in
                do throws(AudioError) { return try ambient.measure(seconds: seconds) } catch { throw RecordingError(file: microphone, reason: .sample(error.message)) }
            }
        } catch let error as RecordingError {
            throw HearingTestError(.invalidInput, error.description)
        }
        guard reading.exceedances.isEmpty else {
            throw HearingTestError(.unusable, "the room is too loud for a test down to \(lowestLevelDecibelsHL.compactDescription) dB HL "
                + "(ISO 8253-1:2010, \(earphone.rawValue) earphones): " + reading.exceedances.map(\.description).joined(separator: "; "))
        }
        try say("The room is within ISO 8253-1's limits in every band (\(earphone.rawValue) earphones, down to \(lowestLevelDecibelsHL.compactDescription) dB HL).")
        ambient.start()
        return ambient
    }
}
