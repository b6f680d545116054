import InputGuards
import Foundation
import SensorData
import Synchronization

/// A stop request shared by the recorders of a step (a stop condition, a signal, the caller).
public final class StopSignal: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    public func stop() { flag.store(true, ordering: .relaxed) }
    public var isStopped: Bool { flag.load(ordering: .relaxed) }
}

/// One recorder of an active step and where its samples come from.
public struct RecorderPlan: Sendable {
    public enum Source: Sendable {
        /// A deterministic simulator (``SimulatorSettings``).
        case simulate(SimulatorSettings)
        /// The items of a recording the readers accept, in their order.
        case replay(path: String)
        /// Lines from stdin or a socket as they arrive (sensor kinds), through a bounded queue.
        case live(LiveLineSource)
        /// Accelerometer scans of a Linux IIO device's buffer (``IIOSource``), through the same bounded queue.
        case iio(IIOSource)
        /// Heart-rate notifications of a Bluetooth LE strap through BlueZ (``BLEHeartRateSource``), through the same queue.
        case ble(BLEHeartRateSource)
        /// Audio from an ALSA capture device, opened in the configuration's encoding or the
        /// nearest the device gives (``AlsaCapture``); the WAV takes the rate and channels it gives.
        case alsa(AlsaCapture)
    }

    /// The recorder's identifier, kind, frequency, rollover and flush interval.
    public var configuration: RecorderConfiguration
    /// Where its samples come from, opened or bound already.
    public var source: Source

    public init(_ configuration: RecorderConfiguration, source: Source) {
        self.configuration = configuration
        self.source = source
    }
}

/// An active step (ResearchKit's `ORKActiveStep` with recorder configurations): several recorders
/// run concurrently, one task each, until the duration has passed, a pedometer has counted
/// `stopAfterSteps` (ResearchKit's walking step), or the stop signal is raised.
///
/// Backpressure: simulators and replays are pulled (they produce a batch only when their
/// recorder asks for it), so a slow writer slows its source and nothing is lost. Live sources
/// (stdin, sockets) are read on their own thread into a bounded queue; when the writer falls
/// behind by more than the queue holds, the reader waits and the sender is slowed by flow
/// control (``OverflowPolicy/block``), or arriving chunks are dropped whole and counted
/// (``OverflowPolicy/drop``, ``RecorderReport/itemsDropped``), never silently. A live recorder ends
/// with its sender, at a bad line (reported with its number; the items before it are kept), or
/// with the step.
public struct ActiveStepConfiguration: Sendable {
    /// The step's identifier (the ORKStepResult's).
    public var identifier: String
    /// How long the step records, s (infinity: until every source ends).
    public var durationSeconds: Double
    /// Stop when the pedometer has counted this many steps (nil: never).
    public var stopAfterSteps: Int?
    /// The recorders, run concurrently on one clock.
    public var recorders: [RecorderPlan]
    /// Pace sources in real time (false: as fast as the writers go).
    public var realTime: Bool

    public init(identifier: String, durationSeconds: Double, stopAfterSteps: Int? = nil, recorders: [RecorderPlan], realTime: Bool = true) {
        self.identifier = identifier
        self.durationSeconds = durationSeconds
        self.stopAfterSteps = stopAfterSteps
        self.recorders = recorders
        self.realTime = realTime
    }
}

/// What an active step produced: ResearchKit's `ORKStepResult` with one file result per file.
public struct StepResult: Sendable {
    /// The step's identifier.
    public var identifier: String
    /// When the step began, s since 1970.
    public var startSeconds: Double
    /// When the step ended, s since 1970.
    public var endSeconds: Double
    /// Every finished file of every recorder, in recorder order.
    public var fileResults: [FileResult]
    /// What each recorder wrote, refused, dropped and met, in configuration order.
    public var reports: [RecorderReport]

    /// Items (audio: frames) written per recorder identifier.
    public var itemsWritten: [String: Int] { Dictionary(reports.map { ($0.identifier, $0.itemsWritten) }, uniquingKeysWith: +) }
    /// Why the step ended: "duration", "steps" or "stopped".
    public var endReason: String

