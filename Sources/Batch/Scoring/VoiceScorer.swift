import Analysis
import AudioIO
import InputGuards

/// Scores a voice recording (WAV, FLAC, Ogg, MP3, `.m4a`) with ``VoiceAnalysis``: loudness and
/// Praat-definition F0, jitter, shimmer and HNR on channel 0 (analysis.md §4).
///
/// Memory: the analysis holds the whole recording, about 40 bytes per sample in all (docs/reliability.md,
/// "Memory model"), so a file with more than ``Parameters/maximumSamples`` samples (all channels) is
/// refused before it is read whole — from the header's frame count, or while reading when the
/// container does not state one.
public enum VoiceScorer {
    public struct Parameters: Sendable, Hashable, Codable {
        /// dB SPL at RMS 1.0 of the recording chain; adds splDecibels.
        public var calibrationOffsetDecibels: Double?
        /// Praat's pitch floor and ceiling, Hz.
        public var pitchFloorHz = 75.0
        public var pitchCeilingHz = 600.0
        /// The most samples (frames × channels) the analysis holds: 2^24, 6.3 min of mono 44.1 kHz.
        public var maximumSamples = Self.defaultMaximumSamples
        public static let defaultMaximumSamples = 1 << 24
        /// Bounds a caller may choose (2^34 samples ≈ 690 GB of analysis: beyond any machine).
        public static let maximumSamplesRange = 1...(1 << 34)
        /// Loudness of sample-identical stereo channels counted once (off: BS.1770-4 sums both).
        public var countIdenticalChannelsOnce = false
        public init() {}

        /// Why these parameters cannot be used (nil: they can).
        public var problem: String? {
            if let offset = calibrationOffsetDecibels, !(offset.isFinite && abs(offset) <= 400) {
                return "calibration offset \(offset) dB is not a level (−400…400 dB)"
            }
            guard pitchFloorHz.isFinite, pitchCeilingHz.isFinite, pitchFloorHz >= 1, pitchCeilingHz <= 100_000, pitchFloorHz < pitchCeilingHz else {
                return "pitch range \(pitchFloorHz)–\(pitchCeilingHz) Hz is not a range within 1–100,000 Hz"
            }
            guard Self.maximumSamplesRange.contains(maximumSamples) else {
                return "maximum samples \(maximumSamples) is outside \(Self.maximumSamplesRange.lowerBound)…\(Self.maximumSamplesRange.upperBound)"
            }
            return nil
        }
    }

    public static func score(_ file: String, _ parameters: Parameters = .init()) throws(ScoringError) -> ScoreReport {
        if let problem = parameters.problem { throw ScoringError(.badInvocation, "\(FileName.display(file)): \(problem)") }
        let decoder = try AudioScoring.open(file)
        let format = decoder.format
        let samples = try readBounded(decoder, file: file, maximumSamples: parameters.maximumSamples)
        var options = VoiceAnalysis.Options(calibrationOffsetDecibels: parameters.calibrationOffsetDecibels)
        options.pitchFloorHz = parameters.pitchFloorHz
        options.pitchCeilingHz = parameters.pitchCeilingHz
        options.countIdenticalChannelsOnce = parameters.countIdenticalChannelsOnce
        var (set, warnings) = VoiceAnalysis.analyze(interleaved: samples, channels: format.channels,
                                                   sampleRateHz: format.sampleRateHz, options: options)
        warnings += AudioScoring.warnings(decoder)
        return ScoreReport(kind: "voice", file: file, dialect: "\(format.container) \(format.encoding), \(format.sampleRateHz.compactDescription) Hz, \(format.channels) ch",
                           sets: [set], warnings: warnings, unusable: set["f0MedianHz"] == .missing ? "no voiced signal found" : nil)
    }

    /// Every sample of `decoder` as Double, or an error naming the limit and its flag.
    static func readBounded(_ decoder: any AudioDecoder, file: String, maximumSamples: Int) throws(ScoringError) -> [Double] {
        do { return try decoder.readAllDouble(maximumSamples: maximumSamples) } catch {
            guard case .tooLong = error.reason else { throw .input(error) }
            throw ScoringError(.invalidInput, error.description + " (voice: ~40 bytes per sample; raise the limit with --max-voice-samples)")
        }
    }
}
