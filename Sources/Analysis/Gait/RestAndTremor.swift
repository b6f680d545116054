import Foundation
import InputGuards
import Glibc
import SignalProcessing

extension StepAnalysis {
    /// The longest gap-free segment, for rest and tremor features.
    var longestSegment: Segment? { segments.max { $0.motion.count < $1.motion.count } }

    /// Accelerometric sway on a rest recording (docs/analyses.md §2.8; Mancini et al. 2012,
    /// J NeuroEng Rehabil 9:59): the segment minus its first 5 s (mPower-sdata
    /// `TrimData(timeStart = 5)`) when it is at least 10 s long; with why a measure is null.
    var sway: (features: SwayFeatures, missing: String?) {
        let fs = p.rateHz
        var sway = SwayFeatures()
        let seconds = Double(longestSegment?.motion.count ?? 0) / fs
        guard let segment = longestSegment, seconds >= 5 else {
            return (sway, "sway: the longest gap-free part of the recording is \(String(format: "%.3g", seconds)) s, shorter than the 5 s sway needs; its measures are null")
        }
        let trim = Double(segment.motion.count) / fs >= 10 ? Int(clamping: 5 * fs) : 0
        let h1 = Array(segment.h1[trim...]), h2 = Array(segment.h2[trim...]), v = Array(segment.v[trim...])
        func rms(_ x: [Double]) -> Double {
            let mean = x.reduce(0, +) / Double(x.count)
            return (x.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(x.count)).squareRoot()
        }
        let r1 = rms(h1), r2 = rms(h2)
        sway.swayRmsMetersPerSecondSquaredH = (r1 * r1 + r2 * r2).squareRoot()
        sway.swayRmsMetersPerSecondSquaredH1 = r1
        sway.swayRmsMetersPerSecondSquaredH2 = r2
        sway.swayRmsMetersPerSecondSquaredV = rms(v)
        var jerk = 0.0
        for i in 1..<h1.count {
            let d1 = (h1[i] - h1[i - 1]) * fs, d2 = (h2[i] - h2[i - 1]) * fs
            jerk += d1 * d1 + d2 * d2
        }
        sway.swayJerkRmsMetersPerSecondCubed = (jerk / Double(max(1, h1.count - 1))).squareRoot()
        // 95 % confidence ellipse of (H1, H2): π·χ²₂(0.95)·√(λ1λ2), χ²₂(0.95) = 5.991.
        let n = Double(h1.count)
        let m1 = h1.reduce(0, +) / n, m2 = h2.reduce(0, +) / n
        var c11 = 0.0, c22 = 0.0, c12 = 0.0
        for i in h1.indices {
            c11 += (h1[i] - m1) * (h1[i] - m1)
            c22 += (h2[i] - m2) * (h2[i] - m2)
            c12 += (h1[i] - m1) * (h2[i] - m2)
        }
        c11 /= n - 1
        c22 /= n - 1
        c12 /= n - 1
        sway.swayEllipseArea95MetersSquaredPerSecondToTheFourth = Double.pi * 5.991 * max(0, c11 * c22 - c12 * c12).squareRoot()
        // Summed Welch PSD of H1 and H2 over 0.1–5 Hz: centroid and 95 % power frequency.
        let segmentSize = min(h1.count, Int(clamping: 10 * fs))
        guard let psd1 = try? Spectrum.welch(h1, sampleRateHz: fs, segmentSize: segmentSize),
            let psd2 = try? Spectrum.welch(h2, sampleRateHz: fs, segmentSize: segmentSize)
        else { return (sway, "sway: no Welch spectrum of the horizontal acceleration; its centroid and F95 frequencies are null") }
        let band = psd1.frequenciesHz.indices.filter { psd1.frequenciesHz[$0] >= 0.1 && psd1.frequenciesHz[$0] <= 5 }
        let power = band.map { psd1.density[$0] + psd2.density[$0] }
        let total = power.reduce(0, +)
        guard total > 0 else {
            return (sway, "sway: no horizontal power between 0.1 and 5 Hz; its centroid and F95 frequencies are null")
        }
        sway.swayCentroidFrequencyHz = zip(band, power).reduce(0) { $0 + psd1.frequenciesHz[$1.0] * $1.1 } / total
        var cumulative = 0.0
        var f95 = psd1.frequenciesHz[band.last!]
        for (k, value) in zip(band, power) {
            cumulative += value
            if cumulative >= 0.95 * total {
                f95 = psd1.frequenciesHz[k]
                break
            }
        }
        sway.swayF95Hz = f95
        return (sway, nil)
    }

    /// Tremor spectrum (docs/analyses.md §2.9) of the dynamic acceleration (suffix `Accel`) and, for
    /// device motion, the rotation rate (`Gyro`): per axis demeaned, zero-phase 1 Hz high-pass,
    /// Welch PSD (Hann, 4-s segments, 50 % overlap), axes summed.
    static func tremorFeatures(of motion: UniformMotion?, rateHz fs: Double) -> TremorFeatures {
        var set = TremorFeatures()
        guard hasTremorRate(motion) else { return set }
        if let accel = tremorPeak(motion.map(accelerationAxes), rateHz: fs, bandHz: 3...12) {
            set.tremorDominantFrequencyHzAccel = accel.frequencyHz
            set.tremorBandPower3To12MetersSquaredPerSecondToTheFourthAccel = accel.bandPower
            set.tremorRelativeBandPowerAccel = accel.relativePower
            set.tremorPeakProminenceAccel = accel.prominence
        }
        if let gyro = tremorPeak(motion.flatMap(rotationAxes), rateHz: fs, bandHz: 3...12) {
            set.tremorDominantFrequencyHzGyro = gyro.frequencyHz
            set.tremorBandPower3To12RadiansSquaredPerSecondSquaredGyro = gyro.bandPower
            set.tremorRelativeBandPowerGyro = gyro.relativePower
            set.tremorPeakProminenceGyro = gyro.prominence
        }
        return set
    }

