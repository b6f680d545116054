import SensorData

/// The Bluetooth Heart Rate Measurement characteristic (GATT 0x2A37; Bluetooth SIG Heart Rate
/// Service 1.0 and the GATT Specification Supplement, §3.113): a flags byte, then the heart rate
/// (UInt8, or UInt16 little-endian when flag bit 0 is set), the energy expended (UInt16 kJ, when
/// bit 3 is set) and RR intervals (UInt16 little-endian in 1/1024 s, as many as remain, when bit 4 is set).
public struct HeartRateMeasurement: Sendable, Hashable {
    /// Beats per minute.
    public var beatsPerMinute: Int
    /// Sensor contact: nil when the sensor does not report it (flag bit 2 clear).
    public var sensorContact: Bool?
    /// Cumulative energy expended, kJ.
    public var energyExpendedKilojoules: Int?
    /// RR intervals, s (raw value / 1024).
    public var rrIntervalsSeconds: [Double]

    /// Parses one characteristic value; nil message-free errors are thrown as text.
    public init(bytes: [UInt8]) throws(HeartRateMeasurementError) {
        guard let flags = bytes.first else { throw .init("empty value") }
        var offset = 1
        func uint16() throws(HeartRateMeasurementError) -> Int {
            guard offset + 2 <= bytes.count else { throw .init("value ends inside a 16-bit field at byte \(offset)") }
            defer { offset += 2 }
            return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
        }
        if flags & 0x01 != 0 {
            beatsPerMinute = try uint16()
        } else {
            guard bytes.count > 1 else { throw .init("no heart-rate value") }
            beatsPerMinute = Int(bytes[1])
            offset = 2
        }
        sensorContact = flags & 0x04 != 0 ? flags & 0x02 != 0 : nil
        energyExpendedKilojoules = flags & 0x08 != 0 ? try uint16() : nil
        rrIntervalsSeconds = []
        if flags & 0x10 != 0 {
            guard (bytes.count - offset) % 2 == 0 else { throw .init("RR intervals: \(bytes.count - offset) bytes is not a whole number of 16-bit values") }
            while offset < bytes.count { rrIntervalsSeconds.append(Double(try uint16()) / 1024) }
        } else if offset != bytes.count {
            throw .init("\(bytes.count - offset) unexpected trailing byte(s)")
        }
    }

    /// Parses a hex line such as `16 48 00 04` or `16480004` (case-insensitive; spaces, `:` and `-` ignored).
    public init(hex line: String) throws(HeartRateMeasurementError) {
        let digits = line.filter { !" :-\t".contains($0) }
        guard digits.count % 2 == 0, !digits.isEmpty else { throw .init("\"\(line)\" is not an even number of hex digits") }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else { throw .init("\"\(digits[index..<next])\" is not a hex byte") }
            bytes.append(byte)
            index = next
        }
        try self.init(bytes: bytes)
    }
}

extension HeartRateMeasurement {
    /// The heart rate as a HealthKit heart-rate item (`count/min`) at the notification's arrival.
    public func heartRateItem(arrivalSeconds: Double) -> SensorSeries {
        var item = SensorSeries(kind: .healthQuantity)
        item.append(numbers: [.nan, arrivalSeconds, arrivalSeconds, .nan, Double(beatsPerMinute), .nan],
                    strings: ["HKQuantityTypeIdentifierHeartRate", nil, nil, "count/min", nil, "Bluetooth heart-rate sensor"])
        return item
    }

    /// The RR intervals as health-quantity items of type `RRInterval` (unit `s`), one per beat:
    /// the notification's arrival is taken as the last beat, so the k-th of n intervals ends at
    /// arrival − (the intervals after it) and starts its own length earlier. Beat times are thus
    /// approximate (by the sensor's notification latency); the intervals themselves are exact
    /// to 1/1024 s.
    public func rrSeries(arrivalSeconds: Double) -> SensorSeries {
        var series = SensorSeries(kind: .healthQuantity)
        var end = arrivalSeconds - rrIntervalsSeconds.reduce(0, +)
        for interval in rrIntervalsSeconds {
            end += interval
            series.append(numbers: [.nan, end - interval, end, .nan, interval, .nan],
                          strings: ["RRInterval", nil, nil, "s", nil, "Bluetooth heart-rate sensor"])
        }
        return series
    }
}

public struct HeartRateMeasurementError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
