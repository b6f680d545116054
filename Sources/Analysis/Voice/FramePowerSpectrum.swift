import Glibc
import SignalProcessing

/// The power spectra of frames of one length through one window.
struct FramePowerSpectrum {
    let length: Int
    let window: [Double]
    let fft: FFT
    /// Hz per bin.
    let binHz: Double
    /// The windowed frame, zero-padded to the transform's size, and its transform.
    private var input: [Double], output: [Double]

    /// Frames of `length` samples through `window` (`length` values), zero-padded to `size`
    /// points (nil: the next power of two); nil when no transform of that size can be made.
    init?(length: Int, window: [Double], sampleRateHz: Double, size: Int? = nil) {
        var size = size ?? 1
        while size < length { size <<= 1 }
        guard let fft = try? FFT(size: size) else { return nil }
        self.length = length
        self.window = window
        self.fft = fft
        binHz = sampleRateHz / Double(size)
        input = [Double](repeating: 0, count: size)
        output = [Double](repeating: 0, count: 2 * fft.realBins)
    }

    var bins: Int { fft.realBins }

    /// |X(k)|² into power[0..<bins] of samples[start..<start + length] (zeros outside `samples`)
    /// windowed and zero-padded.
    mutating func power(_ samples: [Double], from start: Int, into power: inout [Double]) {
        precondition(power.count >= bins, "FramePowerSpectrum: power buffer")
        power.withUnsafeMutableBufferPointer { self.power(samples, from: start, into: $0.baseAddress!, stride: 1) }
    }

    /// The same into power[k·stride] for k in 0..<bins (`power` holds (bins − 1)·stride + 1 values).
    mutating func power(_ samples: [Double], from start: Int, into power: UnsafeMutablePointer<Double>, stride: Int) {
        let bins = self.bins
        // The buffer taken out of `self` while `transform` writes it (one owner, no copy).
        var output = self.output
        self.output = []
        output.withUnsafeMutableBufferPointer { output in
            transform(samples, from: start, into: output)
            FrameSpectra.power(output.baseAddress!, bins: bins, into: power, stride: stride)
        }
        self.output = output
    }

    /// The transform of samples[start..<start + length] (zeros outside `samples`) windowed and
    /// zero-padded, (re, im) pairs into `output` (2·bins values).
    mutating func transform(_ samples: [Double], from start: Int, into output: UnsafeMutableBufferPointer<Double>) {
        precondition(output.count >= 2 * bins, "FramePowerSpectrum: transform buffer")
        let window = self.window, fft = self.fft, length = self.length
        input.withUnsafeMutableBufferPointer { input in
            samples.withUnsafeBufferPointer { samples in
                window.withUnsafeBufferPointer { window in
                    let first = min(max(0, -start), length), inside = first..<max(first, min(length, samples.count - start))
                    for j in 0..<first { input[j] = 0 }
                    if !inside.isEmpty {
                        // samples[start + j] for j in `inside`, all within `samples`.
                        let j = inside.lowerBound
                        FrameSpectra.window(samples.baseAddress! + (start + j), by: window.baseAddress! + j, into: input.baseAddress! + j, count: inside.count)
                    }
                    for j in inside.upperBound..<length { input[j] = 0 }
                }
            }
            fft.forward(UnsafeBufferPointer(input), into: output)
        }
    }

    /// The bins at `low` Hz or above and below `high` Hz.
    func bins(_ low: Double, below high: Double) -> Range<Int> {
        let first = Int(clamping: low / binHz, rounding: .up, to: 0...bins)
        return first..<Int(clamping: high / binHz, rounding: .up, to: first...bins)
    }

    /// The bins at `low` Hz or above and at `high` Hz or below.
    func bins(_ low: Double, through high: Double) -> Range<Int> {
        let first = Int(clamping: low / binHz, rounding: .up, to: 0...bins)
        return first..<Int(clamping: high / binHz, rounding: .down, to: (first - 1)...(bins - 1)) + 1
    }

    func sum(_ power: [Double], _ range: Range<Int>) -> Double { range.reduce(0) { $0 + power[$1] } }
    func maximum(_ power: [Double], _ range: Range<Int>) -> Double { range.reduce(0) { max($0, power[$1]) } }

    /// The least-squares slope of 10·lg P against frequency over the bins of `range`, dB/Hz
    /// (bins of zero power at −300 dB); NaN below two bins.
    func logSlope(_ power: [Double], _ range: Range<Int>) -> Double {
        guard range.count >= 2 else { return .nan }
        let n = Double(range.count)
        var sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0
        for k in range {
            let x = Double(k) * binHz, y = 10 * log10(max(power[k], 1e-30))
            sx += x; sy += y; sxx += x * x; sxy += x * y
        }
        return (n * sxy - sx * sy) / (n * sxx - sx * sx)
    }

    /// The level, dB, of the harmonic at `frequency`: the largest bin within ± f0/10 of it
    /// (the nearest bin when none lies there), refined by a parabola through its dB neighbours;
    /// −∞ when that bin has no power.
    func harmonicLevelDb(_ power: [Double], at frequency: Double, f0: Double) -> Double {
        let nearest = Int(clamping: frequency / binHz, rounding: .toNearestOrEven, to: 0...(bins - 1))
        var range = bins(frequency - f0 / 10, through: frequency + f0 / 10)
        if range.isEmpty { range = nearest..<nearest + 1 }
        var best = range.lowerBound
        for k in range where power[k] > power[best] { best = k }
        guard power[best] > 0 else { return -.infinity }
        let level = 10 * log10(power[best])
        guard best > 0, best + 1 < bins, power[best - 1] > 0, power[best + 1] > 0 else { return level }
        let left = 10 * log10(power[best - 1]), right = 10 * log10(power[best + 1])
        let curvature = left - 2 * level + right
        guard curvature < 0 else { return level }
        let offset = 0.5 * (left - right) / curvature
        return level - 0.25 * (left - right) * offset
    }
}
