/// openSMILE 2.6.0's eGeMAPSv02 functionals (F. Eyben et al., IEEE Trans. Affective Computing
/// 7(2):190–202, 2016, as openSMILE's `eGeMAPSv02.conf` computes them; this toolkit's
/// reconstruction in this folder, agreement in docs/accuracy.md), under openSMILE's names in
/// openSMILE's order. A functional of no values — no voiced frame, no unvoiced frame, no
/// non-zero value, no segment — is null where openSMILE writes 0 (``EGeMAPSv02VoicingFunctionals``).
public struct EGeMAPSv02Features: Sendable, Hashable, Encodable {
    /// F0 in semitones above 27.5 Hz, 12·log₂(F0/27.5), over voiced frames: mean, semitones.
    public var f0SemitoneMean: Double?
    /// F0 in semitones above 27.5 Hz, 12·log₂(F0/27.5), over voiced frames: standard deviation over mean (0 for a constant contour).
    public var f0SemitoneStddevNorm: Double?
    /// F0 in semitones above 27.5 Hz, 12·log₂(F0/27.5), over voiced frames: 20th percentile (type 7), semitones.
    public var f0SemitonePercentile20: Double?
    /// F0 in semitones above 27.5 Hz, 12·log₂(F0/27.5), over voiced frames: median, semitones.
    public var f0SemitonePercentile50: Double?
    /// F0 in semitones above 27.5 Hz, 12·log₂(F0/27.5), over voiced frames: 80th percentile, semitones.
    public var f0SemitonePercentile80: Double?
    /// F0 in semitones above 27.5 Hz, 12·log₂(F0/27.5), over voiced frames: 80th − 20th percentile, semitones.
    public var f0SemitonePercentileRange20To80: Double?
    /// F0 in semitones above 27.5 Hz, 12·log₂(F0/27.5), over voiced frames: mean rising slope per second (Peaks2), semitones per second.
    public var f0SemitoneMeanRisingSlope: Double?
    /// F0 in semitones above 27.5 Hz, 12·log₂(F0/27.5), over voiced frames: SD of the rising slopes per second, semitones per second.
    public var f0SemitoneStddevRisingSlope: Double?
    /// F0 in semitones above 27.5 Hz, 12·log₂(F0/27.5), over voiced frames: mean falling slope per second, semitones per second.
    public var f0SemitoneMeanFallingSlope: Double?
    /// F0 in semitones above 27.5 Hz, 12·log₂(F0/27.5), over voiced frames: SD of the falling slopes per second, semitones per second.
    public var f0SemitoneStddevFallingSlope: Double?
    /// Auditory-spectrum loudness over every frame: mean, openSMILE loudness units.
    public var loudnessMean: Double?
    /// Auditory-spectrum loudness over every frame: standard deviation over mean (0 for a constant contour).
    public var loudnessStddevNorm: Double?
    /// Auditory-spectrum loudness over every frame: 20th percentile (type 7), openSMILE loudness units.
    public var loudnessPercentile20: Double?
    /// Auditory-spectrum loudness over every frame: median, openSMILE loudness units.
    public var loudnessPercentile50: Double?
    /// Auditory-spectrum loudness over every frame: 80th percentile, openSMILE loudness units.
    public var loudnessPercentile80: Double?
    /// Auditory-spectrum loudness over every frame: 80th − 20th percentile, openSMILE loudness units.
    public var loudnessPercentileRange20To80: Double?
    /// Auditory-spectrum loudness over every frame: mean rising slope per second (Peaks2), openSMILE loudness units per second.
    public var loudnessMeanRisingSlope: Double?
    /// Auditory-spectrum loudness over every frame: SD of the rising slopes per second, openSMILE loudness units per second.
    public var loudnessStddevRisingSlope: Double?
    /// Auditory-spectrum loudness over every frame: mean falling slope per second, openSMILE loudness units per second.
    public var loudnessMeanFallingSlope: Double?
    /// Auditory-spectrum loudness over every frame: SD of the falling slopes per second, openSMILE loudness units per second.
    public var loudnessStddevFallingSlope: Double?
    /// Spectral flux over every frame: mean, openSMILE units.
    public var spectralFluxMean: Double?
    /// Spectral flux over every frame: standard deviation over mean (0 for a constant contour).
    public var spectralFluxStddevNorm: Double?
    /// MFCC 1 (openSMILE's HTK-style) over every frame: mean.
    public var mfcc1Mean: Double?
    /// MFCC 1 (openSMILE's HTK-style) over every frame: standard deviation over mean (0 for a constant contour).
    public var mfcc1StddevNorm: Double?
    /// MFCC 2 (openSMILE's HTK-style) over every frame: mean.
    public var mfcc2Mean: Double?
    /// MFCC 2 (openSMILE's HTK-style) over every frame: standard deviation over mean (0 for a constant contour).
    public var mfcc2StddevNorm: Double?
    /// MFCC 3 (openSMILE's HTK-style) over every frame: mean.
    public var mfcc3Mean: Double?
    /// MFCC 3 (openSMILE's HTK-style) over every frame: standard deviation over mean (0 for a constant contour).
    public var mfcc3StddevNorm: Double?
    /// MFCC 4 (openSMILE's HTK-style) over every frame: mean.
    public var mfcc4Mean: Double?
    /// MFCC 4 (openSMILE's HTK-style) over every frame: standard deviation over mean (0 for a constant contour).
    public var mfcc4StddevNorm: Double?
    /// Local jitter (openSMILE's: mean absolute difference of consecutive waveform-matched
    /// periods over the mean period) over voiced frames: mean, a fraction of the period.
    public var jitterLocalMean: Double?
    /// Local jitter over voiced frames: standard deviation over mean (0 for a constant contour).
    public var jitterLocalStddevNorm: Double?
    /// Local shimmer (openSMILE's: 20·lg(1 + mean peak-to-peak amplitude difference of consecutive
    /// periods over their mean amplitude)) over voiced frames: mean, dB.
    public var shimmerLocalDbMean: Double?
    /// Local shimmer over voiced frames: standard deviation over mean (0 for a constant contour).
    public var shimmerLocalDbStddevNorm: Double?
    /// Harmonics-to-noise ratio by autocorrelation over voiced frames: mean, dB.
    public var harmonicsToNoiseMean: Double?
    /// Harmonics-to-noise ratio by autocorrelation over voiced frames: standard deviation over mean (0 for a constant contour).
    public var harmonicsToNoiseStddevNorm: Double?
    /// H1–H2 (openSMILE numbering: the harmonics at 2·F0 and 3·F0) over voiced frames: mean, dB.
    public var h1MinusH2Mean: Double?
    /// H1–H2 (openSMILE numbering: the harmonics at 2·F0 and 3·F0) over voiced frames: standard deviation over mean (0 for a constant contour).
    public var h1MinusH2StddevNorm: Double?
    /// H1–A3 (the harmonic at 2·F0 against the third formant's amplitude) over voiced frames: mean, dB.
    public var h1MinusA3Mean: Double?
    /// H1–A3 over voiced frames: standard deviation over mean (0 for a constant contour).
    public var h1MinusA3StddevNorm: Double?
    /// LPC formant F1 over voiced frames: mean, Hz.
    public var f1FrequencyMean: Double?
    /// LPC formant F1 over voiced frames: standard deviation over mean (0 for a constant contour).
    public var f1FrequencyStddevNorm: Double?
    /// Bandwidth of F1 over voiced frames: mean, Hz.
    public var f1BandwidthMean: Double?
    /// Bandwidth of F1 over voiced frames: standard deviation over mean (0 for a constant contour).
    public var f1BandwidthStddevNorm: Double?
    /// Amplitude of F1 (its highest harmonic within ±20 %) relative to F0, dB, over every frame with a value (openSMILE's floor −201 where unvoiced): mean, dB.
    public var f1AmplitudeMean: Double?
    /// Amplitude of F1 relative to F0: standard deviation over mean (0 for a constant contour).
    public var f1AmplitudeStddevNorm: Double?
    /// LPC formant F2 over voiced frames: mean, Hz.
    public var f2FrequencyMean: Double?
    /// LPC formant F2 over voiced frames: standard deviation over mean (0 for a constant contour).
    public var f2FrequencyStddevNorm: Double?
    /// Bandwidth of F2 over voiced frames: mean, Hz.
    public var f2BandwidthMean: Double?
    /// Bandwidth of F2 over voiced frames: standard deviation over mean (0 for a constant contour).
    public var f2BandwidthStddevNorm: Double?
    /// Amplitude of F2 (its highest harmonic within ±20 %) relative to F0, dB, over every frame with a value (openSMILE's floor −201 where unvoiced): mean, dB.
    public var f2AmplitudeMean: Double?
    /// Amplitude of F2 relative to F0: standard deviation over mean (0 for a constant contour).
    public var f2AmplitudeStddevNorm: Double?
    /// LPC formant F3 over voiced frames: mean, Hz.
    public var f3FrequencyMean: Double?
    /// LPC formant F3 over voiced frames: standard deviation over mean (0 for a constant contour).
    public var f3FrequencyStddevNorm: Double?
    /// Bandwidth of F3 over voiced frames: mean, Hz.
    public var f3BandwidthMean: Double?
    /// Bandwidth of F3 over voiced frames: standard deviation over mean (0 for a constant contour).
    public var f3BandwidthStddevNorm: Double?
    /// Amplitude of F3 (its highest harmonic within ±20 %) relative to F0, dB, over every frame with a value (openSMILE's floor −201 where unvoiced): mean, dB.
    public var f3AmplitudeMean: Double?
    /// Amplitude of F3 relative to F0: standard deviation over mean (0 for a constant contour).
    public var f3AmplitudeStddevNorm: Double?
    /// Alpha ratio over voiced frames: mean, dB.
    public var alphaRatioVoicedMean: Double?
    /// Alpha ratio over voiced frames: standard deviation over mean (0 for a constant contour).
    public var alphaRatioVoicedStddevNorm: Double?
    /// Hammarberg index over voiced frames: mean, dB.
    public var hammarbergIndexVoicedMean: Double?
    /// Hammarberg index over voiced frames: standard deviation over mean (0 for a constant contour).
    public var hammarbergIndexVoicedStddevNorm: Double?
    /// Spectral slope 0–500 Hz over voiced frames: mean, dB/Hz.
    public var slope0To500VoicedMean: Double?
    /// Spectral slope 0–500 Hz over voiced frames: standard deviation over mean (0 for a constant contour).
    public var slope0To500VoicedStddevNorm: Double?
    /// Spectral slope 500–1500 Hz over voiced frames: mean, dB/Hz.
    public var slope500To1500VoicedMean: Double?
    /// Spectral slope 500–1500 Hz over voiced frames: standard deviation over mean (0 for a constant contour).
    public var slope500To1500VoicedStddevNorm: Double?
    /// Spectral flux over voiced frames: mean, openSMILE units.
    public var spectralFluxVoicedMean: Double?
    /// Spectral flux over voiced frames: standard deviation over mean (0 for a constant contour).
    public var spectralFluxVoicedStddevNorm: Double?
    /// MFCC 1 over voiced frames: mean.
    public var mfcc1VoicedMean: Double?
    /// MFCC 1 over voiced frames: standard deviation over mean (0 for a constant contour).
    public var mfcc1VoicedStddevNorm: Double?
    /// MFCC 2 over voiced frames: mean.
    public var mfcc2VoicedMean: Double?
    /// MFCC 2 over voiced frames: standard deviation over mean (0 for a constant contour).
    public var mfcc2VoicedStddevNorm: Double?
    /// MFCC 3 over voiced frames: mean.
    public var mfcc3VoicedMean: Double?
    /// MFCC 3 over voiced frames: standard deviation over mean (0 for a constant contour).
    public var mfcc3VoicedStddevNorm: Double?
    /// MFCC 4 over voiced frames: mean.
    public var mfcc4VoicedMean: Double?
    /// MFCC 4 over voiced frames: standard deviation over mean (0 for a constant contour).
    public var mfcc4VoicedStddevNorm: Double?
    /// Alpha ratio over unvoiced frames: mean, dB (null without unvoiced frames).
    public var alphaRatioUnvoicedMean: Double?
    /// Hammarberg index over unvoiced frames: mean, dB (null without unvoiced frames).
    public var hammarbergIndexUnvoicedMean: Double?
    /// Spectral slope 0–500 Hz over unvoiced frames: mean, dB/Hz (null without unvoiced frames).
    public var slope0To500UnvoicedMean: Double?
    /// Spectral slope 500–1500 Hz over unvoiced frames: mean, dB/Hz (null without unvoiced frames).
    public var slope500To1500UnvoicedMean: Double?
    /// Spectral flux over unvoiced frames: mean, openSMILE units (null without unvoiced frames).
    public var spectralFluxUnvoicedMean: Double?
    /// Loudness peaks per second (Peaks2 on the smoothed loudness).
    public var loudnessPeaksPerSecond: Double?
    /// Voiced segments per second: runs of at least 3 voiced 10-ms frames, a single unvoiced frame
    /// within one bridged, each from its first to its last voiced frame (unvoiced segments the
    /// same with the roles swapped; cFunctionalSegments' rules, ``EGeMAPSv02VoicingFunctionals``).
    public var voicedSegmentsPerSecond: Double?
    /// Mean voiced segment length, s (null without voiced segments).
    public var meanVoicedSegmentSeconds: Double?
    /// SD of the voiced segment lengths, s (null without voiced segments).
    public var stddevVoicedSegmentSeconds: Double?
    /// Mean unvoiced segment length, s (null without unvoiced segments).
    public var meanUnvoicedSegmentSeconds: Double?
    /// SD of the unvoiced segment lengths, s (null without unvoiced segments).
    public var stddevUnvoicedSegmentSeconds: Double?
    /// Equivalent sound level, dB re full scale (10·lg of the mean frame energy).
    public var equivalentSoundLevelDb: Double?

