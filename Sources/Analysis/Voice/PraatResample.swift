import Glibc
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
                if i + 4 <= newCount, let four = Self.interpolateSinc(y, at: SIMD4(index(i), index(i + 1), index(i + 2), index(i + 3)), depth: precision) {
                    for lane in 0..<4 { result[i + lane] = four[lane] }
                    i += 4
                } else {
                    result[i] = Self.interpolateSinc(y, at: index(i), depth: precision)
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

    /// Praat's NUM_interpolate_sinc (melder/NUMinterpol.cpp) of y[1…n] at the 1-based real
    /// index x: constant beyond the ends, exact at integers, the depth clipped to the samples
    /// available each side (nearest, linear and cubic below depth 3), and otherwise
    /// Σ y[i]·sinc(π(x − i))·½(1 + cos(π(x − i)/(x − left + 1))) over `depth` samples each side,
    /// the window's cosines by Praat's angle-addition recurrence.
    static func interpolateSinc(_ y: UnsafeBufferPointer<Double>, at x: Double, depth maxDepth: Int) -> Double {
        let n = y.count
        guard n >= 1, x.isFinite else { return .nan }
        if x < 1 { return y[0] }
        if x > Double(n) { return y[n - 1] }
        let midleft = Int(x.rounded(.down)), midright = midleft + 1
        if x == Double(midleft) { return y[midleft - 1] }
        let depth = min(maxDepth, midright - 1, n - midleft)
        if depth <= 0 { return y[Int((x + 0.5).rounded(.down)) - 1] }
        if depth == 1 { return y[midleft - 1] + (x - Double(midleft)) * (y[midright - 1] - y[midleft - 1]) }
        if depth == 2 {
            let yl = y[midleft - 1], yr = y[midright - 1]
            let dyl = 0.5 * (yr - y[midleft - 2]), dyr = 0.5 * (y[midright] - yl)
            let fil = x - Double(midleft), fir = Double(midright) - x
            return yl * fir + yr * fil - fil * fir * (0.5 * (dyr - dyl) + (fil - 0.5) * (dyl + dyr - 2 * (yr - yl)))
        }
        let left = midright - depth, right = midleft + depth
        var result = 0.0
        // One side of the window: the samples `indices` at distances d, d + 1, … from x, the
        // raised cosine spanning `span` samples (Praat's recurrence for its cosines).
        func add(_ indices: some Sequence<Int>, distance: Double, span: Double) {
            var a = Double.pi * distance
            var halfSinA = 0.5 * sin(a)
            let aa = a / span, daa = Double.pi / span
            var cosaa = cos(aa), sinaa = sin(aa)
            let cosdaa = cos(daa), sindaa = sin(daa)
            for ix in indices {
                result += y[ix - 1] * (halfSinA / a * (1 + cosaa))
                a += .pi
                let help = cosaa * cosdaa - sinaa * sindaa
                sinaa = cosaa * sindaa + sinaa * cosdaa
                cosaa = help
                halfSinA = -halfSinA
            }
        }
        add(stride(from: midleft, through: left, by: -1), distance: x - Double(midleft), span: x - Double(left) + 1)
        add(midright...right, distance: Double(midright) - x, span: Double(right) - x + 1)
        return result
    }

    /// ``interpolateSinc(_:at:depth:)`` at four indices at once, each lane with that function's
    /// operations in its order (the same values, the four windows' recurrences side by side);
    /// nil unless every index lies between samples with `depth` ≥ 3 samples each side.
    static func interpolateSinc(_ y: UnsafeBufferPointer<Double>, at x: SIMD4<Double>, depth: Int) -> SIMD4<Double>? {
        guard depth >= 3, let base = y.baseAddress else { return nil }
        var midleft = SIMD4<Int>()
        for lane in 0..<4 {
            guard x[lane] >= 1, x[lane] <= Double(y.count) else { return nil }
            midleft[lane] = Int(x[lane].rounded(.down))
            guard x[lane] != Double(midleft[lane]), midleft[lane] >= depth, y.count - midleft[lane] >= depth else { return nil }
        }
        let left = SIMD4<Double>(midleft &+ 1 &- depth), right = SIMD4<Double>(midleft &+ depth)
        var result = SIMD4<Double>()
        // One side of the windows: per lane the samples from `start` (1-based) by `step`, at
        // distances d, d + 1, … from x, the raised cosine spanning `span` samples.
        func add(from start: SIMD4<Int>, step: Int, distance: SIMD4<Double>, span: SIMD4<Double>) {
            var a = Double.pi * distance
            var halfSinA = SIMD4<Double>(), cosaa = SIMD4<Double>(), sinaa = SIMD4<Double>(), cosdaa = SIMD4<Double>(), sindaa = SIMD4<Double>()
            let aa = a / span, daa = Double.pi / span
            for lane in 0..<4 {
                halfSinA[lane] = 0.5 * sin(a[lane])
                cosaa[lane] = cos(aa[lane])
                sinaa[lane] = sin(aa[lane])
                cosdaa[lane] = cos(daa[lane])
                sindaa[lane] = sin(daa[lane])
            }
            var p = (base + start[0] - 1, base + start[1] - 1, base + start[2] - 1, base + start[3] - 1)
            for _ in 0..<depth {
                result += SIMD4(p.0.pointee, p.1.pointee, p.2.pointee, p.3.pointee) * (halfSinA / a * (1 + cosaa))
                a += .pi
                let help = cosaa * cosdaa - sinaa * sindaa
                sinaa = cosaa * sindaa + sinaa * cosdaa
                cosaa = help
                halfSinA = -halfSinA
                p = (p.0 + step, p.1 + step, p.2 + step, p.3 + step)
            }
        }
        let low = SIMD4<Double>(midleft)
        add(from: midleft, step: -1, distance: x - low, span: x - left + 1)
        add(from: midleft &+ 1, step: 1, distance: low + 1 - x, span: right - x + 1)
        return result
    }
}
