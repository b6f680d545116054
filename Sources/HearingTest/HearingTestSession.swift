import Analysis
import AudioIO
import Glibc
import InputGuards
import Recording
import SensorData
import SignalProcessing

/// What a hearing test plays and how (``HearingTestSession``).
public struct HearingTestPlan: Sendable {
    /// The threshold procedure: ResearchKit's or ASHA's (docs/audiometry.md §3, §5).
    public var procedure: AudiometrySimulation.Procedure
    /// The ears in the order tested.
    public var ears: [Audiogram.Ear]
    /// The frequencies in the order tested, each in the tables, Hz.
    public var frequenciesHz: [Double]
    /// `headphoneType` of the result.
    public var headphone: String
    /// RETSPL, dB SPL and volume curve the levels are converted through (docs/audiometry.md §7.1).
    public var tables: HeadphoneCalibration.Tables
    /// System output volume 0–1 the tables are read at (1 with a measured table).
    public var volume: Double
    /// ResearchKit's `toneDuration` (1 s): full level between 0.2-s ramps (docs/audiometry.md §2).
    public var toneSeconds: Double
    /// The pre-stimulus delay, drawn uniformly in 0.1-s steps (ResearchKit: 1.0…1.9 s).
    public var preStimulusDelaySeconds: ClosedRange<Double>
    /// ResearchKit's `postStimulusDelay` (1 s): the response window after the tone.
    public var postStimulusSeconds: Double
    /// Sample rate of the tones, Hz.
    public var sampleRateHz: Int
    /// Seed of the pre-stimulus delays.
    public var seed: UInt64

    public init(procedure: AudiometrySimulation.Procedure, ears: [Audiogram.Ear], frequenciesHz: [Double], headphone: String,
                tables: HeadphoneCalibration.Tables, volume: Double, toneSeconds: Double, preStimulusDelaySeconds: ClosedRange<Double>,
                postStimulusSeconds: Double, sampleRateHz: Int, seed: UInt64) {
        self.procedure = procedure
        self.ears = ears
        self.frequenciesHz = frequenciesHz
        self.headphone = headphone
        self.tables = tables
        self.volume = volume
        self.toneSeconds = toneSeconds
        self.preStimulusDelaySeconds = preStimulusDelaySeconds
        self.postStimulusSeconds = postStimulusSeconds
        self.sampleRateHz = sampleRateHz
        self.seed = seed
    }

    /// The highest level of the 5-dB grid the tables produce at `f` without clipping (below
    /// ``HeadphoneCalibration/maximumHearingLevel(frequencyHz:tables:volume:)``, which clips): the
    /// ASHA procedure's ceiling, dB HL.
    func ceiling(_ f: Double) -> Double {
        let maximum = HeadphoneCalibration.maximumHearingLevel(frequencyHz: f, tables: tables, volume: volume) ?? 0
        return ((maximum / 5).rounded(.up) - 1) * 5
    }
}

/// A dB HL hearing test taken at the terminal (ResearchKit's trial, docs/audiometry.md §2): for each
/// ear and frequency the procedure's levels in turn; each trial waits the pre-stimulus delay (a
/// key then is a pre-stimulus response), plays the tone through ALSA (dB HL → dB SPL → dBFS
/// through the tables, as `tone` computes it), and takes space as "heard" from the onset to the
/// end of the response window; a level that would clip is not played. After every trial the
/// result so far is written (atomically, `userInfo.incomplete` true) and a line appended to the
/// log, so a test killed at any moment leaves a valid partial result. `q` (or Ctrl-C, Ctrl-D)
/// stops.
public final class HearingTestSession {
    public enum Ending: Sendable { case completed, stopped }

    /// The most trials one ear and frequency may take (ResearchKit's cap is 20 presentations,
    /// ASHA's 40; pre-stimulus taps add trials).
    static let trialsPerEntry = 100

