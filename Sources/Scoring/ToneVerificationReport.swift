import Analysis
import AudioIO
import InputGuards
import SensorData

/// `audiometry verify`: a tone recording's frequency, level, distortion and ramp times
/// (``ToneVerification``, docs/audiometry.md §10), as a report.
public struct ToneVerificationReport: Sendable {
    /// The measures (set `atk`).
    public var features: FeatureSet
    /// The file as given.
    public var file: String
    /// Container and encoding.
    public var dialect: String

    /// What a recording gives: the measures of its tone, or why there is none to measure.
    public enum Outcome: Sendable {
        case measured(ToneVerificationReport)
        /// "too short to analyse", or "silent: every sample is 0" (a silent file once gave a
        /// tone of 1.25 Hz with 0-ms ramps and a THD of nan).
        case unusable(String)
    }

    /// Reads the whole of `file` (at most `maximumSamples` samples: the analysis holds the tone,
    /// about 30 bytes per sample) and measures its tone.
    public static func measure(file: String, maximumSamples: Int) throws(ScoringError) -> Outcome {
        let decoder: any AudioDecoder
        let samples: [Float]
        do {
            decoder = try AudioInput.open(file)
            samples = try decoder.readAll(maximumSamples: maximumSamples)
        } catch {
            throw ScoringError.input(error)
        }
        let format = decoder.format
        guard samples.contains(where: { $0 != 0 }) else { return .unusable("silent: every sample is 0") }
        guard let measures = ToneVerification.features(interleaved: samples, channels: format.channels, sampleRateHz: format.sampleRateHz) else {
            return .unusable("too short to analyse")
        }
        return .measured(ToneVerificationReport(features: FeatureSet(name: "atk", features: measures), file: file, dialect: "\(format.container) \(format.encoding)"))
    }

    /// As `audiometry verify --json` prints it: the measures, `kind` and `file`.
    public var json: JSONValue {
        var object = features.json.object ?? JSONObject()
        object.append("kind", .string("toneVerification"))
        object.append("file", .string(file))
        return .object(object)
    }

    /// The table `audiometry verify` prints.
    public var table: String {
        ScoreReport(kind: "tone verification", file: file, dialect: dialect, sets: [features], warnings: []).table
    }
}
