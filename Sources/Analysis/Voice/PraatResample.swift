import SignalProcessing

/// Praat's "Sound: Resample..." (Sound_resample, Praat 6.1.38 fon/Sound.cpp), which its formant
/// and cepstrogram analyses run first to bring the sound to twice their maximum frequency:
/// - downsampling: the sound, zero-padded by 1000 samples each side to a power of two, is
///   low-passed in the frequency domain (every value of Praat's packed real spectrum from index
///   ⌊(new/old rate)·N⌋ on set to zero, and the Nyquist value), then
/// - every new sample is the windowed-sinc interpolation (NUM_interpolate_sinc, depth
///   `precision`) of the old samples at its time;
/// - exactly twice the rate: Praat's Sound_upsample (zero-padding the spectrum, the top 5 % of the
///   old band tapered linearly);
/// - a rate within 10⁻⁶ of the old: the sound unchanged.
/// The new samples are centred in the old time domain (first at ½(xmax − (n − 1)/rate)), which
/// they keep.
extension PraatSound {
    func resampled(toRateHz rate: Double, precision: Int = 50) -> PraatSound {
        let upfactor = rate * dx
        if abs(upfactor - 2) < 1e-6 { return upsampledTwice() }
        if abs(upfactor - 1) < 1e-6 { return self }
        let duration = xmax
        let newCount = Int(clamping: (duration * rate).rounded(.toNearestOrAwayFromZero), to: 0...Int.max)
        guard newCount >= 1 else { return PraatSound(samples: [], dx: 1 / rate, endTime: xmax) }
        let newDx = 1 / rate
        let newX1 = 0.5 * (duration - Double(newCount - 1) / rate)
        // Every new sample is the sinc interpolation of the old samples (low-passed first when
        // the rate goes down) at its time.
        func interpolated(_ y: UnsafeBufferPointer<Double>) -> [Double] {
            // Sampled_xToIndex of the old sound, 1-based as NUM_interpolate_sinc takes it.
            func index(_ i: Int) -> Double { (newX1 + Double(i) * newDx - x1) / dx + 1 }
            var result = [Double](repeating: 0, count: newCount)
            var i = 0
            while i < newCount {
                var places = SIMD8<Double>()
                for lane in 0..<8 { places[lane] = index(i + lane) }
                if i + 8 <= newCount, let eight = PraatSincInterpolation.values(y, at: places, depth: precision) {
                    for lane in 0..<8 { result[i + lane] = eight[lane] }
                    i += 8
                } else {
                    result[i] = PraatSincInterpolation.value(y, at: index(i), depth: precision)
                    i += 1
                }
            }
            return result
        }
        guard upfactor < 1 else {
            return PraatSound(samples: samples.withUnsafeBufferPointer(interpolated), dx: newDx, firstTime: newX1, endTime: xmax)
        }
        // Anti-aliasing: Praat's FFT of the sound with 1000 zeros each side (N a power of two),
        // its packed spectrum (index 1: DC, 2: Nyquist, 2k + 1 and 2k + 2: real and imaginary
        // part of bin k) zeroed from index ⌊upfactor·N⌋ on and at index 2, back to the time
        // domain, times 1/N; the interpolation reads the sound's stretch of that buffer.
        var (fft, data) = Self.padded(samples, sides: 1000)
        fft.forward(&data)
        let size = fft.size
        let first = Int(clamping: (upfactor * Double(size)).rounded(.down), to: 1...size + 1)
        for index in first..<size + 1 { data[Self.offset(ofPacked: index, size: size)] = 0 }
        data[Self.offset(ofPacked: 2, size: size)] = 0
        fft.inverse(&data)
        let factor = 1 / Double(size)
        for i in 1000..<1000 + count { data[i] *= factor }
        let result = data.withUnsafeBufferPointer { interpolated(UnsafeBufferPointer(rebasing: $0[1000..<1000 + count])) }
        return PraatSound(samples: result, dx: newDx, firstTime: newX1, endTime: xmax)
    }

    /// Praat's Sound_upsample: twice the rate by zero-padding the spectrum, the packed spectrum
    /// from index ⌊0.95·N⌋ + 1 tapered linearly to zero, the Nyquist value zeroed.
    private func upsampledTwice() -> PraatSound {
        var (fft, spectrum) = Self.padded(samples, sides: 1000)
        let size = fft.size
        guard let twice = PraatFFT(size: 2 * size) else { return self }
        fft.forward(&spectrum)
        // Packed index p ≥ 3 is bin (p − 1)/2 in both transforms; index 2 (the old Nyquist value)
        // is zeroed, and the new transform's bins from N/2 on are zero.
        var wide = [Double](repeating: 0, count: 2 * size)
        let taperStart = Int(Double(size) * 0.95)
        for index in 1...size where index != 2 {
            let value = spectrum[Self.offset(ofPacked: index, size: size)]
            wide[Self.offset(ofPacked: index, size: 2 * size)] = index > taperStart ? value * (Double(size - index) / Double(size - taperStart)) : value
        }
        twice.inverse(&wide)
        let newDx = dx / 2
        return PraatSound(samples: (0..<2 * count).map { wide[$0 + 2000] / Double(size) }, dx: newDx, firstTime: x1 - 0.5 * (dx - newDx), endTime: xmax)
    }

    /// Praat's FFT of the smallest power-of-two size holding the samples with `sides` zeros
    /// before and at least as many after, and those values.
    static func padded(_ samples: [Double], sides: Int) -> (PraatFFT, [Double]) {
        var size = 2
        while size < samples.count + 2 * sides { size *= 2 }
        var data = [Double](repeating: 0, count: size)
        data.replaceSubrange(sides..<sides + samples.count, with: samples)
        return (PraatFFT(size: size)!, data)
    }

    /// Where Praat's packed real-spectrum index (1-based; N = `size`) lives in FFTPACK order:
    /// 1 → r₀, 2 → r_{N/2} (last), p ≥ 3 → position p − 2.
    static func offset(ofPacked index: Int, size: Int) -> Int {
        switch index {
        case 1: return 0
        case 2: return size - 1
        default: return index - 2
        }
    }
}
