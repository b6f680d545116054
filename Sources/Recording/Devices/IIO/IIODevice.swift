import Glibc
import InputGuards

/// A Linux Industrial I/O device set up for buffered capture, from its sysfs directory as the
/// kernel's `Documentation/ABI/testing/sysfs-bus-iio` describes it: `name`,
/// `sampling_frequency` (and `sampling_frequency_available`), per-channel `_scale`/`_offset`
/// (shared `in_accel_scale` or per axis `in_accel_x_scale`), `scan_elements/*_en`, `*_index`,
/// `*_type`, the `in_timestamp` channel and its `current_timestamp_clock`, and `buffer/length`,
/// `buffer/enable`; scans are read from the character device `/dev/iio:deviceN`.
///
/// Every path is looked up under a root prefix (`ROOT/sys/bus/iio/devices/…`, `ROOT/dev/…`),
/// `/` on a real system, so a test can lay out a whole tree. Sysfs values are input like any
/// file: a value that is not a number, not finite or out of range, a type string the ABI does
/// not define, or a short read is an error naming the attribute's path.
public struct IIODevice: Sendable {
    /// One enabled channel of the scan.
    public struct Channel: Sendable, Hashable {
        /// `in_accel_x`, `in_anglvel_z`, `in_timestamp`, …
        public var name: String
        /// `scan_elements/NAME_index`: the channel's order in the scan.
        public var index: Int
        public var type: IIOScanType
        /// Byte offset in the scan (each channel aligned to its storage size).
        public var offset: Int
        /// Units per count after `offset` (`NAME_scale` or its type's shared scale; 1 when absent).
        public var scale: Double
        /// Counts added before scaling (`_offset`; 0 when absent).
        public var rawOffset: Double
    }

    /// `iio:deviceN`.
    public let id: String
    /// The device's `name` attribute.
    public let name: String
    /// `ROOT/sys/bus/iio/devices/iio:deviceN`.
    public let directory: String
    /// `ROOT/dev/iio:deviceN`.
    public let node: String
    /// The sampling frequency the device runs at, Hz (nil: it has no `sampling_frequency`).
    public let samplingFrequencyHz: Double?
    /// The enabled channels in scan order (the timestamp channel last when enabled).
    public let channels: [Channel]
    /// Bytes per scan: the channels, each aligned to its storage, padded to the largest alignment.
    public let scanBytes: Int
    /// The clock of the timestamp channel (`current_timestamp_clock`; realtime when absent).
    public let timestampClock: clockid_t
    /// What differs from what was asked (frequency, missing scale), said to the user.
    public let warnings: [String]

    /// The devices under `root`: (`iio:deviceN`, its `name`), in directory order.
    public static func devices(root: String = "/") -> [(id: String, name: String)] {
        (try? listDevices(root: root)) ?? []
    }

    /// ``devices(root:)``, or why the devices folder cannot be listed (no IIO here, a wrong `root`).
    public static func listDevices(root: String = "/") throws(RecordingError) -> [(id: String, name: String)] {
        let folder = devicesFolder(root)
        let listing: DirectoryListing.Listing
        switch DirectoryListing.names(in: folder) {
        case .success(let found): listing = found
        case .failure(let refusal): throw RecordingError(file: folder, reason: .sample("cannot list the IIO devices: \(refusal.description)"))
        }
        return listing.names.filter { $0.hasPrefix("iio:device") }.sorted().map { id in
            (id, (try? attribute("\(folder)/\(id)/name")) ?? "")
        }
    }

