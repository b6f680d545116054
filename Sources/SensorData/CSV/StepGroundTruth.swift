/// Foot-contact ground truth in the Oxford Step Counter dataset's `stepcounter.csv` layout:
/// `timestamp_ns, right_foot, left_foot`, contact states 0/1, no header; each 0→1 transition of
/// either foot is one step (Oxford Step Counter dataset, `optimisation/` README).
public struct StepGroundTruth: Sendable, Hashable {
    /// Times of the steps (0→1 transitions), s, in time order.
    public var stepTimesSeconds: [Double]
    /// First to last row, s.
    public var durationSeconds: Double

    public var stepCount: Int { stepTimesSeconds.count }

    /// Reads the table if it has the layout; nil otherwise.
    public init?(_ table: CSVTable) {
        guard table.header == nil, table.columns.count == 3, let time = table.columns[0].numbers,
            let right = table.columns[1].numbers, let left = table.columns[2].numbers, !time.isEmpty,
            (right + left).allSatisfy({ $0 == 0 || $0 == 1 }), time.allSatisfy({ $0 > 1e9 })
        else { return nil }
        var steps: [Double] = []
        for foot in [right, left] {
            for i in foot.indices.dropFirst() where foot[i - 1] == 0 && foot[i] == 1 { steps.append(time[i] * 1e-9) }
        }
        stepTimesSeconds = steps.sorted()
        durationSeconds = ((time.last ?? 0) - (time.first ?? 0)) * 1e-9
    }
}
