import Glibc
import SignalProcessing

/// The harmonics-to-noise ratio, the H1–H2 and H1–A3 differences and the formant amplitudes of
/// openSMILE 2.6.0's eGeMAPSv02 (cHarmonics with `nHarmonics = 100` on the 60-ms Gaussian-window
/// magnitude spectrum |X[k]|, bins k·Δf, the smoothed F0 and the LPC formants), rules as its
/// published source has them:
///
/// - HNR (HarmonicsToNoiseRatioACFLogdB): the autocorrelation a = |inverse transform of |X|²| over
///   lags 0…N/2; from lag ⌊N·Δf/F0⌋ the nearest strict local maximum τ (a lower one first at equal
///   distance; the first and last lags count when above their one neighbour);
///   10·lg(a[τ]/(a[0] − a[τ])), the ratio held within 1e-9…1e11 (1e11 when a[0] = a[τ]); no value
///   when τ is 0.
/// - Harmonics h = 1…100 at h·F0: the bin nearest h·F0 (counted from the previous harmonic's bin)
///   if it is a strict local maximum of |X|, else the nearest one between the bins nearest
///   (h − ½)·F0 and (h + ½)·F0, searching above before below; a harmonic whose peak lies below the
///   bin nearest F0/2 or at the last bin has none. Its level: the vertex of the parabola through
///   the peak and its neighbours, 20·lg relative to |X| at the first harmonic's peak (−200 at
///   least; −200 without a vertex above 0); every level −201 when the first harmonic has none; a
///   harmonic on the same peak as the one before it is dropped (level −201).
/// - H1–H2 (HarmonicDifferenceLogRelH1-H2): level(2nd harmonic) − level(3rd) (openSMILE counts from
///   0, so its "H1" is 2·F0), within ±201 dB.
/// - Formant amplitude (FormantAmplitudeByMaxHarmonicLogRelF0): of the harmonics whose vertex lies
///   within 0.8…1.2 times the formant frequency, the level of the one with the largest |X| at its
///   peak; 0 where none does.
/// - H1–A3 (HarmonicDifferenceLogRelH1-A3): level(2nd harmonic) − A3, A3 the third formant's
///   amplitude; without one, level(2nd) − 201; within ±201 dB.
struct OpenSmileHarmonics: Sendable {
    let fft: FFT
    /// Hz per bin of the spectra (openSMILE's frequency axis,
    /// ``EGeMAPSv02Analysis/spectrumRate(length:seconds:sampleRateHz:)``).
    let binHz: Double

    /// Harmonics searched (openSMILE's nHarmonics, F0 included).
    static let harmonicCount = 100
    /// The formant amplitudes' range: the formant frequency ± this share of it.
    static let formantRange = 0.2
    /// openSMILE's floor of logarithmic values, dB.
    static let floorDb = -201.0

    init(fft: FFT, binHz: Double) {
        (self.fft, self.binHz) = (fft, binHz)
    }

    /// One harmonic's peak: its bin, |X| there, its parabola's vertex (frequency, Hz, and
    /// magnitude; 0 without a peak) and its level relative to the first harmonic, dB.
    struct Harmonic: Sendable {
        var bin = 0
        var magnitude = 0.0, frequencyHz = 0.0, vertexMagnitude = 0.0, levelDb = OpenSmileHarmonics.floorDb
    }

    /// Working space reused from frame to frame.
    struct Scratch {
        var spectrum: [Double] = [], r: [Double] = [], acf: [Double] = []
        var harmonics: [Harmonic] = []
    }

    /// Whether x[n] is a strict local maximum (the first and last values against their one neighbour).
    static func isPeak(_ x: [Double], _ n: Int) -> Bool {
        guard n >= 0, n < x.count else { return false }
        if n + 1 < x.count { return n > 0 ? x[n] > x[n - 1] && x[n] > x[n + 1] : x[0] > x[1] }
        return n > 0 && x[n] > x[n - 1]
    }

    /// HNR, dB, of a frame with power spectrum `power` (`fft.realBins` values) and F0 `f0Hz`;
    /// nil when the lag found is 0 or F0 gives no lag.
    func harmonicsToNoise(power: [Double], f0Hz: Double, scratch: inout Scratch) -> Double? {
        let bins = fft.realBins
        // The lag of F0 at the rate of the frequency axis (twice its last bin's frequency), as cHarmonics takes it.
        guard let start = Int(checking: Double(fft.size) * binHz / Double(Float(f0Hz)), rounding: .down, in: 1...(1 << 30)) else { return nil }
        if scratch.r.count != fft.size {
            scratch.spectrum = [Double](repeating: 0, count: 2 * bins)
            scratch.r = [Double](repeating: 0, count: fft.size)
        }
        if scratch.acf.count != bins { scratch.acf = [Double](repeating: 0, count: bins) }
        power.withUnsafeBufferPointer { power in
            scratch.spectrum.withUnsafeMutableBufferPointer { spectrum in
                scratch.r.withUnsafeMutableBufferPointer { r in
                    for k in 0..<bins { spectrum[2 * k] = power[k] }
                    fft.inverse(UnsafeBufferPointer(spectrum), into: r)
                    scratch.acf.withUnsafeMutableBufferPointer { acf in
                        for k in 0..<bins { acf[k] = abs(r[k]) }
                    }
                }
            }
        }
        let a = scratch.acf
        let tau = Self.closestPeak(a, from: min(start, bins - 1))
        guard tau > 0 else { return nil }
        let difference = a[0] - a[tau]
        let ratio = difference == 0 ? 1e11 : min(max(a[tau] / difference, 1e-9), 1e11)
        return 10 * log10(ratio)
    }

