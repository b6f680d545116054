import Foundation

/// mhealthtools' kinematic features of one series (one sensor, axis, IMF and window):
/// `time_domain_summary`, `frequency_domain_summary` and `frequency_domain_energy` of
/// Sage-Bionetworks/mhealthtools 4340b82 (R/feature_extraction_functions.R), under mhealthtools'
/// column names (`mean.tm`, `EnergyInBand1_5`, …) and in its column order (docs/analyses.md §7.3).
/// Units: the series' own (g for the accelerometer, rad/s for the gyroscope) for the `.tm` levels,
/// Hz for frequencies; the spectral values are of the probability mass over the AR spectrum.
/// A value mhealthtools leaves undefined (R's NA or NaN) is NaN here and null in every output.
public struct KinematicFeatures: Sendable, Hashable {
    /// The 19 time-domain values in mhealthtools' order: mean, median, mode (pracma, 15 digits),
    /// mx, mn, sd, skewness and kurtosis (e1071 type 3), Q25, Q75 (type 7), range, rough
    /// (seewave: Σ second differences²), rugo (seewave: RMS of first differences), energy (Σ x²),
    /// mobility (Hjorth, with the rate), mtkeo (mean Teager-Kaiser energy), rmsmag, IQR
    /// (Q25 − Q75, mhealthtools' sign), complexity (Hjorth).
    public var time: [Double]
    /// The 19 frequency-domain values: mn, mx, sd, sem, md, mod, Q25, Q75, IQR, cent, skew, kurt
    /// of the AR spectrum's mass function, sfm and sh (seewave), and the entropies of the
    /// empirical-wavelet energies: ewt.permEnt (statcomp), ewt.shannonEnt, ewt.simpsonEnt,
    /// ewt.renyiEnt (seewave, α = 2), ewt.tsallisEnt (q = 0.1).
    public var frequency: [Double]
    /// The mass of the AR spectrum in the 48 bands [1, 1.5], [1.5, 2], … [24.5, 25] Hz (trapezoids).
    public var energy: [Double]

    public static let timeNames = ["mean.tm", "median.tm", "mode.tm", "mx.tm", "mn.tm", "sd.tm", "skewness.tm", "kurtosis.tm",
                                   "Q25.tm", "Q75.tm", "range.tm", "rough.tm", "rugo.tm", "energy.tm", "mobility.tm", "mtkeo.tm",
                                   "rmsmag.tm", "IQR.tm", "complexity.tm"]
    public static let frequencyNames = ["mn.fr", "mx.fr", "sd.fr", "sem.fr", "md.fr", "mod.fr", "Q25.fr", "Q75.fr", "IQR.fr",
                                        "cent.fr", "skew.fr", "kurt.fr", "sfm.fr", "sh.fr", "ewt.permEnt.fr", "ewt.shannonEnt.fr",
                                        "ewt.simpsonEnt.fr", "ewt.renyiEnt.fr", "ewt.tsallisEnt.fr"]
    /// `EnergyInBand1`, `EnergyInBand1_5`, … `EnergyInBand24_5` (the band's lower edge in Hz).
    public static let energyNames = bandStarts.map { start in
        "EnergyInBand" + (start == start.rounded() ? "\(Int(start))" : "\(Int(start))_5")
    }
    /// Every name, in mhealthtools' column order.
    public static var names: [String] { timeNames + frequencyNames + energyNames }
    /// Every value, in ``names``' order.
    public var values: [Double] { time + frequency + energy }

    static let bandStarts = (0..<48).map { 1 + Double($0) * 0.5 }

    /// The features of `x` sampled at `rateHz`; false when the AR spectrum is undefined (a
    /// constant or a too short series: mhealthtools stops with an R error there, the spectral
    /// values are NaN here).
    static func compute(_ x: [Double], rateHz: Double) -> (features: KinematicFeatures, spectrum: Bool) {
        let time = timeDomain(x, rateHz: rateHz)
        var frequency = [Double](repeating: .nan, count: frequencyNames.count)
        var energy = [Double](repeating: .nan, count: energyNames.count)
        if let density = try? AutoregressiveSpectrum.density(x) {
            let freq = AutoregressiveSpectrum.frequencies.map { $0 * rateHz }
            let total = RArithmetic.sum(density)
            let pdf = density.map { $0 / total }
            frequency = frequencyDomain(freq: freq, pdf: pdf, rateHz: rateHz)
            energy = bandEnergies(freq: freq, pdf: pdf)
        }
        return (KinematicFeatures(time: time, frequency: frequency, energy: energy), !frequency[0].isNaN || time[0].isNaN)
    }

