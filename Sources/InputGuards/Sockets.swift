import Glibc

/// The one place the toolkit calls the socket API (socket, bind, listen, accept, connect,
/// getaddrinfo, setsockopt, getsockname, shutdown): stream sockets that listen for one sender,
/// every failure a ``Failure`` naming the call, the address and the typed ``Errno``. The policy
/// (which addresses, what to do with a stale Unix socket) is the caller's.
public enum Sockets {
    /// A socket call that failed.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The call (`bind`, `getaddrinfo`, …).
        public var operation: String
        /// The address it was for, as given (`127.0.0.1:5000`, a Unix path).
        public var address: String
        /// The error number (nil where the call reports its own text, as getaddrinfo does).
        public var errno: Errno?
        /// The system's reason.
        public var reason: String

        init(_ operation: String, _ address: String, _ errno: Errno) {
            (self.operation, self.address, self.errno, reason) = (operation, address, errno, errno.description)
        }

        init(_ operation: String, _ address: String, reason: String) {
            (self.operation, self.address, errno, self.reason) = (operation, address, nil, reason)
        }

        public var description: String { "\(operation) \(FileName.display(address)): \(reason)" }
    }

    /// A stream socket listening (backlog 1) on `host`'s first address for `port` (0: a free
    /// one); `SO_REUSEADDR` set, close-on-exec.
    public static func listenTCP(host: String, port: UInt16) throws(Failure) -> Int32 {
        let name = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else { throw Failure("getaddrinfo", host, reason: String(cString: gai_strerror(status))) }
        defer { freeaddrinfo(found) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket", name, .current) }
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else { throw closing(fd, Failure("bind", name, .current)) }
        guard listen(fd, 1) == 0 else { throw closing(fd, Failure("listen", name, .current)) }
        return fd
    }

    /// The longest Unix socket path, bytes.
    public static let unixPathCapacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// A stream socket listening (backlog 1) at Unix path `path`, which must not exist.
    public static func listenUnix(path: String) throws(Failure) -> Int32 {
        var address = try unixAddress(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket", path, .current) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw closing(fd, Failure("bind", path, .current)) }
        guard listen(fd, 1) == 0 else { throw closing(fd, Failure("listen", path, .current)) }
        return fd
    }

    /// Whether a process accepts connections at Unix path `path` (a connect that succeeds; the
    /// connection is closed at once).
    public static func isListening(unixPath path: String) throws(Failure) -> Bool {
        var address = try unixAddress(path)
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw Failure("socket", path, .current) }
        defer { FileSystem.close(probe) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return connected == 0
    }

    /// Waits for one connection on listening socket `fd` (retried when a signal interrupts it);
    /// the caller reads and closes the returned descriptor.
    public static func accept(_ fd: Int32, address: String) throws(Failure) -> Int32 {
        while true {
            let connection = Glibc.accept(fd, nil, nil)
            if connection >= 0 { return connection }
            let failure = Errno.current
            if failure != .interrupted { throw Failure("accept", address, failure) }
        }
    }

    /// Ends both directions of `fd` (a reader or an `accept` blocked on it returns).
    public static func shutdown(_ fd: Int32) { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    /// The port and numeric host a TCP socket is bound to; nil when it has none.
    public static func boundAddress(_ fd: Int32) -> (port: UInt16, host: String)? {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let status = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard getsockname(fd, pointer, &length) == 0 else { return -1 }
                return getnameinfo(pointer, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
            }
        }
        guard status == 0, Int32(address.ss_family) == AF_INET || Int32(address.ss_family) == AF_INET6 else { return nil }
        // sin_port and sin6_port sit at the same offset (2) of their structures.
        let port = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) } }
        return (port, String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    private static func unixAddress(_ path: String) throws(Failure) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count <= unixPathCapacity else { throw Failure("bind", path, reason: "socket path longer than \(unixPathCapacity) bytes") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return address
    }

    private static func closing(_ fd: Int32, _ failure: Failure) -> Failure {
        FileSystem.close(fd)
        return failure
    }
}
