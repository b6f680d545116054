import AudioIO
import Foundation
import Glibc
import InputGuards
import SignalProcessing
import Synchronization

/// An ALSA capture device feeding an ``AudioRecorder``: the device opened in the sample format of
/// the WAV encoding asked (S16 for pcm16, S32 for pcm24, FLOAT for float32) at the rate and
/// channels asked, or the nearest the device gives (``differences`` says what differs; the WAV
/// takes what it gives); overruns are recovered by ``AlsaPCM`` and reach the file result's
/// userInfo as `alsaOverruns` and `alsaLostSeconds`. Opened before a step starts (a device that
/// cannot be opened leaves no file behind); read by its own thread from ``start()`` on, which
/// hands the frames over through a lock, hence `@unchecked Sendable`.
public final class AlsaCapture: @unchecked Sendable {
    public let pcm: AlsaPCM
    /// What the device gives that differs from what was asked ("44100 Hz, not 48000 Hz", …).
    public let differences: [String]
    private let encoding: WAVWriter.Encoding

    public init(device: String, encoding: WAVWriter.Encoding, sampleRateHz: Int, channels: Int) throws(RecordingError) {
        let asked: AlsaPCM.SampleFormat = switch encoding {
        case .pcm16: .s16
        case .pcm24: .s32
        case .float32: .float
        }
        do { pcm = try AlsaPCM(device: device, direction: .capture, format: asked, sampleRateHz: sampleRateHz, channels: channels) } catch {
            throw RecordingError(file: "alsa:\(device)", reason: .sample(error.message))
        }
        differences = pcm.differences(format: asked, sampleRateHz: sampleRateHz, channels: channels)
        self.encoding = encoding
    }

    /// `alsa:DEVICE`.
    public var address: String { "alsa:\(pcm.device)" }

    /// What the device gives: format, rate, channels and period.
    public var summary: String {
        let given = pcm.negotiated
        return "\(given.format.rawValue), \(given.sampleRateHz) Hz, \(given.channels) channel(s), periods of \(given.periodFrames) frames"
    }

    /// The audio recorder configuration at the rate and channels the device gives.
    public func configuration(identifier: String) -> RecorderConfiguration {
        RecorderConfiguration(identifier: identifier, kind: .audio(sampleRateHz: pcm.negotiated.sampleRateHz,
                                                                   channels: pcm.negotiated.channels, encoding: encoding))
    }

    /// What the reader thread has captured and not yet taken, and how the device is doing.
    private struct Captured {
        var samples: [Float] = []
        var finished = false
        var error: RecordingError?
        var xruns = 0
        var lostSeconds = 0.0
        var closed = false
    }

    private let captured = Locked(Captured())
    private let started = Atomic<Bool>(false)

    /// How far the device may lag behind the wall clock at the end of a step before the
    /// recording ends without its frames, s: a device that delivers nothing (a file PCM reading
    /// a FIFO nobody writes) does not hold the step past its duration.
    public static let lateSeconds = 2.0

    /// Starts the reader thread (once): a period at a time into the capture buffer, at most about
    /// two seconds of audio ahead of the recorder (the device overruns, counted, past that),
    /// until the device ends, fails or ``stop()``. The thread owns the PCM from here on: a read
    /// that blocks forever keeps it to the process's end instead of holding the step.
    public func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let given = pcm.negotiated
        let bound = max(given.periodFrames, 2 * given.sampleRateHz) * given.channels
        let thread = Thread { [self] in
            while !captured.withLock({ $0.closed }) {
                let samples: [Float]
                do throws(AudioError) { samples = try pcm.read(maximumFrames: given.periodFrames) } catch {
                    captured.withLock { $0.error = RecordingError(file: address, reason: .sample(error.message)) }
                    return
                }
                let (xruns, lost) = (pcm.xruns, pcm.lostSeconds)
                let full = captured.withLock { state in
                    state.xruns = xruns
                    state.lostSeconds = lost
                    if samples.isEmpty { state.finished = true } else { state.samples += samples }
                    return state.samples.count > bound
                }
                if samples.isEmpty { return }
                if full { usleep(5_000) }
            }
        }
        thread.name = "activetask.\(address)"
        thread.start()
    }

    /// The frames captured since the last call (interleaved), whether the device has ended, and
    /// the error that ended it.
    public func take() -> (samples: [Float], finished: Bool, error: RecordingError?) {
        captured.withLock { state in
            defer { state.samples = [] }
            return (state.samples, state.finished, state.error)
        }
    }

    /// Ends the reader thread after its current read.
    public func stop() { captured.withLock { $0.closed = true } }

    /// The overruns, said when there were any.
    public var overrunWarning: String? {
        let (xruns, lost) = captured.withLock { ($0.xruns, $0.lostSeconds) }
        return xruns == 0 ? nil : "\(address): \(xruns) overrun(s), about \(String(format: "%.3f", lost)) s lost"
    }

    /// Finishes the recorder's file; its result carries the overruns and the time they lost.
    public func finish(_ recorder: AudioRecorder) throws(RecordingError) -> FileResult {
        var result = try recorder.stop()
        let (xruns, lost) = captured.withLock { ($0.xruns, $0.lostSeconds) }
        result.userInfo["alsaOverruns"] = Double(xruns)
        result.userInfo["alsaLostSeconds"] = lost
        return result
    }
}
