import Glibc

/// The real FFT Praat computes its spectra with (NUMforwardRealFastFourierTransform and its
/// inverse, Praat 6.1.38 dwsys/NUMfft_d.cpp): P. N. Swarztrauber's FFTPACK real transform
/// (rfftf/rfftb, NCAR 1985, public domain) for power-of-two sizes — radix-4 passes and one radix-2
/// pass when log₂N is odd, twiddles cos/sin(k·ℓ·2π/N) — written here with the same operations in
/// the same order, so that the values are Praat's to the last bit. Analyses that must equal Praat
/// where its results are ill-conditioned (the formants of a decaying tail, the cepstral peak of a
/// near-silent frame) use it instead of FFTW.
///
/// Layout ("FFTPACK order"): r₀, r₁, i₁, r₂, i₂, …, r_{N/2} with X_k = Σ x_n e^(−2πikn/N); the
/// inverse takes the same layout and returns N·x.
struct PraatFFT: Sendable {
    let size: Int
    /// The radices, in FFTPACK's order: a 2 first when log₂N is odd, then 4s.
    private let factors: [Int]
    private let twiddles: [Double]

    /// nil unless `size` is a power of two ≥ 2.
    init?(size: Int) {
        guard size >= 2, size & (size - 1) == 0 else { return nil }
        self.size = size
        var fours = 0, rest = size
        while rest % 4 == 0 { rest /= 4; fours += 1 }
        factors = (rest == 2 ? [2] : []) + [Int](repeating: 4, count: fours)
        var twiddles = [Double](repeating: 0, count: size)
        let step = 2 * Double.pi / Double(size)
        var start = 0, l1 = 1
        for radix in factors.dropLast() {
            let l2 = l1 * radix, ido = size / l2
            var ld = 0
            for _ in 0..<radix - 1 {
                ld += l1
                let angle = Double(ld) * step
                var i = start, fi = 0.0
                for _ in stride(from: 2, to: ido, by: 2) {
                    fi += 1
                    twiddles[i] = cos(fi * angle)
                    twiddles[i + 1] = sin(fi * angle)
                    i += 2
                }
                start += ido
            }
            l1 = l2
        }
        self.twiddles = twiddles
    }

    /// In place: N samples → the spectrum in FFTPACK order (of each lane's samples).
    func forward<V: PraatFFTValue>(_ data: inout [V]) {
        // The radices from the last; each pass's twiddles start where those of the passes after
        // it end (FFTPACK's wa + iw − 1).
        var passes: [Pass] = [], l2 = size, offset = size - 1
        for radix in factors.reversed() {
            let l1 = l2 / radix, ido = size / l2
            offset -= (radix - 1) * ido
            passes.append(Pass(radix: radix, l1: l1, ido: ido, twiddles: offset))
            l2 = l1
        }
        run(&data, passes, inverse: false)
    }

    /// In place: a spectrum in FFTPACK order → N times the samples (of each lane's spectrum).
    func inverse<V: PraatFFTValue>(_ data: inout [V]) {
        var passes: [Pass] = [], l1 = 1, offset = 0
        for radix in factors {
            let ido = size / (radix * l1)
            passes.append(Pass(radix: radix, l1: l1, ido: ido, twiddles: offset))
            l1 *= radix
            offset += (radix - 1) * ido
        }
        run(&data, passes, inverse: true)
    }

    /// One radix pass: FFTPACK's ido, l1 and where its twiddles start.
    private struct Pass {
        var radix: Int, l1: Int, ido: Int, twiddles: Int
    }

    /// The passes in order, each from one buffer into the other (data, then a scratch buffer of
    /// the same size), the result copied into `data` if it ends in the scratch buffer.
    private func run<V: PraatFFTValue>(_ data: inout [V], _ passes: [Pass], inverse: Bool) {
        precondition(data.count == size, "PraatFFT size")
        var scratch = data
        var resultInData = true
        data.withUnsafeMutableBufferPointer { c in
            scratch.withUnsafeMutableBufferPointer { ch in
                twiddles.withUnsafeBufferPointer { wa in
                    for pass in passes {
                        let (from, to) = resultInData ? (c, ch) : (ch, c)
                        let w = wa.baseAddress! + pass.twiddles, ido = pass.ido
                        switch (pass.radix, inverse) {
                        case (4, false): Self.forward4(ido, pass.l1, from, to, w, w + ido, w + 2 * ido)
                        case (4, true): Self.backward4(ido, pass.l1, from, to, w, w + ido, w + 2 * ido)
                        case (_, false): Self.forward2(ido, pass.l1, from, to, w)
                        case (_, true): Self.backward2(ido, pass.l1, from, to, w)
                        }
                        resultInData.toggle()
                    }
                }
            }
        }
        if !resultInData { data = scratch }
    }