    enum CodingKeys: String, CodingKey {
        case f0SemitoneMean = "F0semitoneFrom27.5Hz_sma3nz_amean"
        case f0SemitoneStddevNorm = "F0semitoneFrom27.5Hz_sma3nz_stddevNorm"
        case f0SemitonePercentile20 = "F0semitoneFrom27.5Hz_sma3nz_percentile20.0"
        case f0SemitonePercentile50 = "F0semitoneFrom27.5Hz_sma3nz_percentile50.0"
        case f0SemitonePercentile80 = "F0semitoneFrom27.5Hz_sma3nz_percentile80.0"
        case f0SemitonePercentileRange20To80 = "F0semitoneFrom27.5Hz_sma3nz_pctlrange0-2"
        case f0SemitoneMeanRisingSlope = "F0semitoneFrom27.5Hz_sma3nz_meanRisingSlope"
        case f0SemitoneStddevRisingSlope = "F0semitoneFrom27.5Hz_sma3nz_stddevRisingSlope"
        case f0SemitoneMeanFallingSlope = "F0semitoneFrom27.5Hz_sma3nz_meanFallingSlope"
        case f0SemitoneStddevFallingSlope = "F0semitoneFrom27.5Hz_sma3nz_stddevFallingSlope"
        case loudnessMean = "loudness_sma3_amean"
        case loudnessStddevNorm = "loudness_sma3_stddevNorm"
        case loudnessPercentile20 = "loudness_sma3_percentile20.0"
        case loudnessPercentile50 = "loudness_sma3_percentile50.0"
        case loudnessPercentile80 = "loudness_sma3_percentile80.0"
        case loudnessPercentileRange20To80 = "loudness_sma3_pctlrange0-2"
        case loudnessMeanRisingSlope = "loudness_sma3_meanRisingSlope"
        case loudnessStddevRisingSlope = "loudness_sma3_stddevRisingSlope"
        case loudnessMeanFallingSlope = "loudness_sma3_meanFallingSlope"
        case loudnessStddevFallingSlope = "loudness_sma3_stddevFallingSlope"
        case spectralFluxMean = "spectralFlux_sma3_amean"
        case spectralFluxStddevNorm = "spectralFlux_sma3_stddevNorm"
        case mfcc1Mean = "mfcc1_sma3_amean"
        case mfcc1StddevNorm = "mfcc1_sma3_stddevNorm"
        case mfcc2Mean = "mfcc2_sma3_amean"
        case mfcc2StddevNorm = "mfcc2_sma3_stddevNorm"
        case mfcc3Mean = "mfcc3_sma3_amean"
        case mfcc3StddevNorm = "mfcc3_sma3_stddevNorm"
        case mfcc4Mean = "mfcc4_sma3_amean"
        case mfcc4StddevNorm = "mfcc4_sma3_stddevNorm"
        case jitterLocalMean = "jitterLocal_sma3nz_amean"
        case jitterLocalStddevNorm = "jitterLocal_sma3nz_stddevNorm"
        case shimmerLocalDbMean = "shimmerLocaldB_sma3nz_amean"
        case shimmerLocalDbStddevNorm = "shimmerLocaldB_sma3nz_stddevNorm"
        case harmonicsToNoiseMean = "HNRdBACF_sma3nz_amean"
        case harmonicsToNoiseStddevNorm = "HNRdBACF_sma3nz_stddevNorm"
        case h1MinusH2Mean = "logRelF0-H1-H2_sma3nz_amean"
        case h1MinusH2StddevNorm = "logRelF0-H1-H2_sma3nz_stddevNorm"
        case h1MinusA3Mean = "logRelF0-H1-A3_sma3nz_amean"
        case h1MinusA3StddevNorm = "logRelF0-H1-A3_sma3nz_stddevNorm"
        case f1FrequencyMean = "F1frequency_sma3nz_amean"
        case f1FrequencyStddevNorm = "F1frequency_sma3nz_stddevNorm"
        case f1BandwidthMean = "F1bandwidth_sma3nz_amean"
        case f1BandwidthStddevNorm = "F1bandwidth_sma3nz_stddevNorm"
        case f1AmplitudeMean = "F1amplitudeLogRelF0_sma3nz_amean"
        case f1AmplitudeStddevNorm = "F1amplitudeLogRelF0_sma3nz_stddevNorm"
        case f2FrequencyMean = "F2frequency_sma3nz_amean"
        case f2FrequencyStddevNorm = "F2frequency_sma3nz_stddevNorm"
        case f2BandwidthMean = "F2bandwidth_sma3nz_amean"
        case f2BandwidthStddevNorm = "F2bandwidth_sma3nz_stddevNorm"
        case f2AmplitudeMean = "F2amplitudeLogRelF0_sma3nz_amean"
        case f2AmplitudeStddevNorm = "F2amplitudeLogRelF0_sma3nz_stddevNorm"
        case f3FrequencyMean = "F3frequency_sma3nz_amean"
        case f3FrequencyStddevNorm = "F3frequency_sma3nz_stddevNorm"
        case f3BandwidthMean = "F3bandwidth_sma3nz_amean"
        case f3BandwidthStddevNorm = "F3bandwidth_sma3nz_stddevNorm"
        case f3AmplitudeMean = "F3amplitudeLogRelF0_sma3nz_amean"
        case f3AmplitudeStddevNorm = "F3amplitudeLogRelF0_sma3nz_stddevNorm"
        case alphaRatioVoicedMean = "alphaRatioV_sma3nz_amean"
        case alphaRatioVoicedStddevNorm = "alphaRatioV_sma3nz_stddevNorm"
        case hammarbergIndexVoicedMean = "hammarbergIndexV_sma3nz_amean"
        case hammarbergIndexVoicedStddevNorm = "hammarbergIndexV_sma3nz_stddevNorm"
        case slope0To500VoicedMean = "slopeV0-500_sma3nz_amean"
        case slope0To500VoicedStddevNorm = "slopeV0-500_sma3nz_stddevNorm"
        case slope500To1500VoicedMean = "slopeV500-1500_sma3nz_amean"
        case slope500To1500VoicedStddevNorm = "slopeV500-1500_sma3nz_stddevNorm"
        case spectralFluxVoicedMean = "spectralFluxV_sma3nz_amean"
        case spectralFluxVoicedStddevNorm = "spectralFluxV_sma3nz_stddevNorm"
        case mfcc1VoicedMean = "mfcc1V_sma3nz_amean"
        case mfcc1VoicedStddevNorm = "mfcc1V_sma3nz_stddevNorm"
        case mfcc2VoicedMean = "mfcc2V_sma3nz_amean"
        case mfcc2VoicedStddevNorm = "mfcc2V_sma3nz_stddevNorm"
        case mfcc3VoicedMean = "mfcc3V_sma3nz_amean"
        case mfcc3VoicedStddevNorm = "mfcc3V_sma3nz_stddevNorm"
        case mfcc4VoicedMean = "mfcc4V_sma3nz_amean"
        case mfcc4VoicedStddevNorm = "mfcc4V_sma3nz_stddevNorm"
        case alphaRatioUnvoicedMean = "alphaRatioUV_sma3nz_amean"
        case hammarbergIndexUnvoicedMean = "hammarbergIndexUV_sma3nz_amean"
        case slope0To500UnvoicedMean = "slopeUV0-500_sma3nz_amean"
        case slope500To1500UnvoicedMean = "slopeUV500-1500_sma3nz_amean"
        case spectralFluxUnvoicedMean = "spectralFluxUV_sma3nz_amean"
        case loudnessPeaksPerSecond = "loudnessPeaksPerSec"
        case voicedSegmentsPerSecond = "VoicedSegmentsPerSec"
        case meanVoicedSegmentSeconds = "MeanVoicedSegmentLengthSec"
        case stddevVoicedSegmentSeconds = "StddevVoicedSegmentLengthSec"
        case meanUnvoicedSegmentSeconds = "MeanUnvoicedSegmentLength"
        case stddevUnvoicedSegmentSeconds = "StddevUnvoicedSegmentLength"
        case equivalentSoundLevelDb = "equivalentSoundLevel_dBp"
    }

