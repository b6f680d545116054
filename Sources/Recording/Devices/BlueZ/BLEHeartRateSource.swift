import Foundation
import Glibc
import InputGuards
import SensorData
import SignalProcessing

/// Heart-rate items from a Bluetooth LE strap through BlueZ over the system D-Bus: the device
/// whose `org.bluez.Device1.Address` is the one asked, its Heart Rate Measurement
/// characteristic (UUID 0x2A37, `org.bluez.GattCharacteristic1`) under it, `StartNotify`, and
/// each `PropertiesChanged` of its `Value` decoded by ``HeartRateMeasurement`` exactly as the
/// gatt-hex lines are (the rate at the notification's arrival, RR intervals to a second file).
///
/// A dropped link (`Device1.Connected` false, or the device removed) is reconnected
/// (`Device1.Connect`, then `StartNotify` again) for at most `reconnectSeconds`; each gap is said
/// with its length and counted in the file result's userInfo (`bleLinkGaps`, `bleGapSeconds`).
/// A link not restored in time, a malformed notification or a lost bus ends the recording
/// with an error naming the device; the files keep every item before it.
public final class BLEHeartRateSource: Sendable {
    /// `ble:ADDRESS` as given.
    public let address: String
    /// The address in BlueZ's form (`C0:FF:EE:00:00:01`).
    public let deviceAddress: String
    /// The device's `Name` (or `Alias`), for messages.
    public let deviceName: String
    let queue: SampleQueue
    private let bus: DBusConnection
    private let reconnectSeconds: Double
    private let paths: Locked<(device: String, characteristic: String)>
    private let outcome = Locked<(warnings: [String], gaps: Int, gapSeconds: Double)>(([], 0, 0))
    private let reader = ReaderThread()

    static let service = "org.bluez"
    static let heartRateMeasurementUUID = "00002a37-0000-1000-8000-00805f9b34fb"
    /// Method calls wait at most this long, ms (BlueZ's Connect can take seconds).
    static let callTimeout: Int32 = 5_000

    /// Finds the device and its characteristic (connecting first when it is not connected).
    public init(address: String, capacityItems: Int, reconnectSeconds: Double) throws(RecordingError) {
        self.address = "ble:\(address)"
        let normalized = address.uppercased().replacingOccurrences(of: "-", with: ":").replacingOccurrences(of: "_", with: ":")
        let hex = Set("0123456789ABCDEF")
        let octets = normalized.split(separator: ":", omittingEmptySubsequences: false)
        guard octets.count == 6, octets.allSatisfy({ $0.count == 2 && $0.allSatisfy(hex.contains) }) else {
            throw RecordingError(file: "ble:\(address)", reason: .sample("not a Bluetooth address (six hex octets, C0:FF:EE:00:00:01)"))
        }
        deviceAddress = normalized
        self.reconnectSeconds = reconnectSeconds
        do { bus = try DBusConnection() } catch {
            throw RecordingError(file: "ble:\(address)", reason: .sample("cannot reach the system bus: \(error)"))
        }
        queue = SampleQueue(capacityItems: capacityItems)
        let objects = try Self.objects(bus, for: "ble:\(address)")
        guard let device = Self.device(normalized, in: objects) else {
            let known = objects.compactMap { $0.value["org.bluez.Device1"]?.dictionary?["Address"]?.string }.sorted()
            throw RecordingError(file: "ble:\(address)", reason: .sample("BlueZ knows no device with this address (scan and pair it with bluetoothctl)"
                + (known.isEmpty ? "" : "; it knows \(known.joined(separator: ", "))")))
        }
        let properties = objects[device]?["org.bluez.Device1"]?.dictionary ?? [:]
        deviceName = properties["Name"]?.string ?? properties["Alias"]?.string ?? normalized
        var characteristic = Self.characteristic(under: device, in: objects)
        if characteristic == nil || properties["Connected"]?.boolean != true {
            characteristic = try Self.connect(bus, device: device, name: "ble:\(address)", within: reconnectSeconds)
        }
        guard let characteristic else {
            throw RecordingError(file: "ble:\(address)", reason: .sample("\(deviceName) has no Heart Rate Measurement characteristic (0x2A37)"))
        }
        paths = Locked((device, characteristic))
    }