    /// `ORKStepResult` in dialect A with its `ORKFileResult`s.
    public func researchKitJSON(utcOffsetSeconds: Int) -> JSONValue {
        var object = JSONObject()
        object.append("_class", .string("ORKStepResult"))
        object.append("identifier", .string(identifier))
        object.append("startDate", .string(DateString(secondsSince1970: startSeconds, utcOffsetSeconds: utcOffsetSeconds).researchKitText))
        object.append("endDate", .string(DateString(secondsSince1970: endSeconds, utcOffsetSeconds: utcOffsetSeconds).researchKitText))
        object.append("userInfo", .object(JSONObject()))
        object.append("results", .array(fileResults.map { $0.researchKitJSON(utcOffsetSeconds: utcOffsetSeconds) }))
        return .object(object)
    }
}

/// One recorder's account of a step.
public struct RecorderReport: Sendable {
    /// The recorder's identifier.
    public var identifier: String
    /// Items written (audio: frames).
    public var itemsWritten: Int
    /// Items refused as unwritable (NaN in a required field, …), and why the first was.
    public var itemsRejected = 0
    /// Why the first refused item was refused.
    public var firstRejection: String?
    /// Live sources: items dropped because the writer fell behind the queue, and the lines of
    /// the first dropped chunk.
    public var itemsDropped = 0
    /// The source lines of the first dropped run of items, when known.
    public var firstDroppedLines: ClosedRange<Int>?
    /// Source warnings (a sampling rate other than the configured frequency, with its lines).
    public var warnings: [String] = []
    /// The source's error (a bad line, with its number; a failed read): the recorder stopped
    /// there and its files hold every item before it.
    public var sourceError: RecordingError?
}

/// Progress of the recorder that carries the stop condition (the pedometer): batches done, and
/// the batch at which the condition was met. Other sensor recorders do not run ahead of it, so
/// in a paced or an as-fast-as-possible run every recorder stops at the same batch.
final class ConditionProgress: Sendable {
    private let done = Atomic<Int>(0)
    private let stopAt = Atomic<Int>(Int.max)
    private let finished = Atomic<Bool>(false)

    func completed(_ batches: Int) { done.store(batches, ordering: .releasing) }
    func conditionMet(after batches: Int) { stopAt.store(batches, ordering: .releasing) }
    func finish() { finished.store(true, ordering: .releasing) }
    var stopBatch: Int { stopAt.load(ordering: .acquiring) }

    /// Waits until batch `index` may be recorded; false when the step ends before it.
    func mayRecord(_ index: Int) async -> Bool {
        while index >= done.load(ordering: .acquiring) && !finished.load(ordering: .acquiring) {
            await Task.yield()
        }
        return index < stopBatch
    }
}

public enum ActiveStep {
    /// Runs the step; every recorder's files are finished before it returns.
    public static func run(_ step: ActiveStepConfiguration, outputDirectory: String, stop: StopSignal = StopSignal()) async throws -> StepResult {
        let start = SystemClock.wall()
        let stepsReached = StopSignal()
        let condition: ConditionProgress? = step.stopAfterSteps == nil ? nil : ConditionProgress()
        // Live readers start with the step, not when their recorder's task is first scheduled.
        for plan in step.recorders {
            switch plan.source {
            case .live(let live): live.start()
            case .iio(let source): source.start()
            case .ble(let source): source.start()
            default: break
            }
        }
        var outcomes: [(files: [FileResult], report: RecorderReport)] = []
        try await withThrowingTaskGroup(of: ([FileResult], RecorderReport).self) { group in
            for plan in step.recorders {
                group.addTask {
                    try await record(plan, step: step, start: start, outputDirectory: outputDirectory, stop: stop,
                                     stepsReached: stepsReached, condition: condition)
                }
            }
            for try await outcome in group { outcomes.append(outcome) }
        }
        // File results in the order of the configuration, as ResearchKit lists its recorders.
        let order = step.recorders.map(\.configuration.identifier)
        outcomes.sort { (order.firstIndex(of: $0.report.identifier) ?? 0) < (order.firstIndex(of: $1.report.identifier) ?? 0) }
        let reason = stepsReached.isStopped ? "steps" : stop.isStopped ? "stopped" : "duration"
        return StepResult(identifier: step.identifier, startSeconds: start, endSeconds: SystemClock.wall(),
                          fileResults: outcomes.flatMap(\.files), reports: outcomes.map(\.report), endReason: reason)
    }

