import Glibc

/// The eGeMAPSv02 functionals that depend on the pitch track (openSMILE's names in each field's
/// comment): the F0 contour's, the spectral descriptors' over voiced and over unvoiced frames, and
/// the voiced and unvoiced segments. As openSMILE 2.6.0 computes them:
///
/// - F0 in semitones above 27.5 Hz, 12·log₂(F0/27.5), 0 when unvoiced; 60-ms frame i pairs with
///   20-ms frame i (both start at i·10 ms). A descriptor "V" keeps its value in voiced frames and
///   is 0 elsewhere, "UV" the reverse; each contour is smoothed by ``OpenSmileFunctionals/smoothedNonZero(_:)``
///   and its functionals take its non-zero values only.
/// - The functionals see the frames the pitch smoother had decided when the recording ended
///   (``OpenSmilePitchViterbi``): openSMILE's smoother emits the rest, decided from its cheapest
///   path at the end, after the functionals have run. The F0 contour and the spectral
///   descriptors it selects are smoothed with those later frames as the last one's neighbour;
///   the contours openSMILE computes from the decided F0 (formants, harmonics, jitter and
///   shimmer, formant amplitudes) end at the last decided frame, which the smoothing repeats
///   beyond it (seen on recordings that end voiced: their functionals equal openSMILE's only so).
/// - Segments are found in the smoothed F0 over those frames by cFunctionalSegments' `nonX`
///   (voiced: non-zero) and `eqX` (unvoiced: zero) rules with its default lengths, which
///   eGeMAPSv02 keeps (``segmentLengths(_:)``); VoicedSegmentsPerSec divides the number of voiced
///   segments by the frames' duration; the segments' means and population standard deviations.
/// - A functional of no values is nil: a mean of no non-zero frames (every frame unvoiced, a
///   sustained vowel's unvoiced descriptors, a contour whose every voiced value is 0 such as the
///   shimmer of a clipped vowel) and the lengths of no segments, where openSMILE writes 0 — a
///   number a study would take for a measurement (0 semitones of F0, an alpha ratio of 0 dB).
struct EGeMAPSv02VoicingFunctionals: Sendable, Hashable {
    /// F0semitoneFrom27.5Hz_sma3nz_amean … _stddevFallingSlope: semitones (slopes per second)
    /// over the voiced frames joined.
    var f0Semitone = OpenSmileContourFunctionals()
    /// amean and stddevNorm over voiced frames, in the order alphaRatioV, hammarbergIndexV,
    /// slopeV0-500, slopeV500-1500, spectralFluxV, mfcc1V … mfcc4V.
    var voicedMean: [Double?] = []
    var voicedStddevNorm: [Double?] = []
    /// amean over unvoiced frames: alphaRatioUV, hammarbergIndexUV, slopeUV0-500,
    /// slopeUV500-1500, spectralFluxUV (nil without unvoiced frames).
    var unvoicedMean: [Double?] = []
    /// VoicedSegmentsPerSec, MeanVoicedSegmentLengthSec, StddevVoicedSegmentLengthSec,
    /// MeanUnvoicedSegmentLength, StddevUnvoicedSegmentLength (seconds; nil without segments).
    var voicedSegmentsPerSecond: Double?
    var meanVoicedSegmentSeconds: Double?
    var stddevVoicedSegmentSeconds: Double?
    var meanUnvoicedSegmentSeconds: Double?
    var stddevUnvoicedSegmentSeconds: Double?

    /// amean and stddevNorm over voiced frames of F1frequency, F1bandwidth, F2frequency,
    /// F2bandwidth, F3frequency, F3bandwidth (Hz; ``OpenSmileFormants``).
    var formantMean: [Double?] = []
    var formantStddevNorm: [Double?] = []

    /// amean and stddevNorm over voiced frames of HNRdBACF, logRelF0-H1-H2 and logRelF0-H1-A3
    /// (dB; ``OpenSmileHarmonics``).
    var harmonicMean: [Double?] = []
    var harmonicStddevNorm: [Double?] = []

    /// amean and stddevNorm over voiced frames of jitterLocal (a fraction of the period) and
    /// shimmerLocaldB (dB) (``OpenSmilePitchJitter``).
    var perturbationMean: [Double?] = []
    var perturbationStddevNorm: [Double?] = []

    /// amean and stddevNorm of F1amplitudeLogRelF0 … F3amplitudeLogRelF0 (dB): openSMILE's
    /// floor −201 of the unvoiced frames is a value like any other to its smoothing and
    /// functionals (frames without a harmonic in range are 0, left out).
    var formantAmplitudeMean: [Double?] = []
    var formantAmplitudeStddevNorm: [Double?] = []

