import Foundation
import InputGuards
import Analysis
import AudioIO
import SensorData

/// Scores environment sound: audio streamed through ``SoundLevelMeter`` (IEC 61672-1 A/C/Z,
/// F/S, Leq, SEL, Lmax, L10/50/90) with ResearchKit's quiet-room decision (docs/analyses.md §3), or
/// an `ORKEnvironmentSPLMeterResult`, whose readings get the same decision rule.
public enum SPLScorer {
    public struct Parameters: Sendable, Hashable, Codable {
        /// dB SPL that an RMS of 1.0 reads.
        public var calibrationOffsetDecibels = ResearchKitSPL.calibrationOffset(sensitivityOffset: ResearchKitSPL.iPhoneSensitivityOffset)
        /// Where the calibration offset came from, as the output names it.
        public var calibrationSource = "ResearchKit iPhone sensitivity offset −23.3 dB"
        /// Decision threshold, dB(A): a reading below it counts towards passing.
        public var thresholdDecibels = ResearchKitSPL.thresholdDecibels
        /// Length of each reading, s (ResearchKit's samplingInterval).
        public var intervalSeconds = 1.0
        /// Consecutive readings below the threshold that pass the room (ResearchKit's requiredContiguousSamples).
        public var requiredIntervals = ResearchKitSPL.requiredReadings
        /// The audio channel metered, 0-based.
        public var channel = 0
        /// Weighting filters at 1, 2 or 4 × the file's rate.
        public var oversampling = 1
        /// Keep the complete items before a torn tail of a JSON file (killed mid-write), with a warning.
        public var lenient = false
        public init() {}

        /// Why these parameters cannot be used (nil: they can): levels within ±400 dB, a reading
        /// 1 ms–24 h long, 1–10^6 readings to pass, oversampling 1, 2 or 4.
        public var problem: String? {
            if !CalibratorLevel.plausibleOffsetDecibels.contains(calibrationOffsetDecibels) {
                return "calibration offset \(calibrationOffsetDecibels) dB is not a level (−400…400 dB)"
            }
            if !(thresholdDecibels.isFinite && abs(thresholdDecibels) <= 400) { return "threshold \(thresholdDecibels) dB is not a level (−400…400 dB)" }
            if !(intervalSeconds.isFinite && intervalSeconds >= 0.001 && intervalSeconds <= 86_400) {
                return "reading interval \(intervalSeconds) s is outside 0.001…86400 s"
            }
            if !(1...1_000_000).contains(requiredIntervals) { return "required readings \(requiredIntervals) is outside 1…1000000" }
            if channel < 0 { return "channel \(channel) is negative" }
            if ![1, 2, 4].contains(oversampling) { return "oversampling \(oversampling) is not 1, 2 or 4" }
            return nil
        }
    }

