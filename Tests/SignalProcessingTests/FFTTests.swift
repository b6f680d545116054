import Foundation
import Testing
import TestSupport
@testable import SignalProcessing

@Suite struct FFTTests {
    /// X[k] = Σ x[n]·e^(−2πikn/N), evaluated directly in O(N²).
    static func naiveDFT(_ re: [Double], _ im: [Double], inverse: Bool = false) -> ([Double], [Double]) {
        let n = re.count
        var outRe = [Double](repeating: 0, count: n), outIm = [Double](repeating: 0, count: n)
        let sign = inverse ? 1.0 : -1.0
        for k in 0..<n {
            for t in 0..<n {
                let angle = sign * 2 * Double.pi * Double(k * t % n) / Double(n)
                outRe[k] += re[t] * cos(angle) - im[t] * sin(angle)
                outIm[k] += re[t] * sin(angle) + im[t] * cos(angle)
            }
        }
        return (outRe, outIm)
    }

    static let sizes = [1, 2, 3, 5, 8, 12, 64, 100, 127, 256, 1000]

    @Test("real forward FFT equals the naive DFT (Double)", arguments: sizes)
    func realDouble(n: Int) throws {
        var random = SeededRandom(seed: UInt64(n))
        let x = (0..<n).map { _ in random.unit() * 2 - 1 }
        let spectrum = try FFT(size: n).forward(x)
        let (re, im) = Self.naiveDFT(x, Array(repeating: 0, count: n))
        for k in 0...(n / 2) {
            #expect(abs(spectrum[2 * k] - re[k]) < 1e-9 * Double(n), "k=\(k)")
            #expect(abs(spectrum[2 * k + 1] - im[k]) < 1e-9 * Double(n), "k=\(k)")
        }
    }

    @Test("complex forward and inverse FFT equal the naive DFT (Double)", arguments: sizes)
    func complexDouble(n: Int) throws {
        var random = SeededRandom(seed: 99 + UInt64(n))
        let re = (0..<n).map { _ in random.unit() - 0.5 }, im = (0..<n).map { _ in random.unit() - 0.5 }
        let interleaved = zip(re, im).flatMap { [$0, $1] }
        let fft = try FFT(size: n)
        for inverse in [false, true] {
            let out = fft.transform(interleaved, inverse: inverse)
            let (expectedRe, expectedIm) = Self.naiveDFT(re, im, inverse: inverse)
            for k in 0..<n {
                #expect(abs(out[2 * k] - expectedRe[k]) < 1e-9 * Double(n))
                #expect(abs(out[2 * k + 1] - expectedIm[k]) < 1e-9 * Double(n))
            }
        }
    }

    @Test("single precision agrees with the naive DFT to float accuracy", arguments: [4, 7, 64, 480, 1024])
    func float(n: Int) throws {
        var random = SeededRandom(seed: 7 * UInt64(n))
        let x = (0..<n).map { _ in Float(random.unit() * 2 - 1) }
        let fft = try FFT(size: n)
        var spectrum = [Float](repeating: 0, count: 2 * fft.realBins)
        x.withUnsafeBufferPointer { inp in spectrum.withUnsafeMutableBufferPointer { fft.forward(inp, into: $0) } }
        let (re, im) = Self.naiveDFT(x.map(Double.init), Array(repeating: 0, count: n))
        for k in 0...(n / 2) {
            #expect(abs(Double(spectrum[2 * k]) - re[k]) < 1e-4 * Double(n).squareRoot())
            #expect(abs(Double(spectrum[2 * k + 1]) - im[k]) < 1e-4 * Double(n).squareRoot())
        }
        var back = [Float](repeating: 0, count: n)
        spectrum.withUnsafeBufferPointer { inp in back.withUnsafeMutableBufferPointer { fft.inverse(inp, into: $0) } }
        for i in 0..<n { #expect(abs(back[i] / Float(n) - x[i]) < 1e-5) }
        var complexOut = [Float](repeating: 0, count: 2 * n)
        let complexIn: [Float] = x.flatMap { [$0, Float(0)] }
        complexIn.withUnsafeBufferPointer { inp in complexOut.withUnsafeMutableBufferPointer { fft.transform(inp, into: $0) } }
        for k in 0...(n / 2) { #expect(abs(complexOut[2 * k] - spectrum[2 * k]) < 1e-3) }
    }

    @Test("Parseval: Σ|x|² = (1/N)·Σ|X|² over the full spectrum", arguments: [16, 101, 4096])
    func parseval(n: Int) throws {
        var random = SeededRandom(seed: 5)
        let x = (0..<n).map { _ in random.unit() * 2 - 1 }
        let spectrum = try FFT(size: n).forward(x)
        var energy = 0.0
        for k in 0..<(n / 2 + 1) {
            let power = spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1]
            // bins 1…⌈N/2⌉−1 stand for two conjugate bins of the full spectrum
            energy += (k == 0 || (n % 2 == 0 && k == n / 2)) ? power : 2 * power
        }
        let timeEnergy = x.reduce(0) { $0 + $1 * $1 }
        #expect(abs(energy / Double(n) - timeEnergy) < 1e-9 * timeEnergy)
    }

    @Test("inverse(forward(x)) = N·x, and the inverse preserves its input")
    func inverse() throws {
        let n = 48
        let x = (0..<n).map { sin(Double($0)) }
        let fft = try FFT(size: n)
        let spectrum = fft.forward(x)
        let copy = spectrum
        let back = fft.inverse(spectrum)
        #expect(spectrum == copy)
        for i in 0..<n { #expect(abs(back[i] / Double(n) - x[i]) < 1e-12) }
    }

    @Test("unaligned buffers give the same result as aligned ones, to rounding")
    func unaligned() throws {
        let n = 64
        let x = (0..<(n + 1)).map { cos(0.3 * Double($0)) }
        let fft = try FFT(size: n)
        let reference = fft.forward(Array(x[1...]))
        var output = [Double](repeating: 0, count: 2 * fft.realBins + 1)
        x.withUnsafeBufferPointer { all in
            output.withUnsafeMutableBufferPointer { out in
                // Offsetting by one Double breaks 16-byte alignment of both pointers.
                fft.forward(UnsafeBufferPointer(rebasing: all[1...]), into: UnsafeMutableBufferPointer(rebasing: out[1...]))
            }
        }
        // Unaligned plans may pick other codelets: equal to rounding.
        for (value, expected) in zip(output[1...], reference) { #expect(abs(value - expected) < 1e-12) }
    }

    @Test("plans are shared safely by concurrent tasks")
    func concurrency() async throws {
        let sizes = [64, 128, 100, 1024, 77, 4096, 64, 128]
        let inputs = sizes.map { n in (0..<n).map { sin(0.1 * Double($0 * n)) } }
        let serial = try zip(sizes, inputs).map { try FFT(size: $0).forward($1) }
        let concurrent = try await withThrowingTaskGroup(of: (Int, [Double]).self) { group in
            for round in 0..<8 {
                for (index, (n, x)) in zip(sizes, inputs).enumerated() {
                    group.addTask { (index, try FFT(size: n + 0 * round).forward(x)) }
                }
            }
            var results: [(Int, [Double])] = []
            for try await result in group { results.append(result) }
            return results
        }
        #expect(concurrent.count == 64)
        for (index, spectrum) in concurrent { #expect(spectrum == serial[index]) }
    }

    @Test("invalid sizes are errors")
    func invalid() {
        #expect(throws: FFTError.invalidSize(0)) { try FFT(size: 0) }
    }
}
