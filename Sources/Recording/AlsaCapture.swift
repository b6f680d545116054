import AudioIO
import Foundation

/// An ALSA capture device feeding an ``AudioRecorder``: the device opened in the sample format of
/// the WAV encoding asked (S16 for pcm16, S32 for pcm24, FLOAT for float32) at the rate and
/// channels asked, or the nearest the device gives (``differences`` says what differs; the WAV
/// takes what it gives); overruns are recovered by ``AlsaPCM`` and reach the file result's
/// userInfo as `alsaOverruns` and `alsaLostSeconds`. Opened before a step starts (a device that
/// cannot be opened leaves no file behind); then used by its one recorder task only, hence
/// `@unchecked Sendable`.
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

    /// Reads one period (at most `maximumFrames`) into `recorder`: false when the device gave
    /// nothing (its end). A device error is thrown with the device's name; the frames before it
    /// are in the file.
    public func capturePeriod(into recorder: AudioRecorder, maximumFrames: Int) throws(RecordingError) -> Bool {
        let samples: [Float]
        do { samples = try pcm.read(maximumFrames: min(pcm.negotiated.periodFrames, maximumFrames)) } catch {
            throw RecordingError(file: address, reason: .sample(error.message))
        }
        if samples.isEmpty { return false }
        try recorder.write(samples)
        return true
    }

    /// The overruns, said when there were any.
    public var overrunWarning: String? {
        pcm.xruns == 0 ? nil : "\(address): \(pcm.xruns) overrun(s), about \(String(format: "%.3f", pcm.lostSeconds)) s lost"
    }

    /// Finishes the recorder's file; its result carries the overruns and the time they lost.
    public func finish(_ recorder: AudioRecorder) throws(RecordingError) -> FileResult {
        var result = try recorder.stop()
        result.userInfo["alsaOverruns"] = Double(pcm.xruns)
        result.userInfo["alsaLostSeconds"] = pcm.lostSeconds
        return result
    }
}