    public static func score(_ input: LoadedInput, _ parameters: Parameters = .init()) throws(ScoringError) -> SPLScore {
        let file = input.path
        if let problem = parameters.problem { throw ScoringError(.badInvocation, "\(FileName.display(file)): \(problem)") }
        let audio: AudioSource
        switch input.kind {
        case .json(let contents): return try scoreResult(contents, file: file, parameters)
        case .audio(let source): audio = source
        default: throw .input(ReadError(file: file, reason: .notFound("no audio and no environment SPL meter result: this file is \(input.kind.summary)")))
        }
        let decoder = try audio.open()
        let rate = decoder.format.sampleRateHz
        guard rate > SoundLevelMeter.lowestRateHz else {
            let report = ScoreReport(kind: "spl", file: file, dialect: "audio", sets: [], warnings: [],
                                     unusable: "\(rate) Hz is too low for A-weighting (needs > 2 kHz)")
            return SPLScore(report: report, source: .researchKitResult, readingsDecibels: [], intervalSeconds: parameters.intervalSeconds,
                            thresholdDecibels: parameters.thresholdDecibels, passIndex: nil)
        }
        var meter = SoundLevelMeter(sampleRateHz: rate, calibrationOffsetDecibels: parameters.calibrationOffsetDecibels,
                                    intervalSeconds: parameters.intervalSeconds, oversampling: parameters.oversampling)
        try AudioScoring.stream(decoder, file: file, channel: parameters.channel) { meter.process($0) }
        let result = meter.result
        let readings = result.intervalLevelsDecibels
        let decision = SPLDecisionFeatures(readings: readings, parameters)
        let features = SPLMeterFeatures(
            laeqDecibels: result.laeqDecibels, lceqDecibels: result.lceqDecibels, lzeqDecibels: result.lzeqDecibels, laeDecibels: result.laeDecibels,
            lafmaxDecibels: result.lafmaxDecibels, lasmaxDecibels: result.lasmaxDecibels,
            l10Decibels: result.laf10Decibels, l50Decibels: result.laf50Decibels, l90Decibels: result.laf90Decibels,
            l10IntervalLaeqDecibels: meter.intervalLevelExceeded(percent: 10), l50IntervalLaeqDecibels: meter.intervalLevelExceeded(percent: 50),
            l90IntervalLaeqDecibels: meter.intervalLevelExceeded(percent: 90), laeqIntervalsDecibels: readings,
            intervalSeconds: parameters.intervalSeconds, durationSeconds: result.durationSeconds,
            calibrationOffsetDecibels: parameters.calibrationOffsetDecibels, calibrationSource: parameters.calibrationSource,
            oversampling: parameters.oversampling, decision: decision)
        var warnings = AudioScoring.warnings(decoder)
        if rate * Double(parameters.oversampling) < 40_000 {
            warnings.append("sample rate \(rate) Hz: A and C weighting read low in the top octave (bilinear design below 40 kHz)")
        }
        // No power at all is no room's sound: a muted or disconnected microphone, or no samples.
        let channels = decoder.format.channels
        let silent = result.lzeqDecibels == -.infinity || result.durationSeconds == 0
            ? "silent: channel \(parameters.channel) has no power (no samples, or every sample 0 or below 1e-154 full scale); every level is −∞ dB"
                + (channels > 1 ? " (the recording has \(channels) channels: the parameter channel chooses another)" : "")
            : nil
        // A recording too short for the statistics' samples leaves them null: said, with its length.
        if silent == nil {
            let seconds = String(format: "%.3g", result.durationSeconds)
            if result.laf10Decibels == nil {
                warnings.append("L10, L50 and L90 are null: they are taken of LAF every 0.1 s, and the recording's \(seconds) s hold no such sample")
            }
            if readings.isEmpty {
                warnings.append("the interval levels and their L10, L50 and L90 are null, and ResearchKit's decision fails: the recording's \(seconds) s hold no whole \(String(format: "%.3g", parameters.intervalSeconds))-s interval")
            }
        }
        return SPLScore(report: ScoreReport(kind: "spl", file: file, dialect: "audio", sets: [FeatureSet(name: "atk", features: features)], warnings: warnings,
                                            unusable: silent),
                        source: .audio(result), readingsDecibels: readings, intervalSeconds: parameters.intervalSeconds,
                        thresholdDecibels: parameters.thresholdDecibels, passIndex: decision.researchKitPassIntervalIndex)
    }

    /// An ORKEnvironmentSPLMeterResult: the decision on its recorded readings (one per second).
    static func scoreResult(_ contents: JSONContents, file: String, _ parameters: Parameters) throws(ScoringError) -> SPLScore {
        guard let result = contents.splMeterResults.first else {
            throw .input(ReadError(file: file, reason: .notFound("no audio and no environment SPL meter result in this file (\(contents.layout.name))")))
        }
        let readings = result.recordedSPLMeterSamplesDecibels
        let features = ResearchKitSPLFeatures(
            readingCount: readings.count, readingsDecibels: readings, sensitivityOffsetDecibels: result.sensitivityOffsetDecibels,
            calibrationOffsetDecibels: result.sensitivityOffsetDecibels.map { ResearchKitSPL.calibrationOffset(sensitivityOffset: $0) }, decision: SPLDecisionFeatures(readings: readings, parameters))
        let report = ScoreReport(kind: "spl", file: file, dialect: "ORKEnvironmentSPLMeterResult", sets: [FeatureSet(name: "researchKit", features: features)],
                                 warnings: contents.warnings.map(\.description))
        return SPLScore(report: report, source: .researchKitResult, readingsDecibels: readings, intervalSeconds: 1,
                        thresholdDecibels: parameters.thresholdDecibels, passIndex: features.decision.researchKitPassIntervalIndex)
    }
}

/// ResearchKit's quiet-room decision on a series of readings (docs/analyses.md §3.6;
/// ORKEnvironmentSPLMeterStep): the step passes at the first reading that ends a run of
/// `requiredContiguousIntervals` readings below the threshold.
public struct SPLDecisionFeatures: Sendable, Hashable, Encodable {
    public enum Decision: String, Sendable, Hashable, Encodable {
        case pass, fail
    }