    /// One recorder's loop: pull a 50-ms batch, pace, write, until the step ends.
    private static func record(_ plan: RecorderPlan, step: ActiveStepConfiguration, start: Double, outputDirectory: String,
                               stop: StopSignal, stepsReached: StopSignal, condition: ConditionProgress?) async throws -> ([FileResult], RecorderReport) {
        let configuration = plan.configuration
        func due(_ seconds: Double) async throws {
            guard step.realTime else { return await Task.yield() }
            let wait = start + seconds - SystemClock.wall()
            if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
        }
        func ended(_ seconds: Double) -> Bool { stop.isStopped || seconds >= step.durationSeconds }
        switch configuration.kind {
        case .audio(let rate, let channels, _):
            if case .alsa(let capture) = plan.source {
                return try await recordAlsa(capture, identifier: configuration.identifier, outputDirectory: outputDirectory,
                                            durationSeconds: step.durationSeconds) { ended($0) || stepsReached.isStopped }
            }
            guard case .simulate(let settings) = plan.source else {
                throw RecordingError(file: configuration.identifier, reason: .sample("audio in a step is simulated (voice or room noise)"))
            }
            let noiseGain = Simulator.aWeightedGain(sampleRateHz: Double(rate))
            let recorder = try AudioRecorder(configuration, outputDirectory: outputDirectory)
            let block = max(1, rate / 20)
            var first = 0
            var index = 0
            while !ended(Double(first) / Double(rate)) {
                // Blocks of 50 ms follow the stop condition like sensor batches (exact when 20 divides the rate).
                if let condition, !(await condition.mayRecord(index)) { break }
                index += 1
                let count = min(block, Int(clamping: step.durationSeconds * Double(rate), to: 0...Int.max / 2) - first)
                guard count > 0 else { break }
                try await due(Double(first + count) / Double(rate))
                try recorder.write(settings.roomNoiseDBA.map {
                    Simulator.roomNoise(first: first, count: count, sampleRateHz: Double(rate), channels: channels, levelDBA: $0,
                                        calibrationOffsetDecibels: settings.calibrationOffsetDecibels, aWeightedGain: noiseGain)
                } ?? Simulator.voice(first: first, count: count, sampleRateHz: Double(rate), channels: channels))
                first += count
            }
            let frames = recorder.frames
            return ([try recorder.stop()], RecorderReport(identifier: configuration.identifier, itemsWritten: frames))
        case .sensor(let kind):
            let recorder = try SensorRecorder(configuration, outputDirectory: outputDirectory)
            let live: (any QueuedSource)? = switch plan.source {
            case .live(let source): source
            case .iio(let source): source
            case .ble(let source): source
            default: nil
            }
            if let live {
                return try await recordLive(live, recorder, outputDirectory: outputDirectory) {
                    ended(SystemClock.wall() - start) || stepsReached.isStopped
                }
            }
            let source = try BatchSource(plan, kind: kind, start: start)
            let leads = kind == .pedometer && condition != nil
            var index = 0
            while !ended(Double(index) * BatchSource.batchSeconds) {
                if let condition, !leads, !(await condition.mayRecord(index)) { break }
                guard let (batch, end) = source.batch(index, duration: step.durationSeconds) else { break }
                try await due(end)
                try recorder.record(batch)
                index += 1
                // Unpaced, a replay jumps over a gap in its file instead of stepping through it
                // 50 ms at a time (a one-year gap would be 6·10^8 empty batches).
                if !step.realTime { index = source.nextReplayBatch(from: index) }
                if leads, let condition {
                    if let target = step.stopAfterSteps, let steps = batch["numberOfSteps"]?.last, steps >= Double(target) {
                        stepsReached.stop()
                        condition.conditionMet(after: index)
                        condition.completed(index)
                        break
                    }
                    condition.completed(index)
                }
            }
            if leads { condition?.finish() }
            try recorder.flush()
            return (try recorder.stop(), RecorderReport(identifier: configuration.identifier, itemsWritten: recorder.itemsWritten,
                                                        itemsRejected: recorder.rejectedItems, firstRejection: recorder.firstRejection))
        }
    }

