import InputGuards
import Foundation
import SignalProcessing

/// Heart rate from a finger over the camera, as mhealthtools' `get_heartrate` computes it
/// (Sage-Bionetworks/mhealthtools 4340b82, `R/get_heartrate.R`; docs/analyses.md §7.5): per colour
/// channel the frame means, centred, band-passed by signal's elliptic filter (pass band
/// 0.5–10 Hz and stop band below 0.3 and above 12 Hz at 60 frames/s, 0.001 dB ripple), the
/// first 179 frames dropped, the mean-centring filter of 65 frames (33 at 32 frames/s or fewer),
/// then in rectangular windows of `windowSeconds` (overlap `windowOverlap`) the heart rate by
/// - `acf`: the autocorrelation's highest value between lags 60·fs/200 and 60·fs/40 (40–200
///   beats/min), the rate 60·fs/lag, the confidence that value over the lag-0 value;
/// - `psd`: the highest density of the autoregressive spectrum (`spec.ar`, 2^round(log₂ n)
///   frequencies) between 0.6 and 3.3 Hz; no confidence;
/// - `peak`: the mean-centred signal's positive part compressed (y^0.15, then e^{0.75·y}), the
///   peaks of at least 0.85 of the highest at least 60·fs/200 frames apart (pracma's
///   `findpeaks`), the rate 60·fs over their mean spacing; no confidence.
///
/// R's arithmetic is followed where the values depend on it (long-double sums and means, R's
/// rounding, `which.max`'s first maximum, NA as 0 in a window); where mhealthtools stops with an
/// R error for the whole channel, the channel has one window of nulls, as it reports them.
public struct CameraHeartRate: Sendable, Hashable {
    /// How a window's heart rate is estimated (mhealthtools' `method`).
    public enum Method: String, Sendable, Hashable, Codable, CaseIterable, NamedChoice {
        case acf, psd, peak
    }

    public struct Parameters: Sendable, Hashable, Codable {
        /// Window length, s (mhealthtools' `window_length`).
        public var windowSeconds = 10.0
        /// Fraction of a window shared with the next, in [0, ½] (mhealthtools' `window_overlap`).
        public var windowOverlap = 0.5
        /// The estimator (mhealthtools' `method`).
        public var method = Method.acf
        public init() {}

        public var problem: String? {
            guard windowSeconds.isFinite, windowSeconds > 0, windowSeconds <= 3600 else {
                return "windowSeconds must be a number in (0, 3600], got \(windowSeconds)"
            }
            guard windowOverlap.isFinite, windowOverlap >= 0, windowOverlap <= 0.5 else {
                return "windowOverlap must be a number in [0, 0.5], got \(windowOverlap)"
            }
            return nil
        }
    }

    /// One colour channel's estimates, one per window (mhealthtools' `hr` and `confidence`
    /// columns; NaN where it reports NA).
    public struct Channel: Sendable, Hashable {
        /// Heart rate per window, beats/min.
        public var hr: [Double] = []
        /// The acf method's confidence per window (highest autocorrelation in range ÷ lag-0 value).
        public var confidence: [Double] = []
    }

    /// The channels in mhealthtools' order, nil when it stopped before estimating.
    public var red: Channel?, green: Channel?, blue: Channel?
    /// Frames per second: the frame count over the first-to-last time span (`get_sampling_rate`).
    public var samplingRate: Double?
    /// mhealthtools' `error`: `none`, `Low sampling rate, at least 55FPS needed`, or why it stopped.
    public var error: String
    /// Where the toolkit departs from mhealthtools' R (bounds it does not have), and what the
    /// data made undefined.
    public var warnings: [String] = []

    /// The lowest frame rate mhealthtools calls adequate, frames/s.
    public static let minimumFrameRate = 55.0
    /// Frames dropped after the band-pass (its transient): mhealthtools' `x[180:length(x)]`.
    static let settlingFrames = 179
    /// The longest window, frames, beyond the recording's own length (R would repeat the
    /// recording to any length the rate asks for).
    static let windowBound = 1 << 20
    static let samplingRateError = "Sampling Rate calculated from timestamp is Inf or NaN / timestamp not found in json"
    static let filterError = "Error in filtering the signal"
    static let windowError = "red, green, blue cannot be read from JSON"

