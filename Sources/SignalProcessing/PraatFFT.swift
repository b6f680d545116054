import CKernels
import Glibc

/// The real FFT Praat computes its spectra with (NUMforwardRealFastFourierTransform and its
/// inverse, Praat 6.1.38 dwsys/NUMfft_d.cpp): P. N. Swarztrauber's FFTPACK real transform
/// (rfftf/rfftb, NCAR 1985, public domain) for power-of-two sizes — radix-4 passes and one radix-2
/// pass when log₂N is odd, twiddles cos/sin(k·ℓ·2π/N) — its passes in CKernels' atk_fftpack_pass
/// with the same operations in the same order, so that the values are Praat's to the last bit. Analyses that must equal Praat
/// where its results are ill-conditioned (the formants of a decaying tail, the cepstral peak of a
/// near-silent frame) use it instead of FFTW.
///
/// Layout ("FFTPACK order"): r₀, r₁, i₁, r₂, i₂, …, r_{N/2} with X_k = Σ x_n e^(−2πikn/N); the
/// inverse takes the same layout and returns N·x.
public struct PraatFFT: Sendable {
    public let size: Int
    /// The radices, in FFTPACK's order: a 2 first when log₂N is odd, then 4s.
    private let factors: [Int]
    private let twiddles: [Double]

    /// nil unless `size` is a power of two ≥ 2.
    public init?(size: Int) {
        guard size >= 2, size & (size - 1) == 0 else { return nil }
        self.size = size
        var fours = 0, rest = size
        while rest % 4 == 0 { rest /= 4; fours += 1 }
        let factors = (rest == 2 ? [2] : []) + [Int](repeating: 4, count: fours)
        self.factors = factors
        twiddles = Self.cache.twiddles(size: size) { Self.makeTwiddles(size: size, factors: factors) }
    }

    /// The tables of the last two sizes made up to 2^20 points (at most 2 · 8 MB kept): a voice
    /// analysis's two resamplings share one, and a batch's recordings of one length share it too.
    static let cache = TwiddleCache(tables: 2, sizeLimit: 1 << 20)

    /// FFTPACK's rffti1: cos and sin of k·ℓ·2π/N for every pass but the last.
    private static func makeTwiddles(size: Int, factors: [Int]) -> [Double] {
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
        return twiddles
    }

    /// In place: N samples → the spectrum in FFTPACK order (of each lane's samples).
    public func forward<V: PraatFFTValue>(_ data: inout [V]) {
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
    public func inverse<V: PraatFFTValue>(_ data: inout [V]) {
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
    /// the same size), the result copied into `data` if it ends in the scratch buffer (CKernels'
    /// atk_fftpack_pass: FFTPACK's radf2/radf4/radb2/radb4 with the same operations in the same
    /// order, on one transform or four interleaved).
    private func run<V: PraatFFTValue>(_ data: inout [V], _ passes: [Pass], inverse: Bool) {
        precondition(data.count == size, "PraatFFT size")
        // Every pass writes all of its output before the next reads it.
        var scratch = [V](unsafeUninitializedCapacity: size) { _, count in count = size }
        var resultInData = true
        data.withUnsafeMutableBytes { c in
            scratch.withUnsafeMutableBytes { ch in
                twiddles.withUnsafeBufferPointer { wa in
                    let c = c.baseAddress!.assumingMemoryBound(to: Double.self), ch = ch.baseAddress!.assumingMemoryBound(to: Double.self)
                    for pass in passes {
                        let (from, to) = resultInData ? (c, ch) : (ch, c)
                        let status = atk_fftpack_pass(V.lanes, Int32(pass.radix), inverse ? 1 : 0, pass.ido, pass.l1, from, to, wa.baseAddress! + pass.twiddles)
                        precondition(status == 0, "PraatFFT pass")
                        resultInData.toggle()
                    }
                }
            }
        }
        if !resultInData { data = scratch }
    }
}

/// What the FFT transforms: a Double, or four lanes of Doubles (four transforms at once), each
/// lane with a Double's operations in the same order, so with the same values; bitwise copyable,
/// as the scratch buffer starts uninitialised.
public protocol PraatFFTValue: BitwiseCopyable {
    /// Doubles per value.
    static var lanes: Int { get }
}

extension Double: PraatFFTValue { public static var lanes: Int { 1 } }
extension SIMD4: PraatFFTValue where Scalar == Double { public static var lanes: Int { 4 } }

/// Twiddle tables by transform size, the most recently used kept: at most `tables` of them, each
/// of at most `sizeLimit` points (larger ones are made and not kept). A table is made under the
/// lock, so two threads asking for one size make it once.
final class TwiddleCache: Sendable {
    let tables: Int
    let sizeLimit: Int
    private let kept = Locked<[(size: Int, twiddles: [Double])]>([])

    init(tables: Int, sizeLimit: Int) {
        self.tables = tables
        self.sizeLimit = sizeLimit
    }

    /// The sizes kept, the most recently used last.
    var sizes: [Int] { kept.withLock { $0.map(\.size) } }

    func twiddles(size: Int, make: () -> [Double]) -> [Double] {
        guard size <= sizeLimit, tables > 0 else { return make() }
        return kept.withLock { kept in
            if let found = kept.firstIndex(where: { $0.size == size }) {
                let table = kept.remove(at: found)
                kept.append(table)
                return table.twiddles
            }
            let made = make()
            kept.append((size, made))
            if kept.count > tables { kept.removeFirst() }
            return made
        }
    }
}