    public init() {}

    init(_ frame: EGeMAPSv02FrameFunctionals, _ voicing: EGeMAPSv02VoicingFunctionals) {
        let f0 = voicing.f0Semitone, loudness = frame.loudness
        (f0SemitoneMean, f0SemitoneStddevNorm, f0SemitonePercentileRange20To80) = (f0.mean, f0.stddevNorm, f0.percentileRange20To80)
        (f0SemitonePercentile20, f0SemitonePercentile50, f0SemitonePercentile80) = (f0.percentile20, f0.percentile50, f0.percentile80)
        (f0SemitoneMeanRisingSlope, f0SemitoneStddevRisingSlope) = (f0.meanRisingSlope, f0.stddevRisingSlope)
        (f0SemitoneMeanFallingSlope, f0SemitoneStddevFallingSlope) = (f0.meanFallingSlope, f0.stddevFallingSlope)
        (loudnessMean, loudnessStddevNorm, loudnessPercentileRange20To80) = (loudness.mean, loudness.stddevNorm, loudness.percentileRange20To80)
        (loudnessPercentile20, loudnessPercentile50, loudnessPercentile80) = (loudness.percentile20, loudness.percentile50, loudness.percentile80)
        (loudnessMeanRisingSlope, loudnessStddevRisingSlope) = (loudness.meanRisingSlope, loudness.stddevRisingSlope)
        (loudnessMeanFallingSlope, loudnessStddevFallingSlope) = (loudness.meanFallingSlope, loudness.stddevFallingSlope)
        (spectralFluxMean, spectralFluxStddevNorm) = (frame.spectralFluxMean, frame.spectralFluxStddevNorm)
        (mfcc1Mean, mfcc1StddevNorm, mfcc2Mean, mfcc2StddevNorm) = (frame.mfccMean[0], frame.mfccStddevNorm[0], frame.mfccMean[1], frame.mfccStddevNorm[1])
        (mfcc3Mean, mfcc3StddevNorm, mfcc4Mean, mfcc4StddevNorm) = (frame.mfccMean[2], frame.mfccStddevNorm[2], frame.mfccMean[3], frame.mfccStddevNorm[3])
        let harmonic = { (k: Int) in k < voicing.harmonicMean.count ? (voicing.harmonicMean[k], voicing.harmonicStddevNorm[k]) : (nil, nil) }
        let perturbation = { (k: Int) in k < voicing.perturbationMean.count ? (voicing.perturbationMean[k], voicing.perturbationStddevNorm[k]) : (nil, nil) }
        (jitterLocalMean, jitterLocalStddevNorm) = perturbation(0)
        (shimmerLocalDbMean, shimmerLocalDbStddevNorm) = perturbation(1)
        (harmonicsToNoiseMean, harmonicsToNoiseStddevNorm) = harmonic(0)
        (h1MinusH2Mean, h1MinusH2StddevNorm) = harmonic(1)
        (h1MinusA3Mean, h1MinusA3StddevNorm) = harmonic(2)
        let amplitude = { (k: Int) in k < voicing.formantAmplitudeMean.count ? (voicing.formantAmplitudeMean[k], voicing.formantAmplitudeStddevNorm[k]) : (nil, nil) }
        (f1AmplitudeMean, f1AmplitudeStddevNorm) = amplitude(0)
        (f2AmplitudeMean, f2AmplitudeStddevNorm) = amplitude(1)
        (f3AmplitudeMean, f3AmplitudeStddevNorm) = amplitude(2)
        let formant = { (k: Int) in k < voicing.formantMean.count ? (voicing.formantMean[k], voicing.formantStddevNorm[k]) : (nil, nil) }
        (f1FrequencyMean, f1FrequencyStddevNorm) = formant(0)
        (f1BandwidthMean, f1BandwidthStddevNorm) = formant(1)
        (f2FrequencyMean, f2FrequencyStddevNorm) = formant(2)
        (f2BandwidthMean, f2BandwidthStddevNorm) = formant(3)
        (f3FrequencyMean, f3FrequencyStddevNorm) = formant(4)
        (f3BandwidthMean, f3BandwidthStddevNorm) = formant(5)
        let voiced = { (k: Int) in k < voicing.voicedMean.count ? (voicing.voicedMean[k], voicing.voicedStddevNorm[k]) : (nil, nil) }
        (alphaRatioVoicedMean, alphaRatioVoicedStddevNorm) = voiced(0)
        (hammarbergIndexVoicedMean, hammarbergIndexVoicedStddevNorm) = voiced(1)
        (slope0To500VoicedMean, slope0To500VoicedStddevNorm) = voiced(2)
        (slope500To1500VoicedMean, slope500To1500VoicedStddevNorm) = voiced(3)
        (spectralFluxVoicedMean, spectralFluxVoicedStddevNorm) = voiced(4)
        (mfcc1VoicedMean, mfcc1VoicedStddevNorm) = voiced(5)
        (mfcc2VoicedMean, mfcc2VoicedStddevNorm) = voiced(6)
        (mfcc3VoicedMean, mfcc3VoicedStddevNorm) = voiced(7)
        (mfcc4VoicedMean, mfcc4VoicedStddevNorm) = voiced(8)
        let unvoiced = { (k: Int) in k < voicing.unvoicedMean.count ? voicing.unvoicedMean[k] : nil }
        (alphaRatioUnvoicedMean, hammarbergIndexUnvoicedMean) = (unvoiced(0), unvoiced(1))
        (slope0To500UnvoicedMean, slope500To1500UnvoicedMean, spectralFluxUnvoicedMean) = (unvoiced(2), unvoiced(3), unvoiced(4))
        loudnessPeaksPerSecond = loudness.peaksPerSecond
        voicedSegmentsPerSecond = voicing.voicedSegmentsPerSecond
        (meanVoicedSegmentSeconds, stddevVoicedSegmentSeconds) = (voicing.meanVoicedSegmentSeconds, voicing.stddevVoicedSegmentSeconds)
        (meanUnvoicedSegmentSeconds, stddevUnvoicedSegmentSeconds) = (voicing.meanUnvoicedSegmentSeconds, voicing.stddevUnvoicedSegmentSeconds)
        equivalentSoundLevelDb = frame.equivalentSoundLevelDb
    }
}
