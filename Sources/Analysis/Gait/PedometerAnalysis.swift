import SensorData

/// Cadence from ResearchKit pedometer updates (docs/analyses.md §2.6): items are cumulative since
/// the recorder started (docs/formats.md §4.3), dates have 1-s resolution.
public enum PedometerAnalysis {
    /// 60·(S_last − S_first)/(E_last − E_first); one item: 60·S/(E − startDate); nil when the
    /// span is below 10 s. Also the last item's steps and distance.
    public static func features(_ series: SensorSeries) -> PedometerFeatures? {
        guard series.kind == .pedometer, let steps = series["numberOfSteps"], let ends = series["endDate"],
            let starts = series["startDate"], let last = steps.indices.last
        else { return nil }
        var cadence: Double?
        if steps.count >= 2, ends[last] - ends[0] >= 10 {
            cadence = 60 * (steps[last] - steps[0]) / (ends[last] - ends[0])
        } else if steps.count == 1, ends[0] - starts[0] >= 10 {
            cadence = 60 * steps[0] / (ends[0] - starts[0])
        }
        let distance = series["distance"]?[last]
        return PedometerFeatures(cadencePedometerStepsPerMinute: cadence, pedometerStepCount: steps[last],
                                 pedometerDistanceMeters: distance.flatMap { $0.isNaN ? nil : $0 }, pedometerDurationSeconds: ends[last] - starts[0])
    }
}
