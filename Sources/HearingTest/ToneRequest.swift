import Analysis
import Foundation
import AudioIO
import InputGuards
import Recording

/// A calibrated pure tone written to a 32-bit float stereo WAV, played through ALSA, or both
/// (`activetask tone`; docs/audiometry.md §9). Every default is declared here once.
public struct ToneRequest: Sendable {
    /// How loud the tone is.
    public enum Level: Sendable {
        /// Sine peak level, dBFS.
        case dbfs(Double)
        /// Hearing level, dB HL, through a ResearchKit headphone's tables at a system volume 0–1
        /// (docs/audiometry.md §7.1).
        case hearingLevel(Double, headphone: String, tables: HeadphoneCalibration.TableVersion, volume: Double)
    }

    /// Frequency, Hz (below half the sample rate).
    public var frequencyHz: Double
    /// Sine level.
    public var level: Level
    /// Full-level duration, s.
    public var durationSeconds = 1.0
    /// The channel that carries the tone (the other is silent), or both.
    public var ear = ToneSpecification.Ear.both
    /// On and off ramps: raised cosine (rise time 20–50 ms required) or ResearchKit's.
    public var ramp = ToneSpecification.Ramp.raisedCosine(seconds: ToneSpecification.rampSeconds)
    /// Sample rate, Hz.
    public var sampleRateHz = ToneSpecification.sampleRateHz
    /// The WAV file written (nil: none).
    public var outputPath: String?
    /// The playback device, `alsa:DEVICE` (nil: not played).
    public var playbackDevice: String?

    public init(frequencyHz: Double, level: Level) {
        self.frequencyHz = frequencyHz
        self.level = level
    }

    /// The defaults, for help texts.
    public static let defaults = ToneRequest(frequencyHz: 1_000, level: .dbfs(-20))

    /// The sine's peak amplitude: from dBFS, or from dB HL through the headphone's tables
    /// (refused when the tables lack the frequency or the tone would clip).
    public func amplitude() throws(HearingTestError) -> Double {
        switch level {
        case .dbfs(let dbfs):
            return Decibels.amplitude(dbfs: dbfs)
        case .hearingLevel(let hl, let headphone, let version, let volume):
            guard let table = HeadphoneCalibration.tables(for: headphone, version: version) else {
                throw HearingTestError(.badRequest, "unknown headphone \"\(headphone)\" for tables \(version.rawValue)")
            }
            guard let result = HeadphoneCalibration.researchKitAmplitude(hearingLevel: hl, frequencyHz: frequencyHz, tables: table, volume: volume) else {
                throw HearingTestError(.badRequest, "no calibration for \(frequencyHz) Hz (tables list \(HeadphoneCalibration.frequencies.map { String(Int($0)) }.joined(separator: ", ")) Hz)")
            }
            guard let amplitude = result.amplitude else {
                throw HearingTestError(.unusable, "\(hl) dB HL at \(frequencyHz) Hz would clip (attenuation \(String(format: "%.2f", result.attenuationDecibels)) dB ≥ −1 dB)")
            }
            return amplitude
        }
    }

    /// Renders the tone, writes ``outputPath`` (through a temporary file that replaces it when
    /// complete) and plays it on ``playbackDevice``; `warn` hears of underruns.
    public func run(warn: (String) -> Void) throws -> Void {
        let spec = ToneSpecification(frequencyHz: frequencyHz, amplitude: try amplitude(), durationSeconds: durationSeconds, ear: ear, ramp: ramp,
                                     sampleRateHz: sampleRateHz)
        let samples: [Float]
        do { samples = try spec.render() } catch { throw HearingTestError(.badRequest, error.description) }
        let rate = Int(clamping: sampleRateHz, rounding: .toNearestOrAwayFromZero)
        if let outputPath {
            // libsndfile writes the temporary file by name; it replaces the output when complete.
            let file = try OutputFile(outputPath, inputs: [])
            file.closeForExternalWriter()
            do {
                let writer = try WAVWriter(path: file.temporaryPath, sampleRateHz: rate, channels: 2, encoding: .float32)
                try writer.write(samples)
                try writer.close()
            } catch {
                file.discard()
                throw HearingTestError(.invalidInput, error.description)
            }
            try file.commit()
        }
        if let playbackDevice, let device = SourceAddress(playbackDevice)?.alsaDevice {
            do {
                let pcm = try DeviceWait(seconds: RecorderPlan.DeviceOptions().openTimeoutSeconds)
                    .openPlayback(device, sampleRateHz: rate, channels: 2, purpose: "the tone")
                try pcm.write(samples)
                try pcm.drain()
                if pcm.xruns > 0 { warn("\(playbackDevice): \(pcm.xruns) underrun(s) while playing") }
            } catch let error as RecordingError {
                throw HearingTestError(.invalidInput, error.description)
            } catch let error as AudioError {
                throw HearingTestError(.invalidInput, error.description)
            }
        }
    }
}
