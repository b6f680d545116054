import Glibc

/// Butterworth filters as biquad cascades, designed from the analogue prototype by the bilinear
/// transform with frequency pre-warping (S. Butterworth, "On the theory of filter amplifiers",
/// Wireless Engineer 7, 1930; A. V. Oppenheim & R. W. Schafer, "Discrete-Time Signal
/// Processing", 3rd ed., §7.1). Order 2k: k sections with Q_j = 1/(2 cos θ_j),
/// θ_j = (2j − 1)π/(4k).
public enum Butterworth {
    /// Low-pass of even `order` (2, 4, …) with −3 dB at `cutoffHz`.
    public static func lowPass(order: Int = 2, cutoffHz: Double, sampleRateHz: Double) -> BiquadCascade {
        BiquadCascade(sections: qualities(order).map { section(lowPass: true, cutoffHz: cutoffHz, q: $0, sampleRateHz: sampleRateHz) })
    }

    /// High-pass of even `order` with −3 dB at `cutoffHz`.
    public static func highPass(order: Int = 2, cutoffHz: Double, sampleRateHz: Double) -> BiquadCascade {
        BiquadCascade(sections: qualities(order).map { section(lowPass: false, cutoffHz: cutoffHz, q: $0, sampleRateHz: sampleRateHz) })
    }

    /// Band-pass as a high-pass at `lowHz` followed by a low-pass at `highHz`, each of `order`.
    public static func bandPass(order: Int = 2, lowHz: Double, highHz: Double, sampleRateHz: Double) -> BiquadCascade {
        BiquadCascade(sections: highPass(order: order, cutoffHz: lowHz, sampleRateHz: sampleRateHz).sections
            + lowPass(order: order, cutoffHz: highHz, sampleRateHz: sampleRateHz).sections)
    }

    static func qualities(_ order: Int) -> [Double] {
        let pairs = max(1, order / 2)
        return (1...pairs).map { (j: Int) -> Double in 1 / (2 * cos(Double(2 * j - 1) * Double.pi / Double(4 * pairs))) }
    }

    /// One pre-warped bilinear section (RBJ "Audio EQ Cookbook" forms for LPF/HPF).
    static func section(lowPass: Bool, cutoffHz: Double, q: Double, sampleRateHz: Double) -> Biquad {
        let k = tan(.pi * min(cutoffHz, 0.499 * sampleRateHz) / sampleRateHz)
        let norm = 1 / (1 + k / q + k * k)
        let a1 = 2 * (k * k - 1) * norm
        let a2 = (1 - k / q + k * k) * norm
        if lowPass {
            let b0 = k * k * norm
            return Biquad(b0: b0, b1: 2 * b0, b2: b0, a1: a1, a2: a2)
        }
        return Biquad(b0: norm, b1: -2 * norm, b2: norm, a1: a1, a2: a2)
    }
}

extension BiquadCascade {
    /// Zero-phase filtering (forward, then backward, as SciPy's `sosfiltfilt`): the magnitude
    /// response squared, no delay. The ends are padded with the odd reflection of `padding`
    /// samples (default: 3 × the longest section time constant, at most n − 1) and the filter
    /// state starts from the steady state of the first padded value, to limit edge transients.
    public func filtfilt(_ signal: [Double], padding: Int? = nil) -> [Double] {
        guard signal.count >= 2 else { return signal }
        return signal.withUnsafeBufferPointer { x in filtfilt(count: x.count, padding: padding, middle: x.baseAddress) { x[$0] } }
    }