    /// Starts the reader thread (once): subscribe, decode notifications, follow the link; then
    /// unsubscribe.
    public func start() {
        reader.start(name: "activetask.\(address)", queue: queue, read: { [self] () throws(RecordingError) in try readNotifications() },
                     release: { [self] in
                         let characteristic = paths.withLock { $0.characteristic }
                         _ = try? bus.call(Self.service, characteristic, "org.bluez.GattCharacteristic1", "StopNotify", timeoutMilliseconds: 500)
                     })
    }

    /// Stops the reader and waits up to a second for it to unsubscribe.
    public func close() { reader.stop(queue) }

    var warnings: [String] { outcome.withLock { $0.warnings } }
    var readError: RecordingError? { reader.error }
    /// Link gaps: how many, and their total length, s.
    var userInfo: [String: Double] { outcome.withLock { ["bleLinkGaps": Double($0.gaps), "bleGapSeconds": $0.gapSeconds] } }

    private func readNotifications() throws(RecordingError) {
        let (device, _) = paths.withLock { $0 }
        do {
            try bus.addMatch("type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path_namespace='\(device)'")
            try bus.addMatch("type='signal',sender='org.bluez',interface='org.freedesktop.DBus.ObjectManager',member='InterfacesRemoved'")
        } catch {
            throw RecordingError(file: address, reason: .sample("cannot subscribe to BlueZ's signals: \(error)"))
        }
        try subscribe()
        var notifications = 0
        while !queue.isClosed {
            guard bus.isConnected else { throw RecordingError(file: address, reason: .sample("the system bus connection was lost")) }
            guard let signal = bus.nextSignal(timeoutMilliseconds: 100) else { continue }
            let (device, characteristic) = paths.withLock { $0 }
            let changed = signal.member == "PropertiesChanged" ? signal.arguments.dropFirst().first?.dictionary : nil
            let interface = signal.arguments.first?.string
            if signal.path == characteristic, interface == "org.bluez.GattCharacteristic1", let value = changed?["Value"] {
                notifications += 1
                let arrival = SystemClock.wall()
                var chunk = LineDecoder.Decoded(items: SensorSeries(kind: .healthQuantity), rrIntervals: SensorSeries(kind: .healthQuantity))
                do throws(HeartRateMeasurementError) {
                    guard let bytes = value.bytes else { throw HeartRateMeasurementError("the value is not a byte array") }
                    let measurement = try HeartRateMeasurement(bytes: bytes)
                    chunk.items = measurement.heartRateItem(arrivalSeconds: arrival)
                    chunk.rrIntervals = measurement.rrSeries(arrivalSeconds: arrival)
                } catch {
                    chunk.error = RecordingError(file: address, reason: .sample("notification \(notifications) of \(deviceName): \(error.description)"))
                }
                queue.push(chunk, lines: notifications...notifications, policy: .block)
                if chunk.error != nil { return }
            } else if signal.path == device, interface == "org.bluez.Device1", changed?["Connected"]?.boolean == false {
                try restoreLink()
            } else if signal.member == "InterfacesRemoved", interface == device {
                try restoreLink()
            }
        }
    }

    /// `StartNotify` on the characteristic.
    private func subscribe() throws(RecordingError) {
        let characteristic = paths.withLock { $0.characteristic }
        do {
            _ = try bus.call(Self.service, characteristic, "org.bluez.GattCharacteristic1", "StartNotify", timeoutMilliseconds: Self.callTimeout)
        } catch {
            throw RecordingError(file: address, reason: .sample("StartNotify on \(deviceName)'s heart-rate characteristic failed: \(error)"))
        }
    }

