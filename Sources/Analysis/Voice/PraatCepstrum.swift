import Glibc
import SignalProcessing

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
public struct PraatCepstralAnalysis: Sendable, Hashable {
    /// "To PowerCepstrogram" pitch floor, Hz: frames are 2 × 3/floor s long.
    public var pitchFloorHz = 60.0
    var timeStep = 0.002
    var maximumFrequencyHz = 5000.0
    var preEmphasisFromHz = 50.0
    var timeAveragingSeconds = 0.02
    var quefrencyAveragingSeconds = 0.0005
    /// "Get CPPS" peak search range, Hz.
    public var peakSearchFloorHz = 60.0
    public var peakSearchCeilingHz = 330.0
    var trendFromSeconds = 0.001
    var trendToSeconds = 0.05
    public init() {}

    /// Per frame the CPP, dB, and the quefrency of its peak, s; CPPS, dB; the slice of the
    /// median-CPP frame.
    struct Result {
        var firstTime: Double
        var timeStep: Double
        var cppDb: [Double]
        var peakQuefrencySeconds: [Double]
        var cppsDb: Double?
        var slice: Slice?
    }

    /// One frame of the smoothed power cepstrogram (for the chart): its level up to the end of
    /// the trend fit, the fitted trend dB = slope·ln q + intercept over [from, to], and the CPP
    /// peak (the peak's level less the trend's at its quefrency).
    public struct Slice: Sendable, Hashable {
        public var timeSeconds: Double
        public var quefrencySeconds: [Double]
        public var levelDb: [Double]
        public var trendSlopeDb: Double
        public var trendInterceptDb: Double
        public var trendFromSeconds: Double
        public var trendToSeconds: Double
        public var peakQuefrencySeconds: Double
        public var peakDb: Double
        public var cppDb: Double

        /// The trend line's level at `quefrency`, dB.
        public func trendDb(_ quefrency: Double) -> Double { trendSlopeDb * log(quefrency) + trendInterceptDb }
    }

    /// The frames of the power cepstrogram, each made when asked for: the resampled,
    /// pre-emphasised sound and what every frame shares.
    struct Frames {
        let samples: [Double]
        let dx: Double
        let x1: Double
        let firstTime: Double
        let timeStep: Double
        let count: Int
        /// The end of the time domain (the original sound's), s.
        let end: Double
        let windowDuration: Double
        let window: [Double]
        let fft: PraatFFT
        /// Quefrency step, s; bins 0…size/2.
        let quefrencyStep: Double
        var bins: Int { fft.size / 2 + 1 }

        /// Frame `index`'s power cepstrum (Sound_into_Sound, mean removed, windowed; the ln power
        /// spectrum scaled by Δt, back through Spectrum_to_Sound scaled by Δf; squared).
        func cepstrum(_ index: Int) -> [Double] {
            let length = window.count, size = fft.size, bins = self.bins
            let t = firstTime + Double(index) * timeStep
            // The frame starts at the sample nearest t − window/2 (Sampled_xToNearestIndex, 1-based).
            let first = Int(clamping: ((t - windowDuration / 2 - x1) / dx + 1 + 0.5).rounded(.down), to: Int(Int32.min)...Int(Int32.max))
            var frame = [Double](repeating: 0, count: length)
            var sum: Float80 = 0
            for i in 0..<length {
                let j = first + i
                frame[i] = j >= 1 && j <= samples.count ? samples[j - 1] : 0
                sum += Float80(frame[i])
            }
            let mean = Double(sum / Float80(length))
            var data = [Double](repeating: 0, count: size)
            for i in 0..<length { data[i] = (frame[i] - mean) * window[i] }
            fft.forward(&data)
            var logs = [Double](repeating: 0, count: bins)
            let r0 = data[0] * dx, rn = data[size - 1] * dx
            logs[0] = log(r0 * r0 + 0 * 0 + 1e-300)
            for k in 1..<bins - 1 {
                let re = data[2 * k - 1] * dx, im = data[2 * k] * dx
                logs[k] = log(re * re + im * im + 1e-300)
            }
            logs[bins - 1] = log(rn * rn + 0 * 0 + 1e-300)
            let spectrumStep = 1 / (dx * Double(size))
            data[0] = logs[0] * spectrumStep
            for k in 1..<bins - 1 {
                data[2 * k - 1] = logs[k] * spectrumStep
                data[2 * k] = 0 * spectrumStep
            }
            data[size - 1] = logs[bins - 1] * spectrumStep
            fft.inverse(&data)
            return (0..<bins).map { data[$0] * data[$0] }
        }
    }

