import Glibc

/// Cepstral peak prominence as Praat computes it (Praat 6.1.38 LPC/PowerCepstrogram.cpp,
/// LPC/PowerCepstrum.cpp; J. Hillenbrand, R. A. Houde, "Acoustic correlates of breathy vocal
/// quality: dysphonic voices and continuous speech", J. Speech Hear. Res. 39:311–321, 1996):
///
/// "Sound: To PowerCepstrogram" (pitch floor 60 Hz, time step 0.002 s, maximum frequency 5000 Hz,
/// pre-emphasis from 50 Hz): the sound resampled to twice the maximum frequency and
/// pre-emphasised; frames of 2 × 3/floor s (Gaussian window, mean removed) every time step, fitted
/// into the original sound; per frame the power cepstrum (the squared inverse FFT of the natural
/// log of the power spectrum, both on Praat's FFT).
///
/// "PowerCepstrogram: Get CPPS" with Praat's defaults: the trend subtracted before smoothing
/// (an exponential-decay trend, dB = a·ln q + b, fitted by Theil's incomplete robust method to
/// the quefrencies 0.001–0.05 s; what lies below it set to 0 dB), then averaged over 0.02 s of
/// frames and 0.0005 s of quefrency (Praat's interpolating Sampled_getMean); per frame the
/// highest peak (parabolic interpolation) between 1/330 and 1/60 s and its height above the trend
/// fitted again to the smoothed frame: the CPP, dB; CPPS is their mean over all frames.
struct PraatCepstralAnalysis: Sendable, Hashable {
    var pitchFloorHz = 60.0
    var timeStep = 0.002
    var maximumFrequencyHz = 5000.0
    var preEmphasisFromHz = 50.0
    var timeAveragingSeconds = 0.02
    var quefrencyAveragingSeconds = 0.0005
    var peakSearchFloorHz = 60.0
    var peakSearchCeilingHz = 330.0
    var trendFromSeconds = 0.001
    var trendToSeconds = 0.05

    /// Power cepstra of frames: values[frame][bin], bin q = k·dq (k = 0…bins − 1).
    struct Cepstrogram {
        var firstTime: Double
        var timeStep: Double
        /// The end of the time domain (the sound's), s.
        var duration: Double
        var quefrencyStep: Double
        var values: [[Double]]
        var bins: Int { values.first?.count ?? 0 }
    }

    /// Per frame the CPP, dB, and the quefrency of its peak, s; CPPS, dB.
    struct Result {
        var firstTime: Double
        var timeStep: Double
        var cppDb: [Double]
        var peakQuefrencySeconds: [Double]
        var cppsDb: Double?
    }

    func analyze(_ sound: PraatSound) -> Result? {
        guard let cepstrogram = cepstrogram(sound) else { return nil }
        return prominence(cepstrogram)
    }