    private typealias Twiddle = UnsafePointer<Double>

    // The passes in FFTPACK's notation, 1-based: forward CC(I, K, M) → CH(I, M, K), backward
    // CC(I, M, K) → CH(I, K, M), I = 1…ido, K = 1…l1, M = 1…radix; IC = ido + 2 − I; WA(j) is
    // twiddle[j − 1].

    private static func forward2<V: PraatFFTValue>(_ ido: Int, _ l1: Int, _ cc: UnsafeMutableBufferPointer<V>, _ ch: UnsafeMutableBufferPointer<V>, _ wa: Twiddle) {
        func CC(_ i: Int, _ k: Int, _ m: Int) -> Int { i - 1 + ido * (k - 1 + l1 * (m - 1)) }
        func CH(_ i: Int, _ m: Int, _ k: Int) -> Int { i - 1 + ido * (m - 1 + 2 * (k - 1)) }
        for k in 1...l1 {
            ch[CH(1, 1, k)] = cc[CC(1, k, 1)] + cc[CC(1, k, 2)]
            ch[CH(ido, 2, k)] = cc[CC(1, k, 1)] - cc[CC(1, k, 2)]
        }
        if ido < 2 { return }
        if ido > 2 {
            for k in 1...l1 {
                for i in stride(from: 3, through: ido, by: 2) {
                    let ic = ido + 2 - i
                    let tr2 = wa[i - 3] * cc[CC(i - 1, k, 2)] + wa[i - 2] * cc[CC(i, k, 2)]
                    let ti2 = wa[i - 3] * cc[CC(i, k, 2)] - wa[i - 2] * cc[CC(i - 1, k, 2)]
                    ch[CH(i, 1, k)] = cc[CC(i, k, 1)] + ti2
                    ch[CH(ic, 2, k)] = ti2 - cc[CC(i, k, 1)]
                    ch[CH(i - 1, 1, k)] = cc[CC(i - 1, k, 1)] + tr2
                    ch[CH(ic - 1, 2, k)] = cc[CC(i - 1, k, 1)] - tr2
                }
            }
            if ido % 2 == 1 { return }
        }
        for k in 1...l1 {
            ch[CH(1, 2, k)] = -cc[CC(ido, k, 2)]
            ch[CH(ido, 1, k)] = cc[CC(ido, k, 1)]
        }
    }

