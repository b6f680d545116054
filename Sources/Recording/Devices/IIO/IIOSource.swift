import Foundation
import Glibc
import InputGuards
import SensorData
import SignalProcessing

/// Accelerometer or device-motion items from a Linux IIO device's buffer (``IIODevice``), read
/// on their own thread into the same bounded queue as the line sources, so the recorder, its
/// flushing and its crash-safety are those of every live source.
///
/// Units: the ABI's processed value is `(raw + offset) · scale`, in m/s² for `in_accel_*` and rad/s
/// for `in_anglvel_*`. ResearchKit's accelerations are in g with Core Motion's sign (a device at
/// rest reads −1 g on the axis pointing up, where IIO, like Android, reads +9.81 m/s²), so
/// x, y, z = −processed / 9.80665 (standard gravity, 3rd CGPM 1901); rates keep their sign (both
/// follow the right-hand rule about the device's axes). The mounting matrix is not applied: the
/// axes are the sensor's.
///
/// Device motion (a device with both an accelerometer and a gyroscope): `rotationRate` is the
/// gyroscope; `attitude` comes from ``OrientationFilter`` (Madgwick's IMU filter, β 0.1), `gravity`
/// is the "up" it predicts with Core Motion's sign (−up, in g) and `userAcceleration` the
/// acceleration less that gravity; the magnetic field is not measured (left out).
///
/// Time: with the timestamp channel enabled (it is whenever the device has one), each scan's
/// nanoseconds on `current_timestamp_clock` are carried onto `CLOCK_MONOTONIC` for `timestamp`
/// (seconds since boot, as Core Motion's) and `CLOCK_REALTIME` for `timestampSince1970`, by the
/// clocks' offsets read when the source opens; without it, scans are timed on arrival, spaced by
/// the sampling frequency.
public final class IIOSource: Sendable {
    public let device: IIODevice
    /// `iio:SPEC` as given.
    public let address: String
    let queue: SampleQueue
    private let descriptor: Int32
    private let expectedHz: Double?
    private let warningList = Locked<[String]>([])
    private let reader = ReaderThread()

    /// The accelerometer channels read, in item order, and the gyroscope's.
    static let accelerometerChannels = ["in_accel_x", "in_accel_y", "in_accel_z"]
    static let gyroscopeChannels = ["in_anglvel_x", "in_anglvel_y", "in_anglvel_z"]
    let kind: RecorderKind
    /// Standard gravity, m/s² (3rd CGPM, 1901).
    static let standardGravity = 9.80665

