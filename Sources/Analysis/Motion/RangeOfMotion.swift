import InputGuards
import Foundation

/// The angles of ResearchKit's knee and shoulder range-of-motion steps, from the device-motion
/// attitude as `ORKRangeOfMotionStepViewController` computes them while the step runs
/// (docs/analyses.md §7.1), the step's quirks included so that the values equal the
/// `ORKRangeOfMotionResult` it stored:
///
/// - the reference is the first attitude; each later one is taken relative to it
///   (q_ref⁻¹ ⊗ q, Hamilton product, CoreMotion's `multiplyByInverseOfAttitude:`);
/// - the device angle is the pitch (portrait), atan2(2(xw + yz), 1 − 2(x² + z²)), or the roll
///   (landscape), atan2(2(yw − xz), 1 − 2(y² + z²)), in degrees; a relative angle in (90°, 180°]
///   becomes |angle| − 360°;
/// - the largest and smallest relative angles start at 0, and the smallest is replaced by the
///   next angle whenever it is exactly 0 (the step's `_minAngle == 0.0 ||` test);
/// - start = 90° − the reference's own angle, finish = start − the last relative angle,
///   minimum = start − the largest, maximum = start − the smallest, range = |maximum − minimum|.
///
/// Samples whose quaternion is not finite or not of about unit length (a recorder's all-0
/// placeholder) are left out and counted; the step never saw them.
public enum RangeOfMotion {
    /// Which angle of the attitude the step reads: the interface orientation it ran in.
    public enum Orientation: String, Sendable, Hashable, Codable, CaseIterable, NamedChoice {
        /// Pitch: rotation about the device's x axis.
        case portrait
        /// Roll: rotation about the device's y axis.
        case landscape
    }

    /// The step's result, degrees, and the samples behind it.
    public struct Result: Sendable, Hashable {
        /// 90° less the reference attitude's angle, degrees.
        public var startDegrees: Double
        /// Start less the last relative angle, degrees.
        public var finishDegrees: Double
        /// Start less the largest relative angle, degrees.
        public var minimumDegrees: Double
        /// Start less the smallest relative angle as the step tracks it, degrees.
        public var maximumDegrees: Double
        /// |maximum − minimum|, degrees.
        public var rangeDegrees: Double
        /// Samples used (finite quaternions of non-zero length).
        public var samples: Int
        /// Samples left out (a component not finite, or a length outside 0.5…2).
        public var skipped: Int
    }

    /// A unit quaternion (x, y, z, w), CoreMotion's `CMQuaternion` layout.
    public struct Quaternion: Sendable, Hashable {
        public var x, y, z, w: Double
        public init(x: Double, y: Double, z: Double, w: Double) {
            self.x = x
            self.y = y
            self.z = z
            self.w = w
        }

        /// `self⁻¹ ⊗ other` (Hamilton product; the inverse is the conjugate over the squared norm).
        func inverseTimes(_ other: Quaternion) -> Quaternion {
            let n = x * x + y * y + z * z + w * w
            let (ax, ay, az, aw) = (-x / n, -y / n, -z / n, w / n)
            return Quaternion(x: aw * other.x + ax * other.w + ay * other.z - az * other.y,
                              y: aw * other.y - ax * other.z + ay * other.w + az * other.x,
                              z: aw * other.z + ax * other.y - ay * other.x + az * other.w,
                              w: aw * other.w - ax * other.x - ay * other.y - az * other.z)
        }

        /// The step's device angle for `orientation`, degrees.
        public func angleDegrees(_ orientation: Orientation) -> Double {
            let radians = switch orientation {
            case .portrait: atan2(2 * (x * w + y * z), 1 - 2 * (x * x + z * z))
            case .landscape: atan2(2 * (y * w - x * z), 1 - 2 * (y * y + z * z))
            }
            return radians * 180 / .pi
        }

        /// An attitude: every component finite and a length between 0.5 and 2 (a unit quaternion
        /// as written; an all-0 placeholder, or 1e±200, would make the relative attitude NaN or 0).
        var usable: Bool {
            guard x.isFinite, y.isFinite, z.isFinite, w.isFinite else { return false }
            let squaredLength = x * x + y * y + z * z + w * w
            return squaredLength >= 0.25 && squaredLength <= 4
        }
    }

    /// Each sample's relative angle as the step tracks it (after the shift of (90°, 180°]),
    /// degrees, NaN for a sample left out; and the reference attitude (nil: no usable sample).
    /// The columns are read up to the shortest one's length.
    public static func relativeAnglesDegrees(x: [Double], y: [Double], z: [Double], w: [Double],
                                             orientation: Orientation) -> (degrees: [Double], reference: Quaternion?) {
        let count = min(x.count, y.count, z.count, w.count)
        var reference: Quaternion?
        var degrees = [Double](repeating: .nan, count: count)
        for i in 0..<count {
            let q = Quaternion(x: x[i], y: y[i], z: z[i], w: w[i])
            guard q.usable else { continue }
            let first = reference ?? q
            reference = first
            let angle = first.inverseTimes(q).angleDegrees(orientation)
            degrees[i] = angle > 90 && angle <= 180 ? abs(angle) - 360 : angle
        }
        return (degrees, reference)
    }

    /// The result of the attitudes `x`, `y`, `z`, `w` (one element per sample, in time order), or
    /// nil when no sample is usable. The columns are read up to the shortest one's length.
    public static func analyze(x: [Double], y: [Double], z: [Double], w: [Double], orientation: Orientation) -> Result? {
        analyze(relativeAnglesDegrees(x: x, y: y, z: z, w: w, orientation: orientation), orientation: orientation)
    }

    /// The result of relative angles as ``relativeAnglesDegrees(x:y:z:w:orientation:)`` gives them
    /// (for the same `orientation`), or nil when there is no reference.
    public static func analyze(_ relative: (degrees: [Double], reference: Quaternion?), orientation: Orientation) -> Result? {
        let (degrees, reference) = relative
        guard let reference else { return nil }
        var newAngle = 0.0, maxAngle = 0.0, minAngle = 0.0
        var used = 0
        for angle in degrees where !angle.isNaN {
            newAngle = angle
            if newAngle > maxAngle { maxAngle = newAngle }
            if minAngle == 0 || newAngle < minAngle { minAngle = newAngle }
            used += 1
        }
        let start = 90 - reference.angleDegrees(orientation)
        let minimum = start - maxAngle, maximum = start - minAngle
        return Result(startDegrees: start, finishDegrees: start - newAngle, minimumDegrees: minimum, maximumDegrees: maximum,
                      rangeDegrees: abs(maximum - minimum), samples: used, skipped: degrees.count - used)
    }
}
