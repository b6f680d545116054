import Analysis
import Foundation
import SensorData
import Testing

/// ResearchKit's range-of-motion angles (docs/analyses.md §7.1) on attitudes made by rotating about
/// one device axis, where the step's pitch or roll is the rotation angle itself; every expected
/// value is worked out by hand from ORKRangeOfMotionStepViewController's rules.
@Suite struct RangeOfMotionTests {
    /// Attitude columns of rotations by `base + relative[i]` degrees about the x (pitch) or y (roll) axis.
    static func columns(aboutX: Bool, base: Double, relative: [Double]) -> (x: [Double], y: [Double], z: [Double], w: [Double]) {
        let halves = relative.map { (base + $0) * .pi / 360 }
        let s = halves.map { sin($0) }, c = halves.map { cos($0) }
        let zero = [Double](repeating: 0, count: relative.count)
        return aboutX ? (s, zero, zero, c) : (zero, s, zero, c)
    }

    static func analyze(aboutX: Bool = true, base: Double, relative: [Double], _ orientation: RangeOfMotion.Orientation = .portrait) throws -> RangeOfMotion.Result {
        let q = columns(aboutX: aboutX, base: base, relative: relative)
        return try #require(RangeOfMotion.analyze(x: q.x, y: q.y, z: q.z, w: q.w, orientation: orientation))
    }

    static func expect(_ result: RangeOfMotion.Result, start: Double, finish: Double, minimum: Double, maximum: Double, range: Double) {
        let pairs = [("start", result.startDegrees, start), ("finish", result.finishDegrees, finish), ("minimum", result.minimumDegrees, minimum),
                     ("maximum", result.maximumDegrees, maximum), ("range", result.rangeDegrees, range)]
        for (name, value, expected) in pairs {
            #expect(abs(value - expected) <= 1e-9, "\(name): \(value), by hand \(expected)")
        }
    }

    @Test("a knee flexion in portrait: start 90° less the first pitch, extremes the wrong way round as the step reports them")
    func kneeFlexion() throws {
        // Pitch 30° at the start, then 0, −10, −40, −70, −50, −20 relative to it: the largest
        // relative angle stays 0, the smallest is −70, the last −20.
        let result = try Self.analyze(base: 30, relative: [0, -10, -40, -70, -50, -20])
        Self.expect(result, start: 60, finish: 80, minimum: 60, maximum: 130, range: 70)
        #expect(result.samples == 6 && result.skipped == 0)
    }

    @Test("the smallest angle is replaced while it is exactly 0: 0, 10, 20, 5 track 5, not 0")
    func minimumQuirk() throws {
        let result = try Self.analyze(base: 0, relative: [0, 10, 20, 5])
        Self.expect(result, start: 90, finish: 85, minimum: 70, maximum: 85, range: 15)
    }

    @Test("a relative angle in (90°, 180°] becomes |angle| − 360°")
    func shiftedRange() throws {
        let result = try Self.analyze(base: 0, relative: [0, 60, 120])
        Self.expect(result, start: 90, finish: 330, minimum: 30, maximum: 330, range: 300)
    }

    @Test("landscape reads the roll: a rotation about the y axis")
    func landscapeRoll() throws {
        let result = try Self.analyze(aboutX: false, base: 10, relative: [0, 25, 45, 30], .landscape)
        Self.expect(result, start: 80, finish: 50, minimum: 35, maximum: 55, range: 20)
    }

    @Test("samples with a quaternion not finite or far from unit length are left out and counted; none usable gives nil")
    func unusableSamples() throws {
        var q = Self.columns(aboutX: true, base: 30, relative: [0, -10, -40, -70, -50, -20])
        // A NaN row first, then an all-zero row: neither may become the reference.
        q.x = [.nan, 0] + q.x
        q.y = [0, 0] + q.y
        q.z = [0, 0] + q.z
        q.w = [1, 0] + q.w
        let result = try #require(RangeOfMotion.analyze(x: q.x, y: q.y, z: q.z, w: q.w, orientation: .portrait))
        Self.expect(result, start: 60, finish: 80, minimum: 60, maximum: 130, range: 70)
        #expect(result.samples == 6 && result.skipped == 2)
        #expect(RangeOfMotion.analyze(x: [], y: [], z: [], w: [], orientation: .portrait) == nil)
        #expect(RangeOfMotion.analyze(x: [.infinity], y: [0], z: [0], w: [1], orientation: .portrait) == nil)
        // Lengths far from 1 make no attitude: 1e-200 squares to 0, 1e200 to ∞.
        #expect(RangeOfMotion.analyze(x: [1e-200, 0], y: [0, 1e200], z: [0, 0], w: [0, 0], orientation: .portrait) == nil)
        #expect(RangeOfMotion.analyze(x: [0.8], y: [0], z: [0], w: [0], orientation: .portrait)?.samples == 1)
        // Columns of different lengths are read to the shortest.
        #expect(RangeOfMotion.analyze(x: [0, 0], y: [0], z: [0, 0, 0], w: [1, 1], orientation: .portrait)?.samples == 1)
    }

    @Test("an ORKRangeOfMotionResult inside a task result reads back as written, under its step's identifier")
    func resultRoundTrip() throws {
        let written = RangeOfMotionResult(identifier: "knee.range.of.motion", startDate: DateString("2019-05-27T00:35:06-0700"),
                                          endDate: DateString("2019-05-27T00:35:16-0700"), startDegrees: 60, finishDegrees: 80,
                                          minimumDegrees: 60, maximumDegrees: 130, rangeDegrees: 70)
        var anonymous = written
        anonymous.identifier = nil
        for (result, identifier) in [(written, "knee.range.of.motion"), (anonymous, "shoulder.range.of.motion")] {
            var step = JSONObject()
            step.append("_class", .string("ORKStepResult"))
            step.append("identifier", .string(identifier))
            step.append("results", .array([result.researchKitJSON]))
            var task = JSONObject()
            task.append("_class", .string("ORKTaskResult"))
            task.append("identifier", .string("rom"))
            task.append("results", .array([.object(step)]))
            let contents = try JSONContents.decode(Array(JSONWriter().string(.object(task)).utf8), file: "rom.json")
            var expected = result
            expected.identifier = identifier
            #expect(contents.rangeOfMotionResults == [expected])
        }
    }
}
