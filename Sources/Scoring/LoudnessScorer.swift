import Analysis
import AudioIO
import InputGuards
import SensorData
import SignalProcessing

/// Programme loudness of an audio file without voice analysis (ITU-R BS.1770-4, EBU R 128):
/// integrated loudness over all channels (channel weights of BS.1770-4 Table 3 for five
/// channels, 1.0 otherwise), loudness range (EBU Tech 3342), the largest momentary (400 ms) and
/// short-term (3 s) loudness (EBU Tech 3341), and the true peak (BS.1770-4 Annex 2). Streams the
/// file: memory is one number per channel per 100 ms.
public enum LoudnessScorer {
    public struct Parameters: Sendable, Hashable, Codable {
        /// Count a stereo file whose channels are sample-identical once (−3.01 LU); off by
        /// default, as BS.1770-4 sums every channel.
        public var countIdenticalChannelsOnce = false
        public init() {}
    }

    public static func score(_ input: LoadedInput, _ parameters: Parameters = .init()) throws(ScoringError) -> LoudnessScore {
        let file = input.path
        guard case .audio(let audio) = input.kind else {
            throw .input(ReadError(file: file, reason: .notFound("loudness is measured on audio; this file is \(input.kind.summary)")))
        }
        let decoder = try audio.open()
        let format = decoder.format
        let channels = format.channels
        var meter = LoudnessMeter(sampleRateHz: format.sampleRateHz, channels: channels)
        var peak = TruePeakMeter(sampleRateHz: format.sampleRateHz, channels: channels)
        // When asked to count identical channels once, a second one-channel meter runs alongside
        // and is used if every frame turns out to have identical channels.
        var once = LoudnessMeter(sampleRateHz: format.sampleRateHz, channels: 1)
        var identical = channels == 2 && parameters.countIdenticalChannelsOnce
        do {
            var first = 0
            try decoder.forEachDoubleBlock(frames: BiquadCascade.laneBlockFrames(channels: channels)) { block, frames in
                if let problem = AudioScoring.magnitudeProblem(block, file: file, firstFrame: first, channels: channels) { throw problem }
                first += frames
                meter.process(interleaved: block)
                peak.process(interleaved: block)
                if identical {
                    identical = (0..<frames).allSatisfy { block[2 * $0] == block[2 * $0 + 1] }
                    let left = (0..<frames).map { block[2 * $0] }
                    left.withUnsafeBufferPointer { once.process(interleaved: $0) }
                }
            }
        } catch {
            throw error as? ScoringError ?? ScoringError(.invalidInput, String(describing: error))
        }
        let used = identical ? once : meter
        let features = LoudnessFeatures(
            integratedLufs: used.integratedLUFS, loudnessRangeLu: used.loudnessRangeLU, momentaryMaxLufs: used.momentaryLUFS.max(),
            shortTermMaxLufs: used.shortTermLUFS.max(), truePeakDbtp: peak.truePeakDbtp.isFinite ? peak.truePeakDbtp : nil,
            channelsCounted: identical ? 1 : channels, oversamplingFactor: peak.factor)
        var warnings = AudioScoring.warnings(decoder)
        if used.rateProblem == nil { warnings += [used.integratedUndefinedReason, used.rangeUndefinedReason].compactMap(\.self) }
        let report = ScoreReport(kind: "loudness", file: file,
                                 dialect: "\(format.container) \(format.encoding), \(format.sampleRateHz.compactDescription) Hz, \(channels) ch",
                                 sets: [FeatureSet(name: "bs1770", features: features)], warnings: warnings, unusable: used.rateProblem)
        return LoudnessScore(report: report, features: features)
    }
}

/// Programme loudness of a file (ITU-R BS.1770-4, EBU R 128, EBU Tech 3341/3342).
public struct LoudnessFeatures: Sendable, Hashable, Encodable {
    /// Gated integrated loudness over every channel (identical stereo channels once), LUFS; null when every 400-ms block is below −70 LUFS.
    public var integratedLufs: Double?
    /// EBU Tech 3342 loudness range (10th–95th percentile of gated 3-s short-term loudness), LU.
    public var loudnessRangeLu: Double?
    /// Highest momentary (400-ms) loudness, LUFS.
    public var momentaryMaxLufs: Double?
    /// Highest short-term (3-s) loudness, LUFS.
    public var shortTermMaxLufs: Double?
    /// True peak (BS.1770-4 Annex 2: oversampled by `oversamplingFactor`), dBTP.
    public var truePeakDbtp: Double?
    /// Channels summed for the loudness (1 for sample-identical stereo), count.
    public var channelsCounted: Int
    /// The true-peak meter's oversampling factor (4 below 96 kHz, 2 below 192 kHz, else 1).
    public var oversamplingFactor: Int
}