    private static func forward4<V: PraatFFTValue>(_ ido: Int, _ l1: Int, _ cc: UnsafeMutableBufferPointer<V>, _ ch: UnsafeMutableBufferPointer<V>, _ wa1: Twiddle, _ wa2: Twiddle, _ wa3: Twiddle) {
        let hsqt2 = 0.70710678118654752440084436210485
        func CC(_ i: Int, _ k: Int, _ m: Int) -> Int { i - 1 + ido * (k - 1 + l1 * (m - 1)) }
        func CH(_ i: Int, _ m: Int, _ k: Int) -> Int { i - 1 + ido * (m - 1 + 4 * (k - 1)) }
        for k in 1...l1 {
            let tr1 = cc[CC(1, k, 2)] + cc[CC(1, k, 4)]
            let tr2 = cc[CC(1, k, 1)] + cc[CC(1, k, 3)]
            ch[CH(1, 1, k)] = tr1 + tr2
            ch[CH(ido, 4, k)] = tr2 - tr1
            ch[CH(ido, 2, k)] = cc[CC(1, k, 1)] - cc[CC(1, k, 3)]
            ch[CH(1, 3, k)] = cc[CC(1, k, 4)] - cc[CC(1, k, 2)]
        }
        if ido < 2 { return }
        if ido > 2 {
            for k in 1...l1 {
                for i in stride(from: 3, through: ido, by: 2) {
                    let ic = ido + 2 - i
                    let cr2 = wa1[i - 3] * cc[CC(i - 1, k, 2)] + wa1[i - 2] * cc[CC(i, k, 2)]
                    let ci2 = wa1[i - 3] * cc[CC(i, k, 2)] - wa1[i - 2] * cc[CC(i - 1, k, 2)]
                    let cr3 = wa2[i - 3] * cc[CC(i - 1, k, 3)] + wa2[i - 2] * cc[CC(i, k, 3)]
                    let ci3 = wa2[i - 3] * cc[CC(i, k, 3)] - wa2[i - 2] * cc[CC(i - 1, k, 3)]
                    let cr4 = wa3[i - 3] * cc[CC(i - 1, k, 4)] + wa3[i - 2] * cc[CC(i, k, 4)]
                    let ci4 = wa3[i - 3] * cc[CC(i, k, 4)] - wa3[i - 2] * cc[CC(i - 1, k, 4)]
                    let tr1 = cr2 + cr4, tr4 = cr4 - cr2
                    let ti1 = ci2 + ci4, ti4 = ci2 - ci4
                    let ti2 = cc[CC(i, k, 1)] + ci3, ti3 = cc[CC(i, k, 1)] - ci3
                    let tr2 = cc[CC(i - 1, k, 1)] + cr3, tr3 = cc[CC(i - 1, k, 1)] - cr3
                    ch[CH(i - 1, 1, k)] = tr1 + tr2
                    ch[CH(i, 1, k)] = ti1 + ti2
                    ch[CH(ic - 1, 2, k)] = tr3 - ti4
                    ch[CH(ic, 2, k)] = tr4 - ti3
                    ch[CH(i - 1, 3, k)] = ti4 + tr3
                    ch[CH(i, 3, k)] = tr4 + ti3
                    ch[CH(ic - 1, 4, k)] = tr2 - tr1
                    ch[CH(ic, 4, k)] = ti1 - ti2
                }
            }
            if ido % 2 == 1 { return }
        }
        for k in 1...l1 {
            let ti1 = -hsqt2 * (cc[CC(ido, k, 2)] + cc[CC(ido, k, 4)])
            let tr1 = hsqt2 * (cc[CC(ido, k, 2)] - cc[CC(ido, k, 4)])
            ch[CH(ido, 1, k)] = tr1 + cc[CC(ido, k, 1)]
            ch[CH(ido, 3, k)] = cc[CC(ido, k, 1)] - tr1
            ch[CH(1, 2, k)] = ti1 - cc[CC(ido, k, 3)]
            ch[CH(1, 4, k)] = ti1 + cc[CC(ido, k, 3)]
        }
    }

    private static func backward2<V: PraatFFTValue>(_ ido: Int, _ l1: Int, _ cc: UnsafeMutableBufferPointer<V>, _ ch: UnsafeMutableBufferPointer<V>, _ wa: Twiddle) {
        func CC(_ i: Int, _ m: Int, _ k: Int) -> Int { i - 1 + ido * (m - 1 + 2 * (k - 1)) }
        func CH(_ i: Int, _ k: Int, _ m: Int) -> Int { i - 1 + ido * (k - 1 + l1 * (m - 1)) }
        for k in 1...l1 {
            ch[CH(1, k, 1)] = cc[CC(1, 1, k)] + cc[CC(ido, 2, k)]
            ch[CH(1, k, 2)] = cc[CC(1, 1, k)] - cc[CC(ido, 2, k)]
        }
        if ido < 2 { return }
        if ido > 2 {
            for k in 1...l1 {
                for i in stride(from: 3, through: ido, by: 2) {
                    let ic = ido + 2 - i
                    ch[CH(i - 1, k, 1)] = cc[CC(i - 1, 1, k)] + cc[CC(ic - 1, 2, k)]
                    let tr2 = cc[CC(i - 1, 1, k)] - cc[CC(ic - 1, 2, k)]
                    ch[CH(i, k, 1)] = cc[CC(i, 1, k)] - cc[CC(ic, 2, k)]
                    let ti2 = cc[CC(i, 1, k)] + cc[CC(ic, 2, k)]
                    ch[CH(i - 1, k, 2)] = wa[i - 3] * tr2 - wa[i - 2] * ti2
                    ch[CH(i, k, 2)] = wa[i - 3] * ti2 + wa[i - 2] * tr2
                }
            }
            if ido % 2 == 1 { return }
        }
        for k in 1...l1 {
            ch[CH(ido, k, 1)] = cc[CC(ido, 1, k)] + cc[CC(ido, 1, k)]
            ch[CH(ido, k, 2)] = -(cc[CC(1, 2, k)] + cc[CC(1, 2, k)])
        }
    }