    init(_ descriptors: EGeMAPSv02Analysis.FrameDescriptors, pitch: EGeMAPSv02Analysis.PitchTrack, harmonics: EGeMAPSv02Analysis.HarmonicTrack,
         perturbation: OpenSmilePitchJitter, periodSeconds: Double = 0.010) {
        typealias F = OpenSmileFunctionals
        let n = min(pitch.frequencyHz.count, descriptors.loudness.count)
        let seen = min(n, pitch.decidedFrames)
        guard seen > 0 else { return }
        let semitones = pitch.frequencyHz.prefix(n).map(EGeMAPSv02Analysis.semitones)
        let voiced = semitones.map { $0 > 0 }
        let f0 = Array(F.smoothedNonZero(semitones).prefix(seen))
        f0Semitone = OpenSmileContourFunctionals(f0.filter { $0 != 0 }, periodSeconds: periodSeconds)
        let spectral = [descriptors.alphaRatio, descriptors.hammarbergIndex, descriptors.slope0To500, descriptors.slope500To1500, descriptors.spectralFlux]
        // The non-zero values of a contour's sma3nz smoothing over the frames the functionals see:
        // smoothed before the cut (F0 and what it selects) or after it (what is computed from it).
        func seenNonZero(_ contour: [Double]) -> [Double] { F.smoothedNonZero(contour).prefix(seen).filter { $0 != 0 } }
        func decidedNonZero(_ contour: [Double]) -> [Double] { F.smoothedNonZero(Array(contour.prefix(seen))).filter { $0 != 0 } }
        func gated(_ values: [Double], voicedFrames: Bool) -> [Double] { (0..<n).map { voiced[$0] == voicedFrames ? values[$0] : 0 } }
        func selected(_ values: [Double], voicedFrames: Bool) -> [Double] { seenNonZero(gated(values, voicedFrames: voicedFrames)) }
        func decided(_ values: [Double]) -> [Double] { decidedNonZero(gated(values, voicedFrames: true)) }
        for values in spectral + descriptors.mfcc {
            let kept = selected(values, voicedFrames: true)
            voicedMean.append(F.mean(kept))
            voicedStddevNorm.append(F.normalisedStandardDeviation(kept))
        }
        for k in 0..<3 {
            for values in [descriptors.formantFrequencyHz[k], descriptors.formantBandwidthHz[k]] {
                let kept = decided(values)
                formantMean.append(F.mean(kept))
                formantStddevNorm.append(F.normalisedStandardDeviation(kept))
            }
        }
        for values in [harmonics.harmonicsToNoiseDb, harmonics.h1MinusH2Db, harmonics.h1MinusA3Db] where values.count >= n {
            let kept = decided(values)
            harmonicMean.append(F.mean(kept))
            harmonicStddevNorm.append(F.normalisedStandardDeviation(kept))
        }
        for values in [perturbation.jitterLocal, perturbation.shimmerLocalDb] where values.count >= n {
            let kept = decided(values)
            perturbationMean.append(F.mean(kept))
            perturbationStddevNorm.append(F.normalisedStandardDeviation(kept))
        }
        for values in harmonics.formantAmplitudeDb where values.count >= n {
            let kept = decidedNonZero(Array(values.prefix(n)))
            formantAmplitudeMean.append(F.mean(kept))
            formantAmplitudeStddevNorm.append(F.normalisedStandardDeviation(kept))
        }
        unvoicedMean = spectral.map { F.mean(selected($0, voicedFrames: false)) }
        let voicedRuns = Self.segmentLengths(f0.map { $0 != 0 }).map { Double($0) * periodSeconds }
        let unvoicedRuns = Self.segmentLengths(f0.map { $0 == 0 }).map { Double($0) * periodSeconds }
        voicedSegmentsPerSecond = Double(voicedRuns.count) / (Double(seen) * periodSeconds)
        (meanVoicedSegmentSeconds, stddevVoicedSegmentSeconds) = Self.meanAndDeviation(voicedRuns)
        (meanUnvoicedSegmentSeconds, stddevUnvoicedSegmentSeconds) = Self.meanAndDeviation(unvoicedRuns)
    }

    /// The segments of the frames where `inside` holds, each as its last frame's index less its
    /// first's, by the rule of openSMILE's cFunctionalSegments (its `nonX` and `eqX` algorithms,
    /// minimum segment 3 frames, minimum pause 2, its defaults): a segment starts at a frame
    /// inside and counts once 3 frames inside have come without 2 outside in a row between them;
    /// it ends at its last frame inside before 2 frames outside in a row, or at the last frame
    /// inside when the frames end. A single frame outside within a segment belongs to it.
    static func segmentLengths(_ inside: [Bool]) -> [Int] {
        let minimumSegment = 3, minimumPause = 2
        var lengths: [Int] = []
        var start: Int?, confirmed = false, count = 0, outside = 0, last = 0
        for (i, isInside) in inside.enumerated() {
            if isInside {
                if start == nil { start = i }
                count += 1
                outside = 0
                last = i
                if count >= minimumSegment { confirmed = true }
            } else if let first = start {
                outside += 1
                if outside >= minimumPause {
                    if confirmed { lengths.append(last - first) }
                    (start, confirmed, count, outside) = (nil, false, 0, 0)
                }
            }
        }
        if confirmed, let first = start { lengths.append(last - first) }
        return lengths
    }

    /// Mean and population standard deviation; nil for none.
    static func meanAndDeviation(_ x: [Double]) -> (Double?, Double?) {
        guard let m = OpenSmileFunctionals.mean(x) else { return (nil, nil) }
        return (m, (x.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(x.count)).squareRoot())
    }
}
