import Foundation
import InputGuards
import SensorData

extension BatchCounts {
    /// The run's summary as `batch --json` prints it (`store` is the result store's path).
    public func json(store: String) -> JSONValue {
        .object(JSONObject([
            "kind": .string("batch"), "db": .string(store), "units": .number(Double(unitsDone)),
            "computed": .number(Double(computed)), "alreadyStored": .number(Double(alreadyStored)),
            "unusable": .number(Double(unusable)), "errors": .number(Double(errors)), "skipped": .number(Double(skipped)),
            "unknownFiles": .number(Double(unknownFiles)), "megabytes": .number(Double(bytes) / 1e6),
            "seconds": .number(elapsedSeconds), "missing": .array(missing.map { .string($0) }),
            "withoutResult": .object(withoutResult.sorted { $0.key < $1.key }.reduce(into: JSONObject()) { $0.append($1.key, .number(Double($1.value))) }),
        ]))
    }

    /// The run's summary as `batch` prints it: the store, then one aligned row per count; names
    /// from the data are escaped for the terminal.
    public func summary(store: String) -> String {
        """
        \(store)
          recordings       \(unitsDone) (\(String(format: "%.1f", Double(bytes) / 1e6)) MB in \(String(format: "%.1f", elapsedSeconds)) s)
          results stored   \(computed) (\(unusable) unusable, \(errors) errors, \(skipped) skipped)
          already stored   \(alreadyStored)
          unknown files    \(unknownFiles)
        """ + withoutResult.sorted { $0.key < $1.key }.map { "\n  no result        \($0.value) × \(TerminalText.escaped($0.key))" }.joined()
    }
}
