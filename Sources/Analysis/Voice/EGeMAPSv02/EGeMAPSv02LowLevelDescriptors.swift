import Glibc
import SensorData

/// eGeMAPSv02's low-level descriptors of every 10-ms frame after openSMILE's contour smoothing,
/// as its LLD output (`FeatureLevel.LowLevelDescriptors`) names them, in its column order (all 25).
///
/// Frame i starts at i·step samples (step = ⌊0.01·f_s + ½⌋) and lasts 20 ms. As openSMILE's table,
/// it has one row more than there are 60-ms pitch frames (``EGeMAPSv02Analysis/pitchFraming(sampleRateHz:)``).
///
/// The contours are smoothed as the functionals read them (``OpenSmileFunctionals``): sma3 for
/// the descriptors every frame has, sma3nz for F0, jitter, shimmer, HNR, H1–H2, H1–A3 (0 where unvoiced), the
/// formants (every frame) and the formant amplitudes (openSMILE's −201 where unvoiced). The
/// pitch-rate columns end as openSMILE writes them (``pitchRateRows(_:decided:)``).
public struct EGeMAPSv02LowLevelDescriptors: Sendable, Hashable {
    /// Frame start and end, s.
    public var startSeconds: [Double] = []
    public var endSeconds: [Double] = []
    /// Loudness_sma3: auditory-spectrum loudness, openSMILE's units.
    public var loudness: [Double] = []
    /// alphaRatio_sma3, dB.
    public var alphaRatioDb: [Double] = []
    /// hammarbergIndex_sma3, dB.
    public var hammarbergIndexDb: [Double] = []
    /// slope0-500_sma3 and slope500-1500_sma3, dB/Hz.
    public var slope0To500DbPerHz: [Double] = []
    public var slope500To1500DbPerHz: [Double] = []
    /// spectralFlux_sma3, openSMILE's units.
    public var spectralFlux: [Double] = []
    /// mfcc1_sma3 … mfcc4_sma3, one array per coefficient.
    public var mfcc: [[Double]] = []
    /// F0semitoneFrom27.5Hz_sma3nz, semitones above 27.5 Hz (0 unvoiced).
    public var f0SemitonesFrom27_5Hz: [Double] = []
    /// jitterLocal_sma3nz, a fraction of the period, and shimmerLocaldB_sma3nz, dB (0 unvoiced).
    public var jitterLocal: [Double] = []
    public var shimmerLocalDb: [Double] = []
    /// HNRdBACF_sma3nz, logRelF0-H1-H2_sma3nz, logRelF0-H1-A3_sma3nz, dB (0 unvoiced).
    public var harmonicsToNoiseDb: [Double] = []
    public var h1MinusH2Db: [Double] = []
    public var h1MinusA3Db: [Double] = []
    /// F1frequency … F3frequency, F1bandwidth … F3bandwidth (_sma3nz), Hz, one array per formant.
    public var formantFrequencyHz: [[Double]] = []
    public var formantBandwidthHz: [[Double]] = []
    /// F1amplitudeLogRelF0 … F3amplitudeLogRelF0 (_sma3nz), dB relative to F0's harmonic.
    public var formantAmplitudeDb: [[Double]] = []

    public init() {}

    /// The table of `descriptors` and the pitch-rate tracks, frames every `step` samples at `sampleRateHz`:
    /// as many rows as every column has, none for a recording shorter than one pitch frame (where
    /// openSMILE writes no row either).
    init(_ descriptors: EGeMAPSv02Analysis.FrameDescriptors, pitch: EGeMAPSv02Analysis.PitchTrack, harmonics: EGeMAPSv02Analysis.HarmonicTrack,
         perturbation: OpenSmilePitchJitter, step: Int, sampleRateHz: Double) {
        typealias F = OpenSmileFunctionals
        let pitchFrames = min(pitch.frequencyHz.count, harmonics.harmonicsToNoiseDb.count, perturbation.jitterLocal.count, perturbation.shimmerLocalDb.count)
        let decided = min(pitch.decidedFrames, pitchFrames)
        func frames(_ x: [Double]) -> [Double] { F.smoothed(x) }
        func voiced(_ x: [Double]) -> [Double] { Self.pitchRateRows(Array(x.prefix(pitchFrames)), decided: decided) }
        loudness = frames(descriptors.loudness)
        alphaRatioDb = frames(descriptors.alphaRatio)
        hammarbergIndexDb = frames(descriptors.hammarbergIndex)
        slope0To500DbPerHz = frames(descriptors.slope0To500)
        slope500To1500DbPerHz = frames(descriptors.slope500To1500)
        spectralFlux = frames(descriptors.spectralFlux)
        mfcc = descriptors.mfcc.map(frames)
        f0SemitonesFrom27_5Hz = voiced(pitch.frequencyHz.map(EGeMAPSv02Analysis.semitones))
        jitterLocal = voiced(perturbation.jitterLocal)
        shimmerLocalDb = voiced(perturbation.shimmerLocalDb)
        harmonicsToNoiseDb = voiced(harmonics.harmonicsToNoiseDb)
        h1MinusH2Db = voiced(harmonics.h1MinusH2Db)
        h1MinusA3Db = voiced(harmonics.h1MinusA3Db)
        formantFrequencyHz = descriptors.formantFrequencyHz.prefix(3).map(voiced)
        formantBandwidthHz = descriptors.formantBandwidthHz.prefix(3).map(voiced)
        formantAmplitudeDb = harmonics.formantAmplitudeDb.map(voiced)
        let n = pitchFrames == 0 ? 0 : columns.map(\.values.count).min() ?? 0
        startSeconds = (0..<n).map { Double($0 * step) / sampleRateHz }
        endSeconds = startSeconds.map { $0 + 0.020 }
        trim(to: n)
    }