    /// Finds device `spec` (its directory, `iio:device0` or `device0`, or its `name` attribute)
    /// under `root`, enables channels `wanted` and the timestamp channel (every other channel
    /// disabled), sets the sampling frequency nearest `frequencyHz` that the device offers, sizes
    /// the buffer for `bufferSeconds` and enables it.
    public static func open(_ spec: String, root: String, wanted: [String], frequencyHz: Double?,
                            bufferSeconds: Double = 2) throws(RecordingError) -> IIODevice {
        let folder = devicesFolder(root)
        let ids = devices(root: root)
        let id: String
        if let match = ids.first(where: { $0.id == spec || $0.id == "iio:" + spec }) {
            id = match.id
        } else if let match = ids.first(where: { $0.name == spec }) {
            id = match.id
        } else {
            let known = ids.map { "\($0.id) (\($0.name))" }.joined(separator: ", ")
            throw RecordingError(file: "iio:\(spec)", reason: .sample("no such IIO device under \(folder)"
                + (known.isEmpty ? " (there are none)" : "; there are: \(known)")))
        }
        let directory = "\(folder)/\(id)"
        let node = root.hasSuffix("/") ? "\(root)dev/\(id)" : "\(root)/dev/\(id)"
        var warnings: [String] = []
        let name = try attribute("\(directory)/name")
        // Channels and the buffer length can only change while the buffer is off.
        try write("0", to: "\(directory)/buffer/enable", device: id)

        let frequency = try setFrequency(directory: directory, device: id, asked: frequencyHz, warnings: &warnings)

        let elements = "\(directory)/scan_elements"
        guard case .success(let listing) = DirectoryListing.names(in: elements) else {
            throw RecordingError(file: elements, reason: .sample("\(id) has no scan_elements: it does not support buffered capture"))
        }
        let available = Set(listing.names.filter { $0.hasSuffix("_en") }.map { String($0.dropLast(3)) })
        for channel in wanted where !available.contains(channel) {
            throw RecordingError(file: elements, reason: .sample("\(id) (\(name)) has no \(channel) channel; it has "
                + (available.isEmpty ? "none" : available.sorted().joined(separator: ", "))))
        }
        let enable = Set(wanted + (available.contains("in_timestamp") ? ["in_timestamp"] : []))
        for channel in available.sorted() {
            try write(enable.contains(channel) ? "1" : "0", to: "\(elements)/\(channel)_en", device: id)
        }
        var channels: [Channel] = []
        for channel in enable.sorted() {
            let enabled = try attribute("\(elements)/\(channel)_en")
            guard enabled == "1" else {
                throw RecordingError(file: "\(elements)/\(channel)_en", reason: .sample("\(id) did not enable \(channel) (reads \"\(enabled)\")"))
            }
            let index = try integer("\(elements)/\(channel)_index", in: 0...4_095)
            let typePath = FileSystem.statusIfAny("\(elements)/\(channel)_type") != nil ? "\(elements)/\(channel)_type"
                : "\(elements)/\(sharedPrefix(channel))_type"
            let typeText = try attribute(typePath)
            guard let type = IIOScanType(typeText) else {
                throw RecordingError(file: typePath, reason: .sample("\"\(typeText)\" is not an IIO scan type ([be|le]:[s|u]BITS/STORAGE>>SHIFT, storage 8, 16, 32 or 64)"))
            }
            var scale = 1.0, rawOffset = 0.0
            if channel != "in_timestamp" {
                if let value = try optionalNumber(directory, channel, "scale", in: 1e-15...1e3) {
                    scale = value
                } else {
                    warnings.append("\(id): no \(channel)_scale or \(sharedPrefix(channel))_scale; counts taken as the channel's unit")
                }
                rawOffset = try optionalNumber(directory, channel, "offset", in: -1e12...1e12) ?? 0
            } else if type.storageBits != 64 || !type.signed {
                throw RecordingError(file: typePath, reason: .sample("the timestamp channel is \(type), not a signed 64-bit count of nanoseconds"))
            }
            channels.append(Channel(name: channel, index: index, type: type, offset: 0, scale: scale, rawOffset: rawOffset))
        }
        channels.sort { $0.index < $1.index }
        for (a, b) in zip(channels, channels.dropFirst()) where a.index == b.index {
            throw RecordingError(file: elements, reason: .sample("\(a.name) and \(b.name) have the same scan index \(a.index)"))
        }
        var offset = 0
        for k in channels.indices {
            let size = channels[k].type.storageBytes
            offset = (offset + size - 1) / size * size
            channels[k].offset = offset
            offset += size
        }
        let alignment = channels.map(\.type.storageBytes).max() ?? 1
        let scanBytes = (offset + alignment - 1) / alignment * alignment

        var clock = CLOCK_REALTIME
        let clockPath = "\(directory)/current_timestamp_clock"
        if FileSystem.statusIfAny(clockPath) != nil {
            let clockName = try attribute(clockPath)
            guard let known = clocks[clockName] else {
                throw RecordingError(file: clockPath, reason: .sample("unknown clock \"\(clockName)\" (\(clocks.keys.sorted().joined(separator: ", ")))"))
            }
            clock = known
        }
        // Two seconds of scans in the kernel's buffer (at least 64, at most 2^20).
        let scans = Int(clamping: (frequency ?? 100) * bufferSeconds, rounding: .up, to: 64...(1 << 20))
        try write(String(scans), to: "\(directory)/buffer/length", device: id)
        try write("1", to: "\(directory)/buffer/enable", device: id)
        return IIODevice(id: id, name: name, directory: directory, node: node, samplingFrequencyHz: frequency, channels: channels,
                         scanBytes: scanBytes, timestampClock: clock, warnings: warnings)
    }

    /// Turns the buffer off (the device free for another reader); errors are not reported, as
    /// the device may be gone.
    public func disable() {
        try? Self.write("0", to: "\(directory)/buffer/enable", device: id)
    }

    // MARK: - Sysfs

    static func devicesFolder(_ root: String) -> String {
        (root.hasSuffix("/") ? String(root.dropLast()) : root) + "/sys/bus/iio/devices"
    }

    static let clocks: [String: clockid_t] = [
        "realtime": CLOCK_REALTIME, "monotonic": CLOCK_MONOTONIC, "monotonic_raw": CLOCK_MONOTONIC_RAW,
        "realtime_coarse": CLOCK_REALTIME_COARSE, "monotonic_coarse": CLOCK_MONOTONIC_COARSE, "boottime": CLOCK_BOOTTIME,
        "tai": CLOCK_TAI,
    ]

