import Testing
@testable import Recording

/// GATT 0x2A37 layouts worked by hand from the characteristic's field definitions.
@Suite struct HeartRateMeasurementTests {
    @Test("UInt8 rate with contact detected: 06 48 → 72 bpm, contact true")
    func uint8() throws {
        let m = try HeartRateMeasurement(hex: "06 48")
        #expect(m.beatsPerMinute == 72 && m.sensorContact == true && m.energyExpendedKilojoules == nil && m.rrIntervalsSeconds.isEmpty)
        #expect(try HeartRateMeasurement(hex: "04 48").sensorContact == false)  // supported, not detected
        #expect(try HeartRateMeasurement(hex: "00 48").sensorContact == nil)  // not supported
    }

    @Test("UInt16 rate, energy and two RR intervals: 19 2C01 3412 0004 4A04 → 300 bpm, 4660 kJ, 1.0 s and 1.072265625 s")
    func full() throws {
        let m = try HeartRateMeasurement(hex: "19:2C:01:34:12:00:04:4A:04")
        #expect(m.beatsPerMinute == 300)  // 0x012C
        #expect(m.energyExpendedKilojoules == 0x1234)
        let rr: [Double] = [1024 / 1024, 1098 / 1024]
        #expect(m.rrIntervalsSeconds == rr)
    }

    @Test("malformed values are errors that say what is wrong, one per guard", arguments: [
        ("", "\"\" is not an even number of hex digits"),
        ("1", "\"1\" is not an even number of hex digits"),
        ("zz", "\"zz\" is not a hex byte"),
        ("00", "no heart-rate value"),
        ("01 48", "value ends inside a 16-bit field at byte 1"),
        ("08 48 01", "value ends inside a 16-bit field at byte 2"),
        ("10 48 00", "RR intervals: 1 bytes is not a whole number of 16-bit values"),
        ("00 48 00", "1 unexpected trailing byte(s)"),
    ])
    func malformed(hex: String, message: String) {
        #expect(throws: HeartRateMeasurementError(message)) { try HeartRateMeasurement(hex: hex) }
    }
}
