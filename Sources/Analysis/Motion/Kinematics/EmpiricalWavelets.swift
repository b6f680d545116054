import Foundation

/// mhealthtools' empirical-wavelet energies (`get_ewt_spectrum`, after Gilles, "Empirical
/// wavelet transform", IEEE Trans. Signal Process. 61(16), 2013): the spectrum split at the
/// midpoints between 0, its three highest peaks (none when it has none) (pracma's `findpeaks`, at least a tenth of the
/// maximum) and π; each band's Meyer-type window (transition ratio γ the smallest
/// (ωₖ₊₁ − ωₖ)/(ωₖ₊₁ + ωₖ)) applied to the mass function; the energies Σ (pdf·φ)², normalised
/// (docs/analyses.md §7.3).
enum EmpiricalWavelets {
    /// The normalised band energies; without a peak the split is at π/2 alone (R indexes NULL
    /// to NULL there).
    static func energies(freq: [Double], pdf: [Double], rateHz: Double, peaks maxPeaks: Int = 3) -> [Double] {
        let n = pdf.count
        let found = peaks(pdf, minimumHeight: 0.1 * (pdf.max() ?? .nan)).prefix(maxPeaks)
        var bounds = [0.0]
        for position in found.sorted() {
            let omega = freq[position] * Double.pi * 2 / rateHz
            if !bounds.contains(omega) { bounds.append(omega) }
        }
        if !bounds.contains(Double.pi) { bounds.append(Double.pi) }
        var mids = [0.0]
        for k in 0..<(bounds.count - 1) { mids.append(bounds[k] + (bounds[k + 1] - bounds[k]) / 2) }
        mids.append(Double.pi)
        var gamma = Double.infinity
        for k in 0..<(mids.count - 1) {
            let ratio = (mids[k + 1] - mids[k]) / (mids[k + 1] + mids[k])
            if !ratio.isNaN { gamma = min(gamma, ratio) }
        }
        func beta(_ x: Double) -> Double { pow(x, 4) * (35 - 84 * x + 70 * x * x - 20 * pow(x, 3)) }
        var energies: [Double] = []
        var phi = [Double](repeating: 0, count: n)
        for k in 0..<(mids.count - 1) {
            let wn1 = mids[k] == 0 ? 0.00001 : mids[k], wn2 = mids[k + 1]
            for i in 0..<n { phi[i] = 0 }
            // β is used only in the transition bands (R computes it everywhere and keeps those).
            for i in 0..<n {
                // R's seq(0, π, len = n): i·(π/(n − 1)), the last exactly π.
                let a = i == n - 1 ? Double.pi : Double(i) * (Double.pi / Double(n - 1))
                let inLower = (1 - gamma) * wn1 <= a && a <= (1 + gamma) * wn1
                if wn2 != Double.pi {
                    if (1 + gamma) * wn1 <= a && a <= (1 - gamma) * wn2 { phi[i] = 1 }
                    if (1 - gamma) * wn2 <= a && a <= (1 + gamma) * wn2 {
                        phi[i] = cos(Double.pi * beta((1 / (2 * gamma * wn2)) * (a - (1 - gamma) * wn2)) / 2)
                    }
                    if inLower { phi[i] = sin(Double.pi * beta((1 / (2 * gamma * wn1)) * (a - (1 - gamma) * wn1)) / 2) }
                } else {
                    if a <= (1 - gamma) * wn1 { phi[i] = 1 }
                    if inLower { phi[i] = cos(Double.pi * beta((1 / (2 * gamma * wn1)) * (a - (1 - gamma) * wn1)) / 2) }
                    phi[i] = 1 - phi[i]
                }
            }
            var energy: Float80 = 0
            for i in 0..<n {
                let v = pdf[i] * phi[i]
                energy += Float80(v * v)
            }
            energies.append(Double(energy))
        }
        let total = RArithmetic.sum(energies)
        return energies.map { $0 / total }
    }

    /// The five entropies of normalised energies: statcomp's permutation entropy of the energies
    /// as an ordinal-pattern distribution (Shannon over log of their count, terms below 1e-30
    /// dropped), seewave's Shannon, Simpson and Rényi (α = 2), and Tsallis (q = 0.1).
    static func entropies(_ e: [Double]) -> [Double] {
        let total = RArithmetic.sum(e)
        let shannon = -RArithmetic.sum(e.map { let p = $0 / total; return p >= 1e-30 ? p * log(p) : 0 })
        return [shannon / log(Double(e.count)), Seewave.shannonEntropy(e), Seewave.simpsonIndex(e),
                Seewave.renyiEntropy(e, alpha: 2), (1 - RArithmetic.sum(e.map { pow($0, 0.1) })) / (0.1 - 1)]
    }

    /// pracma's `findpeaks(x, minpeakheight:, minpeakdistance:, sortstr = TRUE)`: each run of
    /// rises followed at once by a run of falls is one peak at its highest sample (the first of
    /// equals); those at least `minimumHeight`, highest first (ties in position order); with a
    /// `minimumDistance` above 1, each peak not yet dropped drops the later-listed ones closer
    /// than that (in samples). Indices into `x`.
    static func peaks(_ x: [Double], minimumHeight: Double, minimumDistance: Double = 1) -> [Int] {
        let n = x.count
        guard n >= 3 else { return [] }
        func sign(_ k: Int) -> Int { x[k + 1] > x[k] ? 1 : (x[k + 1] < x[k] ? -1 : 0) }
        var found: [(value: Double, position: Int)] = []
        var k = 0
        while k < n - 1 {
            guard sign(k) == 1 else { k += 1; continue }
            var up = k
            while up < n - 1, sign(up) == 1 { up += 1 }
            guard up < n - 1, sign(up) == -1 else { k = up; continue }
            var down = up
            while down < n - 1, sign(down) == -1 { down += 1 }
            // The match spans differences k..<down, i.e. samples k...down.
            var best = k
            for i in k...down where x[i] > x[best] { best = i }
            if x[best] >= minimumHeight { found.append((x[best], best)) }
            k = down
        }
        let sorted = found.enumerated().sorted { $0.element.value > $1.element.value || ($0.element.value == $1.element.value && $0.offset < $1.offset) }
            .map(\.element.position)
        guard minimumDistance > 1 else { return sorted }
        var dropped = [Bool](repeating: false, count: sorted.count)
        for (i, position) in sorted.enumerated() where !dropped[i] {
            for (j, other) in sorted.enumerated() {
                let distance = Double(abs(position - other))
                if distance > 0 && distance < minimumDistance { dropped[j] = true }
            }
        }
        return sorted.indices.filter { !dropped[$0] }.map { sorted[$0] }
    }
}