    static func timeDomain(_ x: [Double], rateHz fs: Double) -> [Double] {
        let n = x.count
        guard n > 0 else { return Array(repeating: .nan, count: timeNames.count) }
        let sorted = x.sorted()
        let mean = RArithmetic.mean(x)
        let sd = RArithmetic.standardDeviation(x)
        let q25 = RArithmetic.quantile7(sorted: sorted, 0.25), q75 = RArithmetic.quantile7(sorted: sorted, 0.75)
        let mx = sorted[n - 1], mn = sorted[0]
        // e1071 type 3 on the centred values: √n Σd³ / (Σd²)^{3/2} · (1 − 1/n)^{3/2}, and
        // n Σd⁴ / (Σd²)² · (1 − 1/n)² − 3.
        let centred = x.map { $0 - mean }
        let s2 = RArithmetic.sum(centred.map { $0 * $0 })
        let s3 = RArithmetic.sum(centred.map { $0 * $0 * $0 })
        let s4 = RArithmetic.sum(centred.map { let q = $0 * $0; return q * q })
        let nd = Double(n)
        let skewness = nd.squareRoot() * s3 / pow(s2, 1.5) * pow(1 - 1 / nd, 1.5)
        let kurtosis = (nd * s4 / (s2 * s2) - 3 + 3) * ((1 - 1 / nd) * (1 - 1 / nd)) - 3
        let first = n > 1 ? (1..<n).map { x[$0] - x[$0 - 1] } : []
        let second = first.count > 1 ? (1..<first.count).map { first[$0] - first[$0 - 1] } : []
        let rough = RArithmetic.sum(second.map { $0 * $0 })
        let rugo = n > 1 ? RArithmetic.mean(first.map { $0 * $0 }).squareRoot() : .nan
        let energy = RArithmetic.sumOfSquares(x)
        let velocity = first.map { $0 * fs }
        let mobility = (RArithmetic.variance(velocity) / RArithmetic.variance(x)).squareRoot()
        let tkeo = n > 2 ? RArithmetic.mean((1..<(n - 1)).map { x[$0] * x[$0] - x[$0 + 1] * x[$0 - 1] }) : .nan
        let rms = (energy / nd).squareRoot()
        let acceleration = velocity.count > 1 ? (1..<velocity.count).map { (velocity[$0] - velocity[$0 - 1]) * fs } : []
        let complexity = (RArithmetic.variance(acceleration) / RArithmetic.variance(velocity)).squareRoot()
        return [mean, RArithmetic.quantile7(sorted: sorted, 0.5), RArithmetic.mode(sorted: sorted), mx, mn, sd, skewness, kurtosis,
                q25, q75, mx - mn, rough, rugo, energy, mobility, tkeo, rms, q25 - q75, complexity]
    }

    static func frequencyDomain(freq: [Double], pdf: [Double], rateHz: Double) -> [Double] {
        let count = Double(pdf.count)
        let mean = RArithmetic.mean(pdf)
        let cdf = RArithmetic.cumulativeSum(pdf)
        let w = RArithmetic.standardDeviation(pdf)
        let mn = RArithmetic.sum(zip(freq, pdf).map { $0 * $1 })
        let mx = pdf.max() ?? .nan
        let sd = RArithmetic.sum(zip(freq, pdf).map { $1 * (($0 - mn) * ($0 - mn)) }).squareRoot()
        // freq[length(cdf[cdf <= p]) + 1]: NA past the last frequency.
        func quantile(_ p: Double) -> Double {
            let k = cdf.reduce(0) { $1 <= p ? $0 + 1 : $0 }
            return k < freq.count ? freq[k] : .nan
        }
        let mode = freq[pdf.firstIndex(of: mx) ?? 0]
        let q25 = quantile(0.25), q75 = quantile(0.75)
        let adjusted = pdf.map { $0 - mean }
        let skew = (RArithmetic.sum(adjusted.map { $0 * $0 * $0 }) / (count - 1)) / pow(w, 3)
        let kurt = (RArithmetic.sum(adjusted.map { let q = $0 * $0; return q * q }) / (count - 1)) / pow(w, 4)
        let values = [mn, mx, sd, sd / count.squareRoot(), quantile(0.5), mode, q25, q75, q75 - q25, mn, skew, kurt,
                      Seewave.spectralFlatness(pdf), Seewave.shannonEntropy(pdf)]
        return values + EmpiricalWavelets.entropies(EmpiricalWavelets.energies(freq: freq, pdf: pdf, rateHz: rateHz))
    }

