import Glibc

/// Window functions (F. J. Harris, "On the use of windows for harmonic analysis with the
/// discrete Fourier transform", Proc. IEEE 66(1), 1978), as sums of cosines
/// w[n] = Σ_k (−1)^k a_k cos(2πkn/D) with D = N − 1 (symmetric) or N (periodic, for spectral
/// analysis; SciPy's `get_window` default).
public enum Window: Sendable, Hashable {
    /// a = (0.5, 0.5).
    case hann
    /// a = (0.54, 0.46).
    case hamming
    /// 4-term Blackman–Harris, −92 dB sidelobes: a = (0.35875, 0.48829, 0.14128, 0.01168) (Harris 1978).
    case blackmanHarris
    /// 5-term flat-top for amplitude measurement, scalloping loss < 0.01 dB: SciPy's coefficients
    /// a = (0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368) (D'Antona & Ferrero,
    /// "Digital Signal Processing for Measurement Systems", 2006).
    case flatTop
    /// All ones.
    case rectangular

    public var coefficients: [Double] {
        switch self {
        case .hann: [0.5, 0.5]
        case .hamming: [0.54, 0.46]
        case .blackmanHarris: [0.35875, 0.48829, 0.14128, 0.01168]
        case .flatTop: [0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368]
        case .rectangular: [1]
        }
    }

    /// The N window values.
    public func values(count: Int, periodic: Bool = true) -> [Double] {
        guard count > 1 else { return Array(repeating: 1, count: max(0, count)) }
        let a = coefficients
        let denominator = Double(periodic ? count : count - 1)
        return (0..<count).map { n in
            var value = 0.0
            for (k, coefficient) in a.enumerated() {
                let term = coefficient * cos(2 * Double.pi * Double(k) * Double(n) / denominator)
                value += k % 2 == 0 ? term : -term
            }
            return value
        }
    }
}