    /// The estimates of frames at times `t` (s, in file order) with mean colours `red`, `green`,
    /// `blue` (a frame with a missing or non-finite colour is left out, as R's `na.omit`; a channel
    /// with means outside 0…1 is analysed as it is, with a warning that counts them).
    public init(t: [Double], red r: [Double], green g: [Double], blue b: [Double], parameters: Parameters = .init()) {
        precondition(r.count == t.count && g.count == t.count && b.count == t.count, "CameraHeartRate: columns of unequal lengths")
        precondition(parameters.problem == nil, parameters.problem ?? "")
        error = Self.samplingRateError
        let n = t.count
        guard n >= 2, t[0].isFinite, t[n - 1].isFinite else { return }
        let rate = Double(n) / (t[n - 1] - t[0])
        guard rate.isFinite, rate > 0 else {
            if rate.isFinite { warnings.append("the last frame is not later than the first (mhealthtools would go on with a rate ≤ 0 and fail)") }
            return
        }
        let kept = t.indices.filter { r[$0].isFinite && g[$0].isFinite && b[$0].isFinite }
        if kept.count < n { warnings.append("\(n - kept.count) frame(s) without three finite colours left out") }
        for (name, channel) in [("red", r), ("green", g), ("blue", b)] {
            let outside = kept.count { !(0...1).contains(channel[$0]) }
            if outside > 0 {
                warnings.append("\(name): \(outside) of \(kept.count) frame means outside 0…1, the range of a camera frame's mean colour; its estimates follow them, as mhealthtools' would")
            }
        }
        let order = rate <= 32 ? 33 : 65
        guard kept.count >= Self.settlingFrames + order else {
            error = Self.filterError
            warnings.append("\(kept.count) frames: the filters need at least \(Self.settlingFrames + order)")
            return
        }
        let windowLength = RArithmetic.round(rate * parameters.windowSeconds)
        let filtered = [r, g, b].map { channel in Self.filtered(kept.map { channel[$0] }, rate: rate, order: order, peak: parameters.method == .peak) }
        guard windowLength >= 2, windowLength <= Double(max(filtered[0].count, Self.windowBound)) else {
            error = Self.windowError
            warnings.append("a window of \(windowLength) frames (\(parameters.windowSeconds) s at \(rate) frames/s) is shorter than 2 frames or longer than the recording and \(Self.windowBound) frames")
            return
        }
        let channels = filtered.map { values in
            let windows = MhealthtoolsKinematics.windows(values, shape: .rectangle, length: Int(windowLength), overlap: parameters.windowOverlap)
            var channel = Channel()
            for window in windows {
                guard let (hr, confidence) = Self.estimate(window.map { $0.isNaN ? 0 : $0 }, rate: rate, method: parameters.method) else {
                    // R's tryCatch around the channel's windows: one row of NA.
                    return Channel(hr: [.nan], confidence: [.nan])
                }
                channel.hr.append(hr)
                channel.confidence.append(confidence)
            }
            return channel
        }
        (self.red, green, blue) = (channels[0], channels[1], channels[2])
        samplingRate = rate
        error = rate < Self.minimumFrameRate ? "Low sampling rate, at least 55FPS needed" : "none"
    }

    // MARK: - Filters

    /// mhealthtools' `get_filtered_signal`: centred, band-passed, the first 179 frames dropped,
    /// then the mean-centring filter of `order` frames (with the peak method's compression).
    static func filtered(_ x: [Double], rate: Double, order: Int, peak: Bool) -> [Double] {
        let mean = RArithmetic.mean(x)
        let design = rate > 20 ? Self.design60 : Self.design30
        let band = Self.filter(design, x.map { $0 - mean })
        let settled = Array(band[Self.settlingFrames...])
        let half = (order - 1) / 2
        return (half..<(settled.count - half)).map { i in
            let window = settled[(i - half)...(i + half)]
            var high = window[window.startIndex], low = high
            for v in window { high = Swift.max(high, v); low = Swift.min(low, v) }
            let sum = RArithmetic.sum(window)
            var y = ((settled[i] - high - low) - (sum - high) / Double(order - 1)) / (high - low + 0.0000001)
            if peak {
                y = (y * ((y > 0 ? 1 : y < 0 ? -1 : 0) + 1)) / 2
                y = RArithmetic.power(y, 0.15)
                y = RArithmetic.power(exp(y), 0.75)
            }
            return y
        }
    }

    /// The band-pass of mhealthtools' `get_filtered_signal` above 20 frames/s (edges as fractions
    /// of 30 Hz) and at 20 or fewer (of 15 Hz), designed by ``EllipticFilter`` as signal does.
    static let design60 = design(nyquist: 30)
    static let design30 = design(nyquist: 15)

    private static func design(nyquist: Double) -> EllipticFilter.Coefficients {
        let order = EllipticFilter.order(passband: (0.5 / nyquist, 10 / nyquist), stopband: (0.3 / nyquist, 12 / nyquist), passRippleDecibels: 0.001, stopAttenuationDecibels: 0.001)!
        return EllipticFilter.bandPass(order: order, passRippleDecibels: 0.001, stopAttenuationDecibels: 0.001, band: (0.5 / nyquist, 10 / nyquist))
    }

