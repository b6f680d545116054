import Glibc
import InputGuards

/// A listening TCP or Unix-domain stream socket that accepts one sender (a phone or a sensor
/// board streaming lines or PCM). The accepted connection is read like stdin.
public final class SocketListener: Sendable {
    public let name: String
    private let descriptor: Int32
    private let unixPath: String?
    /// (device, inode) of the socket this listener created: only that file is removed at the end.
    private let unixIdentity: (device: UInt64, inode: UInt64)?

    /// `tcp:PORT` (loopback only: 127.0.0.1), `tcp:HOST:PORT` (bound where asked: `tcp:0.0.0.0:5000`
    /// for every IPv4 interface, `tcp:[::1]:5000`, `tcp:sensor-hub.local:5000`), port 0 picking a
    /// free one; or `unix:PATH`. A Unix path that exists must be a stale socket (one nobody
    /// listens on), which is replaced; anything else there — a file, a folder, a live socket — is
    /// refused, never deleted.
    public init(_ specification: String) throws(RecordingError) {
        name = specification
        if specification.hasPrefix("tcp:") {
            descriptor = try Self.listenTCP(String(specification.dropFirst(4)), specification)
            unixPath = nil
            unixIdentity = nil
        } else if specification.hasPrefix("unix:"), specification.count > 5 {
            let path = String(specification.dropFirst(5))
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw RecordingError.system("socket", file: specification) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            let capacity = MemoryLayout.size(ofValue: address.sun_path)
            guard bytes.count < capacity else {
                FileSystem.close(fd)
                throw RecordingError(file: specification, reason: .sample("socket path longer than \(capacity - 1) bytes"))
            }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in bytes.enumerated() { raw[index] = byte }
            }
            do { try Self.removeStaleSocket(path, &address, specification) } catch {
                FileSystem.close(fd)
                throw error
            }
            try Self.bindAndListen(fd, &address, specification)
            guard let status = FileSystem.linkStatusIfAny(path) else {
                let error = RecordingError.system("stat", file: specification)
                FileSystem.close(fd)
                throw error
            }
            descriptor = fd
            unixPath = path
            unixIdentity = (status.device, status.inode)
        } else {
            throw RecordingError(file: specification, reason: .sample("expected tcp:PORT, tcp:HOST:PORT or unix:PATH"))
        }
    }

    /// A listening TCP socket for `PORT` (on 127.0.0.1) or `HOST:PORT` (`[v6]:PORT` for IPv6 literals).
    private static func listenTCP(_ text: String, _ specification: String) throws(RecordingError) -> Int32 {
        var host = "127.0.0.1", portText = text
        if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = String(text[text.index(after: colon)...])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        }
        guard let port = UInt16(portText), !host.isEmpty else {
            throw RecordingError(file: specification, reason: .sample("expected tcp:PORT or tcp:HOST:PORT with a port 0–65535"))
        }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else {
            throw RecordingError(file: specification, reason: .sample("cannot resolve \(host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(found) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw RecordingError.system("socket", file: specification) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0, listen(fd, 1) == 0 else {
            let error = RecordingError.system("bind/listen", file: specification)
            FileSystem.close(fd)
            throw error
        }
        return fd
    }

    /// Nothing at `path`, or a socket nobody listens on (removed). Anything else is refused.
    private static func removeStaleSocket(_ path: String, _ address: inout sockaddr_un, _ specification: String) throws(RecordingError) {
        guard let status = FileSystem.linkStatusIfAny(path) else { return }
        guard (status.mode & S_IFMT) == S_IFSOCK else {
            throw RecordingError(file: specification, reason: .sample(
                "\(path) exists and is \(status.kind), not a socket; it is not replaced"))
        }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw RecordingError.system("socket", file: specification) }
        defer { FileSystem.close(probe) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected != 0 else {
            throw RecordingError(file: specification, reason: .sample("\(path) is a socket another process listens on"))
        }
        try? FileSystem.remove(path)
    }

    /// Binds `fd` to `address` (a `sockaddr_in` or `sockaddr_un`) and listens; closes `fd` on failure.
    private static func bindAndListen<Address>(_ fd: Int32, _ address: inout Address, _ specification: String) throws(RecordingError) {
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<Address>.size)) }
        }
        guard bound == 0, listen(fd, 1) == 0 else {
            let error = RecordingError.system("bind/listen", file: specification)
            FileSystem.close(fd)
            throw error
        }
    }

    deinit {
        FileSystem.close(descriptor)
        if let unixPath, let unixIdentity, let status = FileSystem.linkStatusIfAny(unixPath), (status.device, status.inode) == unixIdentity {
            try? FileSystem.remove(unixPath)
        }
    }

    /// The bound TCP port (useful with `tcp:0`), nil for Unix sockets.
    public var port: UInt16? {
        guard unixPath == nil else { return nil }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { return nil }
        return withUnsafePointer(to: &address) { pointer in
            // sin_port and sin6_port sit at the same offset (2) of their structures.
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// The numeric address a TCP listener is bound to (`127.0.0.1` for `tcp:PORT`), nil for Unix sockets.
    public var host: String? {
        guard unixPath == nil else { return nil }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let status = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard getsockname(descriptor, pointer, &length) == 0 else { return -1 }
                return getnameinfo(pointer, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
            }
        }
        return status == 0 ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    /// Wakes a waiting `accept()` (it then fails): the recording ended before a sender came.
    public func shutdown() { Self.shutdown(connection: descriptor) }

    /// Ends both directions of an accepted connection (a reader blocked on it returns).
    public static func shutdown(connection: Int32) { _ = Glibc.shutdown(connection, Int32(SHUT_RDWR)) }

    /// Waits for one sender; the caller reads and closes the returned descriptor.
    public func accept() throws(RecordingError) -> Int32 {
        while true {
            let connection = Glibc.accept(descriptor, nil, nil)
            if connection >= 0 { return connection }
            if errno != EINTR { throw RecordingError.system("accept", file: name) }
        }
    }
}
