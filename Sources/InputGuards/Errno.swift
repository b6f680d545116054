import Glibc

/// A system call's error number, typed (as swift-system's `Errno`): the value `errno` held when
/// the call failed, with the system's text for it.
public struct Errno: RawRepresentable, Error, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno` now (read right after the failed call).
    public static var current: Errno { Errno(rawValue: errno) }

    /// EINTR: a signal interrupted the call; it is retried.
    public static let interrupted = Errno(rawValue: EINTR)

    /// The system's reason (`Connection refused`).
    public var description: String { String(cString: strerror(rawValue)) }
}
