/// Which cadence estimator supplied ``GaitFeatures/cadenceStepsPerMinute`` (docs/analyses.md §2.6).
public enum CadenceSource: String, Sendable, Hashable, Encodable {
    /// The step-based value (≥ 8 steps, within 10 % of the autocorrelation value, or alone).
    case steps
    case autocorrelation
    /// No estimator had a value.
    case none
}

/// Moe-Nilssen & Helbostad (2004, J Biomech 37:121–126) regularity and symmetry of one axis of
/// the longest bout, named measure + axis (`stepRegularityV`); dimensionless, null without a bout.
public struct AxisRegularity: Sendable, Hashable, SuffixNamedFeatures {
    /// Unbiased autocorrelation at the step lag (Ad1).
    public var stepRegularity: Double?
    /// Unbiased autocorrelation at the stride lag (Ad2).
    public var strideRegularity: Double?
    /// Ad1 / Ad2.
    public var stepSymmetryRatio: Double?
    /// |Ad2 − Ad1|.
    public var stepSymmetryDifference: Double?
    /// 1 − 2·|Ad2 − Ad1| / (Ad2 + Ad1).
    public var regularityIndex: Double?
}

/// Regularity, symmetry and harmonic ratios of the longest walking bout, trimmed (docs/analyses.md §2.7).
public struct GaitRegularity: Sendable, Hashable, Encodable {
    /// Step lag of the vertical autocorrelation, samples (fractional, at `rateHz`).
    public var stepLagSamples: Double?
    /// Stride lag, samples.
    public var strideLagSamples: Double?
    /// Vertical axis (`…V`).
    public var v: AxisRegularity
    /// Anteroposterior axis (`…H1`).
    public var h1: AxisRegularity
    /// Menz, Lord & Fitzpatrick (2003, Gait Posture 18:35–46) harmonic ratio, vertical: median
    /// over strides of Σ even / Σ odd harmonic amplitudes, dimensionless.
    public var harmonicRatioV: Double?
    /// Harmonic ratio, anteroposterior (even / odd).
    public var harmonicRatioH1: Double?
    /// Harmonic ratio, mediolateral (odd / even).
    public var harmonicRatioML: Double?
}

/// Accelerometric sway of a rest recording (docs/analyses.md §2.8; Mancini et al. 2012, J NeuroEng
/// Rehabil 9:59) over the longest gap-free segment minus its first 5 s (when ≥ 10 s long); null
/// when that segment is shorter than 5 s or the recording is mostly walking.
public struct SwayFeatures: Sendable, Hashable, Encodable {
    /// RMS of the horizontal acceleration, √(H1² + H2²) of the axes' RMS, m/s².
    public var swayRmsMetersPerSecondSquaredH: Double?
    /// RMS of the anteroposterior acceleration (demeaned), m/s².
    public var swayRmsMetersPerSecondSquaredH1: Double?
    /// RMS of the mediolateral acceleration (demeaned), m/s².
    public var swayRmsMetersPerSecondSquaredH2: Double?
    /// RMS of the vertical acceleration (demeaned), m/s².
    public var swayRmsMetersPerSecondSquaredV: Double?
    /// RMS of the horizontal jerk, m/s³.
    public var swayJerkRmsMetersPerSecondCubed: Double?
    /// Area of the 95 % confidence ellipse of (H1, H2): π·χ²₂(0.95)·√(λ1λ2), (m/s²)².
    public var swayEllipseArea95MetersSquaredPerSecondToTheFourth: Double?
    /// Centroid of the summed H1 + H2 Welch PSD over 0.1–5 Hz, Hz.
    public var swayCentroidFrequencyHz: Double?
    /// Frequency below which 95 % of that power lies, Hz.
    public var swayF95Hz: Double?
}

