import SignalProcessing

/// Mean, median and sample standard deviation of one measure over frames, Hz.
public struct FrameStatistics: Sendable, Hashable {
    /// Arithmetic mean.
    public var mean: Double?
    /// Median (the type-7 quantile at ½).
    public var median: Double?
    /// n − 1 in the denominator; nil below two frames.
    public var sd: Double?

    /// The statistics of `values`; without the median when `median` is false (a set that does
    /// not report it).
    init(_ values: [Double], median: Bool = true) {
        guard !values.isEmpty else { return }
        mean = values.statistic(Statistics.mean)
        if median { self.median = values.statistic(Statistics.median) }
        sd = values.count >= 2 ? values.statistic(Statistics.standardDeviation) : nil
    }
    init() {}
}

/// Formants of the voiced stretches by Praat's "To Formant (burg)" (``PraatFormantAnalysis``,
/// settings in the voice parameters), per formant k = 1…4: frequency Fk and bandwidth Bk over
/// the formant frames whose centre Praat's pitch contour calls voiced (Pitch "Get value at time"
/// defined there) and that have a k-th formant. Encoded as `f1MeanHz`, `f1MedianHz`, `f1SdHz`,
/// `b1MeanHz`, … `b4SdHz`, then the vowel-space measures.
public struct FormantFeatures: Sendable, Hashable, Encodable {
    /// Formant frames at voiced times, count.
    public var voicedFrameCount: Int
    /// F1…F4 over the voiced frames, Hz.
    public var frequencies: [FrameStatistics]
    /// B1…B4 over the voiced frames, Hz.
    public var bandwidths: [FrameStatistics]
    /// Mean of F2/F1 over the voiced frames with both, ratio.
    public var f2OverF1Ratio: Double?
    /// Formant dispersion (F4 − F1)/3 of the mean formants, Hz (W. T. Fitch, "Vocal tract length
    /// and formant frequency dispersion correlate with body size in rhesus macaques", J. Acoust.
    /// Soc. Am. 102:1213–1222, 1997: the mean spacing of successive formants).
    public var formantDispersionHz: Double?

    /// Formants reported.
    public static let reported = 4

    enum CodingKeys: String, CodingKey {
        case voicedFrameCount, f2OverF1Ratio, formantDispersionHz
    }

    public func encode(to encoder: any Encoder) throws {
        var fixed = encoder.container(keyedBy: CodingKeys.self)
        try fixed.encode(voicedFrameCount, forKey: .voicedFrameCount)
        var named = encoder.container(keyedBy: FeatureName.self)
        for (letter, series) in [("f", frequencies), ("b", bandwidths)] {
            for k in 0..<Self.reported {
                let statistics = k < series.count ? series[k] : FrameStatistics()
                try named.encodeIfPresent(statistics.mean, forKey: FeatureName(stringValue: "\(letter)\(k + 1)MeanHz"))
                try named.encodeIfPresent(statistics.median, forKey: FeatureName(stringValue: "\(letter)\(k + 1)MedianHz"))
                try named.encodeIfPresent(statistics.sd, forKey: FeatureName(stringValue: "\(letter)\(k + 1)SdHz"))
            }
        }
        try fixed.encodeIfPresent(f2OverF1Ratio, forKey: .f2OverF1Ratio)
        try fixed.encodeIfPresent(formantDispersionHz, forKey: .formantDispersionHz)
    }

    /// The statistics of `track` over the frames at which `isVoiced` holds.
    init(_ track: PraatFormantAnalysis.Track, isVoiced: (Double) -> Bool) {
        let voiced = track.frames.indices.filter { isVoiced(track.time($0)) }.map { track.frames[$0] }
        voicedFrameCount = voiced.count
        frequencies = (0..<Self.reported).map { k in FrameStatistics(voiced.compactMap { $0.frequencyHz.count > k ? $0.frequencyHz[k] : nil }) }
        bandwidths = (0..<Self.reported).map { k in FrameStatistics(voiced.compactMap { $0.bandwidthHz.count > k ? $0.bandwidthHz[k] : nil }) }
        let ratios = voiced.compactMap { $0.frequencyHz.count >= 2 ? $0.frequencyHz[1] / $0.frequencyHz[0] : nil }
        f2OverF1Ratio = ratios.isEmpty ? nil : ratios.statistic(Statistics.mean)
        formantDispersionHz = frequencies[3].mean.flatMap { f4 in frequencies[0].mean.map { (f4 - $0) / 3 } }
    }
}