    private static func backward4<V: PraatFFTValue>(_ ido: Int, _ l1: Int, _ cc: UnsafeMutableBufferPointer<V>, _ ch: UnsafeMutableBufferPointer<V>, _ wa1: Twiddle, _ wa2: Twiddle, _ wa3: Twiddle) {
        let sqrt2 = 1.4142135623730950488016887242097
        func CC(_ i: Int, _ m: Int, _ k: Int) -> Int { i - 1 + ido * (m - 1 + 4 * (k - 1)) }
        func CH(_ i: Int, _ k: Int, _ m: Int) -> Int { i - 1 + ido * (k - 1 + l1 * (m - 1)) }
        for k in 1...l1 {
            let tr1 = cc[CC(1, 1, k)] - cc[CC(ido, 4, k)]
            let tr2 = cc[CC(1, 1, k)] + cc[CC(ido, 4, k)]
            let tr3 = cc[CC(ido, 2, k)] + cc[CC(ido, 2, k)]
            let tr4 = cc[CC(1, 3, k)] + cc[CC(1, 3, k)]
            ch[CH(1, k, 1)] = tr2 + tr3
            ch[CH(1, k, 2)] = tr1 - tr4
            ch[CH(1, k, 3)] = tr2 - tr3
            ch[CH(1, k, 4)] = tr1 + tr4
        }
        if ido < 2 { return }
        if ido > 2 {
            for k in 1...l1 {
                for i in stride(from: 3, through: ido, by: 2) {
                    let ic = ido + 2 - i
                    let ti1 = cc[CC(i, 1, k)] + cc[CC(ic, 4, k)]
                    let ti2 = cc[CC(i, 1, k)] - cc[CC(ic, 4, k)]
                    let ti3 = cc[CC(i, 3, k)] - cc[CC(ic, 2, k)]
                    let tr4 = cc[CC(i, 3, k)] + cc[CC(ic, 2, k)]
                    let tr1 = cc[CC(i - 1, 1, k)] - cc[CC(ic - 1, 4, k)]
                    let tr2 = cc[CC(i - 1, 1, k)] + cc[CC(ic - 1, 4, k)]
                    let ti4 = cc[CC(i - 1, 3, k)] - cc[CC(ic - 1, 2, k)]
                    let tr3 = cc[CC(i - 1, 3, k)] + cc[CC(ic - 1, 2, k)]
                    ch[CH(i - 1, k, 1)] = tr2 + tr3
                    let cr3 = tr2 - tr3
                    ch[CH(i, k, 1)] = ti2 + ti3
                    let ci3 = ti2 - ti3
                    let cr2 = tr1 - tr4, cr4 = tr1 + tr4
                    let ci2 = ti1 + ti4, ci4 = ti1 - ti4
                    ch[CH(i - 1, k, 2)] = wa1[i - 3] * cr2 - wa1[i - 2] * ci2
                    ch[CH(i, k, 2)] = wa1[i - 3] * ci2 + wa1[i - 2] * cr2
                    ch[CH(i - 1, k, 3)] = wa2[i - 3] * cr3 - wa2[i - 2] * ci3
                    ch[CH(i, k, 3)] = wa2[i - 3] * ci3 + wa2[i - 2] * cr3
                    ch[CH(i - 1, k, 4)] = wa3[i - 3] * cr4 - wa3[i - 2] * ci4
                    ch[CH(i, k, 4)] = wa3[i - 3] * ci4 + wa3[i - 2] * cr4
                }
            }
            if ido % 2 == 1 { return }
        }
        for k in 1...l1 {
            let ti1 = cc[CC(1, 2, k)] + cc[CC(1, 4, k)]
            let ti2 = cc[CC(1, 4, k)] - cc[CC(1, 2, k)]
            let tr1 = cc[CC(ido, 1, k)] - cc[CC(ido, 3, k)]
            let tr2 = cc[CC(ido, 1, k)] + cc[CC(ido, 3, k)]
            ch[CH(ido, k, 1)] = tr2 + tr2
            ch[CH(ido, k, 2)] = sqrt2 * (tr1 - ti1)
            ch[CH(ido, k, 3)] = ti2 + ti2
            ch[CH(ido, k, 4)] = -sqrt2 * (tr1 + ti1)
        }
    }
}

/// What the FFT's passes compute with: a Double, or lanes of Doubles (several transforms at
/// once), each lane with a Double's operations in the same order, so with the same values.
protocol PraatFFTValue {
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static prefix func - (a: Self) -> Self
    static func * (a: Double, b: Self) -> Self
}

extension Double: PraatFFTValue {}
extension SIMD4: PraatFFTValue where Scalar == Double {}
