/// The eGeMAPSv02 functionals of the descriptors every frame has (openSMILE's names in each
/// field's comment): over all frames of the three-frame-smoothed contour (``OpenSmileFunctionals``).
struct EGeMAPSv02FrameFunctionals: Sendable, Hashable {
    /// loudness_sma3_amean, loudness_sma3_stddevNorm.
    var loudnessMean: Double?
    var loudnessStddevNorm: Double?
    /// loudness_sma3_percentile20.0, …50.0, …80.0 and pctlrange0-2 (80th − 20th).
    var loudnessPercentile20: Double?
    var loudnessPercentile50: Double?
    var loudnessPercentile80: Double?
    var loudnessPercentileRange20To80: Double?
    /// loudness_sma3_meanRisingSlope, stddevRisingSlope, meanFallingSlope, stddevFallingSlope
    /// (loudness units per second; ``OpenSmilePeaks``).
    var loudnessMeanRisingSlope: Double?
    var loudnessStddevRisingSlope: Double?
    var loudnessMeanFallingSlope: Double?
    var loudnessStddevFallingSlope: Double?
    /// loudnessPeaksPerSec.
    var loudnessPeaksPerSecond: Double?
    /// spectralFlux_sma3_amean, spectralFlux_sma3_stddevNorm.
    var spectralFluxMean: Double?
    var spectralFluxStddevNorm: Double?
    /// mfcc1_sma3_amean … mfcc4_sma3_amean and their stddevNorm.
    var mfccMean: [Double?] = []
    var mfccStddevNorm: [Double?] = []
    /// equivalentSoundLevel_dBp, dB re full scale.
    var equivalentSoundLevelDb: Double?

    /// The functionals of `descriptors`, frames every `periodSeconds`.
    init(_ descriptors: EGeMAPSv02Analysis.FrameDescriptors, periodSeconds: Double = 0.010) {
        typealias F = OpenSmileFunctionals
        let loudness = F.smoothed(descriptors.loudness), sorted = loudness.sorted()
        loudnessMean = F.mean(loudness)
        loudnessStddevNorm = F.normalisedStandardDeviation(loudness)
        loudnessPercentile20 = F.percentile(sorted, 0.2)
        loudnessPercentile50 = F.percentile(sorted, 0.5)
        loudnessPercentile80 = F.percentile(sorted, 0.8)
        if let high = loudnessPercentile80, let low = loudnessPercentile20 { loudnessPercentileRange20To80 = high - low }
        if let peaks = OpenSmilePeaks(loudness, periodSeconds: periodSeconds) {
            loudnessMeanRisingSlope = peaks.meanRisingSlope
            loudnessStddevRisingSlope = peaks.stddevRisingSlope
            loudnessMeanFallingSlope = peaks.meanFallingSlope
            loudnessStddevFallingSlope = peaks.stddevFallingSlope
            loudnessPeaksPerSecond = peaks.peaksPerSecond
        }
        let flux = F.smoothed(descriptors.spectralFlux)
        spectralFluxMean = F.mean(flux)
        spectralFluxStddevNorm = F.normalisedStandardDeviation(flux)
        let mfcc = descriptors.mfcc.map(F.smoothed)
        mfccMean = mfcc.map(F.mean)
        mfccStddevNorm = mfcc.map(F.normalisedStandardDeviation)
        equivalentSoundLevelDb = F.equivalentLevel(descriptors.energy)
    }
}
