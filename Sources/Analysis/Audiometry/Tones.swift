import InputGuards
import Glibc
import SignalProcessing

/// Audiometric pure tones (docs/audiometry.md §9.2): a Double phase accumulator, full level for
/// `durationSeconds`, on/off ramps, on the left, right or both channels (the other silent).
public struct ToneSpecification: Sendable, Hashable {
    public enum Ear: String, Sendable, CaseIterable { case left, right, both }

    public enum Ramp: Sendable, Hashable {
        /// g = ½(1 − cos(πt/T)), rise time (−20 → −1 dB) 0.58122·T; T must give 20–50 ms.
        case raisedCosine(seconds: Double)
        /// ResearchKit's ramp: gain 10^(2u − 2), u linear over 0.2 s (−40 → 0 dB); its rise time of
        /// 95 ms is outside 20–50 ms and allowed only as an explicit emulation.
        case researchKit
    }

    public var frequencyHz: Double
    /// Sine peak amplitude (full scale 1.0).
    public var amplitude: Double
    public var durationSeconds: Double
    public var ear: Ear
    public var ramp: Ramp
    public var sampleRateHz: Double

    /// The default ramp's duration, s: a raised cosine of 50 ms rises from −20 to −1 dB in 29.06 ms.
    public static let rampSeconds = 0.05
    /// The default sample rate, Hz.
    public static let sampleRateHz = 44_100.0

    public init(frequencyHz: Double, amplitude: Double, durationSeconds: Double, ear: Ear = .both,
                ramp: Ramp = .raisedCosine(seconds: rampSeconds), sampleRateHz: Double = Self.sampleRateHz) {
        self.frequencyHz = frequencyHz
        self.amplitude = amplitude
        self.durationSeconds = durationSeconds
        self.ear = ear
        self.ramp = ramp
        self.sampleRateHz = sampleRateHz
    }

    /// Rise time −20 → −1 dB of a ramp, s.
    public static func riseTime(_ ramp: Ramp) -> Double {
        switch ramp {
        case .raisedCosine(let t):
            // ½(1 − cos(πx)) = g → x = acos(1 − 2g)/π
            return t * (acos(1 - 2 * pow(10, -1.0 / 20)) - acos(1 - 2 * pow(10, -20.0 / 20))) / .pi
        case .researchKit:
            return 0.2 * (19.0 / 40)  // −20 and −1 dB of a −40 → 0 dB line over 0.2 s
        }
    }

    /// Errors a specification can have.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case rampOutsideLimits(riseTimeSeconds: Double)
        case frequencyAboveNyquist
        case clipping(amplitude: Double)
        /// A duration or ramp that is not a finite time up to an hour at 384 kHz.
        case tooLong

