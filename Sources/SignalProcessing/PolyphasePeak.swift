import CKernels

/// The largest magnitude of a signal and of a polyphase FIR interpolator's outputs, in runs
/// with an exact shortcut (the true-peak meter's loop; the C kernel `atk_true_peak`): several
/// outputs at once, one per vector lane, each output's sum in the same order on every
/// instruction set, so the result is bit for bit that of computing the outputs one at a time.
///
/// The shortcut: no output exceeds ``gain`` (the largest Σ|h| of a phase) times the largest |x|
/// it reads, so a run whose bound is at most the peak so far is not interpolated; in a run that
/// may raise it, an output is computed only if Σ|h|·|x| over the four taps from
/// ``centralTaps`` plus the other taps' Σ|h| times the run's largest |x| allows it.
public struct PolyphasePeak: Sendable {
    /// Taps per phase.
    public static let taps = Int(ATK_TRUE_PEAK_TAPS)
    /// Samples of the run: at least taps − 1, so that an output reads this run and the one before.
    public static let run = 32
    /// The four taps whose magnitudes are bounded one by one.
    public let centralTaps: Range<Int>
    /// The phases, one after another (0–4 of ``taps`` coefficients).
    private let coefficients: [Double]
    private let phaseCount: Int
    /// Per central tap, the largest |h| of the phases; the largest Σ|h| of the other taps; the
    /// largest Σ|h| of a phase.
    private let central: [Double]
    private let rest: Double
    public let gain: Double

    /// `phases`: 0–4 phases of ``taps`` coefficients, y_p(i) = Σ_j h_p[j]·x[i − j].
    public init(phases: [[Double]], centralTaps: Range<Int>) {
        precondition(phases.count <= 4 && phases.allSatisfy { $0.count == Self.taps }, "PolyphasePeak: 0–4 phases of \(Self.taps) taps")
        precondition(centralTaps.count == 4 && centralTaps.lowerBound >= 3 && centralTaps.upperBound <= Self.taps, "PolyphasePeak: four central taps")
        self.centralTaps = centralTaps
        coefficients = phases.flatMap { $0 }
        phaseCount = phases.count
        let magnitudes = phases.map { $0.map(abs) }
        gain = magnitudes.map { $0.reduce(0, +) }.max() ?? 1
        central = centralTaps.map { j in magnitudes.map { $0[j] }.max() ?? 0 }
        rest = magnitudes.map { m in m.indices.reduce(0) { centralTaps.contains($1) ? $0 : $0 + m[$1] } }.max() ?? 0
    }

    /// The largest of `peak`, |x| and |y_p| over the samples and outputs `window[past...]`,
    /// where `window[0..<past]` holds the samples before (`past` = taps − 1; their largest |x|,
    /// or more, in `previousMaximum`).
    public func largest(_ window: UnsafeBufferPointer<Double>, above peak: Double, previousMaximum: Double) -> Double {
        let past = Self.taps - 1
        precondition(window.count >= past, "PolyphasePeak: the window lacks the samples before")
        guard window.count > past, let base = window.baseAddress else { return peak }
        return coefficients.withUnsafeBufferPointer { h in
            central.withUnsafeBufferPointer { c in
                atk_true_peak(base, window.count, past, Self.run, h.baseAddress, phaseCount, c.baseAddress!, centralTaps.lowerBound, rest, gain, peak, previousMaximum)
            }
        }
    }
}
