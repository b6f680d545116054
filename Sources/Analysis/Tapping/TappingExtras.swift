import Glibc
import SensorData

extension TappingAnalysis {
    /// ActiveTaskKit's own tapping features (analysis.md §1.6). Units are in the names; geometry
    /// features are missing without button rects, dwell features without `duration` (AppCore
    /// dialect), interval features when the mhealthtools cleaning leaves fewer than 5 taps.
    static func atk(_ result: TappingResult, _ cleaned: MhealthtoolsCleaning) -> FeatureSet {
        typealias S = TapStatistics
        var set = FeatureSet(name: "atk", capacity: 32)
        let rows = cleaned.rows
        // Left/Right rows in time order (after the stable sort of step 3); None rows kept by step 2.
        let sortedAll = cleaned.sorted.isEmpty ? stableTimeOrder(rows) : cleaned.sorted
        let buttonRows = sortedAll.filter { rows.button[$0] != .none }
        let noneRows = sortedAll.filter { rows.button[$0] == .none }
        set.append("buttonTapCount", Double(buttonRows.count))
        set.append("noneTapCount", Double(noneRows.count))
        set.append("noneDuplicatesRemoved", Double(cleaned.noneDuplicatesRemoved))
        let errors = buttonRows.indices.dropFirst().filter { rows.button[buttonRows[$0]] == rows.button[buttonRows[$0 - 1]] }.count
        set.append("alternationErrorCount", Double(errors))
        set.append("alternationErrorRate", buttonRows.count >= 2 ? Double(errors) / Double(buttonRows.count - 1) : nil)
        let kept = cleaned.error == nil ? cleaned.kept : []
        if kept.count >= 2, let first = kept.first, let last = kept.last, rows.t[last] > rows.t[first] {
            set.append("keptTapRatePerSecond", Double(kept.count - 1) / (rows.t[last] - rows.t[first]))
        } else {
            set.append("keptTapRatePerSecond", nil as Double?)
        }
        if buttonRows.count >= 2, let first = buttonRows.first, let last = buttonRows.last, rows.t[last] > rows.t[first] {
            set.append("buttonTapRatePerSecond", Double(buttonRows.count - 1) / (rows.t[last] - rows.t[first]))
        } else {
            set.append("buttonTapRatePerSecond", nil as Double?)
        }

        // Geometry (points).
        if let left = result.buttonRectLeft, let right = result.buttonRectRight {
            func distance(_ i: Int, to rect: Rect) -> Double { hypot(rows.x[i] - rect.center.x, rows.y[i] - rect.center.y) }
            let leftDistances = buttonRows.filter { rows.button[$0] == .left }.map { distance($0, to: left) }
            let rightDistances = buttonRows.filter { rows.button[$0] == .right }.map { distance($0, to: right) }
            let all = buttonRows.map { distance($0, to: rows.button[$0] == .left ? left : right) }
            for (suffix, values) in [("Left", leftDistances), ("Right", rightDistances), ("All", all)] {
                set.append("targetDistanceMeanPoints" + suffix, values.isEmpty ? nil : S.mean(values))
                set.append("targetDistanceMedianPoints" + suffix, values.isEmpty ? nil : S.median(values))
                set.append("targetDistanceSdPoints" + suffix, values.count < 2 ? nil : S.sd(values))
            }
            func point(_ i: Int) -> Point { Point(x: rows.x[i], y: rows.y[i]) }
            set.append("outsideRectCount", Double(sortedAll.filter { !left.contains(point($0)) && !right.contains(point($0)) }.count))
            let mismatches = sortedAll.filter { i in
                switch rows.button[i] {
                case .left: !left.contains(point(i))
                case .right: !right.contains(point(i))
                case .none: left.contains(point(i)) || right.contains(point(i))
                }
            }
            set.append("labelGeometryMismatchCount", Double(mismatches.count))
            let hits = buttonRows.filter { rows.button[$0] == .left ? left.contains(point($0)) : right.contains(point($0)) }.count
            set.append("buttonHitRate", buttonRows.isEmpty ? nil : Double(hits) / Double(buttonRows.count))
            let outside = noneRows.map { min(distanceToRect(point($0), left), distanceToRect(point($0), right)) }
            set.append("outsideDistanceMeanPoints", outside.isEmpty ? nil : S.mean(outside))
        } else {
            for name in geometryNames { set.append(name, .missing) }
        }

        // Dwell (ResearchKit serializer dialect only): durations > 0, without the last Left/Right
        // tap, which may have been cut when the step ended.
        let dwell = buttonRows.dropLast().map { rows.duration[$0] }.filter { !$0.isNaN && $0 > 0 }
        let hasDurations = result.dialect == .researchKit && !dwell.isEmpty
        set.append("dwellMeanSeconds", hasDurations ? S.mean(dwell) : nil)
        set.append("dwellMedianSeconds", hasDurations ? S.median(dwell) : nil)
        set.append("dwellSdSeconds", hasDurations && dwell.count >= 2 ? S.sd(dwell) : nil)
        set.append("dwellCvPercent", hasDurations && dwell.count >= 2 ? S.cv(dwell) : nil)

        // Interval extras on the mhealthtools intervals.
        let d = cleaned.intervals
        set.append("dfaTapInter", d.isEmpty ? nil : S.dfa(d))
        let (k10, k25, k50) = S.fatigueCounts(d.count)
        for (name, k) in [("fatigue10SymTapInter", k10), ("fatigue25SymTapInter", k25), ("fatigue50SymTapInter", k50)] {
            let k = max(1, k)
            set.append(name, d.count >= 2 ? S.mean(Array(d.prefix(k))) - S.mean(Array(d.suffix(k))) : nil)
        }
        return set
    }

    /// The geometry features, missing together when the file has no button rects.
    private static let geometryNames = ["Left", "Right", "All"].flatMap { ["targetDistanceMeanPoints\($0)", "targetDistanceMedianPoints\($0)", "targetDistanceSdPoints\($0)"] }
        + ["outsideRectCount", "labelGeometryMismatchCount", "buttonHitRate", "outsideDistanceMeanPoints"]

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