/// librosa MFCCs (``MFCCAnalysis``) over every frame of the recording: per coefficient c₀…c₁₉ the
/// mean and sample SD of the coefficient (dB, librosa's power_to_db scale), of its Δ (dB per
/// frame) and of its ΔΔ (dB per frame²). Encoded as `mfcc0MeanDb`, `mfcc0SdDb`,
/// `mfcc0DeltaMeanDbPerFrame`, `mfcc0DeltaSdDbPerFrame`, `mfcc0DeltaDeltaMeanDbPerFrame2`,
/// `mfcc0DeltaDeltaSdDbPerFrame2`, … (Δ and ΔΔ null below 9 frames).
public struct MFCCFeatures: Sendable, Hashable, Encodable {
    /// Frames, count (1 + ⌊samples / hop⌋).
    public var frameCount: Int
    /// c₀…c₁₉ over the frames, dB (mean and SD: the set reports no median).
    public var coefficients: [FrameStatistics]
    /// Their Δ, dB per frame.
    public var delta: [FrameStatistics]
    /// Their ΔΔ, dB per frame².
    public var deltaDelta: [FrameStatistics]

    enum CodingKeys: String, CodingKey { case frameCount }

    public func encode(to encoder: any Encoder) throws {
        var fixed = encoder.container(keyedBy: CodingKeys.self)
        try fixed.encode(frameCount, forKey: .frameCount)
        var named = encoder.container(keyedBy: FeatureName.self)
        for k in coefficients.indices {
            for (label, unit, series) in [("", "Db", coefficients), ("Delta", "DbPerFrame", delta), ("DeltaDelta", "DbPerFrame2", deltaDelta)] {
                let statistics = k < series.count ? series[k] : FrameStatistics()
                try named.encodeIfPresent(statistics.mean, forKey: .init(stringValue: "mfcc\(k)\(label)Mean\(unit)"))
                try named.encodeIfPresent(statistics.sd, forKey: .init(stringValue: "mfcc\(k)\(label)Sd\(unit)"))
            }
        }
    }

    init(_ result: MFCCAnalysis.Result, coefficientCount: Int) {
        frameCount = result.frameCount
        func columns(_ series: [[Double]]?) -> [FrameStatistics] {
            let series = series ?? []
            return (0..<coefficientCount).map { k in FrameStatistics(k < series.count ? series[k] : [], median: false) }
        }
        coefficients = columns(result.coefficients)
        delta = columns(result.delta)
        deltaDelta = columns(result.deltaDelta)
    }
}

/// Cepstral peak prominence by Praat's "To PowerCepstrogram" and "Get CPPS" with their defaults
/// (``PraatCepstralAnalysis``): Praat's CPPS over every frame, and the per-frame CPP's median,
/// SD and mean over the frames at voiced times.
public struct CepstralFeatures: Sendable, Hashable, Encodable {
    /// Cepstrogram frames (every 2 ms), count.
    public var frameCount: Int
    /// Praat's "Get CPPS": the mean CPP of all frames, dB.
    public var cppsDb: Double?
    /// Median of the frames' CPP, dB.
    public var cppMedianDb: Double?
    /// Sample SD of the frames' CPP, dB.
    public var cppSdDb: Double?
    /// Mean CPP of the frames whose centre Praat's pitch contour calls voiced, dB.
    public var cppVoicedMeanDb: Double?

    init(_ result: PraatCepstralAnalysis.Result?, isVoiced: (Double) -> Bool) {
        let all = result?.cppDb.filter(\.isFinite) ?? []
        let statistics = FrameStatistics(all)
        frameCount = result?.cppDb.count ?? 0
        cppsDb = result?.cppsDb
        cppMedianDb = statistics.median
        cppSdDb = statistics.sd
        let voiced = result.map { r in r.cppDb.indices.filter { r.cppDb[$0].isFinite && isVoiced(r.firstTime + Double($0) * r.timeStep) }.map { r.cppDb[$0] } } ?? []
        cppVoicedMeanDb = FrameStatistics(voiced).mean
    }
}

