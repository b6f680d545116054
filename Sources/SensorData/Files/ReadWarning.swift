import Foundation

/// A non-fatal anomaly found while reading (docs/formats.md §11). Returned with the data and shown by
/// `activetask info` and `score`.
public enum ReadWarning: Sendable, Hashable, CustomStringConvertible {
    /// Items were not in time order; `count` decreasing pairs; the reader stable-sorted them.
    case unsortedTimestamps(count: Int)
    /// Device-motion items with the `magneticField` placeholder (zeros, accuracy −1), stored as
    /// unavailable.
    case magneticFieldUnavailable(count: Int)
    /// Intervals longer than 5 × the median interval (app suspension, dropped samples).
    case timestampGaps(count: Int, longestSeconds: Double)
    /// A zero-byte file with a recorder's current-log name: the recording stopped before its
    /// first item.
    case emptyCurrentLog
    /// Lenient mode: the text was truncated at `offset`; the complete items before it were kept.
    case truncatedTail(offset: Int, itemsKept: Int)
    /// Tapping analysis dropped None taps whose (x, y) repeated an earlier None tap.
    case duplicateNoneTaps(count: Int)
    /// Items holding a number beyond ±1.797693134862316e308 (a 400-digit literal, `1e400`),
    /// read as ±infinity as IEEE 754 rounding gives; analyses that need finite values leave
    /// those items out.
    case infiniteValues(count: Int)
    /// `count` keys repeated within their object (RFC 8259 leaves the meaning open); the first is
    /// `key` at `location`. The last occurrence of each was used, as Python's `json` and
    /// JavaScript's `JSON.parse` do.
    case duplicateKeys(count: Int, key: String, location: String)
    /// A CSV column's unit was not in its header and was inferred from the data by `rule`;
    /// `flag` states it instead.
    case unitInferred(column: String, rule: String, flag: String)

    /// Stable identifier, e.g. for batch tables.
    public var code: String {
        switch self {
        case .unsortedTimestamps: "unsortedTimestamps"
        case .magneticFieldUnavailable: "magneticFieldUnavailable"
        case .timestampGaps: "timestampGaps"
        case .emptyCurrentLog: "emptyCurrentLog"
        case .truncatedTail: "truncatedTail"
        case .duplicateNoneTaps: "duplicateNoneTaps"
        case .infiniteValues: "infiniteValues"
        case .duplicateKeys: "duplicateKeys"
        case .unitInferred: "unitInferred"
        }
    }

    public var description: String {
        switch self {
        case .unsortedTimestamps(let count):
            "unsortedTimestamps(\(count)): \(count) item(s) earlier than their predecessor; sorted by time"
        case .magneticFieldUnavailable(let count):
            "magneticFieldUnavailable(\(count)): magnetic field placeholder (0,0,0, accuracy -1) in \(count) item(s)"
        case .timestampGaps(let count, let longest):
            "timestampGaps(\(count)): \(count) gap(s) longer than 5x the median interval, longest \(String(format: "%.6g", longest)) s"
        case .emptyCurrentLog:
            "emptyCurrentLog: zero-byte current log, the recording stopped before its first item"
        case .truncatedTail(let offset, let kept):
            "truncatedTail: text truncated at byte \(offset); kept the \(kept) complete item(s) before it"
        case .duplicateNoneTaps(let count):
            "duplicateNoneTaps(\(count)): dropped \(count) None tap(s) repeating an earlier None tap's position"
        case .infiniteValues(let count):
            "infiniteValues(\(count)): \(count) item(s) hold a number beyond ±1.8e308, read as ±infinity"
        case .unitInferred(let column, let rule, let flag):
            "unitInferred: the \(column) unit is not in the header; \(rule) (state it with \(flag))"
        case .duplicateKeys(let count, let key, let location):
            "duplicateKeys(\(count)): key \(ReadError.quote(key)) repeated in its object at \(location)"
                + (count > 1 ? " (\(count) repeats in all)" : "") + "; the last occurrence is used, as Python's json and JavaScript's JSON.parse do"
        }
    }
}