    func cepstrogram(_ sound: PraatSound) -> Cepstrogram? {
        let duration = sound.dx * Double(sound.count)
        var windowDuration = 2 * (3 / pitchFloorHz)
        if windowDuration > duration { windowDuration = duration }
        let rate = 2 * maximumFrequencyHz
        let resampled = sound.resampled(toRateHz: rate)
        var s = resampled.samples
        let rdx = resampled.dx
        if preEmphasisFromHz < 0.5 / rdx, s.count >= 2 {
            let factor = exp(-(2 * Double.pi) * preEmphasisFromHz * rdx)
            for i in stride(from: s.count - 1, through: 1, by: -1) { s[i] -= factor * s[i - 1] }
        }
        // Sampled_shortTermAnalysis of the original sound.
        let frameCount = Int(clamping: (duration - windowDuration) / timeStep, rounding: .down, to: -1...Int(Int32.max)) + 1
        guard frameCount >= 1, windowDuration > 0 else { return nil }
        let middle = sound.x1 - 0.5 * sound.dx + 0.5 * duration
        let firstTime = middle - 0.5 * (Double(frameCount) * timeStep) + 0.5 * timeStep
        let length = Int(clamping: (windowDuration * rate).rounded(.toNearestOrAwayFromZero), to: 1...Int(Int32.max))
        let edge = exp(-12.0), centre = 0.5 * Double(length + 1), span = Double(length + 1)
        let window = (1...length).map { i -> Double in
            let d = Double(i) - centre
            return (exp(-48 * d * d / span / span) - edge) / (1 - edge)
        }
        var size = 2
        while size < length { size *= 2 }
        guard let fft = PraatFFT(size: size) else { return nil }
        let bins = size / 2 + 1
        let spectrumStep = 1 / (rdx * Double(size))
        var values = [[Double]]()
        values.reserveCapacity(frameCount)
        var frame = [Double](repeating: 0, count: length), data = [Double](repeating: 0, count: size)
        for index in 0..<frameCount {
            let t = firstTime + Double(index) * timeStep
            // Sound_into_Sound: the frame starts at the sample nearest t − window/2 (1-based j).
            let first = Int(clamping: ((t - windowDuration / 2 - resampled.x1) / rdx + 1 + 0.5).rounded(.down), to: Int(Int32.min)...Int(Int32.max))
            var sum: Float80 = 0
            for i in 0..<length {
                let j = first + i
                frame[i] = j >= 1 && j <= s.count ? s[j - 1] : 0
                sum += Float80(frame[i])
            }
            let mean = Double(sum / Float80(length))
            for i in 0..<length { data[i] = (frame[i] - mean) * window[i] }
            for i in length..<size { data[i] = 0 }
            fft.forward(&data)
            // Sound_to_Spectrum (scaled by Δt), then ln power, back through Spectrum_to_Sound
            // (scaled by Δf), squared: the power cepstrum.
            var logs = [Double](repeating: 0, count: bins)
            let r0 = data[0] * rdx
            logs[0] = log(r0 * r0 + 0 * 0 + 1e-300)
            for k in 1..<bins - 1 {
                let re = data[2 * k - 1] * rdx, im = data[2 * k] * rdx
                logs[k] = log(re * re + im * im + 1e-300)
            }
            let rn = data[size - 1] * rdx
            logs[bins - 1] = log(rn * rn + 0 * 0 + 1e-300)
            data[0] = logs[0] * spectrumStep
            for k in 1..<bins - 1 {
                data[2 * k - 1] = logs[k] * spectrumStep
                data[2 * k] = 0 * spectrumStep
            }
            data[size - 1] = logs[bins - 1] * spectrumStep
            fft.inverse(&data)
            values.append((0..<bins).map { data[$0] * data[$0] })
        }
        return Cepstrogram(firstTime: firstTime, timeStep: timeStep, duration: sound.xmax, quefrencyStep: (0.5 * Double(size) / rate) / Double(bins - 1), values: values)
    }

    func prominence(_ input: Cepstrogram) -> Result {
        var c = input
        let dq = c.quefrencyStep, bins = c.bins, frames = c.values.count
        let qmax = dq * Double(bins - 1)
        // The trend subtracted from every frame before smoothing.
        for f in 0..<frames {
            guard let (slope, intercept) = Self.trend(c.values[f], dq: dq, from: trendFromSeconds, to: trendToSeconds) else { continue }
            for j in 0..<bins {
                let q = j == 0 ? 0.5 * dq : Double(j) * dq
                let background = slope * log(q) + intercept
                let difference = max(0, 10 * log10(c.values[f][j] + 1e-30) - background)
                c.values[f][j] = exp(difference * M_LN10 / 10) - 1e-30
            }
        }
        // Averaging over time (each quefrency bin across frames), then over quefrency.
        if Int(clamping: timeAveragingSeconds / c.timeStep, rounding: .down, to: 0...Int.max) > 1 {
            var smoothed = c.values
            var row = [Double](repeating: 0, count: frames)
            for j in 0..<bins {
                for f in 0..<frames { row[f] = c.values[f][j] }
                for f in 0..<frames {
                    let mid = c.firstTime + Double(f) * c.timeStep
                    smoothed[f][j] = Self.mean(row, x1: c.firstTime, dx: c.timeStep, domain: 0...c.duration, from: mid - 0.5 * timeAveragingSeconds, to: mid + 0.5 * timeAveragingSeconds)
                }
            }
            c.values = smoothed
        }
        if Int(clamping: quefrencyAveragingSeconds / dq, rounding: .down, to: 0...Int.max) > 1 {
            for f in 0..<frames {
                let row = c.values[f]
                c.values[f] = (0..<bins).map { j in
                    let mid = Double(j) * dq
                    return Self.mean(row, x1: 0, dx: dq, domain: 0...qmax, from: mid - 0.5 * quefrencyAveragingSeconds, to: mid + 0.5 * quefrencyAveragingSeconds)
                }
            }
        }
        var cpp = [Double](repeating: .nan, count: frames), peaks = [Double](repeating: .nan, count: frames)
        for f in 0..<frames {
            guard let (slope, intercept) = Self.trend(c.values[f], dq: dq, from: trendFromSeconds, to: trendToSeconds) else { continue }
            let decibels = c.values[f].map { 10 * log10($0 + 1e-30) }
            guard let (peak, quefrency) = Self.maximum(decibels, dx: dq, from: 1 / peakSearchCeilingHz, to: 1 / peakSearchFloorHz) else { continue }
            cpp[f] = peak - (slope * log(quefrency) + intercept)
            peaks[f] = quefrency
        }
        var sum: Float80 = 0
        for value in cpp { sum += Float80(value) }
        let defined = cpp.allSatisfy(\.isFinite) && frames > 0
        return Result(firstTime: c.firstTime, timeStep: c.timeStep, cppDb: cpp, peakQuefrencySeconds: peaks,
                      cppsDb: defined ? Double(sum) / Double(frames) : nil)
    }