        public var description: String {
            switch self {
            case .rampOutsideLimits(let r):
                "ramp rise time (−20 → −1 dB) \((r * 1000).rounded().compactDescription) ms is outside 20–50 ms (ANSI S3.6 / IEC 60645-1)"
            case .frequencyAboveNyquist: "frequency at or above the Nyquist frequency"
            case .clipping(let a): "peak amplitude \(a) exceeds full scale"
            case .tooLong: "duration or ramp is not a finite time up to one hour at 384 kHz"
            }
        }
    }

    /// Interleaved stereo samples: ramp up, `durationSeconds` at full level, ramp down.
    public func render() throws(Problem) -> [Float] {
        guard frequencyHz < sampleRateHz / 2 else { throw .frequencyAboveNyquist }
        guard amplitude <= 1 else { throw .clipping(amplitude: amplitude) }
        let rampSeconds: Double
        switch ramp {
        case .raisedCosine(let t):
            let rise = Self.riseTime(ramp)
            guard rise >= 0.02 - 1e-9, rise <= 0.05 + 1e-9 else { throw .rampOutsideLimits(riseTimeSeconds: rise) }
            rampSeconds = t
        case .researchKit:
            rampSeconds = 0.2
        }
        // At most an hour of 384 kHz: the sizes below come from options.
        let limit = 384_000 * 3_600
        guard let rampSamples = Int(checking: rampSeconds * sampleRateHz, rounding: .toNearestOrAwayFromZero, in: 0...limit),
              let holdSamples = Int(checking: durationSeconds * sampleRateHz, rounding: .toNearestOrAwayFromZero, in: 0...limit)
        else { throw .tooLong }
        let total = 2 * rampSamples + holdSamples
        var out = [Float](repeating: 0, count: 2 * total)
        var phase = 0.0
        let step = 2 * Double.pi * frequencyHz / sampleRateHz
        for i in 0..<total {
            let gain: Double
            if i < rampSamples {
                gain = envelope(Double(i) / Double(rampSamples))
            } else if i >= rampSamples + holdSamples {
                gain = envelope(Double(total - i) / Double(rampSamples))
            } else {
                gain = 1
            }
            let value = Float(amplitude * gain * sin(phase))
            if ear != .right { out[2 * i] = value }
            if ear != .left { out[2 * i + 1] = value }
            phase += step
            if phase >= 2 * Double.pi { phase -= 2 * Double.pi }
        }
        return out
    }

    private func envelope(_ u: Double) -> Double {
        switch ramp {
        case .raisedCosine: return 0.5 * (1 - cos(Double.pi * u))
        case .researchKit: return pow(10, 2 * u - 2)
        }
    }
}

/// FFT verification of a recorded or generated tone (docs/audiometry.md §10; F. J. Harris, Proc. IEEE
/// 66(1), 1978): level from the flat-top spectrum's peak bin, frequency from the Hann spectrum by
/// log-parabolic interpolation refined by a four-parameter sine fit (IEEE Std 1057), THD from
/// flat-top harmonic amplitudes, THD+N from the residual of the sine fit.
public enum ToneVerification {
    public struct Result: Sendable {
        /// Sine-fit frequency, Hz (the Hann estimate when the fit fails or leaves its bin).
        public var frequencyHz: Double
        /// Hann log-parabolic estimate, Hz (bias ≤ 0.016 bin).
        public var hannFrequencyHz: Double
        /// Sine peak amplitude (full scale 1).
        public var peakAmplitude: Double
        /// The sine's peak level, dBFS (20·lg of the peak amplitude).
        public var levelDbfs: Double
        /// THD_F over harmonics 2…10 below Nyquist, as a ratio.
        public var thd: Double
        /// THD_F in dB (20·lg of the ratio).
        public var thdDecibels: Double
        /// Power of everything but the fitted fundamental and DC (harmonics, noise) re the
        /// fundamental's power, dB (IEEE 1057 residual); NaN when the fit failed.
        public var thdPlusNoiseDecibels: Double
    }