    /// `in_accel_x` → `in_accel` (the prefix of attributes shared by a type's channels).
    static func sharedPrefix(_ channel: String) -> String {
        guard let cut = channel.lastIndex(of: "_") else { return channel }
        return String(channel[..<cut])
    }

    /// A sysfs attribute's text without its trailing newline (at most 4096 bytes, sysfs's page).
    static func attribute(_ path: String) throws(RecordingError) -> String {
        // Opened without blocking and only if it is a regular file: an attribute that is a FIFO
        // would block open (and the recording's deadline) until a writer came.
        let descriptor: Int32
        do { descriptor = try RegularFile.openForReading(path, systemViews: true) } catch {
            throw RecordingError(file: path, reason: .sample("not a sysfs attribute: \(error.description)"))
        }
        defer { FileSystem.close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4_097)
        let count: Int
        do { count = try FileSystem.read(descriptor, path: path, into: &buffer) } catch { throw RecordingError.system(error) }
        guard count <= 4_096 else { throw RecordingError(file: path, reason: .sample("longer than a sysfs attribute (4096 bytes)")) }
        var text = Array(buffer[..<count])
        while let last = text.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: " ") || last == 0 { text.removeLast() }
        guard !text.isEmpty else { throw RecordingError(file: path, reason: .sample("empty (a short read?)")) }
        return FileName.string(decoding: text)
    }

    /// Writes `value` to a sysfs attribute; EBUSY says the device is in use.
    static func write(_ value: String, to path: String, device: String) throws(RecordingError) {
        var regular = true
        do {
            // Non-blocking, and only a regular file: a FIFO without a reader fails at once (ENXIO).
            let descriptor = try FileSystem.open(path, flags: O_WRONLY | O_TRUNC | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
            defer { FileSystem.close(descriptor) }
            regular = try FileSystem.status(descriptor: descriptor, path: path).mode & S_IFMT == S_IFREG
            if regular { try FileSystem.write(descriptor, path: path, Array(value.utf8), at: 0) }
        } catch {
            if error.code == EBUSY { throw RecordingError(file: path, reason: .sample("\(device) is busy (another program is capturing from it)")) }
            if error.code == ENXIO { throw RecordingError(file: path, reason: .sample("not a sysfs attribute (a FIFO or a device without a reader); not written")) }
            throw RecordingError.system(error)
        }
        guard regular else { throw RecordingError(file: path, reason: .sample("not a sysfs attribute (not a regular file); not written")) }
    }

    /// A finite number in `range` at `path`.
    static func number(_ path: String, in range: ClosedRange<Double>) throws(RecordingError) -> Double {
        let text = try attribute(path)
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw RecordingError(file: path, reason: .sample("\"\(text.prefix(40))\" is not a number in \(range.lowerBound.compactDescription)…\(range.upperBound.compactDescription)"))
        }
        return value
    }

    static func integer(_ path: String, in range: ClosedRange<Int>) throws(RecordingError) -> Int {
        let text = try attribute(path)
        guard let value = Int(text), range.contains(value) else {
            throw RecordingError(file: path, reason: .sample("\"\(text.prefix(40))\" is not a whole number in \(range.lowerBound)…\(range.upperBound)"))
        }
        return value
    }

    /// `DIR/CHANNEL_SUFFIX`, else `DIR/SHARED_SUFFIX` (`in_accel_scale`), else nil.
    static func optionalNumber(_ directory: String, _ channel: String, _ suffix: String,
                               in range: ClosedRange<Double>) throws(RecordingError) -> Double? {
        for path in ["\(directory)/\(channel)_\(suffix)", "\(directory)/\(sharedPrefix(channel))_\(suffix)"]
        where FileSystem.statusIfAny(path) != nil {
            return try number(path, in: range)
        }
        return nil
    }

    /// Sets `sampling_frequency` to the value of `sampling_frequency_available` nearest `asked`
    /// (or `asked` itself when the list is absent) and returns what the device then reads; a
    /// difference from `asked` is a warning.
    static func setFrequency(directory: String, device: String, asked: Double?, warnings: inout [String]) throws(RecordingError) -> Double? {
        let path = "\(directory)/sampling_frequency"
        guard FileSystem.statusIfAny(path) != nil else {
            if asked != nil { warnings.append("\(device) has no sampling_frequency; the rate is taken from the timestamps") }
            return nil
        }
        let range = 1e-3...1e6
        var current = try number(path, in: range)
        guard let asked, abs(current / asked - 1) > 1e-9 else { return current }
        var target = asked
        let listPath = path + "_available"
        if FileSystem.statusIfAny(listPath) != nil {
            let text = try attribute(listPath)
            let values = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }.filter { $0.isFinite && range.contains($0) }
            guard !values.isEmpty else { throw RecordingError(file: listPath, reason: .sample("no frequency in \"\(text.prefix(60))\"")) }
            target = values.min { abs($0 - asked) < abs($1 - asked) }!
        }
        try write(target.compactDescription, to: path, device: device)
        current = try number(path, in: range)
        if abs(current / asked - 1) > 1e-9 {
            warnings.append("\(device) gives \(current.compactDescription) Hz (asked \(asked.compactDescription) Hz)")
        }
        return current
    }
}
