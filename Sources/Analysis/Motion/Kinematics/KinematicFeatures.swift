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
        guard let density = try? AutoregressiveSpectrum.density(x) else {
            let undefined = KinematicFeatures(time: time, frequency: Array(repeating: .nan, count: frequencyNames.count),
                                              energy: Array(repeating: .nan, count: energyNames.count))
            return (undefined, false)
        }
        let freq = AutoregressiveSpectrum.frequencies.map { $0 * rateHz }
        let total = RArithmetic.sum(density)
        let pdf = density.map { $0 / total }
        return (KinematicFeatures(time: time, frequency: frequencyDomain(freq: freq, pdf: pdf, rateHz: rateHz), energy: bandEnergies(freq: freq, pdf: pdf)), true)
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
        // (n Σd⁴ / (Σd²)² − 3 + 3) · (1 − 1/n)² − 3; each power rounded to double, summed extended.
        var s2: Float80 = 0, s3: Float80 = 0, s4: Float80 = 0, energy: Float80 = 0
        for v in x {
            let d = v - mean, q = d * d
            s2 += Float80(q)
            s3 += Float80(q * d)
            s4 += Float80(q * q)
            energy += Float80(v * v)
        }
        let nd = Double(n)
        let skewness = nd.squareRoot() * Double(s3) / pow(Double(s2), 1.5) * pow(1 - 1 / nd, 1.5)
        let kurtosis = (nd * Double(s4) / (Double(s2) * Double(s2)) - 3 + 3) * ((1 - 1 / nd) * (1 - 1 / nd)) - 3
        // First and second differences (seewave's roughness and rugosity; Hjorth's with the rate).
        var rough: Float80 = 0
        var velocity = [Double](repeating: 0, count: max(0, n - 1))
        var acceleration = [Double](repeating: 0, count: max(0, n - 2))
        var squaredSteps = [Double](repeating: 0, count: max(0, n - 1))
        for i in 1..<max(1, n) {
            let step = x[i] - x[i - 1]
            squaredSteps[i - 1] = step * step
            velocity[i - 1] = step * fs
            if i >= 2 {
                let second = step - (x[i - 1] - x[i - 2])
                rough += Float80(second * second)
                acceleration[i - 2] = (velocity[i - 1] - velocity[i - 2]) * fs
            }
        }
        let rugo = n > 1 ? RArithmetic.mean(squaredSteps).squareRoot() : .nan
        let mobility = (RArithmetic.variance(velocity) / RArithmetic.variance(x)).squareRoot()
        // mean(TKEO, na.rm = TRUE): R's mean over the n − 2 defined values, with its residual pass.
        let meanTKEO = n > 2 ? RArithmetic.mean(tkeoValues(x)) : .nan
        let complexity = (RArithmetic.variance(acceleration) / RArithmetic.variance(velocity)).squareRoot()
        let rms = (Double(energy) / nd).squareRoot()
        return [mean, RArithmetic.quantile7(sorted: sorted, 0.5), RArithmetic.mode(sorted: sorted), mx, mn, sd, skewness, kurtosis,
                q25, q75, mx - mn, Double(rough), rugo, Double(energy), mobility, meanTKEO, rms, q25 - q75, complexity]
    }

    /// seewave's TKEO with m = M = 1 at the samples with both neighbours: x[i]² − x[i+1]·x[i−1].
    private static func tkeoValues(_ x: [Double]) -> [Double] {
        (1..<(x.count - 1)).map { (i: Int) -> Double in
            let square: Double = x[i] * x[i]
            return square - x[i + 1] * x[i - 1]
        }
    }

    static func frequencyDomain(freq: [Double], pdf: [Double], rateHz: Double) -> [Double] {
        let count = Double(pdf.count)
        let mean = RArithmetic.mean(pdf)
        let w = RArithmetic.standardDeviation(pdf)
        var mnSum: Float80 = 0, mx = -Double.infinity, mode = 0
        for (k, p) in pdf.enumerated() {
            mnSum += Float80(freq[k] * p)
            if p > mx { mx = p; mode = k }
        }
        let mn = Double(mnSum)
        var sdSum: Float80 = 0, skewSum: Float80 = 0, kurtSum: Float80 = 0
        var cumulative: Float80 = 0, below = (0, 0, 0)
        for (k, p) in pdf.enumerated() {
            sdSum += Float80(p * ((freq[k] - mn) * (freq[k] - mn)))
            let d = p - mean, q = d * d
            skewSum += Float80(q * d)
            kurtSum += Float80(q * q)
            // freq[length(cdf[cdf <= p]) + 1] for p = ¼, ½, ¾ (NA past the last frequency).
            cumulative += Float80(p)
            let c = Double(cumulative)
            if c <= 0.25 { below.0 += 1 }
            if c <= 0.5 { below.1 += 1 }
            if c <= 0.75 { below.2 += 1 }
        }
        func at(_ k: Int) -> Double { k < freq.count ? freq[k] : .nan }
        let sd = Double(sdSum).squareRoot()
        let q25 = at(below.0), q75 = at(below.2)
        let skew = (Double(skewSum) / (count - 1)) / pow(w, 3)
        let kurt = (Double(kurtSum) / (count - 1)) / pow(w, 4)
        let values = [mn, mx, sd, sd / count.squareRoot(), at(below.1), freq[pdf.isEmpty ? 0 : mode], q25, q75, q75 - q25, mn, skew, kurt,
                      Seewave.spectralFlatness(pdf), Seewave.shannonEntropy(pdf)]
        return values + EmpiricalWavelets.entropies(EmpiricalWavelets.energies(freq: freq, pdf: pdf, rateHz: rateHz))
    }

    /// pracma's `trapz` over the frequencies in each band (both edges included), by its
    /// polygon-area formula: with xp = (x, rev x) and yp = (0…0, rev y),
    /// ½ (Σ xpₖ ypₖ₊₁ + xp_last yp₀ − Σ xpₖ₊₁ ypₖ − xp₀ yp_last), each sum in R's order.
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
            let n = 2 * m
            func xp(_ k: Int) -> Double { freq[first + (k < m ? k : n - 1 - k)] }
            func yp(_ k: Int) -> Double { k < m ? 0 : pdf[first + n - 1 - k] }
            var p1: Float80 = 0, p2: Float80 = 0
            for k in 0..<(n - 1) { p1 += Float80(xp(k) * yp(k + 1)) }
            for k in 1..<n { p2 += Float80(xp(k) * yp(k - 1)) }
            return 0.5 * ((Double(p1) + xp(n - 1) * yp(0)) - (Double(p2) + xp(0) * yp(n - 1)))
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
