import Analysis
import AudioIO
import SensorData

/// What an analyzer computed on one recording, typed: front ends read these fields, never
/// feature names, and render a score through its one ``report`` (the JSON object, the table, the
/// store row and the wide export all come from it). Charts take a score, so they show exactly
/// what was computed with the options given.
public enum Score: Sendable {
    case tapping(TappingScore)
    case gait(GaitScore)
    case voice(VoiceScore)
    case spl(SPLScore)
    case loudness(LoudnessScore)
    case audiometry(AudiogramScore)
    case balance(BalanceScore)
    case rangeOfMotion(RangeOfMotionScore)
    case walkTest(WalkTestScore)
    case tremor(TremorScore)
    case heartRate(HeartRateScore)

    public var analyzer: Analyzer {
        switch self {
        case .tapping: .tapping
        case .gait: .gait
        case .voice: .voice
        case .spl: .spl
        case .loudness: .loudness
        case .audiometry: .audiometry
        case .balance: .balance
        case .rangeOfMotion: .rangeOfMotion
        case .walkTest: .walkTest
        case .tremor: .tremor
        case .heartRate: .heartRate
        }
    }

    /// The rendering of the score.
    public var report: ScoreReport {
        switch self {
        case .tapping(let score): score.report
        case .gait(let score): score.report
        case .voice(let score): score.report
        case .spl(let score): score.report
        case .loudness(let score): score.report
        case .audiometry(let score): score.report
        case .balance(let score): score.report
        case .rangeOfMotion(let score): score.report
        case .walkTest(let score): score.report
        case .tremor(let score): score.report
        case .heartRate(let score): score.report
        }
    }
}

/// A tapping result scored by ``TappingAnalysis`` (docs/analyses.md §1).
public struct TappingScore: Sendable {
    /// The report every front end renders: kind, file, dialect, feature sets and warnings.
    public var report: ScoreReport
    /// The result scored (of those in the file: the one chosen by identifier, or the first).
    public var result: TappingResult
    /// The peer and `atk` features with the analysis's warnings.
    public var analysis: TappingAnalysis.Result
    /// What the task says about the result (the hand).
    public var task: TappingTaskFeatures
    /// The minimum |Δx| between kept taps the features used, points.
    public var depressThreshold: Double
}

/// One motion recording of a walking task, scored by ``GaitAnalysis`` (docs/analyses.md §2).
public struct GaitRecording: Sendable {
    /// The file (and step) the recording came from.
    public var name: String
    public var signal: MotionSignal
    public var analysis: GaitAnalysis.Result
}

/// Motion and pedometer recordings of a walking task.
public struct GaitScore: Sendable {
    /// The report every front end renders: kind, file, dialect, feature sets and warnings.
    public var report: ScoreReport
    /// Each motion recording of the task (outbound, return, …) with its analysis.
    public var recordings: [GaitRecording]
}

/// The rest part of a walking task: sway and rest tremor of each rest recording.
public struct BalanceScore: Sendable {
    /// The report every front end renders: kind, file, dialect, feature sets and warnings.
    public var report: ScoreReport
    /// Each rest recording of the task with its sway and tremor analysis.
    public var recordings: [GaitRecording]
}

/// A voice recording scored by ``VoiceAnalysis`` (docs/analyses.md §4).
public struct VoiceScore: Sendable {
    /// The report every front end renders: kind, file, dialect, feature sets and warnings.
    public var report: ScoreReport
    /// The file's container, encoding, rate, channels and length.
    public var format: AudioFormat
    /// The voice features with their contours (F0, formants) for the charts.
    public var analysis: VoiceAnalysis.Result
    /// Channel 0's RMS level per 50-ms frame: frame centres, s, and dBFS (NaN for digital silence).
    public var levelTimeSeconds: [Double]
    /// Channel 0's RMS level of each 50-ms frame, dBFS (NaN for digital silence).
    public var levelDbfs: [Double]
}

/// Environment sound: audio metered by ``SoundLevelMeter`` or the readings of an
/// `ORKEnvironmentSPLMeterResult`, with ResearchKit's quiet-room decision (docs/analyses.md §3).
public struct SPLScore: Sendable {
    public enum Source: Sendable {
        /// LAeq per interval of the audio, dB(A).
        case audio(SoundLevelMeter.Result)
        /// The readings ResearchKit recorded, dB(A).
        case researchKitResult
    }

    /// The report every front end renders: kind, file, dialect, feature sets and warnings.
    public var report: ScoreReport
    /// Metered audio or the readings of a ResearchKit result.
    public var source: Source
    /// The readings the decision used, dB(A), one per `intervalSeconds`.
    public var readingsDecibels: [Double]
    /// Length of each reading, s.
    public var intervalSeconds: Double
    /// The decision threshold, dB(A): a reading below it counts towards passing.
    public var thresholdDecibels: Double
    /// The index of the reading at which ResearchKit's step passes (nil: it fails).
    public var passIndex: Int?

    /// The metered audio as ResearchKit's `ORKEnvironmentSPLMeterResult` records it: the readings up
    /// to the one at which the step passes (all of them when it fails), and the sensitivity offset
    /// 94 − calibration offset (docs/analyses.md §3.5); nil unless audio was metered.
    public var researchKitResult: SPLMeterResult? {
        guard case .audio(let result) = source, !readingsDecibels.isEmpty else { return nil }
        let recorded = passIndex.map { Array(readingsDecibels[...$0]) } ?? readingsDecibels
        return SPLMeterResult(identifier: "splMeter", sensitivityOffsetDecibels: ResearchKitSPL.calibrationOffset(sensitivityOffset: result.calibrationOffsetDecibels), recordedSPLMeterSamplesDecibels: recorded)
    }
}

/// Programme loudness (ITU-R BS.1770-4, EBU R 128).
public struct LoudnessScore: Sendable {
    /// The report every front end renders: kind, file, dialect, feature sets and warnings.
    public var report: ScoreReport
    /// Integrated loudness, loudness range, maxima and true peak (BS.1770-4, EBU Tech 3341/3342).
    public var features: LoudnessFeatures
}

/// An audiogram scored by ``Audiogram`` (docs/audiometry.md §10–11).
public struct AudiogramScore: Sendable {
    /// The report every front end renders: kind, file, dialect, feature sets and warnings.
    public var report: ScoreReport
    /// The thresholds as recorded, dB HL per ear and frequency.
    public var audiogram: Audiogram
    /// The thresholds corrected for an output volume below 1 (docs/audiometry.md §7.5), when that applies.
    public var volumeCorrected: Audiogram?
    /// What the plot's legend says: headphone, volume, correction.
    public var legend: [String]
    /// The audiogram to plot: the volume-corrected one when there is one.
    public var plotted: Audiogram { volumeCorrected ?? audiogram }
}
