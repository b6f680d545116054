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

    /// Reads the whole of `file` (at most `maximumSamples` samples: the analysis holds the tone,
    /// about 30 bytes per sample) and measures its tone; `nil` when it is too short to analyse.
    public init?(file: String, maximumSamples: Int) throws(ScoringError) {
        let decoder: any AudioDecoder
        let samples: [Float]
        do {
            decoder = try AudioInput.open(file)
            samples = try decoder.readAll(maximumSamples: maximumSamples)
        } catch {
            throw ScoringError.input(error)
        }
        let format = decoder.format
        guard let measures = ToneVerification.features(interleaved: samples, channels: format.channels, sampleRateHz: format.sampleRateHz) else { return nil }
        features = FeatureSet(name: "atk", features: measures)
        self.file = file
        dialect = "\(format.container) \(format.encoding)"
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
