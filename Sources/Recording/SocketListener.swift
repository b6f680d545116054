import Glibc

/// A listening TCP or Unix-domain stream socket that accepts one sender (a phone or a sensor
/// board streaming lines or PCM). The accepted connection is read like stdin.
public final class SocketListener: Sendable {
    public let name: String
    private let descriptor: Int32
    private let unixPath: String?

    /// `tcp:PORT` (all IPv4 interfaces; port 0 picks a free one) or `unix:PATH`.
    public init(_ specification: String) throws(RecordingError) {
        name = specification
        if specification.hasPrefix("tcp:"), let port = UInt16(specification.dropFirst(4)) {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw RecordingError.system("socket", file: specification) }
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = in_addr(s_addr: INADDR_ANY)
            try Self.bindAndListen(fd, &address, specification)
            descriptor = fd
            unixPath = nil
        } else if specification.hasPrefix("unix:"), specification.count > 5 {
            let path = String(specification.dropFirst(5))
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw RecordingError.system("socket", file: specification) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            let capacity = MemoryLayout.size(ofValue: address.sun_path)
            guard bytes.count < capacity else {
                close(fd)
                throw RecordingError(file: specification, reason: .sample("socket path longer than \(capacity - 1) bytes"))
            }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in bytes.enumerated() { raw[index] = byte }
            }
            unlink(path)
            try Self.bindAndListen(fd, &address, specification)
            descriptor = fd
            unixPath = path
        } else {
            throw RecordingError(file: specification, reason: .sample("expected tcp:PORT or unix:PATH"))
        }
    }

    /// Binds `fd` to `address` (a `sockaddr_in` or `sockaddr_un`) and listens; closes `fd` on failure.
    private static func bindAndListen<Address>(_ fd: Int32, _ address: inout Address, _ specification: String) throws(RecordingError) {
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<Address>.size)) }
        }
        guard bound == 0, listen(fd, 1) == 0 else {
            let error = RecordingError.system("bind/listen", file: specification)
            close(fd)
            throw error
        }
    }

    deinit {
        close(descriptor)
        if let unixPath { unlink(unixPath) }
    }

    /// The bound TCP port (useful with `tcp:0`), nil for Unix sockets.
    public var port: UInt16? {
        guard unixPath == nil else { return nil }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return result == 0 ? UInt16(bigEndian: address.sin_port) : nil
    }

    /// Wakes a waiting `accept()` (it then fails): the recording ended before a sender came.
    public func shutdown() { _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }

    /// Waits for one sender; the caller reads and closes the returned descriptor.
    public func accept() throws(RecordingError) -> Int32 {
        while true {
            let connection = Glibc.accept(descriptor, nil, nil)
            if connection >= 0 { return connection }
            if errno != EINTR { throw RecordingError.system("accept", file: name) }
        }
    }
}