    let plan: HearingTestPlan
    let pcm: AlsaPCM
    let terminal: RawTerminal
    let resultPath: String
    let log: TrialLog
    let monitor: AmbientMonitor?
    let show: (String) throws -> Void
    private let started = SystemClock.monotonic()
    /// Entries of the result before this index have their threshold; the rest were begun and not finished.
    private var finishedEntries = 0

    /// `resultPath` is rewritten after every trial; `logPath` receives one JSON line per trial;
    /// with a `monitor` (started), a trial does not begin while the last second's room noise is
    /// over the limits: the test pauses, says which bands, and goes on after a quiet second.
    public init(plan: HearingTestPlan, pcm: AlsaPCM, terminal: RawTerminal, resultPath: String, logPath: String,
                monitor: AmbientMonitor? = nil, show: @escaping (String) throws -> Void) throws(RecordingError) {
        self.monitor = monitor
        self.plan = plan
        self.pcm = pcm
        self.terminal = terminal
        self.resultPath = resultPath
        log = try TrialLog(path: logPath)
        self.show = show
    }

    /// Seconds since the test began (the result's timestamps).
    private var clock: Double { SystemClock.monotonic() - started }

    private enum Key { case none, space, stop }

    private func key(until deadline: Double) -> Key {
        while true {
            let left = deadline - clock
            guard let byte = terminal.key(withinMilliseconds: Int32(clamping: Int(clamping: left * 1000, rounding: .up, to: 0...Int(Int32.max)))) else {
                if clock >= deadline { return .none }
                continue
            }
            switch byte {
            case UInt8(ascii: " "): return .space
            case UInt8(ascii: "q"), UInt8(ascii: "Q"), 3, 4: return .stop
            default: continue
            }
        }
    }

    /// Runs the test to its end or until stopped; the result as written last.
    public func run() throws -> (result: DBHLToneAudiometryResult, ending: Ending) {
        var random = SplitMix64(seed: plan.seed)
        // Tenths of a second in the delay's range (the options allow 0–30 s: at most 301 steps).
        let steps = Int(clamping: (plan.preStimulusDelaySeconds.upperBound - plan.preStimulusDelaySeconds.lowerBound) * 10,
                        rounding: .toNearestOrAwayFromZero, to: 0...3_000) + 1
        var result = DBHLToneAudiometryResult(
            identifier: "dBHLToneAudiometryStep", startDate: DateString(secondsSince1970: SystemClock.wall(), utcOffsetSeconds: 0), outputVolume: plan.volume,
            tonePlaybackDurationSeconds: plan.toneSeconds, postStimulusDelaySeconds: plan.postStimulusSeconds,
            headphoneType: plan.headphone, samples: [], userInfo: JSONObject(["incomplete": .bool(true), "procedure": .string(plan.procedure.rawValue)]))
        let total = plan.ears.count * plan.frequenciesHz.count
        try persist(result)  // a result exists from the first moment, however early the test ends
        for (earIndex, ear) in plan.ears.enumerated() {
            for (frequencyIndex, f) in plan.frequenciesHz.enumerated() {
                var engine = plan.procedure.engine(ashaCeiling: plan.ceiling(f))
                result.samples.append(.init(frequencyHz: f, channel: ear.rawValue, calculatedThresholdDecibelsHL: nil, units: []))
                let entry = earIndex * plan.frequenciesHz.count + frequencyIndex + 1
                // Pre-stimulus taps repeat an ASHA trial: at most trialsPerEntry trials, then no threshold.
                while let level = engine.nextLevel, result.samples[result.samples.count - 1].units.count < Self.trialsPerEntry {
                    guard try waitForQuiet() else { return try finish(&result, .stopped) }
                    try show("\(ear.name) ear, \(f.compactDescription) Hz (\(entry) of \(total)): tone \(engine.presentations.count + 1) at \(level.compactDescription) dB HL")
                    let unitStart = clock
                    let pre = plan.preStimulusDelaySeconds.lowerBound + Double(random.next() % UInt64(steps)) / 10
                    switch key(until: unitStart + pre) {
                    case .stop: return try finish(&result, .stopped)
                    case .space:
                        let tap = clock
                        // ResearchKit counts it (rule R3: the same level again, not heard); ASHA's
                        // procedure knows no such response: the trial is repeated.
                        if plan.procedure == .researchkit { engine.respond(.preStimulus) }
                        try record(&result, level: level, start: unitStart, pre: pre, tap: tap, timeout: 0, response: "preStimulus", frequency: f, ear: ear)
                        continue
                    case .none: break
                    }
                    guard let amplitude = HeadphoneCalibration.researchKitAmplitude(hearingLevel: level, frequencyHz: f, tables: plan.tables,
                                                                                    volume: plan.volume)?.amplitude else {
                        engine.respond(.clipped)
                        try log.append(line(["event": .string("clipped"), "frequencyHz": .number(f), "ear": .string(ear.name), "dBHL": .number(level)]))
                        continue
                    }
                    let onset = clock
                    let (heard, stop) = try play(amplitude: amplitude, frequency: f, ear: ear, onset: onset)
                    if stop { return try finish(&result, .stopped) }
                    engine.respond(heard == nil ? .missed : .heard)
                    try record(&result, level: level, start: unitStart, pre: pre, tap: heard ?? 0,
                               timeout: heard == nil ? onset + plan.toneSeconds + plan.postStimulusSeconds : 0,
                               response: heard == nil ? "missed" : "heard", frequency: f, ear: ear)
                }
                result.samples[result.samples.count - 1].calculatedThresholdDecibelsHL = engine.threshold
                finishedEntries = result.samples.count
                try persist(result)
            }
        }
        return try finish(&result, .completed)
    }

