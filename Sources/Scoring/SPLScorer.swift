import InputGuards
import Analysis
import AudioIO
import SensorData

/// Scores environment sound: audio streamed through ``SoundLevelMeter`` (IEC 61672-1 A/C/Z,
/// F/S, Leq, SEL, Lmax, L10/50/90) with ResearchKit's quiet-room decision (analysis.md §3), or
/// an `ORKEnvironmentSPLMeterResult`, whose readings get the same decision rule.
public enum SPLScorer {
    public struct Parameters: Sendable, Hashable, Codable {
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

        /// Why these parameters cannot be used (nil: they can): levels within ±400 dB, a reading
        /// 1 ms–24 h long, 1–10^6 readings to pass, oversampling 1, 2 or 4.
        public var problem: String? {
            if !(calibrationOffsetDecibels.isFinite && abs(calibrationOffsetDecibels) <= 400) {
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
        guard rate > 2000 else {
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
        let pass = appendDecision(to: &set, readings: readings, parameters)
        var warnings = AudioScoring.warnings(decoder)
        if rate * Double(parameters.oversampling) < 40_000 {
            warnings.append("sample rate \(rate) Hz: A and C weighting read low in the top octave (bilinear design below 40 kHz)")
        }
        return SPLScore(report: ScoreReport(kind: "spl", file: file, dialect: "audio", sets: [set], warnings: warnings), source: .audio(result),
                        readingsDecibels: readings, intervalSeconds: parameters.intervalSeconds, thresholdDecibels: parameters.thresholdDecibels,
                        passIndex: pass)
    }

    /// Appends ResearchKit's decision on `readings` and returns the index of the reading at which
    /// the step passes (nil: it fails).
    static func appendDecision(to set: inout FeatureSet, readings: [Double], _ parameters: Parameters) -> Int? {
        let pass = ResearchKitSPL.decision(readings: readings, threshold: parameters.thresholdDecibels, required: parameters.requiredIntervals)
        set.append("thresholdDecibels", parameters.thresholdDecibels)
        set.append("requiredContiguousIntervals", Double(parameters.requiredIntervals))
        set.append("researchKitDecision", .text(pass == nil ? "fail" : "pass"))
        set.append("researchKitPassIntervalIndex", pass.map(Double.init))
        return pass
    }

    /// An ORKEnvironmentSPLMeterResult: the decision on its recorded readings (one per second).
    static func scoreResult(_ contents: JSONContents, file: String, _ parameters: Parameters) throws(ScoringError) -> SPLScore {
        guard let result = contents.splMeterResults.first else {
            throw .input(ReadError(file: file, reason: .notFound("no audio and no environment SPL meter result in this file (\(contents.layout.name))")))
        }
        let readings = result.recordedSPLMeterSamplesDecibels
        var set = FeatureSet(name: "researchKit")
        set.append("readingCount", Double(readings.count))
        set.append("readingsDecibels", .numbers(readings))
        set.append("sensitivityOffsetDecibels", result.sensitivityOffsetDecibels)
        set.append("calibrationOffsetDecibels", result.sensitivityOffsetDecibels.map { 94 - $0 })
        let pass = appendDecision(to: &set, readings: readings, parameters)
        let report = ScoreReport(kind: "spl", file: file, dialect: "ORKEnvironmentSPLMeterResult", sets: [set], warnings: contents.warnings.map(\.description))
        return SPLScore(report: report, source: .researchKitResult, readingsDecibels: readings, intervalSeconds: 1,
                        thresholdDecibels: parameters.thresholdDecibels, passIndex: pass)
    }
}
