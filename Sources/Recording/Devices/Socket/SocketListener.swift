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
            let (host, port) = try Self.tcpAddress(String(specification.dropFirst(4)), specification)
            descriptor = try Self.calling(specification) { () throws(Sockets.Failure) in try Sockets.listenTCP(host: host, port: port) }
            unixPath = nil
            unixIdentity = nil
        } else if specification.hasPrefix("unix:"), specification.count > 5 {
            let path = String(specification.dropFirst(5))
            try Self.removeStaleSocket(path, specification)
            let fd = try Self.calling(specification) { () throws(Sockets.Failure) in try Sockets.listenUnix(path: path) }
            guard let status = FileSystem.linkStatusIfAny(path) else {
                FileSystem.close(fd)
                throw RecordingError(file: specification, reason: .sample("the socket \(path) vanished as it was bound"))
            }
            descriptor = fd
            unixPath = path
            unixIdentity = (status.device, status.inode)
        } else {
            throw RecordingError(file: specification, reason: .sample("expected tcp:PORT, tcp:HOST:PORT or unix:PATH"))
        }
    }

    /// `body`'s value, its failure as the recording error of `specification`.
    private static func calling<Value>(_ specification: String, _ body: () throws(Sockets.Failure) -> Value) throws(RecordingError) -> Value {
        do { return try body() } catch {
            throw RecordingError(file: specification, reason: error.errno == nil && error.operation != "getaddrinfo"
                ? .sample(error.reason) : .system(call: error.operation, message: error.reason))
        }
    }

    /// The host (127.0.0.1 for `PORT`) and port of `PORT` or `HOST:PORT` (`[v6]:PORT` for IPv6 literals).
    private static func tcpAddress(_ text: String, _ specification: String) throws(RecordingError) -> (host: String, port: UInt16) {
        var host = "127.0.0.1", portText = text
        if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = String(text[text.index(after: colon)...])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        }
        guard let port = UInt16(portText), !host.isEmpty else {
            throw RecordingError(file: specification, reason: .sample("expected tcp:PORT or tcp:HOST:PORT with a port 0–65535"))
        }
        return (host, port)
    }

    /// Nothing at `path`, or a socket nobody listens on (removed). Anything else is refused.
    private static func removeStaleSocket(_ path: String, _ specification: String) throws(RecordingError) {
        guard let status = FileSystem.linkStatusIfAny(path) else { return }
        guard (status.mode & S_IFMT) == S_IFSOCK else {
            throw RecordingError(file: specification, reason: .sample(
                "\(path) exists and is \(status.kind), not a socket; it is not replaced"))
        }
        guard try !calling(specification, { () throws(Sockets.Failure) in try Sockets.isListening(unixPath: path) }) else {
            throw RecordingError(file: specification, reason: .sample("\(path) is a socket another process listens on"))
        }
        try? FileSystem.remove(path)
    }

    deinit {
        FileSystem.close(descriptor)
        if let unixPath, let unixIdentity, let status = FileSystem.linkStatusIfAny(unixPath), (status.device, status.inode) == unixIdentity {
            try? FileSystem.remove(unixPath)
        }
    }

    /// The bound TCP port (useful with `tcp:0`), nil for Unix sockets.
    public var port: UInt16? { unixPath == nil ? Sockets.boundAddress(descriptor)?.port : nil }

    /// The numeric address a TCP listener is bound to (`127.0.0.1` for `tcp:PORT`), nil for Unix sockets.
    public var host: String? { unixPath == nil ? Sockets.boundAddress(descriptor)?.host : nil }

    /// Wakes a waiting `accept()` (it then fails): the recording ended before a sender came.
    public func shutdown() { Sockets.shutdown(descriptor) }

    /// Ends both directions of an accepted connection (a reader blocked on it returns).
    public static func shutdown(connection: Int32) { Sockets.shutdown(connection) }

    /// Waits for one sender; the caller reads and closes the returned descriptor.
    public func accept() throws(RecordingError) -> Int32 {
        try Self.calling(name) { () throws(Sockets.Failure) in try Sockets.accept(descriptor, address: name) }
    }
}