    /// Analyses `x` (one channel, the steady part of the tone).
    public static func analyze(_ x: [Double], sampleRateHz fs: Double) -> Result? {
        let n = x.count
        guard n >= 64, let fft = try? FFT(size: n) else { return nil }
        func spectrum(_ window: Window) -> (magnitudes: [Double], sum: Double, sumSquares: Double) {
            let w = window.values(count: n, periodic: true)
            let s = fft.forward(zip(x, w).map { $0 * $1 })
            var magnitudes = [Double](repeating: 0, count: fft.realBins)
            for k in 0..<fft.realBins {
                let power = s[2 * k] * s[2 * k] + s[2 * k + 1] * s[2 * k + 1]
                magnitudes[k] = power.squareRoot()
            }
            return (magnitudes, w.reduce(0, +), w.reduce(0) { $0 + $1 * $1 })
        }
        let hann = spectrum(.hann)
        guard let k = (1..<(fft.realBins - 1)).max(by: { hann.magnitudes[$0] < hann.magnitudes[$1] }) else { return nil }
        let (a, b, c) = (log(hann.magnitudes[k - 1]), log(hann.magnitudes[k]), log(hann.magnitudes[k + 1]))
        let delta = 0.5 * (a - c) / (a - 2 * b + c)
        let hannFrequency = (Double(k) + (delta.isFinite ? delta : 0)) * fs / Double(n)
        // The fit must stay within one bin of the spectral estimate; otherwise it found another component.
        let sine = SineFit.fit(x, omega: 2 * Double.pi * hannFrequency / fs).flatMap { fit in
            abs(fit.omega * fs / (2 * Double.pi) - hannFrequency) <= fs / Double(n) ? fit : nil
        }
        let frequency = sine.map { $0.omega * fs / (2 * Double.pi) } ?? hannFrequency
        let flat = spectrum(.flatTop)
        func amplitude(near f: Double) -> Double {
            let centre = Int(clamping: f * Double(n) / fs, rounding: .toNearestOrAwayFromZero, to: 0...fft.realBins)
            let range = max(1, centre - 3)...min(fft.realBins - 1, centre + 3)
            return (range.map { flat.magnitudes[$0] }.max() ?? 0) * 2 / flat.sum
        }
        let fundamental = amplitude(near: frequency)
        var harmonics = 0.0
        for h in 2...10 where Double(h) * frequency < fs / 2 - 4 * fs / Double(n) {
            let v = amplitude(near: Double(h) * frequency)
            harmonics += v * v
        }
        let thdPlusNoise = sine.map { $0.residualRMS * $0.residualRMS / ($0.amplitude * $0.amplitude / 2) } ?? .nan
        let thd = harmonics.squareRoot() / fundamental
        return Result(frequencyHz: frequency, hannFrequencyHz: hannFrequency, peakAmplitude: fundamental, levelDbfs: 20 * log10(fundamental), thd: thd,
                      thdDecibels: 20 * log10(thd), thdPlusNoiseDecibels: 10 * log10(max(thdPlusNoise, 1e-300)))
    }

    /// Rise and fall times (−20 → −1 dB and −1 → −20 dB of the steady envelope) of a tone,
    /// from the envelope |analytic signal| (Hilbert transform through the FFT), s.
    public static func rampTimes(_ x: [Double], sampleRateHz fs: Double) -> (rise: Double, fall: Double)? {
        let n = x.count
        guard n >= 64, let fft = try? FFT(size: n) else { return nil }
        var spectrum = [Double](repeating: 0, count: 2 * n)
        var input = [Double](repeating: 0, count: 2 * n)
        for i in 0..<n { input[2 * i] = x[i] }
        input.withUnsafeBufferPointer { i in spectrum.withUnsafeMutableBufferPointer { fft.transform(i, into: $0) } }
        // Analytic signal: double positive frequencies, zero negative ones.
        for k in 1..<n {
            let factor: Double = k < (n + 1) / 2 ? 2 : (n % 2 == 0 && k == n / 2 ? 1 : 0)
            spectrum[2 * k] *= factor
            spectrum[2 * k + 1] *= factor
        }
        var analytic = [Double](repeating: 0, count: 2 * n)
        spectrum.withUnsafeBufferPointer { i in analytic.withUnsafeMutableBufferPointer { fft.transform(i, into: $0, inverse: true) } }
        var envelope = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let power = analytic[2 * i] * analytic[2 * i] + analytic[2 * i + 1] * analytic[2 * i + 1]
            envelope[i] = power.squareRoot() / Double(n)
        }
        let steady = envelope[(n / 3)..<(2 * n / 3)].sorted()[(n / 3) / 2]
        let low = steady * pow(10, -20.0 / 20), high = steady * pow(10, -1.0 / 20)
        guard let riseLow = envelope.firstIndex(where: { $0 >= low }), let riseHigh = envelope.firstIndex(where: { $0 >= high }),
            let fallHigh = envelope.lastIndex(where: { $0 >= high }), let fallLow = envelope.lastIndex(where: { $0 >= low })
        else { return nil }
        return (Double(riseHigh - riseLow) / fs, Double(fallLow - fallHigh) / fs)
    }
}