/// eGeMAPS v02's spectral-balance, loudness and temporal features (``EGeMAPSAnalysis``, which
/// states the definitions): the paper's functionals of the three-frame-smoothed frame series —
/// means (and coefficients of variation, sample SD / |mean|) over voiced frames, means over
/// unvoiced frames, loudness's distribution over every frame — and the six temporal features.
public struct EGeMAPSFeatures: Sendable, Hashable, Encodable {
    /// Spectral frames (20 ms every 10 ms by default), count.
    public var frameCount: Int
    /// Spectral frames whose centre Praat's pitch contour calls voiced, count.
    public var voicedFrameCount: Int
    /// Alpha ratio, 10·lg(E 50–1000 Hz / E 1–5 kHz): mean over voiced frames, dB.
    public var alphaRatioVoicedMeanDb: Double?
    /// Its coefficient of variation over voiced frames (SD / |mean|).
    public var alphaRatioVoicedCv: Double?
    /// Its mean over unvoiced frames, dB.
    public var alphaRatioUnvoicedMeanDb: Double?
    /// Hammarberg index, 10·lg(peak 0–2 kHz / peak 2–5 kHz): mean over voiced frames, dB.
    public var hammarbergIndexVoicedMeanDb: Double?
    /// Its coefficient of variation over voiced frames.
    public var hammarbergIndexVoicedCv: Double?
    /// Its mean over unvoiced frames, dB.
    public var hammarbergIndexUnvoicedMeanDb: Double?
    /// Least-squares slope of the dB power spectrum over 0–500 Hz: mean over voiced frames, dB/Hz.
    public var spectralSlope0To500HzVoicedMeanDbPerHz: Double?
    /// Its coefficient of variation over voiced frames.
    public var spectralSlope0To500HzVoicedCv: Double?
    /// Its mean over unvoiced frames, dB/Hz.
    public var spectralSlope0To500HzUnvoicedMeanDbPerHz: Double?
    /// The same slope over 500–1500 Hz: mean over voiced frames, dB/Hz.
    public var spectralSlope500To1500HzVoicedMeanDbPerHz: Double?
    /// Its coefficient of variation over voiced frames.
    public var spectralSlope500To1500HzVoicedCv: Double?
    /// Its mean over unvoiced frames, dB/Hz.
    public var spectralSlope500To1500HzUnvoicedMeanDbPerHz: Double?
    /// Level of the first harmonic (F0) less that of the second: mean over voiced frames, dB.
    public var h1MinusH2VoicedMeanDb: Double?
    /// Its coefficient of variation over voiced frames.
    public var h1MinusH2VoicedCv: Double?
    /// Level of the first harmonic less the strongest harmonic within F3 ± B3/2: mean over voiced frames, dB.
    public var h1MinusA3VoicedMeanDb: Double?
    /// Its coefficient of variation over voiced frames.
    public var h1MinusA3VoicedCv: Double?
    /// PLP loudness (Hermansky 1990's auditory spectrum summed; auditory units): mean over every frame.
    public var loudnessMeanAuditory: Double?
    /// Its coefficient of variation over every frame.
    public var loudnessCv: Double?
    /// Its 20th percentile (type 7), auditory units.
    public var loudnessP20Auditory: Double?
    /// Its median, auditory units.
    public var loudnessP50Auditory: Double?
    /// Its 80th percentile, auditory units.
    public var loudnessP80Auditory: Double?
    /// P80 − P20, auditory units.
    public var loudnessRangeP20ToP80Auditory: Double?
    /// Loudness peaks (rise and fall of a tenth of the range by default) per second of recording.
    public var loudnessPeaksPerSecond: Double?
    /// Runs of voiced pitch frames (F0 > 0) per second of recording.
    public var voicedSegmentsPerSecond: Double?
    /// Mean length of the voiced runs, s.
    public var voicedSegmentLengthMeanSeconds: Double?
    /// Sample SD of the voiced runs' lengths, s (nil below two runs).
    public var voicedSegmentLengthSdSeconds: Double?
    /// Mean length of the unvoiced runs (those at either end included), s.
    public var unvoicedSegmentLengthMeanSeconds: Double?
    /// Sample SD of the unvoiced runs' lengths, s (nil below two runs).
    public var unvoicedSegmentLengthSdSeconds: Double?

    /// Mean, and SD / |mean| (nil below two values or at a zero mean).
    static func meanAndCv(_ values: [Double]) -> (Double?, Double?) {
        let statistics = FrameStatistics(values)
        guard let mean = statistics.mean else { return (nil, nil) }
        return (mean, statistics.sd.flatMap { mean != 0 ? $0 / abs(mean) : nil })
    }