    /// An ALSA capture loop: the frames the reader thread captured, until the step's duration (in
    /// the device's frames) or its end; a device error ends it as a source error, the frames
    /// before it kept. A device that lags the wall clock by more than ``AlsaCapture/lateSeconds``
    /// at the duration (delivers nothing, or too slowly) ends it there with a source error, and a
    /// signal ends it within 5 ms, whatever the device does.
    private static func recordAlsa(_ capture: AlsaCapture, identifier: String, outputDirectory: String, durationSeconds: Double,
                                   ended: (Double) -> Bool) async throws -> ([FileResult], RecorderReport) {
        var report = RecorderReport(identifier: identifier, itemsWritten: 0)
        if !capture.differences.isEmpty { report.warnings.append("\(capture.address) gives \(capture.differences.joined(separator: ", "))") }
        let recorder = try AudioRecorder(capture.configuration(identifier: identifier), outputDirectory: outputDirectory)
        let rate = Double(capture.pcm.negotiated.sampleRateHz), channels = capture.pcm.negotiated.channels
        let total = Int(clamping: durationSeconds * rate, rounding: .toNearestOrAwayFromZero, to: 0...Int.max / 2)
        let late = SystemClock.monotonic() + durationSeconds + AlsaCapture.lateSeconds
        capture.start()
        defer { capture.stop() }
        do {
            while recorder.frames < total, !ended(Double(recorder.frames) / rate) {
                let (samples, finished, error) = capture.take()
                let frames = min(samples.count / channels, total - recorder.frames)
                if frames > 0 { try recorder.write(frames * channels == samples.count ? samples : Array(samples[0..<(frames * channels)])) }
                if let error { throw error }
                if finished { break }
                if SystemClock.monotonic() > late {
                    throw RecordingError(file: capture.address, reason: .sample(
                        "the device delivered \(recorder.frames) of \(total) frames within the step's \(durationSeconds.compactDescription) s "
                        + "and \(AlsaCapture.lateSeconds.compactDescription) s more; the recording ended there"))
                }
                if samples.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
            }
        } catch let error as RecordingError {
            report.sourceError = error
        }
        if let warning = capture.overrunWarning { report.warnings.append(warning) }
        report.itemsWritten = recorder.frames
        return ([try capture.finish(recorder)], report)
    }

    /// A live source's loop: take what the reader thread (started with the step) queued, write
    /// it, flush when due, until the sender closes, a bad line, or the step ends. RR intervals (gatt-hex) go to a second
    /// recorder, `<identifier>RRIntervals`, created when the first arrives.
    private static func recordLive(_ live: any QueuedSource, _ recorder: SensorRecorder, outputDirectory: String,
                                   ended: () -> Bool) async throws -> ([FileResult], RecorderReport) {
        let configuration = recorder.configuration
        var rrRecorder: SensorRecorder?
        var sourceError: RecordingError?
        var clock = ClockMonitor()
        while true {
            let (chunks, finished) = live.queue.take()
            for chunk in chunks {
                clock.observe(chunk.items.time, outOfOrder: chunk.itemsOutOfOrder)
                try recorder.record(chunk.items)
                if chunk.rrIntervals.count > 0 {
                    if rrRecorder == nil {
                        var rr = configuration
                        rr.identifier += "RRIntervals"
                        rr.frequencyHz = nil
                        rrRecorder = try SensorRecorder(rr, outputDirectory: outputDirectory)
                    }
                    try rrRecorder?.record(chunk.rrIntervals)
                }
                sourceError = sourceError ?? chunk.error
            }
            try recorder.flushIfDue()
            try rrRecorder?.flushIfDue()
            if finished || sourceError != nil || ended() { break }
            if chunks.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
        }
        live.close()
        try recorder.flush()
        let drops = live.queue.drops
        let report = RecorderReport(
            identifier: configuration.identifier, itemsWritten: recorder.itemsWritten, itemsRejected: recorder.rejectedItems,
            firstRejection: recorder.firstRejection, itemsDropped: drops.items, firstDroppedLines: drops.firstLines,
            warnings: live.warnings + clock.warnings, sourceError: sourceError ?? live.readError)
        var files = try recorder.stop() + (rrRecorder?.stop() ?? [])
        let extra = live.userInfo.merging(clock.userInfo) { $1 }
        for index in files.indices { files[index].userInfo.merge(extra) { $1 } }
        return (files, report)
    }
}

/// Batches of 50 ms (simulators) or of the replayed file's items by their time since the first.
struct BatchSource {
    let plan: RecorderPlan
    let kind: RecorderKind
    let start: Double
    let frequency: Double
    let replay: SensorSeries?

