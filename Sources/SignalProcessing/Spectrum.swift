/// Short-time and averaged spectra over `FFT`.
public enum Spectrum {
    /// Power spectra of successive windowed frames (STFT): `frameCount` rows of N/2+1 values
    /// |X[k]|², row-major in one array. Frame i covers samples i·hop ..< i·hop + N; frames that
    /// would run past the end are not taken.
    public struct Frames: Sendable {
        public var binCount: Int
        public var frameCount: Int
        public var power: [Double]
        /// Frequency of bin k, Hz.
        public var binSpacingHz: Double

        public func row(_ frame: Int) -> ArraySlice<Double> {
            power[(frame * binCount)..<((frame + 1) * binCount)]
        }
    }

    /// Short-time Fourier transform power |X|² of `signal` (J. B. Allen, "Short term spectral
    /// analysis, synthesis, and modification by discrete Fourier transform", IEEE TASSP 25(3),
    /// 1977), with a periodic `window` of `size` samples and `hop` samples between frames.
    public static func stft(
        _ signal: [Double], size: Int, hop: Int, window: Window = .hann, sampleRateHz: Double
    ) throws(FFTError) -> Frames {
        let fft = try FFT(size: size)
        let hop = max(1, hop)
        let w = window.values(count: size)
        let frameCount = signal.count >= size ? (signal.count - size) / hop + 1 : 0
        var power = [Double](repeating: 0, count: frameCount * fft.realBins)
        var frame = [Double](repeating: 0, count: size)
        var spectrum = [Double](repeating: 0, count: 2 * fft.realBins)
        for f in 0..<frameCount {
            for i in 0..<size { frame[i] = signal[f * hop + i] * w[i] }
            frame.withUnsafeBufferPointer { inp in spectrum.withUnsafeMutableBufferPointer { fft.forward(inp, into: $0) } }
            for k in 0..<fft.realBins {
                power[f * fft.realBins + k] = spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1]
            }
        }
        return Frames(binCount: fft.realBins, frameCount: frameCount, power: power, binSpacingHz: sampleRateHz / Double(size))
    }

    /// One-sided power spectral density by Welch's method (P. D. Welch, "The use of fast Fourier
    /// transform for the estimation of power spectra", IEEE Trans. Audio Electroacoust. 15(2),
    /// 1967), with SciPy's `signal.welch` defaults: periodic Hann, 50 % overlap, mean removed
    /// per segment, density scaling |X|²/(fs·Σw²), doubled except at DC (and Nyquist for even N).
    /// Units: signal unit² / Hz. Frequencies are k·fs/N.
    public static func welch(
        _ signal: [Double], sampleRateHz: Double, segmentSize: Int = 256, overlap: Int? = nil, window: Window = .hann
    ) throws(FFTError) -> (frequenciesHz: [Double], density: [Double]) {
        let size = min(segmentSize, signal.count)
        let fft = try FFT(size: size)
        let step = size - min(size - 1, overlap ?? size / 2)
        let w = window.values(count: size)
        let windowPower = w.reduce(0) { $0 + $1 * $1 }
        var density = [Double](repeating: 0, count: fft.realBins)
        var segment = [Double](repeating: 0, count: size)
        var spectrum = [Double](repeating: 0, count: 2 * fft.realBins)
        // Each segment's mean as one chain in increasing order (Statistics.frameSums: eight
        // segments side by side), removed before the window.
        let means = signal.withUnsafeBufferPointer { Statistics.frameSums($0, length: size, hop: step) }.map { $0 / Double(size) }
        let count = means.count
        var power = [Double](repeating: 0, count: fft.realBins)
        signal.withUnsafeBufferPointer { x in
            w.withUnsafeBufferPointer { w in
                segment.withUnsafeMutableBufferPointer { segment in
                    spectrum.withUnsafeMutableBufferPointer { spectrum in
                        density.withUnsafeMutableBufferPointer { density in power.withUnsafeMutableBufferPointer { power in
                            for (index, mean) in means.enumerated() {
                                // From the segment's first sample (no index sums to check: the loop vectorises).
                                let first = x.baseAddress! + index * step
                                for i in 0..<size { segment[i] = (first[i] - mean) * w[i] }
                                fft.forward(UnsafeBufferPointer(segment), into: spectrum)
                                // |X|² (re² + im², as the sum below would form it), then added.
                                FrameSpectra.power(spectrum.baseAddress!, bins: density.count, into: power.baseAddress!, stride: 1)
                                for k in 0..<density.count { density[k] += power[k] }
                            }
                        } }
                    }
                }
            }
        }
        let scale = 1 / (sampleRateHz * windowPower * Double(max(1, count)))
        for k in density.indices {
            let oneSided = k == 0 || (size % 2 == 0 && k == fft.realBins - 1) ? 1.0 : 2.0
            density[k] *= scale * oneSided
        }
        let frequencies = (0..<fft.realBins).map { Double($0) * sampleRateHz / Double(size) }
        return (frequencies, density)
    }
}
