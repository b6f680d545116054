import Glibc

/// A value behind a POSIX mutex, with the shape of `Synchronization.Mutex.withLock`.
///
/// ThreadSanitizer intercepts `pthread_mutex_lock`, so it sees the ordering this lock gives;
/// `Synchronization.Mutex` on Linux (Swift 6.3) waits on futexes that ThreadSanitizer cannot see,
/// and every access under it is reported as a race (reproduced with four threads reading and
/// filling a `Mutex<[Box?]>`; docs/reliability.md). The toolkit's locks use this type so that a
/// ThreadSanitizer report means a real race.
public final class Locked<State>: @unchecked Sendable {
    private var state: State
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init(_ state: State) {
        self.state = state
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    public func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
