import Analysis
import Foundation
import SensorData
import Testing

/// The haversine path of location fixes (docs/analyses.md §7.2) on arcs whose length is known in
/// closed form: along a meridian or the equator R·Δ(angle), a quarter and a half great circle.
@Suite struct LocationPathTests {

    @Test("arcs of known length: a meridian, the equator, pole to equator, antipodes")
    func knownArcs() {
        let cases: [((Double, Double, Double, Double), Double)] = [
            ((51.75, -1.25, 51.76, -1.25), Earth.meanRadiusMeters * 0.01 * .pi / 180),
            ((0, 10, 0, 10.5), Earth.meanRadiusMeters * 0.5 * .pi / 180),
            ((90, 0, 0, 45), Earth.meanRadiusMeters * .pi / 2),
            ((0, 0, 0, 180), Earth.meanRadiusMeters * .pi),
            ((-33.9, 18.4, -33.9, 18.4), 0),
        ]
        for ((lat1, lon1, lat2, lon2), expected) in cases {
            let d = LocationPath.haversineMeters(lat1, lon1, lat2, lon2)
            #expect(abs(d - expected) <= 1e-9 * max(1, expected), "\(lat1),\(lon1) → \(lat2),\(lon2): \(d) m, expected \(expected)")
        }
    }

    @Test("the path sums consecutive kept fixes; fixes invalid or less accurate than the limit are left out and counted")
    func filter() {
        // Due north 1e-4° a fix: 5 fixes span 4e-4°. Between them a fix 65 m inaccurate, one with
        // NaN accuracy, one at latitude 91°, one with negative accuracy (CoreLocation's invalid).
        let step = 1e-4
        let latitude = [0, step, 50, 2 * step, 3 * step, 91, 1, 4 * step]
        let longitude = [0, 0, 0, 0, 0, 0, 0, 0.0]
        let accuracy = [5, 5, 65, 5, .nan, 5, -1, 20.0]
        let path = LocationPath.distance(latitude: latitude, longitude: longitude, horizontalAccuracy: accuracy, maximumAccuracyMeters: 20)
        // Kept: 0, step, 2·step, 4·step (the NaN-accuracy fix at 3·step is out).
        #expect(abs(path.distanceMeters - Earth.meanRadiusMeters * 4 * step * .pi / 180) <= 1e-9)
        #expect(path.fixesKept == 4 && path.fixesLeftOut == 4)
        // Without an accuracy column every valid fix counts: the 50° and 1° detours are walked.
        let all = LocationPath.distance(latitude: latitude, longitude: longitude, horizontalAccuracy: nil, maximumAccuracyMeters: 20)
        let degrees = step + (50 - step) + (50 - 2 * step) + step + (1 - 3 * step) + (1 - 4 * step)
        #expect(abs(all.distanceMeters - Earth.meanRadiusMeters * degrees * .pi / 180) <= 1e-6 && all.fixesKept == 7)
        let none = LocationPath.distance(latitude: [], longitude: [], horizontalAccuracy: [], maximumAccuracyMeters: 20)
        #expect(none.distanceMeters == 0 && none.fixesKept == 0 && none.fixesLeftOut == 0)
        #expect(LocationPath.distance(latitude: [.infinity, 1e308], longitude: [0, 0], horizontalAccuracy: nil, maximumAccuracyMeters: 20).fixesKept == 0)
    }

    @Test("given times, fixes further than the window from their median time, or at a non-finite time, are left out and counted apart; at the window's edge a fix is kept")
    func timeWindow() {
        let step = 1e-4
        // Fixes 1 s apart due north; the fourth years later (sorted to the end it would add a
        // detour back), the fifth at NaN, the last exactly 10 s from the median time 2 s.
        let latitude = [0, step, 2 * step, 0, 5, 3 * step]
        let time = [0, 1, 2, 3e9, .nan, 12.0]
        let path = LocationPath.distance(latitude: latitude, longitude: [Double](repeating: 0, count: 6), horizontalAccuracy: nil,
                                         maximumAccuracyMeters: 20, time: time, withinSeconds: 10)
        #expect(path.fixesKept == 4 && path.fixesLeftOut == 2 && path.fixesOutsideWindow == 2)
        #expect(abs(path.distanceMeters - Earth.meanRadiusMeters * 3 * step * .pi / 180) <= 1e-9)
        // Without times every fix is of the path.
        #expect(LocationPath.distance(latitude: latitude, longitude: [Double](repeating: 0, count: 6), horizontalAccuracy: nil, maximumAccuracyMeters: 20).fixesKept == 6)
    }
}
