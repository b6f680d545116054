import Foundation
import Glibc
import Testing
import TestSupport
@testable import SensorData

/// `record heartRate --source ble:ADDRESS` through the real libdbus-1 against a real
/// `dbus-daemon` on a private bus (DBUS_SYSTEM_BUS_ADDRESS), where `Tests/Devices/bluez-heart-rate.py`
/// (python3-dbus) stands in for BlueZ: a strap's Device1, GattService1 and 0x2A37
/// GattCharacteristic1, notifications played from a script, links dropped and restored.
@Suite(.serialized, .enabled(if: Peer.dbus.runs, Peer.dbus.skipMessage))
struct BLEHeartRateTests {
    static let address = "C0:FF:EE:00:00:01"

    /// A private bus and the BlueZ stand-in on it, playing `events`.
    final class Bus {
        let folder: String
        let daemon = Process()
        let service = Process()
        var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(folder)/bus"
            return environment
        }

        init(events: [[String: Any]]) throws {
            folder = NSTemporaryDirectory() + "atk-ble-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
            daemon.arguments = ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(folder)/bus"]
            daemon.standardOutput = FileHandle.nullDevice
            try daemon.run()
            for _ in 0..<500 where !FileManager.default.fileExists(atPath: folder + "/bus") { usleep(10_000) }
            let script = ["address": BLEHeartRateTests.address, "name": "Strap 1", "interval": 0.02, "events": events] as [String: Any]
            try JSONSerialization.data(withJSONObject: script).write(to: URL(fileURLWithPath: folder + "/script.json"))
            service.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            service.arguments = [SharedData.packageRoot.appendingPathComponent("Tests/Devices/bluez-heart-rate.py").path, folder + "/script.json"]
            service.environment = environment
            let ready = Pipe()
            service.standardOutput = ready
            try service.run()
            // READY once the stand-in owns org.bluez.
            let line = ready.fileHandleForReading.availableData
            guard String(decoding: line, as: UTF8.self).hasPrefix("READY") else { throw CocoaError(.executableLoad) }
        }

        /// SIGKILL: the children inherit the signal mask of the test's thread, on which SIGTERM may be blocked.
        func stop() {
            for process in [service, daemon] where process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(atPath: folder)
        }

        func record(_ arguments: [String]) throws -> Run {
            try Run(["record", "heartRate"] + arguments + ["--out", folder + "/out"], environment: environment)
        }

