import Testing
import TestSupport
@testable import SignalProcessing

/// Two adjacent order statistics by three-way partitions (CKernels' atk_order_pair) against a sort.
@Suite struct OrderStatisticsTests {
    /// `values` in the orders that strain a partition: random, sorted, reversed, organ pipe, all
    /// equal, few distinct values with ±0.
    static func orders(_ n: Int, _ random: inout SeededRandom) -> [[Double]] {
        let noise = (0..<n).map { _ in random.unit() - 0.5 }
        let few = (0..<n).map { _ in [-1.0, -0.0, 0.0, 2.5][random.below(4)] }
        let sorted = noise.sorted()
        return [noise, sorted, Array(sorted.reversed()), sorted.enumerated().map { $0.offset % 2 == 0 ? $0.element : -$0.element },
                [Double](repeating: 0.25, count: n), few, (0..<n).map { Double($0 % 7) }]
    }

    @Test("the k-th and (k + 1)-th smallest equal a sort's, every k, 2 to 70 values and 257, 491 and 2,000 values at sampled k, in seven orders (random, sorted, reversed, organ pipe, all equal, four values with ±0, a sawtooth)")
    func againstSort() {
        var random = SeededRandom(seed: 1961)
        for n in Array(2...70) + [257, 491, 2_000] {
            for values in Self.orders(n, &random) {
                let sorted = values.sorted()
                let ks = n <= 70 ? Array(0..<n - 1) : [0, 1, n / 3, (n + 1) / 2 - 1, n / 2, n - 3, n - 2]
                for k in ks {
                    var a = values, scratch = [Double](repeating: .nan, count: n)
                    let (kth, next) = a.withUnsafeMutableBufferPointer { a in
                        scratch.withUnsafeMutableBufferPointer { OrderStatistics.adjacent(a, k, scratch: $0) }
                    }
                    #expect(kth == sorted[k] && next == sorted[k + 1], "n \(n), k \(k): \(kth), \(next) against \(sorted[k]), \(sorted[k + 1])")
                }
            }
        }
    }
}
