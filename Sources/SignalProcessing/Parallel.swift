import Dispatch

/// Fork–join for pure computations on long inputs: each piece computes what it would compute
/// alone, so the results are the same bits split over threads or not. Dispatch runs the pieces on
/// its worker threads, as many as the machine has cores (nested calls do not add threads).
public enum Parallel {
    /// `body(i)` for i in 0..<count, in index order: over Dispatch's worker threads when
    /// `parallel` and count > 1, else one after another on this thread.
    public static func map<T: Sendable>(_ count: Int, parallel: Bool, _ body: @Sendable (Int) -> T) -> [T] {
        guard parallel, count > 1 else { return (0..<count).map(body) }
        let results = Locked([T?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { i in
            let value = body(i)
            results.withLock { $0[i] = value }
        }
        return results.withLock { $0.map { $0! } }
    }

    /// `first()` and `second()`, the second on another thread when `parallel`.
    public static func pair<A: Sendable, B: Sendable>(parallel: Bool, _ first: @Sendable () -> A, _ second: @Sendable () -> B) -> (A, B) {
        guard parallel else { return (first(), second()) }
        let results = map(2, parallel: true) { i -> Either<A, B> in i == 0 ? .first(first()) : .second(second()) }
        guard case .first(let a) = results[0], case .second(let b) = results[1] else { preconditionFailure("pair results out of order") }
        return (a, b)
    }

    private enum Either<A: Sendable, B: Sendable>: Sendable {
        case first(A)
        case second(B)
    }
}