    /// PowerCepstrum_fitTrendLine, exponential decay, Theil's incomplete method: dB = a·ln q + b
    /// over the bins with q in [from, to] (bin 0 left out: ln 0).
    static func trend(_ power: [Double], dq: Double, from: Double, to: Double) -> (Double, Double)? {
        var first = 1 + Int(clamping: (from / dq).rounded(.up), to: -1...Int.max - 2)
        var last = 1 + Int(clamping: (to / dq).rounded(.down), to: -1...Int.max - 2)
        first = max(first, 1)
        last = min(last, power.count)
        guard first <= last else { return nil }
        if first == 1 { first = 2 }
        guard last - first + 1 > 1 else { return nil }
        let x = (first...last).map { log(Double($0 - 1) * dq) }
        let y = (first...last).map { 10 * log10(power[$0 - 1] + 1e-30) }
        return theil(x, y)
    }

    /// NUMlineFit_theil, incomplete: the median of the slopes between point i and point i + ⌈n/2⌉,
    /// then the median of y − slope·x (Praat's NUMquantile at ½ of the sorted values).
    static func theil(_ x: [Double], _ y: [Double]) -> (Double, Double) {
        let n = x.count
        if n == 1 { return (0, y[0]) }
        if n == 2 {
            let m = (y[1] - y[0]) / (x[1] - x[0])
            return (m, y[0] - m * x[0])
        }
        let pairs = n / 2, offset = n % 2 == 1 ? pairs + 1 : pairs
        let slopes = (0..<pairs).map { (y[offset + $0] - y[$0]) / (x[offset + $0] - x[$0]) }.sorted()
        let m = quantile(slopes, 0.5)
        let intercepts = (0..<n).map { y[$0] - m * x[$0] }.sorted()
        return (m, quantile(intercepts, 0.5))
    }

    /// Praat's NUMquantile of sorted values: place = p·n + ½, linear between its neighbours.
    static func quantile(_ a: [Double], _ p: Double) -> Double {
        let n = a.count
        guard n > 1 else { return a.first ?? 0 }
        let place = p * Double(n) + 0.5
        let left = min(max(Int(place.rounded(.down)), 1), n - 1)
        if a[left] == a[left - 1] { return a[left - 1] }
        return a[left - 1] + (place - Double(left)) * (a[left] - a[left - 1])
    }

    /// Vector_getMaximumAndX with parabolic interpolation over the samples whose x = (i − 1)·dx
    /// lies in [from, to]: the larger end value or the highest interpolated local maximum, and
    /// its x clipped to the range.
    static func maximum(_ y: [Double], dx: Double, from: Double, to: Double) -> (Double, Double)? {
        let n = y.count
        var low = 1 + Int(clamping: (from / dx).rounded(.up), to: -1...Int.max - 2)
        var high = 1 + Int(clamping: (to / dx).rounded(.down), to: -1...Int.max - 2)
        low = max(low, 1)
        high = min(high, n)
        guard low <= high else { return nil }
        var best = y[low - 1], place = Double(low)
        if y[high - 1] > best { best = y[high - 1]; place = Double(high) }
        if low == 1 { low += 1 }
        if high == n { high -= 1 }
        if low <= high {
            for i in low...high where y[i - 1] > y[i - 2] && y[i - 1] >= y[i] {
                let dy = 0.5 * (y[i] - y[i - 2])
                let d2y = 2 * y[i - 1] - y[i - 2] - y[i]
                let value = y[i - 1] + 0.5 * dy * dy / d2y
                if value > best {
                    best = value
                    place = Double(i) + dy / d2y
                }
            }
        }
        return (best, min(max((place - 1) * dx, from), to))
    }