    /// The strict local maximum of `x` nearest `index` (the lower first at equal distance), or an
    /// end of `x` when there is none (openSMILE's getClosestPeak).
    static func closestPeak(_ x: [Double], from index: Int) -> Int {
        if isPeak(x, index) { return index }
        let n = x.count
        var o = 1
        while index - o > 0 || index + o < n - 1 {
            if index - o > 0, isPeak(x, index - o) { return index - o }
            if index + o < n - 1, isPeak(x, index + o) { return index + o }
            o += 1
        }
        switch (x[0] > x[index], x[n - 1] > x[index]) {
        case (true, false): return 0
        case (false, true): return n - 1
        case (true, true): return index < n / 2 ? 0 : n - 1
        case (false, false): return index
        }
    }

    /// Of the first bin at or after `start` (at least 1) above `frequencyHz` and the bin before
    /// it, the one nearer (the upper at equal distance): the nearest bin to a frequency at or
    /// above bin `start`; 0 when no bin lies above (openSMILE's freqToBin, without its scan).
    func nearestBin(_ frequencyHz: Double, from start: Int) -> Int {
        let count = fft.realBins
        guard frequencyHz < Double(count - 1) * binHz else { return 0 }
        // The first bin above: from the quotient (below count − 1 by the guard), corrected for its rounding.
        guard var b = Int(checking: max(0, frequencyHz) / binHz, rounding: .down, in: 0...count).map({ $0 + 1 }) else { return 0 }
        while b > 1, Double(b - 1) * binHz > frequencyHz { b -= 1 }
        while Double(b) * binHz <= frequencyHz { b += 1 }
        b = max(b, start, 1)
        let f = Double(b) * binHz
        return f - frequencyHz > frequencyHz - Double(b - 1) * binHz ? b - 1 : b
    }

    /// The 100 harmonics of F0 `f0Hz` in the magnitude spectrum `m` into `harmonics`.
    func harmonics(_ m: [Double], f0Hz: Double, into harmonics: inout [Harmonic]) {
        let f0 = Float(f0Hz)
        harmonics.removeAll(keepingCapacity: true)
        var last = nearestBin(Double(0.5 * f0), from: 1)
        let first = nearestBin(Double(0.5 * f0), from: last)
        for i in 0..<Self.harmonicCount {
            let candidate = nearestBin(Double(Float(i + 1) * f0), from: last)
            var peak: Int? = Self.isPeak(m, candidate) ? candidate : nil
            if peak == nil {
                let lower = nearestBin(Double((Float(i) + 0.5) * f0), from: last), upper = nearestBin(Double((Float(i) + 1.5) * f0), from: candidate)
                var left = candidate - 1, right = candidate + 1
                search: while left >= lower || right <= upper {
                    if right <= upper {
                        if Self.isPeak(m, right) { peak = right; break search }
                        right += 1
                    }
                    if left >= lower {
                        if Self.isPeak(m, left) { peak = left; break search }
                        left -= 1
                    }
                }
            }
            var harmonic = Harmonic(bin: candidate)
            if let p = peak, p >= max(first, 1), p < m.count - 1 {
                let (offset, height) = parabolicPeak(m[p - 1], m[p], m[p + 1])
                harmonic = Harmonic(bin: p, magnitude: m[p], frequencyHz: Double(Float((Double(p) + offset) * binHz)), vertexMagnitude: height)
            }
            harmonics.append(harmonic)
            last = candidate
        }
        // Levels relative to the first harmonic's peak magnitude; repeated peaks dropped.
        let reference = harmonics[0].magnitude
        harmonics[0].levelDb = 0
        for i in harmonics.indices.dropFirst() {
            let vertex = harmonics[i].vertexMagnitude
            if reference != 0 { harmonics[i].levelDb = vertex > 0 ? max(-200, 20 * (log10(vertex) - log10(reference))) : -200 }
            if harmonics[i].bin == harmonics[i - 1].bin { harmonics[i] = Harmonic() }
        }
    }

    /// H1–H2, the amplitudes of the formants at `formantsHz` (0 for none) and H1–A3, dB, from the
    /// harmonics of a frame with magnitude spectrum `m` and F0 `f0Hz`.
    func harmonicDifferences(_ m: [Double], f0Hz: Double, formantsHz: [Double], scratch: inout Scratch)
        -> (h1MinusH2Db: Double, amplitudesDb: [Double], h1MinusA3Db: Double) {
        harmonics(m, f0Hz: f0Hz, into: &scratch.harmonics)
        let h = scratch.harmonics
        func clamped(_ x: Double) -> Double { min(max(x, Self.floorDb), -Self.floorDb) }
        let strongest: [Int?] = formantsHz.map { formant in
            let low = Double(Float(1 - Self.formantRange) * Float(formant)), high = Double(Float(1 + Self.formantRange) * Float(formant))
            var best: Int? = nil, largest = 0.0
            for (k, harmonic) in h.enumerated() where harmonic.frequencyHz >= low && harmonic.frequencyHz <= high && harmonic.magnitude > largest {
                (best, largest) = (k, harmonic.magnitude)
            }
            return best
        }
        let a3 = strongest.count >= 3 ? strongest[2] : nil
        return (clamped(h[1].levelDb - h[2].levelDb), strongest.map { $0.map { h[$0].levelDb } ?? 0 },
                clamped(h[1].levelDb - (a3.map { h[$0].levelDb } ?? -Self.floorDb)))
    }
}