    /// Per axis a signal and what is subtracted from it first: acceleration minus gravity.
    static func accelerationAxes(_ m: UniformMotion) -> [([Double], [Double]?)] { [(m.x, m.gx), (m.y, m.gy), (m.z, m.gz)] }
    /// The rotation rate's axes, when the recording has one.
    static func rotationAxes(_ m: UniformMotion) -> [([Double], [Double]?)]? { m.rotation.map { [($0.x, nil), ($0.y, nil), ($0.z, nil)] } }

    /// Per axis the mean of signal − subtracted (of the signal alone without one), summed in
    /// order. Three axes all with or all without a subtracted column (acceleration minus gravity,
    /// the rotation rate) are summed side by side in one pass: independent chains, so the three
    /// cost about what one did, each the same bits as its own sum.
    static func differenceMeans(_ axes: [([Double], [Double]?)]) -> [Double] {
        precondition(axes.allSatisfy { axis in axis.1.map { $0.count == axis.0.count } ?? true }, "tremor: columns of unequal length")
        guard axes.count == 3, let n = axes.first?.0.count, n > 0, axes.allSatisfy({ $0.0.count == n }),
              axes.allSatisfy({ $0.1 == nil }) || axes.allSatisfy({ $0.1 != nil }) else {
            return axes.map { a, b in a.indices.reduce(0) { $0 + (a[$1] - (b?[$1] ?? 0)) } / Double(a.count) }
        }
        var (s0, s1, s2) = (0.0, 0.0, 0.0)
        axes[0].0.withUnsafeBufferPointer { a0 in axes[1].0.withUnsafeBufferPointer { a1 in axes[2].0.withUnsafeBufferPointer { a2 in
            guard let b0 = axes[0].1, let b1 = axes[1].1, let b2 = axes[2].1 else {
                for i in 0..<n { s0 += a0[i]; s1 += a1[i]; s2 += a2[i] }
                return
            }
            b0.withUnsafeBufferPointer { b0 in b1.withUnsafeBufferPointer { b1 in b2.withUnsafeBufferPointer { b2 in
                for i in 0..<n { s0 += a0[i] - b0[i]; s1 += a1[i] - b1[i]; s2 += a2[i] - b2[i] }
            } } }
        } } }
        return [s0 / Double(n), s1 / Double(n), s2 / Double(n)]
    }

    /// Whether `motion` was recorded at ``TremorBandFeatures/lowestRateHz`` or more.
    static func hasTremorRate(_ motion: UniformMotion?) -> Bool { (motion?.sourceRateHz ?? 0) >= TremorBandFeatures.lowestRateHz }

    /// The peak of the axes' summed spectrum in `bandHz` (parabolically interpolated in log
    /// power), the power in the band, its share of the power in 1–20 Hz, and the peak density over
    /// the band's median; nil below 5 s or 30 Hz, or without a spectral line in the band.
    static func tremorPeak(_ axes: [([Double], [Double]?)]?, rateHz fs: Double, bandHz: ClosedRange<Double>)
        -> (frequencyHz: Double, bandPower: Double, relativePower: Double?, prominence: Double)?
    {
        guard let axes, let first = axes.first, Double(first.0.count) / fs >= 5, fs >= 30 else { return nil }
        let highPass = Butterworth.highPass(order: 2, cutoffHz: 1, sampleRateHz: fs)
        var frequencies: [Double] = []
        var density: [Double] = []
        let means = differenceMeans(axes)
        for ((signal, subtracted), mean) in zip(axes, means) {
            // Demeaned: each value minus the mean of the (difference).
            let filtered = highPass.filtfilt(signal, minus: subtracted, offset: mean, padding: Int(clamping: fs))
            guard let psd = try? Spectrum.welch(filtered, sampleRateHz: fs, segmentSize: min(filtered.count, Int(clamping: 4 * fs))) else { continue }
            if density.isEmpty {
                (frequencies, density) = psd
            } else {
                for k in density.indices { density[k] += psd.density[k] }
            }
        }
        let df = frequencies.count > 1 ? frequencies[1] - frequencies[0] : 0
        let band = frequencies.indices.filter { bandHz.contains(frequencies[$0]) }
        let wide = frequencies.indices.filter { frequencies[$0] >= 1 && frequencies[$0] <= 20 }
        guard let peak = band.max(by: { density[$0] < density[$1] }), df > 0 else { return nil }
        let offset = peak > 0 && peak < density.count - 1
            ? Peaks.parabolicVertex(log(density[peak - 1]), log(density[peak]), log(density[peak + 1])).offset : 0
        let bandPower = band.reduce(0) { $0 + density[$1] } * df
        let widePower = wide.reduce(0) { $0 + density[$1] } * df
        return (frequencies[peak] + offset * df, bandPower, widePower > 0 ? bandPower / widePower : nil,
                density[peak] / band.map { density[$0] }.statistic(Statistics.median))
    }
}