        /// The `value` column of the file result named `identifier` in `run`'s output.
        func values(_ run: Run, _ identifier: String) throws -> [Double] {
            let results = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
            guard let name = results.first(where: { $0["identifier"] as? String == identifier })?["fileName"] as? String else { return [] }
            return try #require(try JSONContents.read(folder + "/out/" + name).series.first?.series)["value"] ?? []
        }
    }

    /// Notification `flags` (bits 0–4 of the 0x2A37 flags byte) with its fields: the rate (16-bit
    /// when bit 0 is set, over 255 then), energy when bit 3, two RR intervals when bit 4.
    static func measurement(flags: Int) -> (hex: String, beatsPerMinute: Double, rrSeconds: [Double]) {
        func uint16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        let rate = flags & 1 != 0 ? 300 + flags : 60 + flags
        var bytes = [UInt8(flags)] + (flags & 1 != 0 ? uint16(rate) : [UInt8(rate)])
        if flags & 8 != 0 { bytes += uint16(1000 + flags) }
        let rr = flags & 16 != 0 ? [800 + flags, 1100 - flags] : []
        for value in rr { bytes += uint16(value) }
        return (bytes.map { String(format: "%02x", $0) }.joined(), Double(rate), rr.map { Double($0) / 1024 })
    }

    @Test("ble: all 32 combinations of the flag bits (8/16-bit rate, contact, energy, RR), the link dropped and restored between them: every rate and RR interval recorded as sent, the gap said and counted")
    func everyFlagAndALinkDrop() throws {
        guard Peer.dbus.require() != nil else { return }
        let sent = (0..<32).map(Self.measurement)
        var events: [[String: Any]] = sent.prefix(16).map { ["value": $0.hex] }
        events.append(["drop": true])
        events += sent.suffix(16).map { ["value": $0.hex] }
        let bus = try Bus(events: events)
        defer { bus.stop() }
        let run = try bus.record(["--source", "ble:c0-ff-ee-00-00-01", "--duration", "4"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("heart-rate notifications of Strap 1 (C0:FF:EE:00:00:01) through BlueZ"), "\(run.stderr)")
        #expect(run.stderr.contains("ble:c0-ff-ee-00-00-01: the link dropped and was restored after"), "\(run.stderr)")
        #expect(try bus.values(run, "heartRate") == sent.map(\.beatsPerMinute))
        // The reader orders RR items by their beat times, which overlap between notifications 20 ms apart.
        #expect(try bus.values(run, "heartRateRRIntervals").sorted() == sent.flatMap(\.rrSeconds).sorted())
        let results = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let info = try #require(results.first?["userInfo"] as? [String: Any])
        #expect(info["bleLinkGaps"] as? Double == 1)
        #expect((info["bleGapSeconds"] as? Double).map { $0 > 0 && $0 < 3 } == true, "\(info)")
    }

    @Test("ble: a malformed notification (RR bytes not whole 16-bit values) ends the recording with exit 3 naming the device and the notification; the items before it are kept")
    func malformedNotification() throws {
        guard Peer.dbus.require() != nil else { return }
        let bus = try Bus(events: [["value": "0648"], ["value": "064b"], ["value": "104801"], ["value": "0650"]])
        defer { bus.stop() }
        let run = try bus.record(["--source", "ble:\(Self.address)", "--duration", "10"])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("ble:\(Self.address): notification 3 of Strap 1: RR intervals: 1 bytes is not a whole number of 16-bit values"),
                "\(run.stderr)")
        #expect(try bus.values(run, "heartRate") == [72, 75])
    }

    @Test("ble: the device removed and never back: exit 3 after --reconnect-seconds, naming the device; the items before are kept")
    func deviceVanishes() throws {
        guard Peer.dbus.require() != nil else { return }
        let bus = try Bus(events: [["value": "0648"], ["value": "064b"], ["remove": true]])
        defer { bus.stop() }
        let run = try bus.record(["--source", "ble:\(Self.address)", "--duration", "20", "--reconnect-seconds", "1"])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("ble:\(Self.address): the link is down and was not restored within 1 s (the device is gone from BlueZ)"),
                "\(run.stderr)")
        #expect(try bus.values(run, "heartRate") == [72, 75])
    }

    @Test("ble: an address BlueZ does not know, an address that is not one, no bus at all: exit 3 saying which, no file")
    func badDevices() throws {
        guard Peer.dbus.require() != nil else { return }
        let bus = try Bus(events: [])
        defer { bus.stop() }
        let unknown = try bus.record(["--source", "ble:AA:BB:CC:DD:EE:FF"])
        #expect(unknown.status == 3)
        #expect(unknown.stderr.contains("ble:AA:BB:CC:DD:EE:FF: BlueZ knows no device with this address (scan and pair it with bluetoothctl); it knows C0:FF:EE:00:00:01"),
                "\(unknown.stderr)")
        let malformed = try bus.record(["--source", "ble:C0:FF:EE:00:00"])
        #expect(malformed.status == 3 && malformed.stderr.contains("not a Bluetooth address"), "\(malformed.stderr)")
        var environment = bus.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(bus.folder)/no-bus"
        let noBus = try Run(["record", "heartRate", "--source", "ble:\(Self.address)", "--out", bus.folder + "/out"], environment: environment)
        #expect(noBus.status == 3 && noBus.stderr.contains("ble:\(Self.address): cannot reach the system bus"), "\(noBus.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: bus.folder + "/out")) ?? []).isEmpty)
        let list = try Run(["record", "heartRate", "--list-devices"], environment: bus.environment)
        #expect(list.status == 0 && list.stdout == "C0:FF:EE:00:00:01\tStrap 1\theart rate\n", "\(list.stdout)")
    }
}
