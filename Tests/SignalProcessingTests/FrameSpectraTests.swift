import Testing
import TestSupport
@testable import SignalProcessing

/// CKernels' spectra.c against the scalar expressions they replace, one value at a time: the same
/// bits (each sum one chain in index order, no fused multiply-add).
@Suite struct FrameSpectraTests {
    @Test("window and power equal x·w and re² + im² bit for bit, every length up to 40 and strides 1 and 8")
    func windowAndPower() {
        var random = SeededRandom(seed: 8_000)
        for n in 0...40 {
            let x = (0..<2 * n).map { _ in random.unit() * 3 - 1.5 }, w = (0..<2 * n).map { _ in random.unit() }
            var windowed = [Double](repeating: .nan, count: 2 * n)
            FrameSpectra.window(x, by: w, into: &windowed, count: 2 * n)
            #expect(windowed == zip(x, w).map { $0 * $1 }, "n = \(n)")
            for stride in [1, 8] {
                let count: Int = max(0, (n - 1) * stride + 1)
                var power = [Double](repeating: .nan, count: count)
                FrameSpectra.power(x, bins: n, into: &power, stride: stride)
                let expected = (0..<n).map { k -> Double in
                    let re = x[2 * k], im = x[2 * k + 1]
                    return re * re + im * im
                }
                let written: [Double] = (0..<n).map { power[$0 * stride] }
                #expect(written == expected, "n = \(n), stride \(stride)")
            }
        }
    }

    @Test("eight frames' power spectra side by side equal re² + im² of each frame's bin bit for bit, every bin count up to 40 (whole blocks of eight and the rest)")
    func powerLanes() {
        var random = SeededRandom(seed: 8_003)
        for bins in 0...40 {
            // Frame l's transform at 2·bins·l of one buffer.
            let spectra = (0..<8 * 2 * bins).map { _ in random.unit() * 3 - 1.5 }
            var lanes = [Double](repeating: .nan, count: 8 * bins)
            spectra.withUnsafeBufferPointer { buffer in
                let pointers = (0..<8).map { l in buffer.baseAddress.map { UnsafePointer($0 + 2 * bins * l) } }
                FrameSpectra.powerLanes(pointers, bins: bins, into: &lanes)
            }
            for k in 0..<bins {
                for l in 0..<8 {
                    let re = spectra[2 * bins * l + 2 * k], im = spectra[2 * bins * l + 2 * k + 1]
                    #expect(lanes[8 * k + l] == re * re + im * im, "bins \(bins), bin \(k), frame \(l)")
                }
            }
        }
    }

    @Test("band sums of eight frames equal each band's Σ w·x over its run in bin order bit for bit; odd band counts, overlapping, empty and one-bin bands")
    func bandSums() {
        var random = SeededRandom(seed: 8_001)
        let bins = 37
        for bands in [1, 2, 5, 8] {
            var weights = [Double](repeating: 0, count: bands * bins)
            for band in 0..<bands where band != 2 {  // band 2 has no weight
                let first = Int(random.unit() * Double(bins - 1)), length = band == 3 ? 1 : 1 + Int(random.unit() * 12)
                for k in first..<min(bins, first + length) { weights[band * bins + k] = random.unit() }
            }
            let lanes = (0..<8 * bins).map { _ in random.unit() * 1e3 }
            var out = [Double](repeating: .nan, count: 8 * bands)
            BandWeights(weights: weights, bands: bands, bins: bins).sums(lanes, into: &out)
            for band in 0..<bands {
                let row = weights[band * bins..<(band + 1) * bins]
                let run: Range<Int> = row.firstIndex { $0 != 0 }.map { first in (first - band * bins)..<(row.lastIndex { $0 != 0 }! - band * bins + 1) } ?? 0..<0
                for lane in 0..<8 {
                    var sum = 0.0
                    for k in run { sum += lanes[8 * k + lane] * weights[band * bins + k] }
                    #expect(out[8 * band + lane] == sum, "band \(band) of \(bands), lane \(lane)")
                }
            }
        }
    }

    @Test("a lane matrix applied to frames equals each row's Σ m·x in column order bit for bit, 1 to 20 rows")
    func laneMatrix() {
        var random = SeededRandom(seed: 8_002)
        let columns = 13, frames = 3
        for rows in [1, 7, 8, 9, 20] {
            let m = (0..<rows * columns).map { _ in random.unit() - 0.5 }
            let x = (0..<frames * columns).map { _ in random.unit() * 100 }
            let matrix = LaneMatrix(rows: rows, columns: columns, m)
            var out = [Double](repeating: .nan, count: frames * 8 * matrix.groups)
            matrix.apply(x, count: frames, into: &out)
            for f in 0..<frames {
                for r in 0..<rows {
                    var sum = 0.0
                    for n in 0..<columns { sum += x[f * columns + n] * m[r * columns + n] }
                    #expect(out[f * 8 * matrix.groups + r] == sum, "rows \(rows), frame \(f), row \(r)")
                }
            }
        }
    }
}
