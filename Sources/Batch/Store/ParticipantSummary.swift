import InputGuards
import SensorData
import SignalProcessing

/// Per-participant summaries of one analyzer's wide table (issue 18, item 5), as studies report
/// them: one row per value of a manifest metadata column (`healthCode`), with the number of
/// usable records and, for every numeric feature, the median and the interquartile range (Q3 − Q1)
/// over that participant's records — quantiles of type 7 (R's default, numpy's `linear`). Only
/// results with status `ok` count; missing and non-finite values are left out of each feature's
/// statistics; text and boolean features are not summarised.
public struct ParticipantSummary: Sendable {
    /// The manifest metadata column the rows are grouped by (e.g. healthCode).
    public let groupColumn: String
    /// `records`, then `<feature>.median` and `<feature>.iqr` for each numeric feature.
    public let columns: [String]
    /// Group value → its row (numbers or null), in group order.
    public let rows: [(group: String, values: [Double?])]

    /// Summarises `table`'s results in `store` by the metadata column `column`.
    ///
    /// - Throws: `StoreError` when the store cannot be read, or when no recording has `column`.
    public init(_ table: WideTable, store: ResultStore, by column: String) throws(StoreError) {
        guard table.metadataColumns.contains(column) else {
            throw StoreError(path: store.path, message: "no recording of \(table.analyzer) has the metadata column \"\(column)\" (known: \(table.metadataColumns.joined(separator: ", ")))")
        }
        var numeric = [Bool](repeating: true, count: table.columns.count)
        var values: [String: [[Double]]] = [:]
        var records: [String: Int] = [:]
        try store.forEachResult(analyzer: table.analyzer) { row in
            guard row.status == .ok, let group = table.metadata[row.recording]?[column] else { return }
            let features = ResultExport.features(row)?.object
            var groupValues = values[group] ?? Array(repeating: [], count: table.columns.count)
            for (index, feature) in table.columns.enumerated() {
                switch features?[feature.featureSet]?.object?[feature.feature] {
                case .number(let number)?: if number.isFinite { groupValues[index].append(number) }
                case .null?, nil: break
                default: numeric[index] = false
                }
            }
            values[group] = groupValues
            records[group, default: 0] += 1
        }
        let kept = table.columns.indices.filter { numeric[$0] }
        groupColumn = column
        columns = ["records"] + kept.flatMap { [table.columns[$0].name + ".median", table.columns[$0].name + ".iqr"] }
        rows = values.keys.sorted().map { group in
            let summaries = kept.flatMap { index -> [Double?] in
                let sorted = values[group]![index].sorted()
                guard !sorted.isEmpty else { return [nil, nil] }
                return [Statistics.quantileOfSorted(sorted, 0.5), Statistics.quantileOfSorted(sorted, 0.75) - Statistics.quantileOfSorted(sorted, 0.25)]
            }
            return (group, [Double(records[group] ?? 0)] + summaries)
        }
    }

    public var csv: String {
        var text = ([groupColumn] + columns).map { ResultExport.cell($0) }.joined(separator: ",") + "\n"
        for row in rows {
            text += ([ResultExport.cell(row.group)] + row.values.map { $0.map(JSONWriter.number) ?? "" }).joined(separator: ",") + "\n"
        }
        return text
    }

    public var jsonLines: String {
        rows.map { row in
            var object = JSONObject()
            object.append(groupColumn, .string(row.group))
            for (name, value) in zip(columns, row.values) { object.append(name, value.map { .number($0) } ?? .null) }
            return JSONWriter().string(.object(object)) + "\n"
        }.joined()
    }
}