    /// pracma's `trapz` over the frequencies in each band (both edges included), by its
    /// polygon-area formula.
    static func bandEnergies(freq: [Double], pdf: [Double]) -> [Double] {
        // The frequencies increase: each band's are one run, found from the previous band's start.
        var first = 0
        return bandStarts.map { start in
            let end = start + 0.5
            while first < freq.count, freq[first] < start { first += 1 }
            var past = first
            while past < freq.count, freq[past] <= end { past += 1 }
            let m = past - first
            guard m > 1 else { return 0 }
            let x = freq[first..<past], y = pdf[first..<past]
            let xp = Array(x) + x.reversed(), yp = [Double](repeating: 0, count: m) + y.reversed()
            let n = 2 * m
            let p1 = RArithmetic.sum((0..<(n - 1)).map { xp[$0] * yp[$0 + 1] }) + xp[n - 1] * yp[0]
            let p2 = RArithmetic.sum((1..<n).map { xp[$0] * yp[$0 - 1] }) + xp[0] * yp[n - 1]
            return 0.5 * (p1 - p2)
        }
    }
}

/// The seewave 2.2.4 measures mhealthtools calls (Sueur, Aubin & Simonis, "Seewave: a free
/// modular tool for sound analysis and synthesis", Bioacoustics 18, 2008).
enum Seewave {
    /// `sfm`: geometric over arithmetic mean, zeros read as 1e-5 (the geometric mean as the
    /// product of the n-th roots, accumulated in extended precision as R's `prod`).
    static func spectralFlatness(_ spec: [Double]) -> Double {
        let s = spec.map { $0 == 0 ? 1e-5 : $0 }
        let n = Double(s.count)
        var product: Float80 = 1
        for v in s { product *= Float80(pow(v, 1 / n)) }
        return Double(product) / RArithmetic.mean(s)
    }

    /// `sh(spec, alpha)`: Shannon (α nil), Simpson (α = 0 here by convention) or Rényi entropy of
    /// the mass function, zeros read as 1e-7; Shannon and Rényi over log N.
    static func shannonEntropy(_ spec: [Double]) -> Double {
        guard let p = massFunction(spec) else { return spec.contains(where: \.isNaN) ? .nan : 0 }
        return -RArithmetic.sum(p.map { $0 * log($0) }) / log(Double(p.count))
    }

    static func simpsonIndex(_ spec: [Double]) -> Double {
        guard let p = massFunction(spec) else { return spec.contains(where: \.isNaN) ? .nan : 0 }
        return 1 - RArithmetic.sum(p.map { $0 * $0 })
    }

    static func renyiEntropy(_ spec: [Double], alpha: Double) -> Double {
        guard let p = massFunction(spec) else { return spec.contains(where: \.isNaN) ? .nan : 0 }
        return (1 / (1 - alpha)) * log(RArithmetic.sum(p.map { pow($0, alpha) })) / log(Double(p.count))
    }

    private static func massFunction(_ spec: [Double]) -> [Double]? {
        guard !spec.contains(where: \.isNaN), RArithmetic.sum(spec) != 0 else { return nil }
        let s = spec.map { $0 == 0 ? 1e-7 : $0 }
        let total = RArithmetic.sum(s)
        return s.map { $0 / total }
    }
}
