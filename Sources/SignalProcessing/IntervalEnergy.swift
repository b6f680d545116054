/// Σ x² over consecutive intervals of `length` samples of a stream fed in blocks of any size —
/// the energy behind Leq per interval (IEC 61672-1) and BS.1770's 100-ms loudness steps. Each
/// complete interval's sum is handed to the caller; a partial interval carries over to the next
/// block. Sums run in `Statistics.sumOfSquares` (sixteen partial sums).
public struct IntervalEnergy: Sendable {
    /// Samples per interval.
    public let length: Int
    /// Σ x² and count of the interval in progress.
    public internal(set) var partialSum = 0.0
    public internal(set) var partialCount = 0

    public init(length: Int) {
        self.length = max(1, length)
    }

    /// Adds `samples`; calls `completed` with Σ x² of every interval they complete, in order.
    @inlinable
    public mutating func add(_ samples: UnsafeBufferPointer<Double>, _ completed: (Double) -> Void) {
        var i = 0
        while i < samples.count {
            let end = min(samples.count, i + remaining)
            add(sumOfSquares: Statistics.sumOfSquares(UnsafeBufferPointer(rebasing: samples[i..<end])), count: end - i, completed)
            i = end
        }
    }

    /// Samples still to come in the interval in progress.
    @inlinable
    public var remaining: Int { length - partialCount }

    /// Adds Σ x² of `count` samples (at most ``remaining``) summed by the caller as
    /// ``add(_:_:)`` sums a stretch (``Statistics/sumOfSquares(_:)``); calls `completed` with the
    /// interval's sum when they complete it.
    @inlinable
    public mutating func add(sumOfSquares sum: Double, count: Int, _ completed: (Double) -> Void) {
        precondition(count >= 0 && count <= remaining, "interval energy: \(count) samples where \(remaining) complete the interval")
        accumulate(sum, count: count)
        if partialCount == length {
            completed(partialSum)
            reset()
        }
    }

    @usableFromInline
    mutating func accumulate(_ sum: Double, count: Int) {
        partialSum += sum
        partialCount += count
    }

    @usableFromInline
    mutating func reset() {
        partialSum = 0
        partialCount = 0
    }
}