    /// Praat's Sampled_getMean with interpolation: the area under the linearly interpolated
    /// values y[i] at x1 + (i − 1)·dx over [from, to] ∩ domain, divided by its length in samples
    /// (constant extrapolation over the half sample at each end).
    static func mean(_ y: [Double], x1: Double, dx: Double, domain: ClosedRange<Double>, from: Double, to: Double) -> Double {
        let n = y.count
        var a = from, b = to
        guard a != b else { return .nan }
        a = max(a, domain.lowerBound)
        b = min(b, domain.upperBound)
        guard b > a else { return .nan }
        func value(_ i: Int) -> Double? { i >= 1 && i <= n ? y[i - 1] : nil }
        var sum: Float80 = 0, range: Float80 = 0
        let lowReal = 1 + ((a - x1) / dx).rounded(.up), highReal = 1 + ((b - x1) / dx).rounded(.down)
        let low = lowReal < 1 ? 1 : Int(lowReal), high = highReal > Double(n) ? n : Int(highReal)
        if low <= high {
            let leftEdge = x1 - 0.5 * dx, rightEdge = leftEdge + Double(n) * dx
            for i in low...high {
                range += 1
                sum += Float80(y[i - 1])
            }
            if a > leftEdge {
                var phase = (x1 + Double(low - 1) * dx - a) / dx
                if let right = value(low) {
                    range -= 0.5
                    sum -= Float80(0.5 * right)
                    if let left = value(low - 1) {
                        range += Float80(phase)
                        sum += Float80(phase * (right + 0.5 * phase * (left - right)))
                    } else {
                        if phase > 0.5 { phase = 0.5 }
                        range += Float80(phase)
                        sum += Float80(phase * right)
                    }
                } else if let left = value(low - 1), phase > 0.5 {
                    range += Float80(phase - 0.5)
                    sum += Float80((phase - 0.5) * left)
                }
            }
            if b < rightEdge {
                var phase = (b - (x1 + Double(high - 1) * dx)) / dx
                if let left = value(high) {
                    range -= 0.5
                    sum -= Float80(0.5 * left)
                    if let right = value(high + 1) {
                        range += Float80(phase)
                        sum += Float80(phase * (left + 0.5 * phase * (right - left)))
                    } else {
                        if phase > 0.5 { phase = 0.5 }
                        range += Float80(phase)
                        sum += Float80(phase * left)
                    }
                } else if let right = value(high + 1), phase > 0.5 {
                    range += Float80(phase - 0.5)
                    sum += Float80((phase - 0.5) * right)
                }
            }
        } else {
            // No sample centre inside: the mean of the interpolated values at the two ends.
            let left = value(high), right = value(low)
            var phase1 = (a - (x1 + Double(high - 1) * dx)) / dx
            var phase2 = (b - (x1 + Double(high - 1) * dx)) / dx
            if low == high + 1 {
                if let left {
                    if let right {
                        range += Float80(phase2 - phase1)
                        sum += Float80((phase2 - phase1) * (left + 0.5 * (phase1 + phase2) * (right - left)))
                    } else if phase1 < 0.5 {
                        if phase2 > 0.5 { phase2 = 0.5 }
                        range += Float80(phase2 - phase1)
                        sum += Float80((phase2 - phase1) * left)
                    }
                } else if let right, phase2 > 0.5 {
                    if phase1 < 0.5 { phase1 = 0.5 }
                    range += Float80(phase2 - phase1)
                    sum += Float80((phase2 - phase1) * right)
                }
            }
        }
        let total = Double(sum), length = Double(range)
        return length <= 0 ? .nan : total / length
    }
}
