import Foundation
import SensorData

extension GoldenSet.Summary {
    /// As `audiometry simulate --golden --json` prints it.
    public var json: JSONValue {
        .object(JSONObject([
            "audiograms": .number(Double(audiograms)), "thresholdsTotal": .number(Double(thresholdsTotal)),
            "thresholdsExact": .number(Double(thresholdsExact)), "combinedRunTotal": .number(Double(combinedEntries)),
            "combinedRunExact": .number(Double(combinedExact)), "minimumPresentations": .number(Double(minimumPresentations)),
            "maximumPresentations": .number(Double(maximumPresentations)),
        ]))
    }

    /// One line: the exact thresholds of runs A and B, the combined run and the presentations.
    public var line: String {
        "golden set: \(audiograms) audiograms, \(thresholdsExact) of \(thresholdsTotal) thresholds exact (runs A and B); combined run \(combinedExact) of \(combinedEntries); "
            + "presentations \(minimumPresentations)–\(maximumPresentations)"
    }
}

extension AudiometrySimulation.Row {
    /// As `audiometry simulate --nhanes --json` prints each row: a statistic without the runs it
    /// needs (bias and MAE without a determined threshold, SD with fewer than two) is null.
    public var json: JSONValue {
        let number = { (value: Double) -> JSONValue in value.isFinite ? .number(value) : .null }
        return .object(JSONObject([
            "procedure": .string(procedure.rawValue), "frequencyHz": .number(frequencyHz), "runs": .number(Double(runs)),
            "determined": .number(Double(determined)), "biasDecibels": number(biasDecibels),
            "sdDecibels": number(sdDecibels), "meanAbsoluteErrorDecibels": number(meanAbsoluteErrorDecibels),
            "meanPresentations": number(meanPresentations),
        ]))
    }

    /// The table's header and one row per procedure and frequency, as `audiometry simulate --nhanes`
    /// prints them; "–" where a statistic has no runs to be made of.
    public static func table(_ rows: [AudiometrySimulation.Row]) -> String {
        return (["procedure     f (Hz)   runs  determined   bias dB   SD dB   MAE dB  presentations"] + rows.map { row in
            row.procedure.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0) + String(format: " %7.0f %6d %11d ", row.frequencyHz, row.runs, row.determined)
                + [TableCell.number(row.biasDecibels, 9, 2), TableCell.number(row.sdDecibels, 7, 2), TableCell.number(row.meanAbsoluteErrorDecibels, 8, 2), TableCell.number(row.meanPresentations, 14, 2)].joined(separator: " ")
        }).joined(separator: "\n")
    }
}
