import Glibc

/// Streaming 2× upsampling by zero-stuffing and a linear-phase half-band FIR low-pass (Kaiser
/// window design, ``kaiserWindow(count:beta:)``): 191 taps, β = 7, cut-off at the original Nyquist
/// frequency, run as two polyphase branches. The pass band is flat to ±0.01 dB up to 0.42 × the input rate (20 kHz at 48 kHz),
/// which is what bilinear weighting filters need to be run at 2× or 4× (docs/analyses.md §3.3). The
/// output is delayed by (taps − 1)/2 output samples; state carries across blocks.
public struct HalfBandUpsampler: Sendable {
    /// 4m + 3 taps, so the centre tap falls on the odd branch.
    public static let taps = 191
    /// Doubled coefficients (zero-stuffing halves the gain).
    public let coefficients: [Double]
    /// Polyphase split: the even taps and the centre tap (the only non-zero odd tap of
    /// a half-band filter).
    private let even: [Double]
    private let centre: Double
    /// The last (taps + 1)/2 input samples, newest last.
    private var history = [Double](repeating: 0, count: (taps + 1) / 2)

    public init() {
        let n = Self.taps, middle = Double(n - 1) / 2
        let window = kaiserWindow(count: n, beta: 7)
        let h = (0..<n).map { i in
            let m = Double(i) - middle
            let sinc = m == 0 ? 0.5 : sin(0.5 * Double.pi * m) / (Double.pi * m)
            return 2 * sinc * window[i]
        }
        coefficients = h
        even = stride(from: 0, to: n, by: 2).map { h[$0] }
        centre = h[(n - 1) / 2]
    }

    /// Fills the history with a constant `x` (the input before the first sample), so a signal
    /// that starts at a non-zero value has no start transient.
    public mutating func prime(constantInput x: Double) {
        for i in history.indices { history[i] = x }
    }

    /// Two output samples per input sample: y[2k] = Σ_j h[2j]·x[k−j], y[2k+1] = h[2m+1]·x[k−m]
    /// with taps = 4m + 3.
    public mutating func process(_ input: [Double]) -> [Double] {
        var output = [Double](repeating: 0, count: 2 * input.count)
        let window = history + input
        let count = even.count
        for k in input.indices {
            let newest = k + history.count  // index of x[k] in `window`
            var sum = 0.0
            for j in 0..<count { sum += even[j] * window[newest - j] }
            output[2 * k] = sum
            output[2 * k + 1] = centre * window[newest - (Self.taps - 3) / 4]
        }
        history = Array(window.suffix(history.count))
        return output
    }
}