    /// Opens device `spec` under `root` (``IIODevice/open(_:root:wanted:frequencyHz:bufferSeconds:)``)
    /// and its character device; reading starts with `start()`.
    public init(spec: String, root: String, kind: RecorderKind, frequencyHz: Double?, capacityItems: Int) throws(RecordingError) {
        guard kind == .accelerometer || kind == .deviceMotion else {
            throw RecordingError(file: "iio:\(spec)", reason: .sample("an IIO device records accelerometer or deviceMotion items, not \(kind.rawValue)"))
        }
        let wanted = Self.accelerometerChannels + (kind == .deviceMotion ? Self.gyroscopeChannels : [])
        let device = try IIODevice.open(spec, root: root, wanted: wanted, frequencyHz: frequencyHz)
        self.kind = kind
        do {
            descriptor = try FileSystem.open(device.node, flags: O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        } catch {
            device.disable()
            throw RecordingError(file: device.node, reason: .system(call: "open", message: "\(error.reason) (the buffer of \(device.id))"))
        }
        self.device = device
        address = "iio:\(spec)"
        expectedHz = device.samplingFrequencyHz ?? frequencyHz
        queue = SampleQueue(capacityItems: capacityItems)
        warningList.withLock { $0 = device.warnings }
    }

    deinit { FileSystem.close(descriptor) }

    /// `configuration` with the frequency the device runs at (the file result's userInfo says
    /// what was recorded, not what was asked).
    public func configuration(_ configuration: RecorderConfiguration) -> RecorderConfiguration {
        var result = configuration
        result.frequencyHz = device.samplingFrequencyHz ?? configuration.frequencyHz
        return result
    }

    /// Starts the reader thread (once): poll the buffer, decode whole scans, queue them, until
    /// the device ends (a FIFO's writer closes), fails or vanishes, or `close()`; then the
    /// device's buffer is turned off.
    public func start() {
        reader.start(name: "activetask.\(address)", queue: queue, read: { [self] () throws(RecordingError) in try readScans() },
                     release: { [device] in device.disable() })
    }

    /// Stops the reader and waits up to a second for it to turn the device's buffer off.
    public func close() { reader.stop(queue) }

    var warnings: [String] { warningList.withLock { $0 } }
    var readError: RecordingError? { reader.error }

    private func readScans() throws(RecordingError) {
        let scan = device.scanBytes
        let axes = Self.accelerometerChannels.map { name in device.channels.first { $0.name == name }! }
        let rates = kind == .deviceMotion ? Self.gyroscopeChannels.map { name in device.channels.first { $0.name == name }! } : []
        var filter = OrientationFilter()
        var previousTime: Double?
        let stamp = device.channels.first { $0.name == "in_timestamp" }
        let clocks = ClockOffsets(source: device.timestampClock)
        var rate = expectedHz.map { RateMonitor(expectedHz: $0) }
        // 512 scans per read; bytes of a partial scan wait for the rest.
        var buffer = [UInt8](repeating: 0, count: scan * 512)
        var pending = 0
        var scansRead = 0
        while !queue.isClosed {
            let events: FileSystem.PollEvents
            do { events = try FileSystem.poll(descriptor, path: device.node, milliseconds: 100) } catch { throw .system(error) }
            if events.error, !events.readable {
                throw RecordingError(file: device.node, reason: .sample("\(device.id) went away (poll reports an error)"))
            }
            guard events.readable || events.hangUp else { continue }
            let read = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(FileSystem.Failure) in
                    try FileSystem.read(descriptor, path: device.node, into: UnsafeMutableRawBufferPointer(rebasing: raw[pending...]))
                }
            }
            let count: Int
            do { count = try read.get() } catch {
                if error.code == EAGAIN { continue }
                throw RecordingError(file: device.node, reason: .system(call: "read", message: "\(error.reason) (\(device.id) went away?)"))
            }
            if count == 0 {
                // The end of the data: a FIFO's writer closing (hang-up alone) ends the recording; a
                // device that reports an error as well has gone away (a real IIO buffer never ends).
                if events.error {
                    throw RecordingError(file: device.node, reason: .sample("\(device.id) went away (its buffer ended with an error)"))
                }
                if pending > 0 {
                    warningList.withLock { $0.append("\(device.node): \(pending) trailing byte(s) do not make a whole scan of \(scan); left out") }
                }
                return
            }
            pending += count
            let whole = pending / scan
            guard whole > 0 else { continue }
            let arrival = SystemClock.wall()
            var items = SensorSeries(kind: kind)
            buffer.withUnsafeBytes { raw in
                for k in 0..<whole {
                    let record = UnsafeRawBufferPointer(rebasing: raw[(k * scan)..<((k + 1) * scan)])
                    /// The ABI's processed value: (raw + offset) · scale.
                    func processed(_ channel: IIODevice.Channel) -> Double {
                        let counts = channel.type.value(UnsafeRawBufferPointer(rebasing: record[channel.offset...]))
                        return (Double(counts) + channel.rawOffset) * channel.scale
                    }
                    let (boot, unix): (Double, Double)
                    if let stamp {
                        (boot, unix) = clocks.carry(nanoseconds: stamp.type.value(UnsafeRawBufferPointer(rebasing: record[stamp.offset...])))
                    } else {
                        let spacing = expectedHz.map { 1 / $0 } ?? 0
                        unix = arrival - Double(whole - 1 - k) * spacing
                        boot = unix - clocks.realtimeMinusMonotonic
                    }
                    let force = (x: processed(axes[0]), y: processed(axes[1]), z: processed(axes[2]))
                    let g = Self.standardGravity
                    guard kind == .deviceMotion else {
                        items.append(numbers: [boot, unix, -force.x / g, -force.y / g, -force.z / g])
                        continue
                    }
                    let rate = (x: processed(rates[0]), y: processed(rates[1]), z: processed(rates[2]))
                    // Δt from the timestamps; the sampling period when they are absent, equal, reversed or a second apart.
                    let period = 1 / (expectedHz ?? 100)
                    let step = previousTime.map { boot - $0 }.flatMap { $0 > 0 && $0 <= 1 ? $0 : nil } ?? period
                    previousTime = boot
                    filter.update(gyro: rate, accel: force, seconds: step)
                    let q = filter.q, up = filter.up
                    items.append(numbers: [boot, unix, q.x, q.y, q.z, q.w, rate.x, rate.y, rate.z, -up.x, -up.y, -up.z,
                                           up.x - force.x / g, up.y - force.y / g, up.z - force.z / g, .nan, .nan, .nan, .nan])
                }
            }
            let range = (scansRead + 1)...(scansRead + whole)
            scansRead += whole
            if var monitor = rate {
                monitor.observe(items.time, lines: range)
                if monitor.warnings.count != rate?.warnings.count { warningList.withLock { $0 = device.warnings + monitor.warnings } }
                rate = monitor
            }
            let rest = pending - whole * scan
            if rest > 0 { buffer.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[(whole * scan)..<pending])) } }
            pending = rest
            queue.push(LineDecoder.Decoded(items: items, rrIntervals: SensorSeries(kind: .healthQuantity), error: nil), lines: range, policy: .block)
        }
    }
}

/// The offsets that carry a time on one clock onto the monotonic clock (seconds since boot) and
/// the realtime clock (Unix time), read once, back to back.
struct ClockOffsets {
    let sourceToMonotonic: Double
    let sourceToRealtime: Double
    let realtimeMinusMonotonic: Double

    init(source: clockid_t) {
        let (real, mono, other) = (SystemClock.wall(), SystemClock.monotonic(), SystemClock.seconds(source))
        sourceToMonotonic = mono - other
        sourceToRealtime = real - other
        realtimeMinusMonotonic = real - mono
    }

    /// (seconds since boot, Unix seconds) of `nanoseconds` on the source clock; whole seconds
    /// and the remainder are converted apart, so nanoseconds survive in the remainder.
    func carry(nanoseconds: Int64) -> (Double, Double) {
        let seconds = Double(nanoseconds / 1_000_000_000), fraction = Double(nanoseconds % 1_000_000_000) * 1e-9
        return ((seconds + sourceToMonotonic) + fraction, (seconds + sourceToRealtime) + fraction)
    }
}