/// Tremor spectrum (docs/analyses.md §2.9) of the longest gap-free segment (≥ 5 s, ≥ 30 Hz): per axis
/// demeaned, zero-phase 1-Hz high-pass, Welch PSD (Hann, 4-s segments, 50 % overlap), axes
/// summed; of the dynamic acceleration (`Accel`) and, for device motion, the rotation rate (`Gyro`).
public struct TremorFeatures: Sendable, Hashable, Encodable {
    /// Peak of the summed PSD in 3–12 Hz, parabolically interpolated in log power, Hz.
    public var tremorDominantFrequencyHzAccel: Double?
    /// Power in 3–12 Hz, (m/s²)².
    public var tremorBandPower3To12MetersSquaredPerSecondToTheFourthAccel: Double?
    /// Power in 3–12 Hz over power in 1–20 Hz, 0…1.
    public var tremorRelativeBandPowerAccel: Double?
    /// Peak density over the band's median density, dimensionless.
    public var tremorPeakProminenceAccel: Double?
    /// The rotation rate's peak in 3–12 Hz, Hz.
    public var tremorDominantFrequencyHzGyro: Double?
    /// The rotation rate's power in 3–12 Hz, (rad/s)².
    public var tremorBandPower3To12RadiansSquaredPerSecondSquaredGyro: Double?
    /// The rotation rate's power in 3–12 Hz over that in 1–20 Hz, 0…1.
    public var tremorRelativeBandPowerGyro: Double?
    /// The rotation rate's peak density over the band's median density, dimensionless.
    public var tremorPeakProminenceGyro: Double?
}

/// The features of one walking recording (docs/analyses.md §2.5–2.9), in output order.
public struct GaitFeatures: Sendable, Hashable, Encodable {
    /// Detected steps, count.
    public var stepCount: Int
    /// The cadence chosen by docs/analyses.md §2.6's rule, steps/min.
    public var cadenceStepsPerMinute: Double?
    /// The estimator the cadence came from.
    public var cadenceSource: CadenceSource
    /// 60 · (steps − runs) / the runs' summed span, steps/min.
    public var cadenceFromStepsStepsPerMinute: Double?
    /// Median of 60 / step interval, steps/min.
    public var cadenceMedianFromStepsStepsPerMinute: Double?
    /// 120 · rate / stride lag of each bout's autocorrelation, weighted by bout length, steps/min.
    public var cadenceAutocorrStepsPerMinute: Double?
    /// The dominant gait frequency as steps/min (× 60, or × 120 when it is the stride frequency).
    public var cadenceDominantFrequencyStepsPerMinute: Double?
    /// Peak of the summed Welch PSD of the step band over all bouts, Hz.
    public var dominantGaitFrequencyHz: Double?
    /// Mean interval between successive steps within runs, s.
    public var stepTimeMeanSeconds: Double?
    /// Sample standard deviation of the step intervals, s.
    public var stepTimeSdSeconds: Double?
    /// Mean interval between steps two apart (a stride), s.
    public var strideTimeMeanSeconds: Double?
    /// Sample standard deviation of the stride intervals, s.
    public var strideTimeSdSeconds: Double?
    /// Regularity, symmetry and harmonic ratios (in place).
    public var regularity: GaitRegularity
    /// Walking bouts, count.
    public var walkingBoutCount: Int
    /// Summed length of the bouts, s.
    public var walkingDurationSeconds: Double
    /// Bout starts from the first sample, s.
    public var walkingBoutStartsSeconds: [Double]
    /// Bout ends from the first sample, s.
    public var walkingBoutEndsSeconds: [Double]
    /// Sway, when the recording is mostly not walking (null otherwise).
    public var sway: SwayFeatures
    /// The tremor spectrum of the longest gap-free segment (in place).
    public var tremor: TremorFeatures
    /// Cadence of every 20-s window (10-s hop), each analysed on its own, steps/min (NaN: no
    /// walking); null when windows were not asked for.
    public var cadenceWindowsStepsPerMinute: [Double]?
}

/// Cadence and totals from ResearchKit pedometer updates (docs/analyses.md §2.6).
public struct PedometerFeatures: Sendable, Hashable, Encodable {
    /// 60·(S_last − S_first)/(E_last − E_first); one item: 60·S/(E − startDate); null below a 10-s span, steps/min.
    public var cadencePedometerStepsPerMinute: Double?
    /// The last item's cumulative steps, count.
    public var pedometerStepCount: Double
    /// The last item's cumulative distance, m.
    public var pedometerDistanceMeters: Double?
    /// Last end date − first start date, s.
    public var pedometerDurationSeconds: Double
}

/// The features of a rest recording (standing still): its length, sway and rest tremor.
public struct BalanceFeatures: Sendable, Hashable, Encodable {
    /// Last − first sample time, s.
    public var durationSeconds: Double
    /// Sway of the standing recording (in place).
    public var sway: SwayFeatures
    /// The tremor spectrum of the longest gap-free segment (in place).
    public var tremor: TremorFeatures

    public init(durationSeconds: Double, sway: SwayFeatures, tremor: TremorFeatures) {
        (self.durationSeconds, self.sway, self.tremor) = (durationSeconds, sway, tremor)
    }
}
