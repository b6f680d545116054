import Analysis
import AudioIO
import SensorData

/// Scores environment sound: audio streamed through ``SoundLevelMeter`` (IEC 61672-1 A/C/Z,
/// F/S, Leq, SEL, Lmax, L10/50/90) with ResearchKit's quiet-room decision (analysis.md §3), or
/// an `ORKEnvironmentSPLMeterResult`, whose readings get the same decision rule.
public enum SPLScorer {
    public struct Parameters: Sendable, Hashable {
        /// dB SPL that an RMS of 1.0 reads, and where the value came from.
        public var calibrationOffsetDecibels = 94 - ResearchKitSPL.iPhoneSensitivityOffset
        public var calibrationSource = "ResearchKit iPhone sensitivity offset −23.3 dB"
        /// Decision threshold, dB(A); reading length, s; consecutive readings below the threshold to pass.
        public var thresholdDecibels = 35.0
        public var intervalSeconds = 1.0
        public var requiredIntervals = 5
        public var channel = 0
        /// Weighting filters at 1, 2 or 4 × the file's rate.
        public var oversampling = 1
        public var lenient = false
        public init() {}
    }

    public static func score(_ file: String, _ parameters: Parameters = .init()) throws(ScoringError) -> ScoreReport {
        if InputSniffer.sniff(file) == .json { return try scoreResult(file, parameters) }
        guard [1, 2, 4].contains(parameters.oversampling) else { throw ScoringError(.badInvocation, "--oversampling must be 1, 2 or 4") }
        let decoder = try AudioScoring.open(file)
        let rate = decoder.format.sampleRateHz
        guard rate > 2000 else {
            return ScoreReport(kind: "spl", file: file, dialect: "audio", sets: [], warnings: [],
                               unusable: "\(rate) Hz is too low for A-weighting (needs > 2 kHz)")
        }
        var meter = SoundLevelMeter(sampleRateHz: rate, calibrationOffsetDecibels: parameters.calibrationOffsetDecibels,
                                    intervalSeconds: parameters.intervalSeconds, oversampling: parameters.oversampling)
        try AudioScoring.stream(decoder, file: file, channel: parameters.channel) { meter.process($0) }
        let result = meter.result
        let readings = result.intervalLevelsDecibels
        var set = FeatureSet(name: "atk")
        set.append("laeqDecibels", result.laeqDecibels)
        set.append("lceqDecibels", result.lceqDecibels)
        set.append("lzeqDecibels", result.lzeqDecibels)
        set.append("laeDecibels", result.laeDecibels)
        set.append("lafmaxDecibels", result.lafmaxDecibels)
        set.append("lasmaxDecibels", result.lasmaxDecibels)
        set.append("l10Decibels", result.laf10Decibels)
        set.append("l50Decibels", result.laf50Decibels)
        set.append("l90Decibels", result.laf90Decibels)
        set.append("statisticsSource", .text("LAF every 0.1 s"))
        set.append("l10IntervalLaeqDecibels", meter.intervalLevelExceeded(percent: 10))
        set.append("l50IntervalLaeqDecibels", meter.intervalLevelExceeded(percent: 50))
        set.append("l90IntervalLaeqDecibels", meter.intervalLevelExceeded(percent: 90))
        set.append("laeqIntervalsDecibels", .numbers(readings))
        set.append("intervalSeconds", parameters.intervalSeconds)
        set.append("durationSeconds", result.durationSeconds)
        set.append("calibrationOffsetDecibels", parameters.calibrationOffsetDecibels)
        set.append("calibrationSource", .text(parameters.calibrationSource))
        set.append("oversampling", Double(parameters.oversampling))
        appendDecision(to: &set, readings: readings, parameters)
        var warnings: [String] = []
        if rate * Double(parameters.oversampling) < 40_000 {
            warnings.append("sample rate \(rate) Hz: A and C weighting read low in the top octave (bilinear design below 40 kHz)")
        }
        return ScoreReport(kind: "spl", file: file, dialect: "audio", sets: [set], warnings: warnings)
    }

    /// The index of the reading at which ResearchKit's step passes (nil: it does not), from a report's set.
    public static func passIndex(_ set: FeatureSet) -> Int? { set["researchKitPassIntervalIndex"]?.number.map { Int($0) } }

    static func appendDecision(to set: inout FeatureSet, readings: [Double], _ parameters: Parameters) {
        let pass = ResearchKitSPL.decision(readings: readings, threshold: parameters.thresholdDecibels, required: parameters.requiredIntervals)
        set.append("thresholdDecibels", parameters.thresholdDecibels)
        set.append("requiredContiguousIntervals", Double(parameters.requiredIntervals))
        set.append("researchKitDecision", .text(pass == nil ? "fail" : "pass"))
        set.append("researchKitPassIntervalIndex", pass.map(Double.init))
    }

    /// An ORKEnvironmentSPLMeterResult: the decision on its recorded readings.
    static func scoreResult(_ file: String, _ parameters: Parameters) throws(ScoringError) -> ScoreReport {
        let contents = try readContents(file, lenient: parameters.lenient)
        guard let result = contents.splMeterResults.first else {
            throw .input(ReadError(file: file, reason: .notFound("no audio and no environment SPL meter result in this file")))
        }
        let readings = result.recordedSPLMeterSamplesDecibels
        var set = FeatureSet(name: "researchKit")
        set.append("readingCount", Double(readings.count))
        set.append("readingsDecibels", .numbers(readings))
        set.append("sensitivityOffsetDecibels", result.sensitivityOffsetDecibels)
        set.append("calibrationOffsetDecibels", result.sensitivityOffsetDecibels.map { 94 - $0 })
        appendDecision(to: &set, readings: readings, parameters)
        return ScoreReport(kind: "spl", file: file, dialect: "ORKEnvironmentSPLMeterResult", sets: [set], warnings: contents.warnings.map(\.description))
    }
}