    /// True at once when the room is quiet (or unmonitored); otherwise pauses until a whole
    /// second within the limits (true) or a stop key (false). A failed microphone ends the test.
    private func waitForQuiet() throws -> Bool {
        guard let monitor else { return true }
        func check() throws(RecordingError) -> (AmbientMonitor.Reading?, Int) {
            let latest = monitor.latest
            if let failure = latest.failure {
                throw RecordingError(file: "alsa:" + monitor.device, reason: .sample("the ambient-noise microphone failed: \(failure)"))
            }
            return (latest.reading, latest.count)
        }
        var (reading, seen) = try check()
        guard let loud = reading, !loud.exceedances.isEmpty else { return true }
        let bands = loud.exceedances.map(\.description)
        try show("paused, the room is too loud: \(bands.joined(separator: "; ")). Waiting for quiet (q stops).")
        try log.append(line(["event": .string("paused"), "time": .number(clock), "bands": .array(loud.exceedances.map { .number($0.bandHz) })]))
        while true {
            if case .stop = key(until: clock + 0.1) { return false }
            let now = try check()
            guard now.1 > seen else { continue }
            (reading, seen) = now
            if let quiet = reading, quiet.exceedances.isEmpty {
                try log.append(line(["event": .string("resumed"), "time": .number(clock)]))
                return true
            }
        }
    }

    /// Plays one tone from `onset` and listens until the window closes: the tap time (nil: none)
    /// and whether the listener stopped the test.
    private func play(amplitude: Double, frequency: Double, ear: Audiogram.Ear, onset: Double) throws -> (tap: Double?, stop: Bool) {
        let tone = ToneSpecification(frequencyHz: frequency, amplitude: amplitude, durationSeconds: plan.toneSeconds,
                                     ear: ear == .left ? .left : .right, ramp: .researchKit, sampleRateHz: Double(plan.sampleRateHz))
        var samples = try tone.render()
        let chunk = 2 * max(1, plan.sampleRateHz / 100)  // 10 ms of stereo frames
        var offset = 0
        var outcome: (tap: Double?, stop: Bool) = (nil, false)
        while offset < samples.count {
            let end = min(samples.count, offset + chunk)
            try pcm.write(Array(samples[offset..<end]))
            offset = end
            switch key(until: clock) {
            case .none: continue
            case .space: outcome.tap = clock
            case .stop: outcome.stop = true
            }
            // Stop the tone: a 20-ms fade from here.
            let fade = min(samples.count - offset, 2 * max(1, plan.sampleRateHz / 50))
            for i in stride(from: 0, to: fade, by: 2) {
                let gain = Float(1 - Double(i) / Double(fade))
                samples[offset + i] *= gain
                samples[offset + i + 1] *= gain
            }
            try pcm.write(Array(samples[offset..<(offset + fade)]))
            break
        }
        // Silence after the tone, so a device that runs dry repeats nothing audible.
        try pcm.write([Float](repeating: 0, count: chunk * 25))
        if outcome.tap == nil, !outcome.stop {
            switch key(until: onset + plan.toneSeconds + plan.postStimulusSeconds) {
            case .none: break
            case .space: outcome.tap = clock
            case .stop: outcome.stop = true
            }
        }
        try pcm.finishBurst()
        return outcome
    }