    /// ``filtfilt(_:padding:)`` of the signal (a[i] − b[i]) − offset, or a[i] − offset without
    /// `b` (a demeaned difference, as the tremor spectrum filters it), without forming that signal
    /// first: each value rounds as that expression.
    public func filtfilt(_ a: [Double], minus b: [Double]?, offset: Double, padding: Int? = nil) -> [Double] {
        precondition(b.map { $0.count == a.count } ?? true, "filtfilt: columns of unequal length")
        guard a.count >= 2 else { return a.indices.map { (a[$0] - (b?[$0] ?? 0)) - offset } }
        return a.withUnsafeBufferPointer { a in
            guard let b else { return filtfilt(count: a.count, padding: padding) { a[$0] - offset } }
            return b.withUnsafeBufferPointer { b in filtfilt(count: a.count, padding: padding) { (a[$0] - b[$0]) - offset } }
        }
    }

    /// Zero-phase filtering of value(0), …, value(n − 1), n ≥ 2; with `middle`, the values are
    /// middle[0..<n], which the forward pass reads in place where its lanes read only them.
    @inline(__always)
    private func filtfilt(count n: Int, padding: Int?, middle: UnsafePointer<Double>? = nil, _ x: (Int) -> Double) -> [Double] {
        let pad = max(0, min(n - 1, padding ?? 3 * 2 * max(sections.count, 1)))
        let length = n + 2 * pad
        // Over unchecked buffers (pad ≤ n − 1, so every index below is in its buffer): the
        // padded signal e, filtered forward in place, then backward (read from its last value on:
        // no reversed copies) with only the middle's outputs written, into the result. The
        // reflected ends are written first; with `middle`, the middle is copied into e only where
        // a lane of the forward pass reads beyond it (the other lanes read the caller's values
        // and write e), else all of it.
        var extended = [Double](unsafeUninitializedCapacity: length) { e, initialized in
            let (first, last) = (x(0), x(n - 1))
            for i in 0..<pad {
                e[i] = 2 * first - x(pad - i)
                e[n + pad + i] = 2 * last - x(n - 2 - i)
            }
            if middle == nil {
                let inside = e.baseAddress! + pad  // no index sums to check: the copy vectorises
                for i in 0..<n { inside[i] = x(i) }
            }
            initialized = length
        }
        return extended.withUnsafeMutableBufferPointer { e in
            let base = e.baseAddress!
            var forward = [self]
            forward[0].startSteady(at: e[0])
            Self.processLanes(&forward, input: { _, steps in
                guard let middle else { return UnsafePointer(base + steps.lowerBound) }
                if steps.lowerBound >= pad && steps.upperBound <= pad + n { return middle + (steps.lowerBound - pad) }
                let inside = max(steps.lowerBound, pad)..<max(max(steps.lowerBound, pad), min(steps.upperBound, pad + n))
                for i in inside { base[i] = middle[i - pad] }
                return UnsafePointer(base + steps.lowerBound)
            }, stride: 1, count: length, outputs: { _ in base })
            var backward = [self]
            backward[0].startSteady(at: e[length - 1])
            let last = UnsafePointer(base + (length - 1))
            return [Double](unsafeUninitializedCapacity: n) { y, initialized in
                // Backward step i reads e[length − 1 − i]; the middle e[pad..<pad + n] is steps pad..<pad + n.
                Self.processLanes(&backward, inputs: { _ in last }, stride: -1, count: length,
                                  outputs: { _ in y.baseAddress! + (n - 1) }, outputStride: -1, written: pad..<(pad + n))
                initialized = n
            }
        }
    }

    /// Sets the state to the steady state for a constant input `x` (SciPy's `sosfilt_zi` × x):
    /// for each section in turn, y = H(1)·x and the TDF-II states that hold it.
    mutating func startSteady(at x: Double) {
        var input = x
        for k in sections.indices {
            let s = sections[k]
            let dcGain = (s.b0 + s.b1 + s.b2) / (1 + s.a1 + s.a2)
            let output = dcGain.isFinite ? dcGain * input : 0
            // TDF-II: y = b0·x + z1; z1 = b1·x − a1·y + z2; z2 = b2·x − a2·y.
            let z2 = s.b2 * input - s.a2 * output
            let z1 = s.b1 * input - s.a1 * output + z2
            state[2 * k] = z1
            state[2 * k + 1] = z2
            input = output
        }
    }
}
