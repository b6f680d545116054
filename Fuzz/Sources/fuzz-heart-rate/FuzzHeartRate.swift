// The Bluetooth Heart Rate Measurement value (GATT 0x2A37) and its hex-line form: either a
// measurement whose fields fit the value's length, or an error with a message.
import FuzzSupport
import Recording

@main
enum FuzzHeartRate {
    static func main() { FuzzDriver.run(fuzzHeartRate) }
}

func fuzzHeartRate(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, count)
    do throws(HeartRateMeasurementError) {
        let measurement = try HeartRateMeasurement(bytes: bytes)
        // Flags byte + heart rate (1 or 2) + energy (0 or 2) + 2 per RR interval.
        let flags = bytes[0]
        let expected = 1 + (flags & 0x01 != 0 ? 2 : 1) + (flags & 0x08 != 0 ? 2 : 0) + 2 * measurement.rrIntervalsSeconds.count
        if expected != bytes.count { fatalError("parsed \(expected) of \(bytes.count) bytes") }
        _ = measurement.heartRateItem(arrivalSeconds: 1).count
        _ = measurement.rrSeries(arrivalSeconds: 1).count
    } catch {
        if error.description.isEmpty { fatalError("empty error message") }
    }
    do throws(HeartRateMeasurementError) {
        _ = try HeartRateMeasurement(hex: String(decoding: bytes, as: UTF8.self))
    } catch {
        if error.description.isEmpty { fatalError("empty error message") }
    }
    return 0
}
