import AudioIO
import Testing

/// `NonFiniteSamples.zero` scans a block 16 (Float) or 8 (Double) lanes at a time by exponent bits;
/// these cases put each kind of value in the vector body and in the scalar tail, next to the
/// finite values whose exponents come closest (largest finite, subnormals, −0).
@Suite struct NonFiniteSamplesTests {
    static let specials: [Double] = [.nan, -.nan, .infinity, -.infinity, .signalingNaN]
    static let finite: [Double] = [0, -0.0, 1, -1, 1e-40, -1e-300, .leastNonzeroMagnitude, 3.4e38, -1.7e308]

    /// The values as Float; Double's extremes become Float's largest finite magnitude, and
    /// the specials stay what they are.
    static func floats(_ values: [Double]) -> [Float] {
        values.map { value in
            let float = Float(value)
            return value.isFinite && !float.isFinite ? (value < 0 ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude) : float
        }
    }

    @Test("every NaN and ±∞ is found and zeroed, at every position of the vector body and the tail; finite values are kept")
    func findsEachSpecial() {
        for length in [1, 7, 8, 15, 16, 17, 33, 40] {
            for position in 0..<length {
                for special in Self.specials {
                    var doubles = (0..<length).map { Self.finite[$0 % Self.finite.count] }
                    doubles[position] = special
                    var floats = Self.floats(doubles)
                    let expectedFloats = floats.enumerated().map { $0.offset == position ? 0 : $0.element }
                    let expectedDoubles = doubles.enumerated().map { $0.offset == position ? 0 : $0.element }
                    let foundFloat = floats.withUnsafeMutableBufferPointer { NonFiniteSamples.zero($0, count: length) }
                    let foundDouble = doubles.withUnsafeMutableBufferPointer { NonFiniteSamples.zero($0, count: length) }
                    #expect(foundFloat == 1 && foundDouble == 1, "length \(length), position \(position), \(special)")
                    #expect(floats.map(\.bitPattern) == expectedFloats.map(\.bitPattern))
                    #expect(doubles.map(\.bitPattern) == expectedDoubles.map(\.bitPattern))
                }
            }
        }
    }

    @Test("a block of only finite extremes reports 0 and is unchanged; count limits the scan")
    func finiteUnchanged() {
        var doubles = (0..<100).map { Self.finite[$0 % Self.finite.count] }
        var floats = Self.floats(doubles)
        let (before, beforeFloats) = (doubles, floats)
        #expect(doubles.withUnsafeMutableBufferPointer { NonFiniteSamples.zero($0, count: 100) } == 0)
        #expect(floats.withUnsafeMutableBufferPointer { NonFiniteSamples.zero($0, count: 100) } == 0)
        #expect(doubles.map(\.bitPattern) == before.map(\.bitPattern))
        #expect(floats.map(\.bitPattern) == beforeFloats.map(\.bitPattern))
        doubles[50] = .nan
        floats[50] = .nan
        #expect(doubles.withUnsafeMutableBufferPointer { NonFiniteSamples.zero($0, count: 50) } == 0)
        #expect(floats.withUnsafeMutableBufferPointer { NonFiniteSamples.zero($0, count: 50) } == 0)
        #expect(floats.withUnsafeMutableBufferPointer { NonFiniteSamples.zero($0, count: 1_000) } == 1)
    }
}