    private func record(_ result: inout DBHLToneAudiometryResult, level: Double, start: Double, pre: Double, tap: Double, timeout: Double,
                        response: String, frequency: Double, ear: Audiogram.Ear) throws {
        result.samples[result.samples.count - 1].units.append(
            .init(dBHLValue: level, startOfUnitTimeStamp: start, preStimulusDelay: pre, userTapTimeStamp: tap, timeoutTimeStamp: timeout))
        try log.append(line(["event": .string(response), "frequencyHz": .number(frequency), "ear": .string(ear.name), "dBHL": .number(level),
                             "startOfUnitTimeStamp": .number(start), "preStimulusDelay": .number(pre), "userTapTimeStamp": .number(tap),
                             "timeoutTimeStamp": .number(timeout)]))
        try persist(result)
    }

    private func line(_ fields: KeyValuePairs<String, JSONValue>) -> String {
        JSONWriter().string(.object(JSONObject(fields)))
    }

    /// Writes `result` with the entries from ``finishedEntries`` on named in userInfo as not
    /// finished, so a test that stops or is killed mid-entry is never read as "no response" there.
    private func persist(_ result: DBHLToneAudiometryResult) throws {
        let marked = result.markingUnfinished(from: finishedEntries)
        try OutputFile.write(JSONWriter(indent: 2).string(marked.researchKitJSON), to: resultPath, inputs: [])
    }

    private func finish(_ result: inout DBHLToneAudiometryResult, _ ending: Ending) throws -> (result: DBHLToneAudiometryResult, ending: Ending) {
        result.endDate = DateString(secondsSince1970: SystemClock.wall(), utcOffsetSeconds: 0)
        result.userInfo = JSONObject(["incomplete": .bool(ending == .stopped), "procedure": .string(plan.procedure.rawValue)])
        result = result.markingUnfinished(from: finishedEntries)
        try persist(result)
        try log.append(line(["event": .string(ending == .completed ? "completed" : "stopped")]))
        return (result, ending)
    }
}

/// The trial log: one JSON line per event, each written with one `write` and made durable with
/// `fsync` before the test goes on (a killed test loses no trial it had finished).
final class TrialLog {
    let path: String
    let descriptor: Int32

    init(path: String) throws(RecordingError) {
        self.path = path
        do {
            descriptor = try FileSystem.open(path, flags: O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, mode: 0o644)
        } catch {
            throw RecordingError(file: path, reason: .system(call: "open", message: error.reason))
        }
    }

    deinit { FileSystem.close(descriptor) }

    func append(_ line: String) throws(RecordingError) {
        let bytes = Array((line + "\n").utf8)
        do throws(FileSystem.Failure) {
            try bytes.withUnsafeBytes { raw in Result { () throws(FileSystem.Failure) in try FileSystem.write(descriptor, path: path, raw) } }.get()
            try FileSystem.synchronize(descriptor, path: path)
        } catch {
            throw RecordingError(file: path, reason: .system(call: error.operation, message: error.reason))
        }
    }
}
