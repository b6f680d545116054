import Foundation
import Glibc
import Testing
import TestSupport
@testable import Recording
import SensorData

/// The refusals of the live and device sources that come before any device or bus is touched:
/// each guard with the input it refuses and the message a user reads.
struct SourceGuardTests {
    @Test("socket addresses that are not one: each refused naming the address and what is expected", arguments: [
        ("udp:5000", "udp:5000: expected tcp:PORT, tcp:HOST:PORT or unix:PATH"),
        ("tcp:70000", "tcp:70000: expected tcp:PORT or tcp:HOST:PORT with a port 0–65535"),
        ("tcp:-1", "tcp:-1: expected tcp:PORT or tcp:HOST:PORT with a port 0–65535"),
        ("tcp::5000", "tcp::5000: expected tcp:PORT or tcp:HOST:PORT with a port 0–65535"),
        ("unix:/tmp/" + String(repeating: "s", count: 120), "socket path longer than 107 bytes"),
    ])
    func socketAddresses(address: String, message: String) {
        do {
            _ = try SocketListener(address)
            Issue.record("\(address) was taken")
        } catch {
            #expect(error.description.hasSuffix(message), "\(error.description)")
        }
    }

    @Test("a Unix socket another process listens on is refused and left alone; a stale one is replaced")
    func liveSocketIsNotTaken() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("s")
        let first = try SocketListener("unix:" + path)
        do {
            _ = try SocketListener("unix:" + path)
            Issue.record("a second listener took the socket")
        } catch {
            #expect(error.description == "unix:\(path): \(path) is a socket another process listens on")
        }
        first.shutdown()
    }

    @Test("ble: an address that is not six hex octets is refused before the bus is reached", arguments: ["ZZ", "C0:FF:EE:00:00", "C0:FF:EE:00:00:01:02", "G0:FF:EE:00:00:01", "C0FFEE000001"])
    func bluetoothAddresses(address: String) {
        do {
            _ = try BLEHeartRateSource(address: address, capacityItems: 1, reconnectSeconds: 1)
            Issue.record("\(address) was taken")
        } catch {
            #expect(error.description == "ble:\(address): not a Bluetooth address (six hex octets, C0:FF:EE:00:00:01)")
        }
    }

    @Test("iio: a kind an IIO device cannot record is refused before the device is opened", arguments: [RecorderKind.pedometer, .healthQuantity, .location, .touch])
    func iioKinds(kind: RecorderKind) {
        do {
            _ = try IIOSource(spec: "device0", root: "/nonexistent", kind: kind, frequencyHz: nil, capacityItems: 1)
            Issue.record("\(kind) was taken")
        } catch {
            #expect(error.description == "iio:device0: an IIO device records accelerometer or deviceMotion items, not \(kind.rawValue)")
        }
    }
}
