import Analysis
import AudioIO

/// Scores a voice recording (WAV, FLAC, Ogg, MP3, `.m4a`) with ``VoiceAnalysis``: loudness and
/// Praat-definition F0, jitter, shimmer and HNR on channel 0 (analysis.md §4).
public enum VoiceScorer {
    public struct Parameters: Sendable, Hashable {
        /// dB SPL at RMS 1.0 of the recording chain; adds splDecibels.
        public var calibrationOffsetDecibels: Double?
        /// Praat's pitch floor and ceiling, Hz.
        public var pitchFloorHz = 75.0
        public var pitchCeilingHz = 600.0
        public init() {}
    }

    public static func score(_ file: String, _ parameters: Parameters = .init()) throws(ScoringError) -> ScoreReport {
        let decoder = try AudioScoring.open(file)
        let format = decoder.format
        let samples: [Float]
        do { samples = try decoder.readAll() } catch { throw .input(error) }
        var options = VoiceAnalysis.Options(calibrationOffsetDecibels: parameters.calibrationOffsetDecibels)
        options.pitchFloorHz = parameters.pitchFloorHz
        options.pitchCeilingHz = parameters.pitchCeilingHz
        let (set, warnings) = VoiceAnalysis.analyze(interleaved: samples.map(Double.init), channels: format.channels,
                                                   sampleRateHz: format.sampleRateHz, options: options)
        return ScoreReport(kind: "voice", file: file, dialect: "\(format.container) \(format.encoding), \(Int(format.sampleRateHz)) Hz, \(format.channels) ch",
                           sets: [set], warnings: warnings, unusable: set["f0MedianHz"] == .missing ? "no voiced signal found" : nil)
    }
}