    init(_ plan: RecorderPlan, kind: RecorderKind, start: Double) throws {
        self.plan = plan
        self.kind = kind
        self.start = start
        frequency = plan.configuration.frequencyHz ?? 100
        if case .replay(let path) = plan.source {
            guard let series = try JSONContents.read(path).series.first(where: { $0.series.kind == kind })?.series else {
                throw RecordingError(file: path, reason: .sample("no \(kind.rawValue) items to replay"))
            }
            replay = series
        } else {
            replay = nil
        }
    }

    static let batchSeconds = 0.05

    /// The first batch at or after `index` that holds a replayed item (`index` itself for a
    /// simulator, or when the replay has no items left): the loop's count is bounded by the items.
    func nextReplayBatch(from index: Int) -> Int {
        guard let time = replay?.time, let t0 = time.first else { return index }
        let next = Self.firstIndex(in: time, atLeast: t0 + Double(index) * Self.batchSeconds)
        guard next < time.count else { return index }
        // One batch early: rounding in t0 + k·50 ms must not put the item before the batch found.
        return max(index, Int(clamping: (time[next] - t0) / Self.batchSeconds, rounding: .down, to: 1...Int.max / 2) - 1)
    }

    /// The first index of sorted `values` whose value is ≥ `bound` (`values.count` if none).
    static func firstIndex(in values: [Double], atLeast bound: Double) -> Int {
        var (low, high) = (0, values.count)
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < bound { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Batch `index`: the items in (index·50 ms, (index + 1)·50 ms] (capped at the duration), and its end; nil when done.
    func batch(_ index: Int, duration: Double) -> (SensorSeries, Double)? {
        let seconds = Double(index) * Self.batchSeconds
        let end = min(Double(index + 1) * Self.batchSeconds, duration)
        guard end > seconds else { return nil }
        // Whole seconds k with seconds < k ≤ end (per-second updates), tolerant of rounding.
        let firstSecond = Int(clamping: seconds + 1e-9, rounding: .down, to: 0...Int.max / 2) + 1, lastSecond = Int(clamping: end + 1e-9, rounding: .down, to: 0...Int.max / 2)
        let perSecond = max(0, lastSecond - firstSecond + 1)
        if let replay {
            let time = replay.time
            guard let t0 = time.first else { return nil }
            // The reader sorts recorder items by time, so batches are found by binary search.
            let lower = Self.firstIndex(in: time, atLeast: t0 + seconds), upper = Self.firstIndex(in: time, atLeast: t0 + end)
            guard lower < time.count else { return nil }
            return (replay.slice(lower..<upper), end)
        }
        guard case .simulate(let settings) = plan.source else { return nil }
        let cadence = settings.cadenceStepsPerMinute
        switch kind {
        case .accelerometer, .deviceMotion:
            let first = Int(clamping: seconds * frequency, rounding: .toNearestOrAwayFromZero, to: 0...Int.max / 2), last = Int(clamping: end * frequency, rounding: .toNearestOrAwayFromZero, to: 0...Int.max / 2)
            let series = kind == .accelerometer
                ? Simulator.walkerAccelerometer(first: first, count: last - first, frequencyHz: frequency, cadenceStepsPerMinute: cadence, startSeconds: start)
                : Simulator.walkerDeviceMotion(first: first, count: last - first, frequencyHz: frequency, cadenceStepsPerMinute: cadence, startSeconds: start)
            return (series, end)
        case .pedometer:
            // One cumulative update per second, as CMPedometer delivers them.
            return (Simulator.pedometer(first: firstSecond - 1, count: perSecond, intervalSeconds: 1, cadenceStepsPerMinute: cadence, startSeconds: start), end)
        case .healthQuantity:
            return (Simulator.heartRate(first: firstSecond - 1, count: perSecond, beatsPerMinute: 72, startSeconds: start), end)
        case .location:
            // One fix per second, at the walker's speed (cadence × 0.7-m steps).
            return (Simulator.walkerLocation(first: firstSecond - 1, count: perSecond, startSeconds: start,
                                             speedMetersPerSecond: cadence / 60 * 0.7), end)
        case .touch:
            return (Simulator.tapperTouches(fromSeconds: seconds, toSeconds: end, tapsPerSecond: settings.tapsPerSecond), end)
        case .camera:
            return nil  // no recorder kind records the camera (RecorderSpec.Kind)
        }
    }
}
