/// How the channels of a voice recording relate.
public enum ChannelMode: String, Sendable, Hashable, Encodable {
    case mono
    /// Two sample-identical channels.
    case dualMono
    case multichannel
}

/// Channel layout, duration, levels and loudness of a whole voice recording, and ResearchKit's
/// too-loud rule (docs/analyses.md §4.2–4.4).
public struct VoiceLevelFeatures: Sendable, Hashable, Encodable {
    /// One channel, two sample-identical channels, or more.
    public var channelMode: ChannelMode
    /// Frames / rate, s.
    public var durationSeconds: Double
    /// 10·lg of channel 0's mean square, dBFS (null for digital silence).
    public var rmsDbfs: Double?
    /// Praat "Sound: Get intensity (dB)": samples as pascals re 2·10⁻⁵ Pa (rmsDbfs + 93.98), dB — not SPL.
    public var intensityDb: Double?
    /// rmsDbfs + the calibration offset, dB SPL (null without a calibration).
    public var splDecibels: Double?
    /// ITU-R BS.1770-4 integrated loudness over every channel, LUFS (null: every block below −70 LUFS).
    public var loudnessLufs: Double?
    /// EBU Tech 3342 loudness range, LU.
    public var loudnessRangeLu: Double?
    /// ResearchKit's mean level m = max(dB/60, −1) + 1 over non-zero Int16 samples of all channels (ORKAudioLevelNavigationRule.m), 0…1.
    public var researchKitTooLoudMeanLevel: Double
    /// ResearchKit's decision: mean level > 0.45.
    public var researchKitTooLoud: Bool
}

/// F0 statistics, voiced material and its levels, pulses, jitter and shimmer of channel 0
/// (docs/analyses.md §4.5–4.7), as Praat defines them.
public struct VoiceContourFeatures: Sendable, Hashable, Encodable {
    /// Voiced frames of Praat's "To Pitch (ac)" contour, count.
    public var voicedFrameCount: Int
    /// Median F0 of the voiced frames, Hz.
    public var f0MedianHz: Double?
    /// Mean F0, Hz.
    public var f0MeanHz: Double?
    /// Sample standard deviation of F0, Hz.
    public var f0SdHz: Double?
    /// Sample standard deviation of 12·log2(F0 / 100 Hz), semitones.
    public var f0SdSemitones: Double?
    /// 5th percentile of F0 (type 7), Hz.
    public var f0P5Hz: Double?
    /// 95th percentile of F0, Hz.
    public var f0P95Hz: Double?
    /// Highest − lowest voiced F0, Hz.
    public var f0RangeHz: Double?
    /// Voiced material (40-ms frames, 10-ms hop, ≥ max(P95 − 30 dB, −60 dBFS) and voiced at the
    /// centre; gaps < 0.2 s bridged, segments < 0.3 s dropped), s.
    public var voicedDurationSeconds: Double
    /// Voiced duration / duration, 0…1.
    public var voicedFraction: Double
    /// RMS level of the voiced material, dBFS.
    public var rmsVoicedDbfs: Double?
    /// Praat intensity of the voiced material, dB re 2·10⁻⁵.
    public var intensityVoicedDb: Double?
    /// Energy mean 10·lg mean 10^(L/10) of the voiced 40-ms frame levels, dBFS.
    public var frameRmsDbfsMean: Double?
    /// Median voiced frame level, dBFS.
    public var frameRmsDbfsMedian: Double?
    /// 10th percentile of the voiced frame levels, dBFS.
    public var frameRmsDbfsP10: Double?
    /// 90th percentile of the voiced frame levels, dBFS.
    public var frameRmsDbfsP90: Double?
    /// BS.1770-4 integrated loudness of the voiced material (≥ 0.4 s), LUFS.
    public var loudnessVoicedLufs: Double?
    /// Glottal pulses (Praat "To PointProcess (cc)"), count.
    public var pulseCount: Int
    /// Jitter and shimmer of the pulses (in place; Praat's "Voice 2/3").
    public var perturbation: Perturbation.Measures
}

/// Everything a voice recording is scored with, in output order.
public struct VoiceFeatures: Sendable, Hashable, Encodable {
    /// Layout, levels, loudness, too-loud rule (in place).
    public var levels: VoiceLevelFeatures
    /// F0, voiced material, pulses, jitter, shimmer (in place).
    public var contour: VoiceContourFeatures
    /// Praat "To Harmonicity (cc)" (0.01 s, 75 Hz, silence 0.1, 1 period) mean over voiced frames of 10·lg(r/(1 − r)), dB.
    public var hnrDb: Double?
}
