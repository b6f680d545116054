import Analysis
import InputGuards
import SensorData

/// The JSON object `activetask calibrate --json` prints, read back where an offset is asked for
/// (`[spl] calibrationFile` of a batch configuration, `hearing-test --mic-calibration FILE`): its
/// `calibrationOffsetDecibels`, a level within ±400 dB (the bound every SPL offset has,
/// ``CalibratorLevel/plausibleOffsetDecibels``), and the bytes it was read from (a result's key names them by hash).
public struct CalibrationFile: Sendable {
    /// dB SPL at an RMS of 1.0.
    public var offsetDecibels: Double
    public var bytes: [UInt8]

    /// At most 1 MiB is read: the object is a few hundred bytes.
    public init(path: String) throws(ReadError) {
        bytes = try FileBytes.read(path, maximumBytes: 1 << 20)
        let json = try JSONValue.parse(bytes, file: path)
        guard let offset = json.object?["calibrationOffsetDecibels"]?.number, CalibratorLevel.plausibleOffsetDecibels.contains(offset) else {
            throw ReadError(file: path, reason: .invalidValue(
                "no calibrationOffsetDecibels within ±400 dB (the JSON object of a calibration by `activetask calibrate`)"))
        }
        offsetDecibels = offset
    }
}
