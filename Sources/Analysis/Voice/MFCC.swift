import Glibc
import SignalProcessing

/// Mel-frequency cepstral coefficients with librosa's conventions (librosa 1.0.0
/// `feature.mfcc`, `feature.melspectrogram`, `filters.mel`, `power_to_db`, `feature.delta`;
/// B. McFee et al., "librosa: Audio and music signal analysis in Python", Proc. SciPy 2015), at
/// the recording's own rate (librosa resamples to 22,050 Hz only when asked to; so does no one
/// here):
/// 1. frames of `fftSize` samples every `hop`, centred (the signal padded with fftSize/2 zeros
///    each side), periodic Hann window (scipy's `get_window("hann", N)`), power spectrum |X|²;
/// 2. `melBands` triangular filters between 0 Hz and the Nyquist frequency on Slaney's mel scale
///    (linear 200/3 Hz per mel below 1 kHz, logarithmic 27 mels per factor 6.4 above), each
///    scaled by 2/(upper − lower edge) ("slaney" norm) and, as librosa stores them, rounded to
///    float32;
/// 3. 10·log₁₀(max(10⁻¹⁰, energy)) dB (ref 1), floored at the maximum over the recording − 80 dB;
/// 4. DCT-II with orthonormal scaling over the bands, the first `coefficientCount` kept;
/// 5. Δ and ΔΔ: Savitzky–Golay derivatives over 9 frames (polynomial order = derivative order;
///    the first and last 4 frames from the polynomial fitted to the first and last 9, scipy's
///    "interp"), in coefficient units per frame.
public struct MFCCAnalysis: Sendable, Hashable {
    /// Coefficients kept (librosa's n_mfcc).
    public var coefficientCount = 20
    /// Frame length, samples (n_fft).
    public var fftSize = 2048
    /// Samples between frames (hop_length).
    public var hop = 512
    /// Mel bands (n_mels).
    public var melBands = 128
    /// The floor below the loudest band of the recording, dB (top_db).
    public var topDecibels = 80.0
    public init() {}

    /// Coefficients c₀…c_{n−1} (dB), one series over the frames per coefficient, and their Δ and
    /// ΔΔ (nil with fewer than 9 frames: librosa's delta refuses a window longer than the data).
    struct Result: Sendable, Hashable {
        var frameCount: Int
        var coefficients: [[Double]]
        var delta: [[Double]]?
        var deltaDelta: [[Double]]?
    }

    /// The MFCC statistics (``MFCCFeatures``) of `samples` (one channel) at `sampleRateHz`, as the
    /// voice analysis's `mfcc` set gives them; non-finite samples count as 0, as the audio
    /// readers decode them.
    public func features(_ samples: [Double], sampleRateHz: Double) -> MFCCFeatures {
        let samples = samples.withUnsafeBufferPointer(Statistics.allFinite) ? samples : samples.map { $0.isFinite ? $0 : 0 }
        return MFCCFeatures(analyze(samples, sampleRateHz: sampleRateHz), coefficientCount: coefficientCount)
    }

    /// Frames of `samples` at `sampleRateHz`: 1 + ⌊count / hop⌋.
    func analyze(_ samples: [Double], sampleRateHz: Double) -> Result {
        let bins = fftSize / 2 + 1
        let bank = BandWeights(weights: melWeights(sampleRateHz: sampleRateHz), bands: melBands, bins: bins)
        let frameCount = 1 + samples.count / hop
        guard var spectrum = FramePowerSpectrum(length: fftSize, window: Self.periodicHann(fftSize), sampleRateHz: sampleRateHz, size: fftSize) else {
            return Result(frameCount: 0, coefficients: [])
        }
        var energies = [Double](repeating: 0, count: frameCount * melBands)
        // Eight frames' transforms, then their power spectra side by side, one lane each: each
        // band's sum runs over the bins in the same order as one frame's alone (the same bits),
        // eight frames at once. A last block of fewer frames leaves the lanes past them unread.
        var transforms = [Double](repeating: 0, count: 8 * 2 * bins)
        var lanes = [Double](repeating: 0, count: 8 * bins), sums = [Double](repeating: 0, count: 8 * melBands)
        transforms.withUnsafeMutableBufferPointer { transforms in
            let spectra = (0..<8).map { UnsafePointer(transforms.baseAddress! + 2 * bins * $0) as UnsafePointer<Double>? }
            for block in stride(from: 0, to: frameCount, by: 8) {
                let count = min(8, frameCount - block)
                for lane in 0..<count {
                    // Sample j of frame i = block + lane is samples[i·hop + j − N/2] (zero outside).
                    spectrum.transform(samples, from: (block + lane) * hop - fftSize / 2,
                                       into: UnsafeMutableBufferPointer(rebasing: transforms[2 * bins * lane..<2 * bins * (lane + 1)]))
                }
                lanes.withUnsafeMutableBufferPointer { FrameSpectra.powerLanes(spectra, bins: bins, into: $0.baseAddress!) }
                bank.sums(lanes, into: &sums)
                for lane in 0..<count {
                    for band in 0..<melBands { energies[(block + lane) * melBands + band] = sums[8 * band + lane] }
                }
            }
        }
        // power_to_db with its floor over the whole recording (lg through libmvec: within 4 ulp
        // of the correctly rounded value, VectorMath).
        var decibels = energies.map { max(1e-10, $0) }
        VectorMath.log10(&decibels)
        var top = -Double.infinity
        for i in decibels.indices {
            decibels[i] *= 10
            top = max(top, decibels[i])
        }
        for i in decibels.indices { decibels[i] = max(decibels[i], top - topDecibels) }
        // The DCT eight coefficients at a time, each one's sum over the bands in band order.
        let dct = LaneMatrix(rows: coefficientCount, columns: melBands, Self.orthonormalDCT(bands: melBands, kept: coefficientCount))
        let width = 8 * dct.groups
        var transformed = [Double](repeating: 0, count: frameCount * width)
        dct.apply(decibels, count: frameCount, into: &transformed)
        let coefficients = (0..<coefficientCount).map { k in (0..<frameCount).map { transformed[$0 * width + k] } }
        return Result(frameCount: frameCount, coefficients: coefficients, delta: Self.savitzkyGolay(coefficients, order: 1),
                      deltaDelta: Self.savitzkyGolay(coefficients, order: 2))
    }