    /// The features of `frames` (``EGeMAPSAnalysis/frames(_:sampleRateHz:f0:thirdFormant:)``)
    /// and of the voicing of `voicedPitchFrames` (one flag per pitch frame, `pitchTimeStep` s
    /// apart) over a recording of `durationSeconds`.
    init(_ frames: EGeMAPSAnalysis.Frames, voicedPitchFrames: [Bool], pitchTimeStep: Double, durationSeconds: Double, peakThreshold: Double) {
        let voiced = frames.voiced
        frameCount = voiced.count
        voicedFrameCount = voiced.filter { $0 }.count
        let sameClass: (Int, Int) -> Bool = { voiced[$0] == voiced[$1] }
        func split(_ series: [Double]) -> (voiced: [Double], unvoiced: [Double]) {
            let smooth = EGeMAPSAnalysis.smoothed(series, keep: sameClass)
            return (smooth.indices.filter { voiced[$0] && smooth[$0].isFinite }.map { smooth[$0] },
                    smooth.indices.filter { !voiced[$0] && smooth[$0].isFinite }.map { smooth[$0] })
        }
        let alpha = split(frames.alphaRatioDb), hammarberg = split(frames.hammarbergIndexDb)
        let low = split(frames.slope0To500DbPerHz), high = split(frames.slope500To1500DbPerHz)
        (alphaRatioVoicedMeanDb, alphaRatioVoicedCv) = Self.meanAndCv(alpha.voiced)
        alphaRatioUnvoicedMeanDb = FrameStatistics(alpha.unvoiced).mean
        (hammarbergIndexVoicedMeanDb, hammarbergIndexVoicedCv) = Self.meanAndCv(hammarberg.voiced)
        hammarbergIndexUnvoicedMeanDb = FrameStatistics(hammarberg.unvoiced).mean
        (spectralSlope0To500HzVoicedMeanDbPerHz, spectralSlope0To500HzVoicedCv) = Self.meanAndCv(low.voiced)
        spectralSlope0To500HzUnvoicedMeanDbPerHz = FrameStatistics(low.unvoiced).mean
        (spectralSlope500To1500HzVoicedMeanDbPerHz, spectralSlope500To1500HzVoicedCv) = Self.meanAndCv(high.voiced)
        spectralSlope500To1500HzUnvoicedMeanDbPerHz = FrameStatistics(high.unvoiced).mean
        (h1MinusH2VoicedMeanDb, h1MinusH2VoicedCv) = Self.meanAndCv(split(frames.h1MinusH2Db).voiced)
        (h1MinusA3VoicedMeanDb, h1MinusA3VoicedCv) = Self.meanAndCv(split(frames.h1MinusA3Db).voiced)

        let loudness = EGeMAPSAnalysis.smoothed(frames.loudness).filter(\.isFinite)
        (loudnessMeanAuditory, loudnessCv) = Self.meanAndCv(loudness)
        let sorted = loudness.sorted()
        if !sorted.isEmpty {
            loudnessP20Auditory = Statistics.quantileOfSorted(sorted, 0.2)
            loudnessP50Auditory = Statistics.quantileOfSorted(sorted, 0.5)
            loudnessP80Auditory = Statistics.quantileOfSorted(sorted, 0.8)
            loudnessRangeP20ToP80Auditory = loudnessP80Auditory! - loudnessP20Auditory!
        }
        guard durationSeconds > 0 else { return }
        loudnessPeaksPerSecond = Double(EGeMAPSAnalysis.peakCount(loudness, threshold: peakThreshold)) / durationSeconds
        var runs: (voiced: [Double], unvoiced: [Double]) = ([], [])
        var i = 0
        while i < voicedPitchFrames.count {
            let value = voicedPitchFrames[i], begin = i
            while i < voicedPitchFrames.count, voicedPitchFrames[i] == value { i += 1 }
            let seconds = Double(i - begin) * pitchTimeStep
            if value { runs.voiced.append(seconds) } else { runs.unvoiced.append(seconds) }
        }
        voicedSegmentsPerSecond = Double(runs.voiced.count) / durationSeconds
        let voicedRuns = FrameStatistics(runs.voiced), unvoicedRuns = FrameStatistics(runs.unvoiced)
        (voicedSegmentLengthMeanSeconds, voicedSegmentLengthSdSeconds) = (voicedRuns.mean, voicedRuns.sd)
        (unvoicedSegmentLengthMeanSeconds, unvoicedSegmentLengthSdSeconds) = (unvoicedRuns.mean, unvoicedRuns.sd)
    }
}
