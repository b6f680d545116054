import Foundation
import Glibc
import Testing
import TestSupport
@testable import SensorData

/// `record accelerometer --source iio:DEVICE` through a directory tree laid out as the kernel's
/// `Documentation/ABI/testing/sysfs-bus-iio` describes it (under --iio-root), whose buffer
/// device `dev/iio:deviceN` is a FIFO the test writes scans into. Expected values are computed
/// here from the ABI's formula, (raw + offset) · scale m/s², and Core Motion's sign and unit:
/// −value / 9.80665 g.
@Suite struct IIOCommandTests {
    /// One scan-element channel of the fake device.
    struct Channel {
        var name: String
        var index: Int
        var type: String
        var enabled = false
    }

    /// A sysfs tree with one device, `iio:device0`, and its FIFO.
    struct Tree {
        let root: String
        var device: String { root + "/sys/bus/iio/devices/iio:device0" }
        var fifo: String { root + "/dev/iio:device0" }

        init(name: String = "accel_3d", channels: [Channel], attributes: [String: String]) throws {
            root = NSTemporaryDirectory() + "atk-iio-" + UUID().uuidString
            let device = root + "/sys/bus/iio/devices/iio:device0"
            for folder in [device + "/scan_elements", device + "/buffer", root + "/dev"] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            var files = ["name": name, "buffer/length": "0", "buffer/enable": "0"]
            for channel in channels {
                files["scan_elements/\(channel.name)_en"] = channel.enabled ? "1" : "0"
                files["scan_elements/\(channel.name)_index"] = String(channel.index)
                files["scan_elements/\(channel.name)_type"] = channel.type
            }
            files.merge(attributes) { $1 }
            for (path, text) in files { try (text + "\n").write(toFile: device + "/" + path, atomically: false, encoding: .utf8) }
            guard mkfifo(root + "/dev/iio:device0", 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
        }

        func read(_ attribute: String) -> String {
            ((try? String(contentsOfFile: device + "/" + attribute, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    /// Runs `activetask ARGUMENTS` while writing `scans` into the tree's FIFO (opened once the
    /// recorder has opened it for reading), then closing it: the end of the device's data.
    static func record(_ arguments: [String], tree: Tree, scans: [UInt8], pauseAfter: Int? = nil) throws -> Run {
        let writer = Thread {
            var descriptor: Int32 = -1
            for _ in 0..<2_000 {
                descriptor = open(tree.fifo, O_WRONLY | O_NONBLOCK)
                if descriptor >= 0 || errno != ENXIO { break }
                usleep(5_000)
            }
            guard descriptor >= 0 else { return }
            _ = fcntl(descriptor, F_SETFL, 0)
            scans.withUnsafeBytes { raw in
                var done = 0
                while done < raw.count {
                    let count = min(raw.count - done, pauseAfter ?? raw.count)
                    let wrote = write(descriptor, raw.baseAddress! + done, count)
                    if wrote <= 0 { break }
                    done += wrote
                    if pauseAfter != nil { usleep(20_000) }
                }
            }
            close(descriptor)
        }
        writer.start()
        return try Run(arguments + ["--iio-root", tree.root])
    }

    static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
    static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }

    /// The accelerometer items of the one file under `folder`.
    static func items(in folder: String) throws -> SensorSeries {
        let files = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter { $0.contains("accel_") }
        #expect(files.count == 1, "\(files)")
        return try #require(try JSONContents.read(folder + "/" + files[0]).series.first?.series)
    }

    static let g = 9.80665

    @Test("iio: three type strings (le:s16/16>>0, be:s12/16>>4, le:u10/16>>2) with per-axis and shared scales and offsets, the timestamp channel on CLOCK_MONOTONIC: every value equals the test's within the scale's resolution, every time its nanoseconds")
    func mixedTypesWithTimestamps() throws {
        let tree = try Tree(channels: [
            Channel(name: "in_accel_x", index: 0, type: "le:s16/16>>0"),
            Channel(name: "in_accel_y", index: 1, type: "be:s12/16>>4"),
            Channel(name: "in_accel_z", index: 2, type: "le:u10/16>>2"),
            Channel(name: "in_timestamp", index: 3, type: "le:s64/64>>0"),
            Channel(name: "in_temp", index: 4, type: "le:s16/16>>0", enabled: true),
        ], attributes: [
            "sampling_frequency": "52", "sampling_frequency_available": "12.5 26 52 104 208 416",
            "in_accel_x_scale": "0.000598", "in_accel_scale": "0.019154", "in_accel_x_offset": "0", "in_accel_y_offset": "3",
            "in_accel_offset": "-512",
            "current_timestamp_clock": "monotonic",
        ])
        defer { tree.remove() }
        // Physical values, m/s², quantized as the device would; scans of x(2) y(2) z(2) pad(2) t(8).
        let count = 300
        var bytes: [UInt8] = []
        var expected: [(x: Double, y: Double, z: Double, t: Int64)] = []
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let t0 = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        for k in 0..<count {
            let phase = Double(k) / 104
            let x = 19.5 * sin(2 * .pi * 3 * phase), y = -9.81 + 5 * cos(2 * .pi * phase), z = 4.9 * sin(2 * .pi * 0.5 * phase)
            let rawX = Int16((x / 0.000598).rounded())
            let rawY = Int16((y / 0.019154 - 3).rounded())  // 12 bits signed: −2048…2047
            let rawZ = UInt16((z / 0.019154 + 512).rounded())  // 10 bits unsigned: 0…1023
            let t = t0 + Int64(k) * 9_615_385 + Int64(k % 7)  // 104 Hz, with odd nanoseconds
            bytes += Self.littleEndian(rawX) + Self.bigEndian(UInt16(bitPattern: rawY << 4) | 0x000F) + Self.littleEndian(rawZ << 2 | 0xF003)
            bytes += [0xAA, 0xAA] + Self.littleEndian(t)
            expected.append((x, y, z, t))
        }
        let out = tree.root + "/out"
        let run = try Self.record(["record", "accelerometer", "--source", "iio:accel_3d", "--frequency", "100", "--out", out],
                                  tree: tree, scans: bytes)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("iio:device0 gives 104 Hz (asked 100 Hz)"), "\(run.stderr)")
        #expect(run.stderr.contains("scans of 16 bytes"), "\(run.stderr)")
        // The device was set as the ABI says: nearest offered frequency, our channels on, the others off, buffer off at the end.
        #expect(tree.read("sampling_frequency") == "104")
        #expect(tree.read("scan_elements/in_temp_en") == "0" && tree.read("scan_elements/in_accel_y_en") == "1")
        #expect(tree.read("buffer/enable") == "0" && tree.read("buffer/length") == "208")
        let series = try Self.items(in: out)
        #expect(series.count == count)
        let x = series["x"]!, y = series["y"]!, z = series["z"]!, time = series.time, unix = series["timestampSince1970"]!
        var offset = timespec(), wall = timespec()
        clock_gettime(CLOCK_MONOTONIC, &offset)
        clock_gettime(CLOCK_REALTIME, &wall)
        let realMinusMono = Double(wall.tv_sec - offset.tv_sec) + Double(wall.tv_nsec - offset.tv_nsec) * 1e-9
        for k in 0..<min(count, series.count) {
            let e = expected[k]
            #expect(abs(x[k] + e.x / Self.g) <= 0.000598 / 2 / Self.g + 1e-12, "scan \(k) x")
            #expect(abs(y[k] + e.y / Self.g) <= 0.019154 / 2 / Self.g + 1e-12, "scan \(k) y")
            #expect(abs(z[k] + e.z / Self.g) <= 0.019154 / 2 / Self.g + 1e-12, "scan \(k) z")
            // Monotonic to monotonic: the nanoseconds, within the offset's two clock reads (≤ 50 µs).
            #expect(abs(time[k] - Double(e.t) * 1e-9) < 5e-5, "scan \(k) time")
            #expect(abs(unix[k] - (Double(e.t) * 1e-9 + realMinusMono)) < 0.05, "scan \(k) since 1970")
        }
        // Consecutive differences keep the nanoseconds (Double at ~1e5 s holds ~15 ns).
        #expect(abs((time[1] - time[0]) - 9_615_386e-9) < 1e-7)
    }

    @Test("iio: no timestamp channel, big-endian 32-bit samples: scans timed on arrival at the device's rate; a trailing partial scan is said and left out")
    func arrivalTimes() throws {
        let tree = try Tree(channels: [
            Channel(name: "in_accel_x", index: 2, type: "be:s32/32>>0"),
            Channel(name: "in_accel_y", index: 0, type: "be:s32/32>>0"),
            Channel(name: "in_accel_z", index: 1, type: "be:s32/32>>0"),
        ], attributes: ["sampling_frequency": "50", "in_accel_scale": "0.000001"])
        defer { tree.remove() }
        let count = 100
        var bytes: [UInt8] = []
        for k in 0..<count { bytes += Self.bigEndian(Int32(-k)) + Self.bigEndian(Int32(k * 1000)) + Self.bigEndian(Int32(9_806_650)) }
        bytes += [1, 2, 3, 4, 5]
        let out = tree.root + "/out"
        let before = Date().timeIntervalSince1970
        let run = try Self.record(["record", "accelerometer", "--source", "iio:device0", "--frequency", "50", "--out", out],
                                  tree: tree, scans: bytes)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("5 trailing byte(s) do not make a whole scan of 12"), "\(run.stderr)")
        let series = try Self.items(in: out)
        #expect(series.count == count)
        // Scan order: index 0 = y, 1 = z, 2 = x.
        let y: [Double] = (0..<count).map { (k: Int) -> Double in -(Double(-k) * 1e-6) / Self.g }
        let z: [Double] = (0..<count).map { (k: Int) -> Double in -(Double(k * 1000) * 1e-6) / Self.g }
        let x = [Double](repeating: -(9_806_650 * 1e-6) / Self.g, count: count)
        #expect(series["y"]! == y)
        #expect(series["z"]! == z)
        #expect(series["x"]! == x)
        // Timed back from their arrival at 1/50 s: the 100 scans span 1.98 s and end by now.
        let unix = series["timestampSince1970"]!
        #expect(unix.first! >= before - 1.98 - 1 && unix.last! <= Date().timeIntervalSince1970, "\(unix.first!) \(before)")
        #expect(zip(unix, unix.dropFirst()).allSatisfy { $1 - $0 > 0.02 - 1e-6 }, "\(unix)")
    }

    @Test("iio: hostile sysfs values and missing devices end with exit 3 naming the attribute or the device, and leave no file", arguments: [
        ("in_accel_scale", "abc", "in_accel_scale: \"abc\" is not a number"),
        ("in_accel_scale", "1e308", "in_accel_scale: \"1e308\" is not a number in"),
        ("in_accel_scale", "nan", "is not a number in"),
        ("in_accel_scale", "-0.01", "in_accel_scale: \"-0.01\" is not a number in 1e-15…1000"),
        ("in_accel_scale", "0", "is not a number in 1e-15…1000"),
        ("scan_elements/in_accel_x_type", "le:s99/16>>0", "in_accel_x_type: \"le:s99/16>>0\" is not an IIO scan type"),
        ("scan_elements/in_accel_y_type", "le:s16/16X2>>0", "is not an IIO scan type"),
        ("scan_elements/in_accel_z_index", "99999999999999999999", "in_accel_z_index: \"99999999999999999999\" is not a whole number"),
        ("scan_elements/in_timestamp_type", "le:u32/32>>0", "not a signed 64-bit count of nanoseconds"),
        ("scan_elements/in_accel_y_index", "0", "in_accel_x and in_accel_y have the same scan index 0"),
        ("sampling_frequency", "inf", "sampling_frequency: \"inf\" is not a number"),
        ("current_timestamp_clock", "sundial", "unknown clock \"sundial\""),
        ("name", "", "name: empty"),
        ("in_accel_x_offset", "1e13", "in_accel_x_offset: \"1e13\" is not a number in"),
        ("sampling_frequency_available", "fast slow", "sampling_frequency_available: no frequency in \"fast slow\""),
        ("in_accel_scale", String(repeating: "1", count: 5_000), "in_accel_scale: longer than a sysfs attribute (4096 bytes)"),
    ])
    func hostileAttributes(attribute: String, value: String, message: String) throws {
        var attributes = ["sampling_frequency": "100", "in_accel_scale": "0.01"]
        attributes[attribute] = value
        let tree = try Tree(channels: ["x", "y", "z"].enumerated().map { Channel(name: "in_accel_\($1)", index: $0, type: "le:s16/16>>0") }
            + [Channel(name: "in_timestamp", index: 3, type: "le:s64/64>>0")], attributes: attributes)
        defer { tree.remove() }
        let out = tree.root + "/out"
        // --duration: a value wrongly taken ends the run instead of waiting for scans; --frequency
        // other than the device's: the frequency is set (from sampling_frequency_available when there is one).
        let run = try Run(["record", "accelerometer", "--source", "iio:device0", "--out", out, "--iio-root", tree.root, "--duration", "1",
                           "--frequency", "52"])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.contains("iio:device0"), "\(run.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).isEmpty)
    }

    @Test("iio: a missing device, a device without an accelerometer channel, an attribute that cannot be written: exit 3 naming it and what there is")
    func missingDevice() throws {
        let tree = try Tree(channels: [Channel(name: "in_anglvel_x", index: 0, type: "le:s16/16>>0")], attributes: [:])
        defer { tree.remove() }
        let out = tree.root + "/out"
        let missing = try Run(["record", "accelerometer", "--source", "iio:imu9", "--out", out, "--iio-root", tree.root])
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("iio:imu9: no such IIO device under") && missing.stderr.contains("there are: iio:device0 (accel_3d)"),
                "\(missing.stderr)")
        let noAxis = try Run(["record", "accelerometer", "--source", "iio:device0", "--out", out, "--iio-root", tree.root])
        #expect(noAxis.status == 3)
        #expect(noAxis.stderr.contains("iio:device0 (accel_3d) has no in_accel_x channel; it has in_anglvel_x"), "\(noAxis.stderr)")
        // An attribute that cannot be written (buffer/enable a directory): the failed call and its path, exit 3.
        let accel = try Tree(channels: ["x", "y", "z"].enumerated().map { Channel(name: "in_accel_\($1)", index: $0, type: "le:s16/16>>0") },
                             attributes: ["in_accel_scale": "0.01"])
        defer { accel.remove() }
        try FileManager.default.removeItem(atPath: accel.device + "/buffer/enable")
        try FileManager.default.createDirectory(atPath: accel.device + "/buffer/enable", withIntermediateDirectories: false)
        let unwritable = try Run(["record", "accelerometer", "--source", "iio:device0", "--out", accel.root + "/out", "--iio-root", accel.root])
        #expect(unwritable.status == 3)
        #expect(unwritable.stderr.contains("iio:device0/buffer/enable: open failed: Is a directory"), "\(unwritable.stderr)")
        let list = try Run(["record", "accelerometer", "--list-devices", "--iio-root", tree.root])
        #expect(list.status == 0 && list.stdout == "iio:device0\taccel_3d\n", "\(list.stdout)")
    }

    /// A sysfs attribute that is a FIFO would block `open` past any deadline; an IIO root that
    /// does not exist lists nothing; device names are bytes.
    @Test("iio: an attribute that is a FIFO (read or written) ends at once with exit 3 naming it; --list-devices says why it lists nothing and shows bytes as \\xHH")
    func attributesThatBlock() throws {
        for attribute in ["sampling_frequency", "buffer/enable"] {
            let tree = try Tree(channels: ["x", "y", "z"].enumerated().map { Channel(name: "in_accel_\($1)", index: $0, type: "le:s16/16>>0") },
                                attributes: ["in_accel_scale": "0.01", "sampling_frequency": "100"])
            defer { tree.remove() }
            try FileManager.default.removeItem(atPath: tree.device + "/" + attribute)
            #expect(mkfifo(tree.device + "/" + attribute, 0o600) == 0)
            let started = Date()
            let run = try Run(["record", "accelerometer", "--source", "iio:device0", "--out", tree.root + "/out", "--iio-root", tree.root, "--duration", "1"])
            #expect(run.status == 3 && run.stderr.contains(attribute) && run.stderr.contains("not a sysfs attribute"), "\(attribute): \(run.status) \(run.stderr)")
            #expect(Date().timeIntervalSince(started) < 20, "\(attribute): the run waited on the FIFO")
        }
        let nowhere = try Run(["record", "accelerometer", "--list-devices", "--iio-root", "/nonexistent/root"])
        #expect(nowhere.status == 3 && nowhere.stderr.contains("cannot list the IIO devices") && nowhere.stdout.isEmpty, "\(nowhere.stderr)")
        let tree = try Tree(channels: [Channel(name: "in_accel_x", index: 0, type: "le:s16/16>>0")], attributes: [:])
        defer { tree.remove() }
        try Data([0xFF] + Array("imu\n".utf8)).write(to: URL(fileURLWithPath: tree.device + "/name"))
        let bytes = try Run(["record", "accelerometer", "--list-devices", "--iio-root", tree.root])
        #expect(bytes.status == 0 && bytes.stdout == "iio:device0\t\\xFFimu\n", "\(bytes.stdout.debugDescription)")
        try FileManager.default.removeItem(atPath: tree.device)
        let empty = try Run(["record", "accelerometer", "--list-devices", "--iio-root", tree.root])
        #expect(empty.status == 0 && empty.stdout.isEmpty && empty.stderr.contains("no IIO device under"), "\(empty.stderr)")
    }

    @Test("iio: deviceMotion from a device with an accelerometer and a gyroscope, lying flat and turning at 0.5 rad/s: rotation rate as sent, gravity (0, 0, −1) g, user acceleration 0, attitude the yaw 0.5 t (within the filter's 1e-5)")
    func deviceMotion() throws {
        let names = ["in_accel_x", "in_accel_y", "in_accel_z", "in_anglvel_x", "in_anglvel_y", "in_anglvel_z"]
        let tree = try Tree(name: "imu6", channels: names.enumerated().map { Channel(name: $1, index: $0, type: "le:s16/16>>0") }
            + [Channel(name: "in_timestamp", index: 6, type: "le:s64/64>>0")],
            attributes: ["sampling_frequency": "100", "in_accel_scale": String(9.80665 / 16384), "in_anglvel_scale": "0.0005",
                         "current_timestamp_clock": "monotonic"])
        defer { tree.remove() }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let t0 = Int64(now.tv_sec) * 1_000_000_000
        var bytes: [UInt8] = []
        for k in 0..<200 {
            // Flat, face up: +1 g on z as IIO reads it; 1000 counts of 0.5 mrad/s about z.
            bytes += [Int16(0), 0, 16_384, 0, 0, 1_000].flatMap { Self.littleEndian($0) } + [0, 0, 0, 0] + Self.littleEndian(t0 + Int64(k) * 10_000_000)
        }
        let out = tree.root + "/out"
        let run = try Self.record(["record", "deviceMotion", "--source", "iio:imu6", "--frequency", "100", "--out", out], tree: tree, scans: bytes)
        #expect(run.status == 0, "\(run.stderr)")
        let files = (FileManager.default.enumerator(atPath: out)?.allObjects as? [String] ?? []).filter { $0.contains("deviceMotion_") }
        let file = try #require(files.first)
        let series = try #require(try JSONContents.read(out + "/" + file).series.first?.series)
        #expect(series.count == 200)
        let w = series["attitude.w"]!, z = series["attitude.z"]!, rate = series["rotationRate.z"]!
        for k in 0..<series.count {
            let theta = 0.5 * Double(k) * 0.01
            #expect(abs(w[k] - cos(theta / 2)) < 1e-5 && abs(z[k] - sin(theta / 2)) < 1e-5, "scan \(k)")
            #expect(rate[k] == 0.5)
            #expect(abs(series["gravity.z"]![k] + 1) < 1e-12 && abs(series["userAcceleration.z"]![k]) < 1e-12 && series["userAcceleration.x"]![k] == 0)
        }
    }

    @Test("iio: the buffer device goes away mid-recording (a pseudo-terminal whose master closes: poll reports an error and the data ends): exit 3 naming the device, the scans before it kept in a valid file")
    func deviceVanishes() throws {
        let tree = try Tree(channels: ["x", "y", "z"].enumerated().map { Channel(name: "in_accel_\($1)", index: $0, type: "le:s16/16>>0") },
                            attributes: ["sampling_frequency": "100", "in_accel_scale": "0.01"])
        defer { tree.remove() }
        // The node is the slave side of a raw pseudo-terminal instead of a FIFO.
        // TIOCSPTLCK and TIOCGPTN of Linux's asm-generic/ioctls.h (macros Swift does not import).
        let (unlockRequest, numberRequest): (UInt, UInt) = (0x4004_5431, 0x8004_5430)
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0, number: UInt32 = 0
        let unlocked = ioctl(master, unlockRequest, &unlock), numbered = ioctl(master, numberRequest, &number)
        #expect(master >= 0 && unlocked == 0 && numbered == 0)
        var settings = termios()
        tcgetattr(master, &settings)
        cfmakeraw(&settings)
        tcsetattr(master, TCSANOW, &settings)
        let slave = "/dev/pts/\(number)"
        try FileManager.default.removeItem(atPath: tree.fifo)
        try FileManager.default.createSymbolicLink(atPath: tree.fifo, withDestinationPath: slave)
        let scans: [UInt8] = (0..<50).flatMap { (k: Int) -> [UInt8] in (0..<3).flatMap { (axis: Int) -> [UInt8] in Self.littleEndian(Int16(k * 3 + axis)) } }
        let writer = Thread {
            usleep(500_000)
            _ = scans.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            usleep(300_000)
            close(master)
        }
        writer.start()
        let out = tree.root + "/out"
        let run = try Run(["record", "accelerometer", "--source", "iio:device0", "--out", out, "--iio-root", tree.root, "--duration", "10"])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("iio:device0 went away"), "\(run.stderr)")
        let series = try Self.items(in: out)
        let expected: [Double] = (0..<50).map { (k: Int) -> Double in -(Double(3 * k) * 0.01) / Self.g }
        #expect(series["x"]! == expected)
    }
}
