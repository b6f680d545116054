import Foundation
import SensorData
import SignalProcessing

/// The distance walked along location fixes (docs/analyses.md §7.2): the haversine great-circle
/// distance between consecutive kept fixes, on a sphere of the Earth's mean radius
/// (``Earth/meanRadiusMeters``). A fix is kept
/// when its latitude (±90°) and longitude (±180°) are finite and in range and its horizontal
/// accuracy — CoreLocation's 68 % radius, negative for an invalid fix — is finite, non-negative and
/// at most the limit; a recording without an accuracy column keeps every valid fix.
public enum LocationPath {
    public struct Result: Sendable, Hashable {
        /// Σ of the haversine distances between consecutive kept fixes, m.
        public var distanceMeters: Double
        /// Fixes kept, count.
        public var fixesKept: Int
        /// Fixes left out (position invalid, not accurate enough, or outside the time window), count.
        public var fixesLeftOut: Int
        /// Of those, the fixes outside the time window, count.
        public var fixesOutsideWindow = 0
    }

    /// The path of the fixes (one element per fix, in time order; `horizontalAccuracy` nil when
    /// the recording has no such column). Columns are read up to the shortest one's length.
    /// Given `time` (s, one per fix) and `withinSeconds`, a fix more than `withinSeconds` from the
    /// fixes' median time, or at a non-finite time, is left out too: a fix hours or years away
    /// from the rest is not of the same walk, and in time order it would join the path at an end.
    public static func distance(latitude: [Double], longitude: [Double], horizontalAccuracy: [Double]?,
                                maximumAccuracyMeters: Double, time: [Double]? = nil, withinSeconds: Double = .infinity) -> Result {
        let count = min(latitude.count, longitude.count, horizontalAccuracy?.count ?? Int.max, time?.count ?? Int.max)
        let finite = time.map { Array($0.prefix(count).filter(\.isFinite)) } ?? []
        let centre = finite.isEmpty ? Double.nan : finite.statistic(Statistics.median)
        var total = 0.0, kept = 0, outside = 0
        var previous: (Double, Double)?
        for i in 0..<count {
            if let time, !(abs(time[i] - centre) <= withinSeconds) {
                outside += 1
                continue
            }
            let (lat, lon) = (latitude[i], longitude[i])
            guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else { continue }
            if let accuracy = horizontalAccuracy?[i] {
                guard accuracy.isFinite, accuracy >= 0, accuracy <= maximumAccuracyMeters else { continue }
            }
            if let (lat0, lon0) = previous { total += haversineMeters(lat0, lon0, lat, lon) }
            previous = (lat, lon)
            kept += 1
        }
        return Result(distanceMeters: total, fixesKept: kept, fixesLeftOut: count - kept, fixesOutsideWindow: outside)
    }

    /// The great-circle distance between two points given in degrees, m: 2R·atan2(√h, √(1 − h)),
    /// h = sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2) (Sinnott, "Virtues of the haversine", Sky and
    /// Telescope 68(2), 1984).
    public static func haversineMeters(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        let radians = Double.pi / 180
        let dPhi = (latitude2 - latitude1) * radians, dLambda = (longitude2 - longitude1) * radians
        let s1 = sin(dPhi / 2), s2 = sin(dLambda / 2)
        let h = min(1, s1 * s1 + cos(latitude1 * radians) * cos(latitude2 * radians) * s2 * s2)
        return 2 * Earth.meanRadiusMeters * atan2(h.squareRoot(), (1 - h).squareRoot())
    }
}