    /// "To PowerCepstrogram": the sound resampled and pre-emphasised, frames fitted into the
    /// original sound (Sampled_shortTermAnalysis); nil when no frame fits.
    func frames(_ sound: PraatSound) -> Frames? {
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
        let frameCount = Int(clamping: (duration - windowDuration) / timeStep, rounding: .down, to: -1...Int(Int32.max)) + 1
        guard frameCount >= 1, windowDuration > 0, !s.isEmpty else { return nil }
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
        return Frames(samples: s, dx: rdx, x1: resampled.x1, firstTime: firstTime, timeStep: timeStep, count: frameCount, end: sound.xmax,
                      windowDuration: windowDuration, window: window, fft: fft, quefrencyStep: (0.5 * Double(size) / rate) / Double(size / 2))
    }

    /// "Get CPPS" frame by frame: each frame's trend subtracted, the time averaging over the
    /// flattened frames around it (made once each and kept only while a later frame needs them:
    /// memory for 2·⌈window/step⌉ + 5 frames, whatever the recording's length), the quefrency
    /// averaging, the trend fitted again, the peak.
    func analyze(_ sound: PraatSound) -> Result? {
        guard let frames = frames(sound) else { return nil }
        let dq = frames.quefrencyStep, bins = frames.bins, count = frames.count
        let qmax = dq * Double(bins - 1)
        var flattened: [Int: [Double]] = [:]
        func flat(_ index: Int) -> [Double] {
            if let kept = flattened[index] { return kept }
            var c = frames.cepstrum(index)
            let decibels = c.map { 10 * log10($0 + 1e-30) }
            if let (slope, intercept) = Self.trend(decibels: decibels, dq: dq, from: trendFromSeconds, to: trendToSeconds) {
                for j in 0..<bins {
                    let lnq = j == 0 ? log(0.5 * dq) : Self.logQuefrency(j, dq)
                    let difference = max(0, decibels[j] - (slope * lnq + intercept))
                    // exp(0) is 1 exactly: no call where the trend lies above.
                    c[j] = (difference == 0 ? 1 : exp(difference * M_LN10 / 10)) - 1e-30
                }
            }
            flattened[index] = c
            return c
        }
        let averageTime = Int(clamping: timeAveragingSeconds / timeStep, rounding: .down, to: 0...Int.max) > 1
        let averageQuefrency = Int(clamping: quefrencyAveragingSeconds / dq, rounding: .down, to: 0...Int.max) > 1
        // Frames whose values a window around frame f reads: those within reach + 1 either side.
        let reach = Int(clamping: (0.5 * timeAveragingSeconds / timeStep).rounded(.up), to: 0...1_000_000) + 2
        // The quefrency averaging's window of every bin (the same in every frame).
        let quefrencyWindows = averageQuefrency ? (0..<bins).map { j in
            InterpolatedMean(count: bins, x1: 0, dx: dq, domain: 0...qmax, from: Double(j) * dq - 0.5 * quefrencyAveragingSeconds,
                             to: Double(j) * dq + 0.5 * quefrencyAveragingSeconds)
        } : []
        /// The smoothed power cepstrum of frame f (the frames it reads made and kept as needed).
        func smoothed(_ f: Int) -> [Double] {
            var values: [Double]
            if averageTime {
                let low = max(0, f - reach), high = min(count - 1, f + reach)
                // The frames it reads, one after another in one block.
                var near = [Double]()
                near.reserveCapacity((high - low + 1) * bins)
                for i in low...high { near += flat(i) }
                let mid = frames.firstTime + Double(f) * timeStep
                let window = InterpolatedMean(count: count, x1: frames.firstTime, dx: timeStep, domain: 0...frames.end,
                                              from: mid - 0.5 * timeAveragingSeconds, to: mid + 0.5 * timeAveragingSeconds)
                values = near.withUnsafeBufferPointer { near in (0..<bins).map { j in window { i in near[(i - 1 - low) * bins + j] } } }
            } else {
                values = flat(f)
            }
            if averageQuefrency {
                let row = values
                values = quefrencyWindows.map { window in window { row[$0 - 1] } }
            }
            return values
        }
        /// Frame f's trend line and peak: (slope, intercept), (peak dB, quefrency s).
        func peak(_ values: [Double]) -> (trend: (Double, Double), peak: (Double, Double))? {
            let decibels = values.map { 10 * log10($0 + 1e-30) }
            guard let trend = Self.trend(decibels: decibels, dq: dq, from: trendFromSeconds, to: trendToSeconds) else { return nil }
            guard let found = Self.maximum(decibels, dx: dq, from: 1 / peakSearchCeilingHz, to: 1 / peakSearchFloorHz) else { return nil }
            return (trend, found)
        }
        var cpp = [Double](repeating: .nan, count: count), peaks = [Double](repeating: .nan, count: count)
        for f in 0..<count {
            flattened = flattened.filter { $0.key >= f - reach }
            guard let ((slope, intercept), (level, quefrency)) = peak(smoothed(f)) else { continue }
            cpp[f] = level - (slope * log(quefrency) + intercept)
            peaks[f] = quefrency
        }
        // The slice of the frame whose CPP is the median (the lower middle one), made again.
        var slice: Slice?
        let defined = cpp.indices.filter { cpp[$0].isFinite }.sorted { cpp[$0] < cpp[$1] }
        if !defined.isEmpty {
            let f = defined[(defined.count - 1) / 2]
            flattened = [:]
            let values = smoothed(f)
            if let ((slope, intercept), (level, quefrency)) = peak(values) {
                let shown = min(bins, Int(clamping: trendToSeconds / dq, rounding: .down, to: 0...bins - 1) + 1)
                slice = Slice(timeSeconds: frames.firstTime + Double(f) * timeStep, quefrencySeconds: (0..<shown).map { Double($0) * dq },
                              levelDb: values.prefix(shown).map { 10 * log10($0 + 1e-30) }, trendSlopeDb: slope, trendInterceptDb: intercept,
                              trendFromSeconds: trendFromSeconds, trendToSeconds: trendToSeconds,
                              peakQuefrencySeconds: quefrency, peakDb: level, cppDb: cpp[f])
            }
        }
        var sum: Float80 = 0
        for value in cpp { sum += Float80(value) }
        let complete = cpp.allSatisfy(\.isFinite) && count > 0
        return Result(firstTime: frames.firstTime, timeStep: timeStep, cppDb: cpp, peakQuefrencySeconds: peaks,
                      cppsDb: complete ? Double(sum) / Double(count) : nil, slice: slice)
    }

