import InputGuards
import Dispatch

/// Fork–join for pure computations on long inputs: each piece computes what it would compute
/// alone, so the results are the same bits split over threads or not. Dispatch runs the pieces on
/// its worker threads, as many as the machine has cores (nested calls do not add threads).
public enum Parallel {
    /// `body(i)` for i in 0..<count, in index order: over Dispatch's worker threads when
    /// `parallel`, count > 1 and this thread may run on more than one processor
    /// (``Processors/usable``: Dispatch counts the machine's, so under `taskset -c 0` its workers
    /// would only take turns on the one), else one after another on this thread.
    public static func map<T: Sendable>(_ count: Int, parallel: Bool, _ body: @Sendable (Int) -> T) -> [T] {
        guard parallel, count > 1, Processors.usable > 1 else { return (0..<count).map(body) }
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
        let (a, b) = map(beside: first, 1, parallel: true) { _ in second() }
        return (a, b[0])
    }

    /// `first()` and `body(i)` for i in 0..<count: when `parallel`, `first()` on one thread
    /// while the others start on the bodies, which its thread joins once `first()` returns.
    public static func map<A: Sendable, T: Sendable>(beside first: @Sendable () -> A, _ count: Int, parallel: Bool,
                                                     _ body: @Sendable (Int) -> T) -> (A, [T]) {
        guard parallel, count > 0 else { return (first(), (0..<count).map(body)) }
        var results = map(count + 1, parallel: true) { i -> Either<A, T> in i == 0 ? .first(first()) : .second(body(i - 1)) }
        guard case .first(let a) = results.removeFirst() else { preconditionFailure("map(beside:) results out of order") }
        return (a, results.map {
            guard case .second(let value) = $0 else { preconditionFailure("map(beside:) results out of order") }
            return value
        })
    }

    private enum Either<A: Sendable, B: Sendable>: Sendable {
        case first(A)
        case second(B)
    }
}