    /// The threshold, dB(A).
    public var thresholdDecibels: Double
    /// Consecutive readings below the threshold needed to pass, count.
    public var requiredContiguousIntervals: Int
    /// `pass` or `fail`.
    public var researchKitDecision: Decision
    /// The reading (0-based) at which the step passes; null when it fails.
    public var researchKitPassIntervalIndex: Int?

    init(readings: [Double], _ parameters: SPLScorer.Parameters) {
        let pass = ResearchKitSPL.decision(readings: readings, threshold: parameters.thresholdDecibels, required: parameters.requiredIntervals)
        thresholdDecibels = parameters.thresholdDecibels
        requiredContiguousIntervals = parameters.requiredIntervals
        researchKitDecision = pass == nil ? .fail : .pass
        researchKitPassIntervalIndex = pass
    }
}

/// Environment sound metered from audio (IEC 61672-1:2013 class 1 weighting; docs/analyses.md §3), in dB
/// re 20 µPa through the calibration offset.
public struct SPLMeterFeatures: Sendable, Hashable, Encodable {
    /// A-weighted equivalent level, dB(A).
    public var laeqDecibels: Double
    /// C-weighted equivalent level, dB(C).
    public var lceqDecibels: Double
    /// Unweighted (Z) equivalent level, dB.
    public var lzeqDecibels: Double
    /// A-weighted sound exposure level (re 1 s), dB(A).
    public var laeDecibels: Double
    /// Maximum A-weighted, Fast (125 ms) level, dB(A).
    public var lafmaxDecibels: Double?
    /// Maximum A-weighted, Slow (1 s) level, dB(A).
    public var lasmaxDecibels: Double?
    /// LAF exceeded 10 % of the time (LAF sampled every 0.1 s), dB(A).
    public var l10Decibels: Double?
    /// LAF exceeded 50 % of the time, dB(A).
    public var l50Decibels: Double?
    /// LAF exceeded 90 % of the time, dB(A).
    public var l90Decibels: Double?
    /// How L10/L50/L90 were sampled: always "LAF every 0.1 s".
    public var statisticsSource = "LAF every 0.1 s"
    /// The interval LAeq readings' level exceeded 10 % of the intervals, dB(A).
    public var l10IntervalLaeqDecibels: Double?
    /// Exceeded by 50 % of the intervals, dB(A).
    public var l50IntervalLaeqDecibels: Double?
    /// Exceeded by 90 % of the intervals, dB(A).
    public var l90IntervalLaeqDecibels: Double?
    /// LAeq of each interval (the readings the decision uses), dB(A).
    public var laeqIntervalsDecibels: [Double]
    /// Length of one reading, s.
    public var intervalSeconds: Double
    /// Length of the audio metered, s.
    public var durationSeconds: Double
    /// dB SPL that an RMS of 1.0 reads.
    public var calibrationOffsetDecibels: Double
    /// Where the offset came from.
    public var calibrationSource: String
    /// Weighting filters at this multiple of the file's rate (1, 2 or 4).
    public var oversampling: Int
    /// ResearchKit's decision on the readings (in place).
    public var decision: SPLDecisionFeatures
}

/// An `ORKEnvironmentSPLMeterResult`: the readings ResearchKit recorded and the decision on them.
public struct ResearchKitSPLFeatures: Sendable, Hashable, Encodable {
    /// Readings, count.
    public var readingCount: Int
    /// ResearchKit's readings (one per second), dB(A).
    public var readingsDecibels: [Double]
    /// The result's `sensitivityOffset`, dB.
    public var sensitivityOffsetDecibels: Double?
    /// 94 − sensitivityOffset: dB SPL at RMS 1.0 as ResearchKit calibrated it.
    public var calibrationOffsetDecibels: Double?
    /// ResearchKit's decision on the readings (in place).
    public var decision: SPLDecisionFeatures
}

/// ResearchKit's device calibrations (docs/analyses.md §3.5): a preset for the SPL calibration offset.
public enum CalibrationDevice: String, Sendable, CaseIterable {
    case iphone, ipad

    /// The offset (dB SPL at RMS 1.0) and its source, as the SPL parameters name them.
    public var calibration: (offset: Double, source: String) {
        switch self {
        case .iphone: (ResearchKitSPL.calibrationOffset(sensitivityOffset: ResearchKitSPL.iPhoneSensitivityOffset), "ResearchKit iPhone sensitivity offset −23.3 dB")
        case .ipad: (ResearchKitSPL.calibrationOffset(sensitivityOffset: ResearchKitSPL.iPadSensitivityOffset), "ResearchKit iPad sensitivity offset −29.3 dB")
        }
    }
}