    /// ln(k·dq), from a table for the usual quefrency step (the same value log gives).
    static func logQuefrency(_ k: Int, _ dq: Double) -> Double {
        dq == LogTable.step && k < LogTable.values.count ? LogTable.values[k] : log(Double(k) * dq)
    }

    /// ln(k·dq) for the cepstrogram of the default settings (1024-point frames at 10 kHz).
    enum LogTable {
        static let step = (0.5 * 1024 / 10_000.0) / 512
        static let values = (0..<513).map { log(Double($0) * step) }
    }

    /// PowerCepstrum_fitTrendLine, exponential decay, Theil's incomplete method: dB = a·ln q + b
    /// over the bins with q in [from, to] (bin 0 left out: ln 0), of the levels 10·lg(power + 10⁻³⁰).
    static func trend(decibels: [Double], dq: Double, from: Double, to: Double) -> (Double, Double)? {
        var first = 1 + Int(clamping: (from / dq).rounded(.up), to: -1...Int.max - 2)
        var last = 1 + Int(clamping: (to / dq).rounded(.down), to: -1...Int.max - 2)
        first = max(first, 1)
        last = min(last, decibels.count)
        guard first <= last else { return nil }
        if first == 1 { first = 2 }
        guard last - first + 1 > 1 else { return nil }
        let x = (first...last).map { logQuefrency($0 - 1, dq) }
        let y = Array(decibels[(first - 1)...(last - 1)])
        return theil(x, y)
    }