    /// signal's `filter(Arma, x)`: stats' convolution filter of b (initial values 0), then its
    /// recursive filter of −a[2…] (R's cfilter and rfilter loops, in their order).
    static func filter(_ design: EllipticFilter.Coefficients, _ x: [Double]) -> [Double] {
        let b = design.b.map { $0 / design.a[0] }, a = design.a.dropFirst().map { -$0 / design.a[0] }
        let n = x.count
        var convolved = [Double](repeating: 0, count: n)
        for i in 0..<n {
            var z = 0.0
            for j in 0..<b.count { z += b[j] * (i - j >= 0 ? x[i - j] : 0) }
            convolved[i] = z
        }
        var y = [Double](repeating: 0, count: n)
        for i in 0..<n {
            var sum = convolved[i]
            for j in 0..<a.count { sum += (i - 1 - j >= 0 ? y[i - 1 - j] : 0) * a[j] }
            y[i] = sum
        }
        return y
    }

    // MARK: - Estimates

    /// One window's heart rate (beats/min) and confidence; nil where R stops with an error (the
    /// whole channel is then NA).
    static func estimate(_ x: [Double], rate: Double, method: Method) -> (Double, Double)? {
        switch method {
        case .acf: return autocorrelationEstimate(x, rate: rate)
        case .psd:
            let count = Int(RArithmetic.power(2, RArithmetic.round(log(Double(x.count)) / log(2))))
            guard let density = try? AutoregressiveSpectrum.density(x, frequencyCount: count) else { return nil }
            let frequencies = AutoregressiveSpectrum.frequencies(count: count)
            var best: (frequency: Double, density: Double)?
            for (f, d) in zip(frequencies, density) {
                let hz = f * rate
                guard hz > 0.6, hz < 3.3, !d.isNaN else { continue }
                if best == nil || d > best!.density { best = (hz, d) }
            }
            return (best.map { 60 * $0.frequency } ?? .nan, .nan)
        case .peak:
            guard let highest = x.max(), !highest.isNaN else { return nil }
            let peaks = EmpiricalWavelets.peaks(x, minimumHeight: 0.85 * highest, minimumDistance: 60 * rate / 200).sorted()
            // One peak or none: R's matrix indexing fails (`incorrect number of dimensions`).
            guard peaks.count >= 2 else { return nil }
            let spacing = RArithmetic.mean(zip(peaks, peaks.dropFirst()).map { Double($1 - $0) })
            return (60 * rate / spacing, .nan)
        }
    }

    /// The acf method: `stats::acf(x, lag.max = 500)` (colMeans-centred, sums over n, divided by
    /// the lag-0 value's square root squared and clamped to ±1), its values in the lags of 40–200
    /// beats/min kept (others 0), `which.max` of them.
    static func autocorrelationEstimate(_ window: [Double], rate: Double) -> (Double, Double) {
        let n = window.count
        var total: Float80 = 0
        for v in window { total += Float80(v) }
        let mean = Double(total / Float80(n))
        let x = window.map { $0 - mean }
        let maxLag = min(500, n - 1)
        var acf = [Double](repeating: 0, count: maxLag + 1)
        for lag in 0...maxLag {
            var sum = 0.0
            for i in 0..<(n - lag) { sum += x[i + lag] * x[i] }
            acf[lag] = sum / Double(n)
        }
        if n == 1 {
            acf[0] = 1
        } else {
            let se = acf[0].squareRoot()
            for lag in acf.indices {
                let a = acf[lag] / (se * se)
                acf[lag] = a > 1 ? 1 : (a < -1 ? -1 : a)
            }
        }
        // y[seq(round(60 fs/200), round(60 fs/40))] <- x[…]: 1-based positions; beyond the acf R
        // appends NA (ignored by which.max, NA for max).
        let count = acf.count
        let first = RArithmetic.round(60 * rate / 200), last = RArithmetic.round(60 * rate / 40)
        var y = acf.map { 0 * $0 }
        let from = Int(Swift.max(1, Swift.min(first, Double(count + 1)))), through = Int(Swift.min(last, Double(count)))
        if from <= through { for position in from...through { y[position - 1] = acf[position - 1] } }
        let appendsMissing = last > Double(count) && last >= first
        var best: Int?
        for (i, v) in y.enumerated() where !v.isNaN && (best == nil || v > y[best!]) { best = i }
        guard let best else { return (.nan, .nan) }
        let hr = 60 * rate / Double(best)
        let confidence = appendsMissing || y.contains(where: \.isNaN) || acf.contains(where: \.isNaN) ? Double.nan : y.max()! / acf.max()!
        return (hr, confidence)
    }
}
