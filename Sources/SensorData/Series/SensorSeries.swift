import Foundation
import InputGuards
/// The items of one recorder file as columns: one `[Double]` per numeric field, one
/// `[String?]` per text field, all of the same length.
///
/// Values are the file's values unchanged (accelerations in g, dates as Unix seconds, …; the
/// schema names each unit). An optional field that an item omits is `.nan` in a numeric column
/// and `nil` in a text column; device-motion `magneticField` placeholders (all zero with accuracy
/// −1, docs/formats.md §11) are stored as unavailable too.
public struct SensorSeries: Sendable, Equatable {
    public let schema: RecorderSchema
    /// Numeric columns in schema order; text fields have an empty column here.
    public internal(set) var numeric: [[Double]]
    /// Text columns in schema order; numeric fields have an empty column here.
    public internal(set) var text: [[String?]]
    /// UTC offset of the first date string read (seconds), used when writing dates back.
    public var utcOffsetSeconds: Int

    public var kind: RecorderKind { schema.kind }

    /// An empty series of `kind`.
    public init(kind: RecorderKind, utcOffsetSeconds: Int = 0) {
        self.schema = kind.schema
        self.numeric = Array(repeating: [], count: schema.fields.count)
        self.text = Array(repeating: [], count: schema.fields.count)
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// Equal when the schemas match and every value is identical; NaN (unavailable) equals NaN.
    public static func == (lhs: SensorSeries, rhs: SensorSeries) -> Bool {
        lhs.schema == rhs.schema && lhs.text == rhs.text && lhs.utcOffsetSeconds == rhs.utcOffsetSeconds
            && lhs.numeric.count == rhs.numeric.count
            && zip(lhs.numeric, rhs.numeric).allSatisfy { a, b in
                a.count == b.count && zip(a, b).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
            }
    }

    /// Number of items.
    public var count: Int {
        for (field, column) in zip(schema.fields, numeric) where field.type != .string { return column.count }
        return text.first { !$0.isEmpty }?.count ?? 0
    }

    /// The numeric column `name` (`"x"`, `"attitude.w"`, `"startDate"`), nil if the schema has none.
    public subscript(name: String) -> [Double]? {
        guard let index = schema.index(of: name), schema.fields[index].type != .string else { return nil }
        return numeric[index]
    }

    /// The text column `name` (`"unit"`, `"source"`), nil if the schema has none.
    public func textColumn(_ name: String) -> [String?]? {
        guard let index = schema.index(of: name), schema.fields[index].type == .string else { return nil }
        return text[index]
    }

    /// The time axis: `timestamp` for motion and touch (s since boot), the start date for
    /// HealthKit samples, the end date for cumulative pedometer updates, the fix time for
    /// locations (Unix seconds).
    public var time: [Double] { self[schema.timeField] ?? [] }

    /// Appends one item given as values in schema order (numeric fields read `numbers[i]`, text
    /// fields `strings[i]`). Used by writers' tests, simulators and converters.
    public mutating func append(numbers: [Double], strings: [String?] = []) {
        for (index, field) in schema.fields.enumerated() {
            if field.type == .string {
                text[index].append(index < strings.count ? strings[index] : nil)
            } else {
                numeric[index].append(index < numbers.count ? numbers[index] : .nan)
            }
        }
    }

    /// Appends the items of `other` (same schema).
    public mutating func append(contentsOf other: SensorSeries) {
        precondition(other.schema == schema, "appending a \(other.kind) series to a \(kind) series")
        for index in numeric.indices where !other.numeric[index].isEmpty { numeric[index] += other.numeric[index] }
        for index in text.indices where !other.text[index].isEmpty { text[index] += other.text[index] }
    }

    /// Items `range` as a series of their own (same schema and UTC offset).
    public func slice(_ range: Range<Int>) -> SensorSeries {
        var copy = self
        copy.numeric = numeric.map { $0.isEmpty ? [] : Array($0[range]) }
        copy.text = text.map { $0.isEmpty ? [] : Array($0[range]) }
        return copy
    }

    /// Sampling rate from the median interval of the time axis (docs/formats.md §4: always derive the
    /// rate from the timestamps), Hz; nil with fewer than two distinct times.
    public var medianSamplingRateHz: Double? {
        guard let interval = medianInterval, interval > 0 else { return nil }
        return 1 / interval
    }

    /// Median of the positive successive time differences, s.
    public var medianInterval: Double? { Self.medianInterval(time) }

    private static func medianInterval(_ t: [Double]) -> Double? {
        guard t.count >= 2 else { return nil }
        var intervals: [Double] = []
        intervals.reserveCapacity(t.count - 1)
        for i in 1..<t.count where t[i] > t[i - 1] { intervals.append(t[i] - t[i - 1]) }
        guard !intervals.isEmpty else { return nil }
        // The middle one or two by selection (linear; a sort was a tenth of reading a walk).
        let mid = intervals.count / 2
        let upper = Selection.sortedElement(mid, of: &intervals)
        guard intervals.count % 2 == 0 else { return upper }
        return (Selection.sortedElement(mid - 1, of: &intervals) + upper) / 2
    }

    /// Why the items' times (in time order) are not those of one recording, nil when they are
    /// (docs/formats.md §11): a time that is not a finite number (beyond ±1.8e308, read as ±∞); or gaps — intervals longer than
    /// 5 × the median, the warning's — adding up to more than a second and more than all the other
    /// intervals together: items whose clock lies far from the rest, which would otherwise become
    /// the recording's start or end (its duration, its mean rate, its first and last angle).
    public var detachedTimes: String? {
        let t = zip(time, time.dropFirst()).allSatisfy({ $0 <= $1 }) ? time : time.sorted()
        if let item = t.firstIndex(where: { !$0.isFinite }) {
            return "item \(item) in time order has the time \(t[item]) s, not a finite number: the times are not those of one recording"
        }
        guard let median = Self.medianInterval(t) else { return nil }
        var gaps = 0.0, others = 0.0, longest = 0
        for i in t.indices.dropFirst() {
            let interval = t[i] - t[i - 1]  // +∞ when the two are beyond 1.8e308 apart
            if interval > 5 * median {
                gaps += interval
                if longest == 0 || interval > t[longest] - t[longest - 1] { longest = i }
            } else {
                others += interval
            }
        }
        guard gaps > 1, gaps > others else { return nil }
        func seconds(_ value: Double) -> String { String(format: "%.6g s", value) }
        return "gaps longer than 5 × the median interval (\(seconds(median))) add up to \(seconds(gaps)), more than the \(seconds(others)) of the other intervals: "
            + "the times are not those of one recording (the longest gap from \(seconds(t[longest - 1])) to \(seconds(t[longest])), items \(longest - 1) and \(longest) in time order)"
    }

    /// Time from the first to the last item, s (0 for fewer than two items).
    public var durationSeconds: Double {
        let t = time
        guard let first = t.first, let last = t.last else { return 0 }
        return last - first
    }

    /// Stable-sorts the items by time if any is earlier than its predecessor (docs/formats.md §11)
    /// and returns the warning for it; exact duplicates keep their order.
    mutating func sortByTime() -> ReadWarning? {
        let time = self.time
        var decreasing = 0
        for i in time.indices.dropFirst() where time[i] < time[i - 1] { decreasing += 1 }
        guard decreasing > 0 else { return nil }
        permute(time.indices.sorted { time[$0] < time[$1] || (time[$0] == time[$1] && $0 < $1) })
        return .unsortedTimestamps(count: decreasing)
    }

    /// Reorders all columns by `order` (a permutation of item indices).
    mutating func permute(_ order: [Int]) {
        for index in numeric.indices where !numeric[index].isEmpty {
            let column = numeric[index]
            numeric[index] = order.map { column[$0] }
        }
        for index in text.indices where !text[index].isEmpty {
            let column = text[index]
            text[index] = order.map { column[$0] }
        }
    }
}