    /// NUMlineFit_theil, incomplete: the median of the slopes between point i and point i + ⌈n/2⌉,
    /// then the median of y − slope·x (Praat's NUMquantile at ½ of the sorted values, its two
    /// order statistics found by selection, not a sort: the same values).
    static func theil(_ x: [Double], _ y: [Double]) -> (Double, Double) {
        let n = x.count
        if n == 1 { return (0, y[0]) }
        if n == 2 {
            let m = (y[1] - y[0]) / (x[1] - x[0])
            return (m, y[0] - m * x[0])
        }
        let pairs = n / 2, offset = n % 2 == 1 ? pairs + 1 : pairs
        var slopes = (0..<pairs).map { (y[offset + $0] - y[$0]) / (x[offset + $0] - x[$0]) }
        let m = median(&slopes)
        var intercepts = (0..<n).map { y[$0] - m * x[$0] }
        return (m, median(&intercepts))
    }

    /// Praat's NUMquantile(a, ½) of `a` sorted ascending: place = n/2 + ½, linear between the
    /// order statistics at ⌊place⌋ and ⌊place⌋ + 1 (1-based) — found by selection, reordering `a`.
    /// NaN when `a` holds a NaN (Praat's sort leaves such an order unspecified too).
    static func median(_ a: inout [Double]) -> Double {
        let n = a.count
        guard n > 1 else { return a.first ?? 0 }
        guard !a.contains(where: \.isNaN) else { return .nan }
        let place = 0.5 * Double(n) + 0.5
        let left = min(max(Int(place.rounded(.down)), 1), n - 1)
        return a.withUnsafeMutableBufferPointer { b -> Double in
            Selection.select(b, left - 1, in: 0..<n)
            let low = b[left - 1]
            var high = b[left]
            for i in left + 1..<n where b[i] < high { high = b[i] }
            if high == low { return low }
            return low + (place - Double(left)) * (high - low)
        }
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
    /// values y(i), i = 1…n, at x1 + (i − 1)·dx over [from, to] ∩ domain, divided by its length in
    /// samples (constant extrapolation over the half sample at each end). The window's samples,
    /// edge phases and length depend on the grid only, so they are found once (``init``) and
    /// applied to any values (``callAsFunction(_:)``) with Praat's operations in Praat's order.
    struct InterpolatedMean {
        /// How an edge of a window that holds sample centres adds its partial sample.
        enum Edge {
            case none
            /// The edge sample's half taken off, the interpolation over `phase` toward its neighbour added.
            case interpolated(Double)
            /// The edge sample's half taken off, `phase` (≤ ½) of it added (no neighbour).
            case constant(Double)
            /// No sample at the edge: `width` of the neighbour outside it.
            case outside(Double)
        }
        enum Shape {
            case empty
            /// Sample centres low…high inside, and the edges.
            case centres(low: Int, high: Int, left: Edge, right: Edge)
            /// No centre inside, between samples `high` and `low` = high + 1: interpolated over [phase1, phase2].
            case between(left: Int, right: Int, width: Double, middle: Double)
            /// Only the left (right) sample exists: `width` of it.
            case leftOnly(Int, width: Double)
            case rightOnly(Int, width: Double)
        }
        let shape: Shape
        let length: Double

        init(count n: Int, x1: Double, dx: Double, domain: ClosedRange<Double>, from: Double, to: Double) {
            var a = from, b = to
            a = max(a, domain.lowerBound)
            b = min(b, domain.upperBound)
            guard from != to, b > a else {
                (shape, length) = (.empty, .nan)
                return
            }
            func exists(_ i: Int) -> Bool { i >= 1 && i <= n }
            var range: Float80 = 0
            let lowReal = 1 + ((a - x1) / dx).rounded(.up), highReal = 1 + ((b - x1) / dx).rounded(.down)
            let low = Int(clamping: lowReal, rounding: .down, to: 1...Int(Int32.max)), high = Int(clamping: highReal, rounding: .down, to: Int(Int32.min)...n)
            if low <= high {
                let leftEdge = x1 - 0.5 * dx, rightEdge = leftEdge + Double(n) * dx
                range = Float80(high - low + 1)
                var left = Edge.none, right = Edge.none
                if a > leftEdge {
                    let phase = (x1 + Double(low - 1) * dx - a) / dx
                    if exists(low) {
                        range -= 0.5
                        left = exists(low - 1) ? .interpolated(phase) : .constant(min(phase, 0.5))
                        range += Float80(min(phase, exists(low - 1) ? phase : 0.5))
                    } else if exists(low - 1), phase > 0.5 {
                        range += Float80(phase - 0.5)
                        left = .outside(phase - 0.5)
                    }
                }
                if b < rightEdge {
                    let phase = (b - (x1 + Double(high - 1) * dx)) / dx
                    if exists(high) {
                        range -= 0.5
                        right = exists(high + 1) ? .interpolated(phase) : .constant(min(phase, 0.5))
                        range += Float80(min(phase, exists(high + 1) ? phase : 0.5))
                    } else if exists(high + 1), phase > 0.5 {
                        range += Float80(phase - 0.5)
                        right = .outside(phase - 0.5)
                    }
                }
                shape = .centres(low: low, high: high, left: left, right: right)
            } else {
                // No sample centre inside: the mean of the interpolated values at the two ends.
                var phase1 = (a - (x1 + Double(high - 1) * dx)) / dx
                var phase2 = (b - (x1 + Double(high - 1) * dx)) / dx
                var found = Shape.empty
                if low == high + 1 {
                    if exists(high) {
                        if exists(low) {
                            found = .between(left: high, right: low, width: phase2 - phase1, middle: 0.5 * (phase1 + phase2))
                        } else if phase1 < 0.5 {
                            if phase2 > 0.5 { phase2 = 0.5 }
                            found = .leftOnly(high, width: phase2 - phase1)
                        }
                    } else if exists(low), phase2 > 0.5 {
                        if phase1 < 0.5 { phase1 = 0.5 }
                        found = .rightOnly(low, width: phase2 - phase1)
                    }
                }
                switch found {
                case .between(_, _, let width, _), .leftOnly(_, let width), .rightOnly(_, let width): range += Float80(width)
                default: break
                }
                shape = found
            }
            length = Double(range)
        }

        /// The mean of the values `y(1…n)` over the window.
        @inline(__always)
        func callAsFunction(_ y: (Int) -> Double) -> Double {
            var sum: Float80 = 0
            switch shape {
            case .empty:
                return .nan
            case .centres(let low, let high, let left, let right):
                for i in low...high { sum += Float80(y(i)) }
                switch left {
                case .none: break
                case .interpolated(let phase):
                    let r = y(low), l = y(low - 1)
                    sum -= Float80(0.5 * r)
                    sum += Float80(phase * (r + 0.5 * phase * (l - r)))
                case .constant(let phase):
                    let r = y(low)
                    sum -= Float80(0.5 * r)
                    sum += Float80(phase * r)
                case .outside(let width):
                    sum += Float80(width * y(low - 1))
                }
                switch right {
                case .none: break
                case .interpolated(let phase):
                    let l = y(high), r = y(high + 1)
                    sum -= Float80(0.5 * l)
                    sum += Float80(phase * (l + 0.5 * phase * (r - l)))
                case .constant(let phase):
                    let l = y(high)
                    sum -= Float80(0.5 * l)
                    sum += Float80(phase * l)
                case .outside(let width):
                    sum += Float80(width * y(high + 1))
                }
            case .between(let left, let right, let width, let middle):
                let l = y(left), r = y(right)
                sum += Float80(width * (l + middle * (r - l)))
            case .leftOnly(let i, let width), .rightOnly(let i, let width):
                sum += Float80(width * y(i))
            }
            let total = Double(sum)
            return length <= 0 ? .nan : total / length
        }
    }
}
