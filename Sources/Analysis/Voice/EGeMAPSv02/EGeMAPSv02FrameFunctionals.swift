/// The eGeMAPSv02 functionals of the descriptors every frame has (openSMILE's names in each
/// field's comment): over all frames of the three-frame-smoothed contour (``OpenSmileFunctionals``).
struct EGeMAPSv02FrameFunctionals: Sendable, Hashable {
    /// loudness_sma3_amean … loudness_sma3_stddevFallingSlope and loudnessPeaksPerSec
    /// (loudness units; slopes per second).
    var loudness = OpenSmileContourFunctionals()
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
        loudness = OpenSmileContourFunctionals(F.smoothed(descriptors.loudness), periodSeconds: periodSeconds)
        let flux = F.smoothed(descriptors.spectralFlux)
        spectralFluxMean = F.mean(flux)
        spectralFluxStddevNorm = F.normalisedStandardDeviation(flux)
        let mfcc = descriptors.mfcc.map(F.smoothed)
        mfccMean = mfcc.map(F.mean)
        mfccStddevNorm = mfcc.map(F.normalisedStandardDeviation)
        equivalentSoundLevelDb = F.equivalentLevel(descriptors.energy)
    }
}
