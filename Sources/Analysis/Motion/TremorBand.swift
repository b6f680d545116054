/// The tremor task's band (docs/analyses.md §7.4): the dominant frequency and power of the
/// parkinsonian rest and postural tremor range, 3.5–7.5 Hz (Deuschl et al., "Consensus statement
/// of the Movement Disorder Society on tremor", Mov. Disord. 13(S3), 1998: rest tremor 4–6 Hz,
/// re-emergent and postural up to 7 Hz), from §2.9's spectrum of the longest gap-free segment.
public struct TremorBandFeatures: Sendable, Hashable, Encodable {
    /// The summed acceleration spectrum's peak in 3.5–7.5 Hz, parabolically interpolated in log power, Hz.
    public var dominantFrequency3_5To7_5HzAccel: Double?
    /// The acceleration's power in 3.5–7.5 Hz, (m/s²)².
    public var bandPower3_5To7_5MetersSquaredPerSecondToTheFourthAccel: Double?
    /// The acceleration's power in 3.5–7.5 Hz over that in 1–20 Hz, 0…1.
    public var relativeBandPower3_5To7_5Accel: Double?
    /// The rotation rate's peak in 3.5–7.5 Hz, Hz (device motion only).
    public var dominantFrequency3_5To7_5HzGyro: Double?
    /// The rotation rate's power in 3.5–7.5 Hz, (rad/s)².
    public var bandPower3_5To7_5RadiansSquaredPerSecondSquaredGyro: Double?
    /// The rotation rate's power in 3.5–7.5 Hz over that in 1–20 Hz, 0…1.
    public var relativeBandPower3_5To7_5Gyro: Double?

    public static let bandHz = 3.5...7.5

    /// The lowest rate a recording's tremor spectrum (this band's and §2.9's) is computed from, Hz:
    /// the bands and their 1–20 Hz reference need the recording's own samples, which the 100-Hz
    /// grid interpolates (a 10-Hz recording gave a "peak" at 3.8 Hz from the interpolation's images).
    public static let lowestRateHz = 30.0

    /// The band's features of `signal` (nil fields below 5 s of gap-free samples recorded at 30 Hz or more).
    public init(_ signal: MotionSignal, parameters p: GaitAnalysis.Parameters = .init()) {
        let (cleaned, ranges, _) = MotionPreprocessing.clean(signal, parallel: false)
        let motions = ranges.compactMap { MotionPreprocessing.uniform(cleaned.slice($0), rateHz: p.rateHz, gravityCutoffHz: p.gravityCutoffHz, parallelFrom: .max) }
        guard let longest = motions.max(by: { $0.count < $1.count }), StepAnalysis.hasTremorRate(longest) else { return }
        if let accel = StepAnalysis.tremorPeak(StepAnalysis.accelerationAxes(longest), rateHz: p.rateHz, bandHz: Self.bandHz) {
            dominantFrequency3_5To7_5HzAccel = accel.frequencyHz
            bandPower3_5To7_5MetersSquaredPerSecondToTheFourthAccel = accel.bandPower
            relativeBandPower3_5To7_5Accel = accel.relativePower
        }
        if let gyro = StepAnalysis.tremorPeak(StepAnalysis.rotationAxes(longest), rateHz: p.rateHz, bandHz: Self.bandHz) {
            dominantFrequency3_5To7_5HzGyro = gyro.frequencyHz
            bandPower3_5To7_5RadiansSquaredPerSecondSquaredGyro = gyro.bandPower
            relativeBandPower3_5To7_5Gyro = gyro.relativePower
        }
    }
}
