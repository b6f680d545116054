import Glibc
import SignalProcessing

/// A bank of octave or one-third-octave band filters of IEC 61260-1:2014, base ten:
/// - mid-band frequencies f_m = 1000 Hz · G^(x/b), G = 10^(3/10) (§5.2, §5.4; b = 1 or 3 is odd),
///   named by their nominal values of ISO 266 (IEC 61260-1 Annex E);
/// - band edges f₁,₂ = f_m · G^(∓1/(2b)) (§5.6);
/// - each band a sixth-order Butterworth band-pass (``Butterworth/bandPassDesigned(order:lowHz:highHz:sampleRateHz:)``,
///   −3.01 dB at the edges), SciPy's `butter` design, which meets class 1 in every band (tested
///   against Table 1's limits).
///
/// Fed block by block: the filters keep their state, so consecutive blocks are one signal; band
/// levels are 10·lg of the mean square (dBFS re an RMS of 1, before a calibration offset).
public struct FractionalOctaveBands: Sendable {
    public struct Band: Sendable, Hashable {
        /// The ISO 266 nominal mid-band frequency that names the band, Hz.
        public var nominalHz: Double
        /// The exact mid-band frequency 1000·G^(x/b), Hz.
        public var midHz: Double
        public var lowerEdgeHz: Double
        public var upperEdgeHz: Double
    }

    /// The octave ratio G = 10^(3/10) (IEC 61260-1 §5.2).
    public static let octaveRatio = pow(10, 0.3)
    /// Nominal one-third-octave mid-band frequencies, x = −16 … 13 (25 Hz … 20 kHz), Hz.
    static let nominalThirds: [Double] = [25, 31.5, 40, 50, 63, 80, 100, 125, 160, 200, 250, 315, 400, 500, 630, 800,
                                          1000, 1250, 1600, 2000, 2500, 3150, 4000, 5000, 6300, 8000, 10_000, 12_500, 16_000, 20_000]
    /// The filters' order (the analogue prototype's; each band has 2·order poles).
    public static let order = 6

    public let bandsPerOctave: Int
    public let sampleRateHz: Double
    public let bands: [Band]
    private var filters: [BiquadCascade]

    /// The bands of `bandsPerOctave` (1 or 3) whose nominal frequency lies in `nominalRangeHz` and
    /// whose upper edge lies below half of `sampleRateHz`; nil when none does or the rate is not
    /// a finite rate of at least 1 kHz.
    public init?(bandsPerOctave: Int, nominalRangeHz: ClosedRange<Double>, sampleRateHz: Double) {
        guard bandsPerOctave == 1 || bandsPerOctave == 3, sampleRateHz.isFinite, sampleRateHz >= 1_000 else { return nil }
        let g = Self.octaveRatio
        var bands: [Band] = []
        for (index, nominal) in Self.nominalThirds.enumerated() where nominalRangeHz.contains(nominal) {
            let third = index - 16  // x in thirds of an octave from 1 kHz
            guard bandsPerOctave == 3 || third % 3 == 0 else { continue }
            let x = Double(bandsPerOctave == 3 ? third : third / 3)
            let b = Double(bandsPerOctave)
            let mid = 1000 * pow(g, x / b)
            let band = Band(nominalHz: nominal, midHz: mid, lowerEdgeHz: mid * pow(g, -1 / (2 * b)), upperEdgeHz: mid * pow(g, 1 / (2 * b)))
            guard band.upperEdgeHz < sampleRateHz / 2 else { continue }
            bands.append(band)
        }
        guard !bands.isEmpty else { return nil }
        self.bandsPerOctave = bandsPerOctave
        self.sampleRateHz = sampleRateHz
        self.bands = bands
        filters = bands.map {
            Butterworth.bandPassDesigned(order: Self.order, lowHz: $0.lowerEdgeHz, highHz: $0.upperEdgeHz, sampleRateHz: sampleRateHz)
        }
    }

    /// The mean square of every band's output over `block` (in band order), the filters carried on
    /// from the previous block.
    public mutating func meanSquares(_ block: [Double]) -> [Double] {
        guard !block.isEmpty else { return bands.map { _ in 0 } }
        var work = [Double](repeating: 0, count: block.count)
        return filters.indices.map { index in
            work.withUnsafeMutableBufferPointer { out in
                for i in block.indices { out[i] = block[i] }
                filters[index].process(out)
            }
            return work.reduce(0) { $0 + $1 * $1 } / Double(block.count)
        }
    }

    /// The band levels of `block`, dB (10·lg of the mean square plus `offsetDecibels`; −∞ for silence).
    public mutating func levels(_ block: [Double], offsetDecibels: Double = 0) -> [Double] {
        meanSquares(block).map { 10 * log10($0) + offsetDecibels }
    }
}
