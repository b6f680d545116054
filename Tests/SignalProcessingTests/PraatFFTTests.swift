import CKernels
import Foundation
import Testing
import TestSupport
@testable import SignalProcessing

/// Praat's FFTPACK real transform (PraatFFT, CKernels' atk_fftpack_pass) against the discrete
/// Fourier transform summed term by term, and four interleaved transforms against four single ones.
@Suite struct PraatFFTTests {
    /// X_k = Σ x_n e^(−2πikn/N) in FFTPACK order (r₀, r₁, i₁, …, r_{N/2}), each sum in Float80.
    static func dft(_ x: [Double]) -> [Double] {
        let n = x.count
        var out = [Double](repeating: 0, count: n)
        for k in 0...n / 2 {
            var re: Float80 = 0, im: Float80 = 0
            for (j, value) in x.enumerated() {
                let angle = -2 * Float80.pi * Float80(k * j % n) / Float80(n)
                re += Float80(value) * Float80(cos(Double(angle)))
                im += Float80(value) * Float80(sin(Double(angle)))
            }
            if k == 0 { out[0] = Double(re) } else if 2 * k == n { out[n - 1] = Double(re) } else {
                out[2 * k - 1] = Double(re)
                out[2 * k] = Double(im)
            }
        }
        return out
    }

    @Test("forward: [1, 2, 3, 4] gives r₀ 10, X₁ −2 + 2i, r₂ −2 (by hand); sizes 2 to 2,048 (one radix-2 pass and none) within 1e-13·Σ|x| of the DFT; the inverse returns N·x within 1e-13·N·max|x|")
    func againstTheDFT() throws {
        let fft4 = try #require(PraatFFT(size: 4))
        var small: [Double] = [1, 2, 3, 4]
        fft4.forward(&small)
        #expect(small == [10, -2, 2, -2])
        var random = SeededRandom(seed: 20_261_127)
        for exponent in 1...11 {
            let n = 1 << exponent
            let fft = try #require(PraatFFT(size: n))
            let x = (0..<n).map { _ in random.unit() - 0.5 }
            var spectrum = x
            fft.forward(&spectrum)
            let reference = Self.dft(x)
            let scale = x.reduce(0) { $0 + abs($1) }
            let worst = zip(spectrum, reference).map { abs($0 - $1) }.max()!
            #expect(worst <= 1e-13 * scale, "N = \(n): \(worst)")
            var back = spectrum
            fft.inverse(&back)
            let largest = x.map(abs).max()!
            let worstBack = zip(back, x).map { abs($0 - Double(n) * $1) }.max()!
            #expect(worstBack <= 1e-13 * Double(n) * largest, "N = \(n): \(worstBack)")
        }
        #expect(PraatFFT(size: 6) == nil && PraatFFT(size: 1) == nil && PraatFFT(size: 0) == nil)
    }

    @Test("""
        four interleaved transforms (the vector kernel at this machine's level) equal four single ones (there, butterflies \
        two at a time) bit for bit, forward and inverse, sizes 2 to 65,536: noise, noise with every third value −0, a \
        constant (exact cancellations), and a spectrum zero from a quarter on (a resampling's low-pass) as inverse input
        """)
    func lanesEqualSingleTransforms() throws {
        var random = SeededRandom(seed: 4_096)
        for exponent in 1...16 {
            let n = 1 << exponent
            let fft = try #require(PraatFFT(size: n))
            let lanes = [(0..<n).map { _ in random.unit() - 0.5 }, (0..<n).map { $0 % 3 == 0 ? -0.0 : random.unit() - 0.5 },
                         [Double](repeating: 0.25, count: n), (0..<n).map { $0 < n / 4 ? random.unit() - 0.5 : 0 }]
            var four = (0..<n).map { j in SIMD4(lanes[0][j], lanes[1][j], lanes[2][j], lanes[3][j]) }
            fft.forward(&four)
            var inverted = four
            fft.inverse(&inverted)
            // The values themselves as spectra, too.
            var spectra = (0..<n).map { j in SIMD4(lanes[0][j], lanes[1][j], lanes[2][j], lanes[3][j]) }
            fft.inverse(&spectra)
            for lane in 0..<4 {
                var single = lanes[lane]
                fft.forward(&single)
                #expect(single.indices.allSatisfy { single[$0].bitPattern == four[$0][lane].bitPattern }, "N = \(n), lane \(lane), forward")
                fft.inverse(&single)
                #expect(single.indices.allSatisfy { single[$0].bitPattern == inverted[$0][lane].bitPattern }, "N = \(n), lane \(lane), inverse")
                var spectrum = lanes[lane]
                fft.inverse(&spectrum)
                #expect(spectrum.indices.allSatisfy { spectrum[$0].bitPattern == spectra[$0][lane].bitPattern }, "N = \(n), lane \(lane), inverse of the values")
            }
        }
    }

    @Test("the twiddle cache keeps the two sizes used last, makes a kept size's table once, keeps none over its size limit; a cached table transforms as a fresh one")
    func twiddleCache() throws {
        let cache = TwiddleCache(tables: 2, sizeLimit: 64)
        var made: [Int] = []
        func table(_ size: Int) -> [Double] { cache.twiddles(size: size) { made.append(size); return [Double(size)] } }
        #expect(table(8) == [8] && table(16) == [16] && table(8) == [8])
        #expect(made == [8, 16] && cache.sizes == [16, 8])
        #expect(table(32) == [32] && cache.sizes == [8, 32])
        #expect(table(16) == [16] && made == [8, 16, 32, 16])
        #expect(table(128) == [128] && table(128) == [128] && cache.sizes == [32, 16] && made.suffix(2) == [128, 128])
        // Through the shared cache: a second transform of a size (its table kept or made again) gives the same bits.
        let x = (0..<1024).map { (k: Int) -> Double in sin(Double(k) * 0.37) + 0.1 * Double(k % 7) }
        var first = x, second = x
        try #require(PraatFFT(size: 1024)).forward(&first)
        try #require(PraatFFT(size: 1024)).forward(&second)
        #expect(first == second)
    }

    @Test("a pass with a radix other than 2 and 4, or a lane count other than 1 and 4, is refused and writes nothing")
    func refusedPasses() {
        let input = [Double](repeating: 1, count: 32)
        var output = [Double](repeating: 7, count: 32)
        let twiddles = [Double](repeating: 0, count: 32)
        for (lanes, radix) in [(1, 3), (4, 8), (2, 4), (0, 2)] {
            #expect(atk_fftpack_pass(lanes, Int32(radix), 0, 4, 2, input, &output, twiddles) == -1)
        }
        #expect(output.allSatisfy { $0 == 7 })
    }
}
