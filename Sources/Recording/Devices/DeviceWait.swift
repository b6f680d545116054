import Dispatch
import AudioIO
import Foundation
import InputGuards
import SignalProcessing

/// A wait on a device or a bus that may never end — `open` of an ALSA file PCM whose infile is
/// a FIFO nobody writes, a D-Bus that accepts the connection and never answers — bounded by
/// `seconds` and ended at once by `stop` (SIGINT, SIGTERM, SIGHUP).
///
/// Such a call cannot be cancelled where it blocks, so it runs on a thread of its own; a thread
/// still blocked when the wait ends is left to the process's end (the command then fails with
/// the error this throws), and whatever it returns later is released unused.
public struct DeviceWait: Sendable {
    /// How long the wait may take, s.
    public var seconds: Double
    /// Set by the command's signal handler: the wait ends at once.
    public var stop: StopSignal

    public init(seconds: Double, stop: StopSignal = StopSignal()) {
        self.seconds = seconds
        self.stop = stop
    }

    /// `work`'s result, or an error naming `source` when `seconds` pass or `stop` is set first
    /// (`what` says what was being waited for: "open", "answer").
    public func run<Value: Sendable>(_ what: String, source: String,
                                     _ work: @escaping @Sendable () throws(RecordingError) -> Value) throws(RecordingError) -> Value {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<Value, RecordingError>?>(nil)
        let thread = Thread {
            let result: Result<Value, RecordingError>
            do throws(RecordingError) { result = .success(try work()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        thread.name = "activetask.wait.\(source)"
        thread.start()
        let deadline = SystemClock.monotonic() + seconds
        // Slices of 20 ms: a signal's flag is seen within one.
        while true {
            if done.wait(timeout: .now() + .milliseconds(20)) == .success, let result = outcome.withLock({ $0 }) {
                return try result.get()
            }
            if stop.isStopped {
                throw RecordingError(file: source, reason: .sample("stopped by a signal while waiting for the device to \(what)"))
            }
            if SystemClock.monotonic() >= deadline {
                throw RecordingError(file: source, reason: .sample(
                    "the device did not \(what) within \(seconds.compactDescription) s (a device, bus or file that never answers)"))
            }
        }
    }
}

extension DeviceWait {
    /// ``AlsaPCM`` opened within this wait (the hearing test's and `tone`'s devices); a device
    /// error is said as libasound says it, naming `alsa:DEVICE`.
    public func openPCM(_ device: String, direction: AlsaPCM.Direction, format: AlsaPCM.SampleFormat, sampleRateHz: Int,
                        channels: Int) throws(RecordingError) -> AlsaPCM {
        try run("open", source: "alsa:" + device) { () throws(RecordingError) in
            do throws(AudioError) {
                return Handover(try AlsaPCM(device: device, direction: direction, format: format, sampleRateHz: sampleRateHz, channels: channels))
            } catch {
                throw RecordingError(file: "alsa:" + device, reason: .sample(error.message))
            }
        }.value
    }

    /// Opens `device` for playback of Float samples at exactly `sampleRateHz` in `channels`
    /// channels: a calibrated tone at another rate or in fewer channels would not be the tone
    /// asked for, so anything else the device negotiates is refused, naming what it gives.
    public func openPlayback(_ device: String, sampleRateHz: Int, channels: Int, purpose: String) throws(RecordingError) -> AlsaPCM {
        let pcm = try openPCM(device, direction: .playback, format: .float, sampleRateHz: sampleRateHz, channels: channels)
        guard pcm.negotiated.sampleRateHz == sampleRateHz, pcm.negotiated.channels == channels else {
            throw RecordingError(file: "alsa:" + device, reason: .sample(
                "gives \(pcm.differences(format: .float, sampleRateHz: sampleRateHz, channels: channels).joined(separator: ", ")); "
                    + "\(purpose) need\(purpose.hasSuffix("s") ? "" : "s") \(sampleRateHz) Hz in \(channels) channels (a plughw: device converts)"))
        }
        return pcm
    }
}

/// A value made on a waiting thread and handed to the caller once, never used by both.
final class Handover<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
