import Glibc
import SensorData

extension TappingAnalysis {
    /// ActiveTaskKit's own tapping features (docs/analyses.md §1.6). Units are in the names; geometry
    /// features are missing without button rects, dwell features without `duration` (AppCore
    /// dialect), interval features when the mhealthtools cleaning leaves fewer than 5 taps.
    static func atk(_ result: TappingResult, _ cleaned: MhealthtoolsCleaning) -> TappingExtraFeatures {
        typealias S = TapStatistics
        let rows = cleaned.rows
        // Left/Right rows in time order (after the stable sort of step 3); None rows kept by step 2.
        let sortedAll = cleaned.sorted.isEmpty ? stableTimeOrder(rows) : cleaned.sorted
        let buttonRows = sortedAll.filter { rows.button[$0] != .none }
        let noneRows = sortedAll.filter { rows.button[$0] == .none }
        let errors = buttonRows.indices.dropFirst().filter { rows.button[buttonRows[$0]] == rows.button[buttonRows[$0 - 1]] }.count
        /// (count − 1) / span of `indices` (first to last), nil below 2 taps or without a span.
        func rate(_ indices: [Int]) -> Double? {
            guard indices.count >= 2, let first = indices.first, let last = indices.last, rows.t[last] > rows.t[first] else { return nil }
            return Double(indices.count - 1) / (rows.t[last] - rows.t[first])
        }
        let noDistances = TargetDistances()
        var f = TappingExtraFeatures(
            buttonTapCount: buttonRows.count, noneTapCount: noneRows.count, noneDuplicatesRemoved: cleaned.noneDuplicatesRemoved,
            alternationErrorCount: errors, alternationErrorRate: buttonRows.count >= 2 ? Double(errors) / Double(buttonRows.count - 1) : nil,
            keptTapRatePerSecond: rate(cleaned.error == nil ? cleaned.kept : []), buttonTapRatePerSecond: rate(buttonRows),
            left: noDistances, right: noDistances, all: noDistances)

        // Geometry (points).
        if let left = result.buttonRectLeft, let right = result.buttonRectRight {
            func distance(_ i: Int, to rect: Rect) -> Double { hypot(rows.x[i] - rect.center.x, rows.y[i] - rect.center.y) }
            func distances(_ values: [Double]) -> TargetDistances {
                TargetDistances(targetDistanceMeanPoints: values.isEmpty ? nil : S.mean(values), targetDistanceMedianPoints: values.isEmpty ? nil : S.median(values),
                                targetDistanceSdPoints: values.count < 2 ? nil : S.sd(values))
            }
            f.left = distances(buttonRows.filter { rows.button[$0] == .left }.map { distance($0, to: left) })
            f.right = distances(buttonRows.filter { rows.button[$0] == .right }.map { distance($0, to: right) })
            f.all = distances(buttonRows.map { distance($0, to: rows.button[$0] == .left ? left : right) })
            func point(_ i: Int) -> Point { Point(x: rows.x[i], y: rows.y[i]) }
            f.outsideRectCount = sortedAll.filter { !left.contains(point($0)) && !right.contains(point($0)) }.count
            f.labelGeometryMismatchCount = sortedAll.filter { i in
                switch rows.button[i] {
                case .left: !left.contains(point(i))
                case .right: !right.contains(point(i))
                case .none: left.contains(point(i)) || right.contains(point(i))
                }
            }.count
            let hits = buttonRows.filter { rows.button[$0] == .left ? left.contains(point($0)) : right.contains(point($0)) }.count
            f.buttonHitRate = buttonRows.isEmpty ? nil : Double(hits) / Double(buttonRows.count)
            let outside = noneRows.map { min(distanceToRect(point($0), left), distanceToRect(point($0), right)) }
            f.outsideDistanceMeanPoints = outside.isEmpty ? nil : S.mean(outside)
        }

        // Dwell (ResearchKit serializer dialect only): durations > 0, without the last Left/Right
        // tap, which may have been cut when the step ended.
        let dwell = buttonRows.dropLast().map { rows.duration[$0] }.filter { !$0.isNaN && $0 > 0 }
        if result.dialect == .researchKit, !dwell.isEmpty {
            f.dwellMeanSeconds = S.mean(dwell)
            f.dwellMedianSeconds = S.median(dwell)
            f.dwellSdSeconds = dwell.count >= 2 ? S.sd(dwell) : nil
            f.dwellCvPercent = dwell.count >= 2 ? S.cv(dwell) : nil
        }

        // Interval extras on the mhealthtools intervals.
        let d = cleaned.intervals
        f.dfaTapInter = d.isEmpty ? nil : S.dfa(d)
        if d.count >= 2 {
            let (k10, k25, k50) = S.fatigueCounts(d.count)
            let symmetric = [k10, k25, k50].map { k in S.mean(Array(d.prefix(max(1, k)))) - S.mean(Array(d.suffix(max(1, k)))) }
            (f.fatigue10SymTapInter, f.fatigue25SymTapInter, f.fatigue50SymTapInter) = (symmetric[0], symmetric[1], symmetric[2])
        }
        return f
    }

    /// Stable time order of all rows, for inputs too short for the mhealthtools cleaning.
    static func stableTimeOrder(_ rows: Rows) -> [Int] {
        rows.t.indices.sorted { rows.t[$0] < rows.t[$1] || (rows.t[$0] == rows.t[$1] && $0 < $1) }
    }

    /// Euclidean distance from a point to a closed rectangle (0 inside).
    static func distanceToRect(_ p: Point, _ r: Rect) -> Double {
        let dx = max(r.origin.x - p.x, 0, p.x - (r.origin.x + r.size.width))
        let dy = max(r.origin.y - p.y, 0, p.y - (r.origin.y + r.size.height))
        return hypot(dx, dy)
    }
}