extension ToneVerification {
    /// The verification features of a recorded tone (`interleaved` frames of `channels`): on the
    /// channel with the most energy (the tested ear), the rise and fall times of its ramps, and
    /// frequency, level, peak and THD(+N) of its steady part (the ramps and 0.1 s lead-in
    /// skipped, at most a quarter at each end); `rampsWithin20To50Milliseconds` checks ANSI
    /// S3.6's 20–50 ms rise and fall. Nil when the recording is too short to analyse.
    public static func features(interleaved samples: [Float], channels: Int, sampleRateHz: Double) -> ToneFeatures? {
        guard channels >= 1 else { return nil }
        let frames = samples.count / channels
        let energies = (0..<channels).map { c in (0..<frames).reduce(0.0) { $0 + Double(samples[$1 * channels + c]) * Double(samples[$1 * channels + c]) } }
        let channel = energies.indices.max { energies[$0] < energies[$1] } ?? 0
        let x = (0..<frames).map { Double(samples[$0 * channels + channel]) }
        guard let ramps = rampTimes(x, sampleRateHz: sampleRateHz) else { return nil }
        let margin = min(frames / 4, Int(clamping: (ramps.rise + 0.1) * sampleRateHz, to: 0...frames))
        guard let result = analyze(Array(x[margin..<(frames - margin)]), sampleRateHz: sampleRateHz) else { return nil }
        return ToneFeatures(
            frequencyHz: result.frequencyHz, hannFrequencyHz: result.hannFrequencyHz, levelDbfs: result.levelDbfs, peakAmplitude: result.peakAmplitude,
            thdDecibels: result.thdDecibels, thdPercent: 100 * result.thd, thdPlusNoiseDecibels: result.thdPlusNoiseDecibels,
            riseTimeMilliseconds: 1000 * ramps.rise, fallTimeMilliseconds: 1000 * ramps.fall,
            rampsWithin20To50Milliseconds: ramps.rise >= 0.02 && ramps.rise <= 0.05 && ramps.fall >= 0.02 && ramps.fall <= 0.05, channel: channel)
    }
}

/// What ``ToneVerification/features(interleaved:channels:sampleRateHz:)`` measures on a recorded
/// tone (docs/audiometry.md §10; ``ToneVerification/Result``).
public struct ToneFeatures: Sendable, Hashable, Encodable {
    /// Sine-fit frequency (IEEE Std 1057), Hz; the Hann estimate when the fit fails.
    public var frequencyHz: Double
    /// Hann log-parabolic estimate, Hz.
    public var hannFrequencyHz: Double
    /// 20·lg of the sine's peak amplitude (flat-top), dBFS.
    public var levelDbfs: Double
    /// The sine's peak amplitude, full scale 1.
    public var peakAmplitude: Double
    /// THD_F over harmonics 2…10 below Nyquist, dB.
    public var thdDecibels: Double
    /// THD_F, percent of the fundamental's amplitude.
    public var thdPercent: Double
    /// Power of everything but the fitted fundamental and DC re the fundamental's, dB (NaN when the fit failed).
    public var thdPlusNoiseDecibels: Double
    /// Envelope rise from −20 dB to −1 dB of the steady level, ms.
    public var riseTimeMilliseconds: Double
    /// Envelope fall from −1 dB to −20 dB, ms.
    public var fallTimeMilliseconds: Double
    /// Whether both ramps last 20–50 ms (ANSI S3.6).
    public var rampsWithin20To50Milliseconds: Bool
    /// The channel analysed (the one with the most energy: the tested ear), 0-based.
    public var channel: Int
}