    /// scipy.signal.get_window("hann", N): 0.5 + 0.5·cos(−π + 2πn/N), n = 0…N−1, the phase as
    /// numpy's linspace computes it.
    static func periodicHann(_ n: Int) -> [Double] {
        let step = 2 * Double.pi / Double(n)
        return (0..<n).map { 0.5 + 0.5 * cos(Double($0) * step - .pi) }
    }

    /// librosa.filters.mel(sr, n_fft, n_mels, norm="slaney", dtype=float32), row-major
    /// (band × bin), as Double values of the float32 weights.
    func melWeights(sampleRateHz: Double) -> [Double] {
        let bins = fftSize / 2 + 1
        let linearStep = 200.0 / 3, logStart = 1000.0 / linearStep, logStep = log(6.4) / 27
        func mel(_ hz: Double) -> Double { hz >= 1000 ? logStart + log(hz / 1000) / logStep : hz / linearStep }
        func hz(_ mel: Double) -> Double { mel >= logStart ? 1000 * exp(logStep * (mel - logStart)) : linearStep * mel }
        let top = mel(sampleRateHz / 2), count = melBands + 2
        let step = top / Double(count - 1)
        let edges = (0..<count).map { i in hz(i == count - 1 ? top : Double(i) * step) }
        let binWidth = 1 / (Double(fftSize) * (1 / sampleRateHz))
        let frequencies = (0..<bins).map { Double($0) * binWidth }
        var weights = [Double](repeating: 0, count: melBands * bins)
        for band in 0..<melBands {
            let lowerWidth = edges[band + 1] - edges[band], upperWidth = edges[band + 2] - edges[band + 1]
            let norm = 2 / (edges[band + 2] - edges[band])
            // The bins around the triangle (zero outside it, as the formula gives there).
            let first = Int(clamping: edges[band] / binWidth, rounding: .down, to: 0...(bins - 1))
            let last = Int(clamping: edges[band + 2] / binWidth, rounding: .up, to: first...(bins - 1))
            for k in first...last {
                let lower = -(edges[band] - frequencies[k]) / lowerWidth
                let upper = (edges[band + 2] - frequencies[k]) / upperWidth
                let triangle = Double(Float(max(0, min(lower, upper))))
                weights[band * bins + k] = Double(Float(triangle * norm))
            }
        }
        return weights
    }

    /// scipy.fft.dct(type 2, norm "ortho") rows: √(2/N)·cos(πk(2n + 1)/(2N)), row 0 √(1/N).
    static func orthonormalDCT(bands n: Int, kept: Int) -> [Double] {
        let first = (1 / Double(n)).squareRoot(), other = (2 / Double(n)).squareRoot()
        var rows = [Double](repeating: first, count: kept * n)
        for k in 1..<max(kept, 1) {
            for i in 0..<n {
                let angle: Double = Double.pi * Double(k) * Double(2 * i + 1) / Double(2 * n)
                rows[k * n + i] = other * cos(angle)
            }
        }
        return rows
    }

    /// librosa.feature.delta(width 9, order, mode "interp") along frames, of each series (one per
    /// coefficient): the least-squares polynomial of degree `order` over frames t−4…t+4, its
    /// `order`-th derivative — k/60 weights for the slope, 2(k² − 20/3)/308 for the second
    /// derivative; the first and last four frames take the value of the fit over the first and
    /// last nine, which for these orders is the value at frame 4 and at frame n − 5. nil for
    /// fewer than 9 frames.
    static func savitzkyGolay(_ series: [[Double]], order: Int) -> [[Double]]? {
        guard let n = series.first?.count, n >= 9 else { return nil }
        let weights = (-4...4).map { k -> Double in
            order == 1 ? Double(k) / 60 : 2 * (Double(k * k) - 20.0 / 3) / 308
        }
        let (w0, w1, w2, w3, w4, w5, w6, w7, w8) = (weights[0], weights[1], weights[2], weights[3], weights[4], weights[5], weights[6], weights[7], weights[8])
        return series.map { x in
            var result = [Double](repeating: 0, count: n)
            x.withUnsafeBufferPointer { x in
                result.withUnsafeMutableBufferPointer { result in
                    // Each frame's sum in offset order from 0, as one loop over the nine weights.
                    for t in 4..<n - 4 {
                        var sum = 0.0
                        sum += w0 * x[t - 4]; sum += w1 * x[t - 3]; sum += w2 * x[t - 2]
                        sum += w3 * x[t - 1]; sum += w4 * x[t]; sum += w5 * x[t + 1]
                        sum += w6 * x[t + 2]; sum += w7 * x[t + 3]; sum += w8 * x[t + 4]
                        result[t] = sum
                    }
                }
            }
            for t in 0..<4 {
                result[t] = result[4]
                result[n - 1 - t] = result[n - 5]
            }
            return result
        }
    }
}