    /// Every column's first `n` rows.
    private mutating func trim(to n: Int) {
        for path: WritableKeyPath<Self, [Double]> in [\.loudness, \.alphaRatioDb, \.hammarbergIndexDb, \.slope0To500DbPerHz, \.slope500To1500DbPerHz,
                                                     \.spectralFlux, \.f0SemitonesFrom27_5Hz, \.jitterLocal, \.shimmerLocalDb,
                                                     \.harmonicsToNoiseDb, \.h1MinusH2Db, \.h1MinusA3Db] {
            self[keyPath: path] = Array(self[keyPath: path].prefix(n))
        }
        for path: WritableKeyPath<Self, [[Double]]> in [\.mfcc, \.formantFrequencyHz, \.formantBandwidthHz, \.formantAmplitudeDb] {
            self[keyPath: path] = self[keyPath: path].map { Array($0.prefix(n)) }
        }
    }

    /// openSMILE's LLD rows of a pitch-rate contour `x` (one value per 60-ms frame) whose first
    /// `decided` frames its pitch smoother decided before the recording ended, the rest at the
    /// end (``OpenSmilePitchViterbi``): the decided frames smoothed (sma3nz) as a contour of their
    /// own, the last value repeated beyond it; then that last decided value again, unsmoothed;
    /// then the frames after the first undecided one smoothed within the whole contour; then the
    /// last value again — one row more than `x` has values, the first undecided frame's own
    /// smoothing never written. Every pitch-rate column of openSMILE 2.6.0's table follows it
    /// from openSMILE's own frame values, 1 to 6 frames decided at the end
    /// (`EGeMAPSv02PeerTests.pitchRateRowsFollowOpenSmile`); with no frame decided before the
    /// end (not seen) the whole contour smoothed and its last value again.
    static func pitchRateRows(_ x: [Double], decided: Int) -> [Double] {
        typealias F = OpenSmileFunctionals
        guard let last = x.last else { return [] }
        guard decided > 0 else { return F.smoothedNonZero(x) + [last] }
        let head = F.smoothedNonZero(Array(x.prefix(decided)))
        guard decided < x.count else { return head + [last] }
        return head + [x[decided - 1]] + F.smoothedNonZero(x).dropFirst(decided + 1) + [last]
    }

    /// The columns in openSMILE's order, under its names.
    public var columns: [(name: String, values: [Double])] {
        var columns: [(String, [Double])] = [("Loudness_sma3", loudness), ("alphaRatio_sma3", alphaRatioDb), ("hammarbergIndex_sma3", hammarbergIndexDb),
                                             ("slope0-500_sma3", slope0To500DbPerHz), ("slope500-1500_sma3", slope500To1500DbPerHz), ("spectralFlux_sma3", spectralFlux)]
        columns += mfcc.enumerated().map { ("mfcc\($0 + 1)_sma3", $1) }
        columns += [("F0semitoneFrom27.5Hz_sma3nz", f0SemitonesFrom27_5Hz), ("jitterLocal_sma3nz", jitterLocal),
                    ("shimmerLocaldB_sma3nz", shimmerLocalDb), ("HNRdBACF_sma3nz", harmonicsToNoiseDb),
                    ("logRelF0-H1-H2_sma3nz", h1MinusH2Db), ("logRelF0-H1-A3_sma3nz", h1MinusA3Db)]
        for k in formantAmplitudeDb.indices {
            columns += [("F\(k + 1)frequency_sma3nz", formantFrequencyHz[k]), ("F\(k + 1)bandwidth_sma3nz", formantBandwidthHz[k]),
                        ("F\(k + 1)amplitudeLogRelF0_sma3nz", formantAmplitudeDb[k])]
        }
        return columns
    }

    /// The table as CSV: a header `startSeconds,endSeconds,` and openSMILE's names, then one line
    /// per frame, numbers in their shortest round-trip form (an empty cell for none that is not finite).
    public var csv: String {
        let columns = [("startSeconds", startSeconds), ("endSeconds", endSeconds)] + self.columns
        var text = columns.map(\.0).joined(separator: ",") + "\n"
        for row in startSeconds.indices {
            text += columns.map { $0.1[row].isFinite ? JSONWriter.number($0.1[row]) : "" }.joined(separator: ",") + "\n"
        }
        return text
    }
}