    /// Reconnects within `reconnectSeconds` and subscribes again; the gap is said and counted.
    private func restoreLink() throws(RecordingError) {
        let lost = SystemClock.wall()
        let device = paths.withLock { $0.device }
        let characteristic = try Self.connect(bus, device: device, name: address, within: reconnectSeconds, stop: queue)
        guard let characteristic else { return }  // the recording ended while waiting
        paths.withLock { $0.characteristic = characteristic }
        try subscribe()
        let gap = SystemClock.wall() - lost
        outcome.withLock {
            $0.gaps += 1
            $0.gapSeconds += gap
            $0.warnings.append("\(address): the link dropped and was restored after \(String(format: "%.2f", gap)) s; notifications in that time are missing")
        }
    }

    // MARK: - BlueZ's objects

    /// The devices BlueZ knows (address, name), those with a heart-rate characteristic first;
    /// empty when the bus or BlueZ cannot be reached.
    /// The devices BlueZ knows, those with a heart-rate service first; an unreachable system bus
    /// or a BlueZ that does not answer is an error saying which.
    public static func devices() throws(RecordingError) -> [(address: String, name: String, heartRate: Bool)] {
        let bus: DBusConnection
        do { bus = try DBusConnection() } catch { throw RecordingError(file: "ble:", reason: .sample("the system bus cannot be reached: \(error)")) }
        let objects = try objects(bus, for: "ble:")
        return objects.keys.sorted().compactMap { path -> (String, String, Bool)? in
            guard let device = objects[path]?["org.bluez.Device1"]?.dictionary, let address = device["Address"]?.string else { return nil }
            return (address, device["Name"]?.string ?? device["Alias"]?.string ?? "", characteristic(under: path, in: objects) != nil)
        }.sorted { $0.2 && !$1.2 }
    }

    /// `GetManagedObjects` of BlueZ: object path → interface → properties.
    static func objects(_ bus: DBusConnection, for name: String) throws(RecordingError) -> [String: [String: DBusValue]] {
        let reply: [DBusValue]
        do { reply = try bus.call(service, "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", timeoutMilliseconds: callTimeout) } catch {
            throw RecordingError(file: name, reason: .sample("BlueZ (org.bluez) does not answer on the system bus: \(error)"))
        }
        return (reply.first?.dictionary ?? [:]).compactMapValues { $0.dictionary?.compactMapValues(\.self) }
    }

    static func device(_ address: String, in objects: [String: [String: DBusValue]]) -> String? {
        objects.keys.sorted().first { objects[$0]?["org.bluez.Device1"]?.dictionary?["Address"]?.string?.uppercased() == address }
    }

    static func characteristic(under device: String, in objects: [String: [String: DBusValue]]) -> String? {
        objects.keys.sorted().first {
            $0.hasPrefix(device + "/")
                && objects[$0]?["org.bluez.GattCharacteristic1"]?.dictionary?["UUID"]?.string?.lowercased() == heartRateMeasurementUUID
        }
    }

    /// Calls `Device1.Connect` and waits for the device to be connected with its services
    /// resolved and the characteristic present, retrying every half second within `seconds`;
    /// the characteristic's path, or nil when `stop` closed first. An error names the device.
    static func connect(_ bus: DBusConnection, device: String, name: String, within seconds: Double,
                        stop: SampleQueue? = nil) throws(RecordingError) -> String? {
        let deadline = SystemClock.wall() + seconds
        var lastProblem = "not connected"
        while SystemClock.wall() < deadline {
            if stop?.isClosed == true { return nil }
            let remaining = Int32(Int(clamping: (deadline - SystemClock.wall()) * 1000, to: 1...Int(Int32.max)))
            do {
                _ = try bus.call(service, device, "org.bluez.Device1", "Connect", timeoutMilliseconds: min(callTimeout, remaining))
            } catch {
                lastProblem = error.description
            }
            let objects = try Self.objects(bus, for: name)
            let properties = objects[device]?["org.bluez.Device1"]?.dictionary
            if properties == nil { lastProblem = "the device is gone from BlueZ" }
            if properties?["Connected"]?.boolean == true, let characteristic = characteristic(under: device, in: objects) {
                return characteristic
            }
            usleep(500_000)
        }
        throw RecordingError(file: name, reason: .sample("the link is down and was not restored within \(seconds.compactDescription) s (\(lastProblem))"))
    }
}
