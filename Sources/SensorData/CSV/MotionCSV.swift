import InputGuards
import Foundation

/// How a CSV motion recording maps to an accelerometer series.
public struct MotionCSVLayout: Sendable, Hashable {
    /// Unit of the time column.
    public enum TimeUnit: String, Sendable, Hashable, CaseIterable, Codable, NamedChoice {
        case nanoseconds = "ns", microseconds = "us", milliseconds = "ms", seconds = "s"

        /// Seconds per unit.
        public var seconds: Double {
            switch self {
            case .nanoseconds: 1e-9
            case .microseconds: 1e-6
            case .milliseconds: 1e-3
            case .seconds: 1
            }
        }
    }

    /// Unit of the acceleration columns.
    public enum AccelerationUnit: String, Sendable, Hashable, CaseIterable, Codable, NamedChoice {
        /// Standard gravity, as ResearchKit records.
        case g
        /// m/s², as Android's `SensorEvent` reports.
        case metresPerSecondSquared = "m/s2"

        /// g per unit (1 g = 9.80665 m/s², CGPM 1901 standard gravity).
        public var g: Double {
            switch self {
            case .g: 1
            case .metresPerSecondSquared: 1 / 9.80665
            }
        }
    }

    /// 0-based column indices.
    public var timeColumn: Int
    public var xColumn: Int
    public var yColumn: Int
    public var zColumn: Int
    public var timeUnit: TimeUnit
    public var accelerationUnit: AccelerationUnit
    /// The header says the columns are linear acceleration (gravity removed).
    public var gravityRemoved = false
    /// The app whose export this layout matches, when the header says so.
    public var source: String?
    /// How the units were found: nil when the header or the caller stated them, else the rule
    /// that inferred them (reported as a warning).
    public var inferredTimeUnit: String?
    public var inferredAccelerationUnit: String?

    public init(timeColumn: Int = 0, xColumn: Int = 1, yColumn: Int = 2, zColumn: Int = 3,
                timeUnit: TimeUnit = .seconds, accelerationUnit: AccelerationUnit = .g) {
        self.timeColumn = timeColumn
        self.xColumn = xColumn
        self.yColumn = yColumn
        self.zColumn = zColumn
        self.timeUnit = timeUnit
        self.accelerationUnit = accelerationUnit
    }

    /// The Oxford Step Counter dataset's `accelerometer.csv`: `timestamp_ns, accuracy, x, y, z`,
    /// m/s², gravity included, no header.
    public static let oxfordStepCounter = MotionCSVLayout(
        timeColumn: 0, xColumn: 2, yColumn: 3, zColumn: 4, timeUnit: .nanoseconds,
        accelerationUnit: .metresPerSecondSquared)

    /// One line for `info` and score dialects: "CSV (phyphox): time s, acceleration m/s², gravity removed".
    public var summary: String {
        if self == .oxfordStepCounter { return "CSV (Oxford step-counter layout: ns, m/s²)" }
        return "CSV\(source.map { " (\($0))" } ?? ""): time \(timeUnit.rawValue), acceleration \(accelerationUnit.rawValue)"
            + (gravityRemoved ? ", gravity removed" : "")
    }

    /// Guesses the layout of a table from its header (docs/formats.md §9; phone-app exports): the time
    /// column is `seconds_elapsed` (Sensor Logger) or the first named `time…`/`timestamp…`; the
    /// axes are the columns named `x`/`y`/`z`, `… x` (phyphox "Acceleration x (m/s^2)", "Linear
    /// Acceleration x"), `…_x`, `ax`, `gFx` (Physics Toolbox, in g). Units come from the names —
    /// `(s)`, `_ns`, `[ms]`, `(m/s^2)`, `gF…` — and otherwise from the data (``inferUnits(_:)``).
    /// Without a header: the Oxford layout for five numeric columns whose first is nanoseconds.
    public static func detect(_ table: CSVTable) -> MotionCSVLayout? {
        if let header = table.header {
            let names = header.map(ColumnName.init)
            func axis(_ letter: Character) -> Int? {
                names.firstIndex { $0.axis == letter && $0.mentionsAcceleration }
                    ?? names.firstIndex { $0.axis == letter }
            }
            guard let t = names.firstIndex(where: { $0.base == "seconds_elapsed" }) ?? names.firstIndex(where: \.isTime),
                let x = axis("x"), let y = axis("y"), let z = axis("z")
            else { return nil }
            var layout = MotionCSVLayout(timeColumn: t, xColumn: x, yColumn: y, zColumn: z)
            layout.source = names.contains { $0.base == "seconds_elapsed" } ? "Sensor Logger"
                : names[x].base.hasPrefix("gf") ? "Physics Toolbox"
                : names[x].raw.contains("(m/s^2)") ? "phyphox" : nil
            layout.gravityRemoved = [x, y, z].contains { names[$0].base.contains("linear") || names[$0].base.contains("user") }
            layout.inferUnits(table, timeUnit: names[t].base == "seconds_elapsed" ? .seconds : names[t].timeUnit,
                              accelerationUnit: names[x].accelerationUnit)
            return layout
        }
        return headerlessMismatch(table) == nil ? .oxfordStepCounter : nil
    }

    /// Why a table without a header is not in the Oxford layout — five numeric columns, the first
    /// nanoseconds rising by a median of 10⁵–10⁹ (0.1 ms–1 s) — or nil when it is.
    static func headerlessMismatch(_ table: CSVTable) -> String? {
        guard table.columns.count == 5 else { return "\(table.columns.count) column\(table.columns.count == 1 ? "" : "s"), not the Oxford layout's 5" }
        if let column = table.columns.firstIndex(where: { $0.numbers == nil }) { return "column \(column + 1) is not all numbers" }
        guard let time = table.columns[0].numbers, time.count >= 2, let step = medianStep(time) else { return "fewer than two rows" }
        guard step > 1e5, step < 1e9 else {
            return "the median interval of column 1 is \(step), not the 10⁵–10⁹ (0.1 ms–1 s) of the Oxford layout's nanosecond times"
        }
        return nil
    }

    /// Sets the units: those given, else inferred from the data — time from the median interval
    /// (< 1 → s, < 1,000 → ms, < 10^6 → µs, else ns: sensors sample at 1 Hz–1 kHz), acceleration
    /// from the median magnitude (0.5–2 → g, 5–20 → m/s², both with gravity; otherwise, gravity
    /// removed, m/s² as phone apps write it), each inference recorded for a warning.
    mutating func inferUnits(_ table: CSVTable, timeUnit: TimeUnit?, accelerationUnit: AccelerationUnit?) {
        if let timeUnit {
            self.timeUnit = timeUnit
        } else if let time = table.columns[timeColumn].numbers, let step = Self.medianStep(time), step > 0 {
            self.timeUnit = step < 1 ? .seconds : step < 1_000 ? .milliseconds : step < 1_000_000 ? .microseconds : .nanoseconds
            inferredTimeUnit = "the median interval \(step) reads as \(self.timeUnit.rawValue)"
        }
        if let accelerationUnit {
            self.accelerationUnit = accelerationUnit
        } else if let x = table.columns[xColumn].numbers, let y = table.columns[yColumn].numbers, let z = table.columns[zColumn].numbers {
            var magnitudes = x.indices.map { (x[$0] * x[$0] + y[$0] * y[$0] + z[$0] * z[$0]).squareRoot() }.filter(\.isFinite)
            magnitudes.sort()
            let median = magnitudes.isEmpty ? 0 : magnitudes[magnitudes.count / 2]
            self.accelerationUnit = (0.5...2).contains(median) ? .g : .metresPerSecondSquared
            inferredAccelerationUnit = "the median |a| \((median * 1000).rounded() / 1000) reads as \(self.accelerationUnit.rawValue)"
                + ((0.5...2).contains(median) || (5...20).contains(median) ? "" : " (gravity removed: the magnitude cannot tell g from m/s²)")
        }
    }

    /// A header cell: its text, the name without a unit, and the unit.
    struct ColumnName {
        let raw: String
        /// Lower case, without the unit and surrounding spaces: "linear acceleration x".
        let base: String
        let unit: String?

        init(_ text: String) {
            raw = text.lowercased().trimmingCharacters(in: [" ", "\""])
            var base = raw, unit: String?
            if let open = raw.lastIndex(where: { $0 == "(" || $0 == "[" }), raw.last == ")" || raw.last == "]" {
                unit = String(raw[raw.index(after: open)..<raw.index(before: raw.endIndex)]).trimmingCharacters(in: [" "])
                base = String(raw[..<open]).trimmingCharacters(in: [" "])
            } else if let underscore = raw.lastIndex(of: "_"), ["s", "ms", "us", "ns"].contains(String(raw[raw.index(after: underscore)...])) {
                unit = String(raw[raw.index(after: underscore)...])
                base = String(raw[..<underscore])
            }
            self.base = base
            self.unit = unit
        }

        var isTime: Bool { base.hasPrefix("time") || base.hasPrefix("timestamp") }

        var timeUnit: TimeUnit? { unit.flatMap { TimeUnit(rawValue: $0 == "µs" ? "us" : $0) } }

        /// The axis this column holds, if its name ends in one (or is `gFx`, `ax`).
        var axis: Character? {
            guard let last = base.last, "xyz".contains(last) else { return nil }
            let head = base.dropLast()
            if head.isEmpty || head.hasSuffix(" ") || head.hasSuffix("_") || head.hasSuffix("-") || head == "a" || head == "gf" || head == "acc" {
                return last
            }
            return nil
        }

        var mentionsAcceleration: Bool { base.contains("acc") || base.hasPrefix("gf") || base == "ax" || base == "ay" || base == "az" }

        var accelerationUnit: AccelerationUnit? {
            if base.hasPrefix("gf") { return .g }
            guard let unit else { return nil }
            let compact = unit.replacingOccurrences(of: " ", with: "")
            if ["m/s^2", "m/s²", "m/s2", "ms^-2", "ms-2", "m·s⁻²"].contains(compact) { return .metresPerSecondSquared }
            if compact == "g" { return .g }
            return nil
        }
    }

    static func medianStep(_ values: [Double]) -> Double? {
        guard values.count >= 2 else { return nil }
        var steps = zip(values.dropFirst(), values).map { $0 - $1 }
        steps.sort()
        return steps[steps.count / 2]
    }
}

extension SensorSeries {
    /// Clock times `H:MM:SS:mmm` or `H:MM:SS.mmm` (Physics Toolbox exports) as seconds, a day
    /// added each time the clock wraps past midnight; nil unless every cell is one.
    static func clockSeconds(_ cells: [String]) -> [Double]? {
        var seconds: [Double] = []
        seconds.reserveCapacity(cells.count)
        var day = 0.0, previous = -Double.infinity
        for cell in cells {
            let parts = cell.split(whereSeparator: { $0 == ":" || $0 == "." })
            guard parts.count == 4, let h = Double(parts[0]), let m = Double(parts[1]), let s = Double(parts[2]),
                let fraction = Double("0." + parts[3]), h < 24, m < 60, s < 61
            else { return nil }
            var value = h * 3600 + m * 60 + s + fraction + day
            if value < previous - 43_200 { day += 86_400; value += 86_400 }
            previous = value
            seconds.append(value)
        }
        return seconds
    }

    /// An accelerometer series from a CSV table: time in s, acceleration in g (the ResearchKit
    /// units of docs/formats.md §4.1), converted from `layout`'s units.
    ///
    /// - Throws: `ReadError` naming a missing or non-numeric column, or the first row with a
    ///   non-finite value.
    public static func accelerometer(from table: CSVTable, layout: MotionCSVLayout, file: String) throws(ReadError) -> (SensorSeries, [ReadWarning]) {
        func column(_ index: Int, _ role: String) throws(ReadError) -> [Double] {
            guard index < table.columns.count else {
                throw ReadError(file: file, reason: .invalidValue("no column \(index + 1) for \(role); the table has \(table.columns.count)"))
            }
            if role == "time", case .text(let cells) = table.columns[index], let seconds = Self.clockSeconds(cells) {
                return seconds.map { $0 / layout.timeUnit.seconds }  // already seconds; undo the unit scaling below
            }
            guard let values = table.columns[index].numbers else {
                guard let first = table.nonNumbers(inColumn: index).first else {
                    throw ReadError(file: file, reason: .wrongType(expected: "numbers", found: "text"), path: "column \(index + 1) (\(role))")
                }
                throw ReadError(file: file, reason: .invalidValue("\(ReadError.quote(first.text)) is not a finite number (\(role))"),
                                path: "line \(first.line), column \(index + 1)")
            }
            if let row = values.firstIndex(where: { !$0.isFinite }) {
                throw ReadError(file: file, reason: .invalidValue("empty or non-finite \(role)"),
                                path: "row \(row + 1 + (table.header == nil ? 0 : 1)), column \(index + 1)")
            }
            return values
        }
        let t = try column(layout.timeColumn, "time")
        let x = try column(layout.xColumn, "x")
        let y = try column(layout.yColumn, "y")
        let z = try column(layout.zColumn, "z")
        var series = SensorSeries(kind: .accelerometer)
        let fields = series.schema
        series.numeric[fields.index(of: "timestamp")!] = t.map { $0 * layout.timeUnit.seconds }
        series.numeric[fields.index(of: "timestampSince1970")!] = Array(repeating: .nan, count: t.count)
        let scale = layout.accelerationUnit.g
        series.numeric[fields.index(of: "x")!] = x.map { $0 * scale }
        series.numeric[fields.index(of: "y")!] = y.map { $0 * scale }
        series.numeric[fields.index(of: "z")!] = z.map { $0 * scale }
        var warnings: [ReadWarning] = []
        if let rule = layout.inferredTimeUnit { warnings.append(.unitInferred(column: "time", rule: rule, flag: "the CSV parameter timeUnit")) }
        if let rule = layout.inferredAccelerationUnit { warnings.append(.unitInferred(column: "acceleration", rule: rule, flag: "the CSV parameter accelerationUnit")) }
        if let warning = series.sortByTime() { warnings.append(warning) }
        return (series, warnings)
    }
}

/// What a caller states about a CSV motion table (the CLI's `--time-column`, `--x-column`,
/// `--time-unit`, `--acceleration-unit`, `--oxford`): stated facts win over the
/// header's and the data's.
public struct MotionCSVOverrides: Sendable, Hashable, Codable {
    /// Columns by header name (case-insensitive) or 1-based number.
    public var timeColumn: String?
    public var xColumn: String?
    public var yColumn: String?
    public var zColumn: String?
    public var timeUnit: MotionCSVLayout.TimeUnit?
    public var accelerationUnit: MotionCSVLayout.AccelerationUnit?
    /// The Oxford step-counter layout regardless of the header.
    public var oxford = false

    public init() {}

    public var isEmpty: Bool { self == MotionCSVOverrides() }

    /// The layout of `table`: detected, then overridden; an error names a column that is not
    /// there, or a table whose columns cannot be found.
    public func layout(for table: CSVTable, file: String) throws(ReadError) -> MotionCSVLayout {
        var layout: MotionCSVLayout
        if oxford {
            layout = .oxfordStepCounter
        } else if let detected = MotionCSVLayout.detect(table) {
            layout = detected
        } else if [timeColumn, xColumn, yColumn, zColumn].allSatisfy({ $0 != nil }) {
            layout = MotionCSVLayout()
        } else if let stray = table.strayText {
            throw ReadError(file: file, reason: .invalidValue("\(ReadError.quote(stray.text)) is not a finite number, among numbers"),
                            path: "line \(stray.line), column \(stray.column)")
        } else {
            let names = table.header.map { "columns " + $0.prefix(8).map { ReadError.quote($0) }.joined(separator: ", ") }
                ?? "no header; \(MotionCSVLayout.headerlessMismatch(table) ?? "")"
            throw ReadError(file: file, reason: .unrecognisedLayout(
                "CSV whose time/x/y/z columns are not recognised (\(names)); name them with the CSV parameters timeColumn, xColumn, yColumn, zColumn, or choose the oxford layout"))
        }
        func index(_ selector: String?, _ flag: String) throws(ReadError) -> Int? {
            guard let selector else { return nil }
            if let number = Int(selector), number >= 1, number <= table.columns.count { return number - 1 }
            if let found = table.header?.firstIndex(where: { $0.lowercased() == selector.lowercased() }) { return found }
            throw ReadError(file: file, reason: .invalidValue("\(flag) \(ReadError.quote(selector)) names no column of this table (\(table.columns.count) columns\(table.header.map { ": " + $0.map { ReadError.quote($0) }.joined(separator: ", ") } ?? ""))"))
        }
        let columnsChanged = timeColumn != nil || xColumn != nil || yColumn != nil || zColumn != nil
        if let t = try index(timeColumn, "timeColumn") { layout.timeColumn = t }
        if let x = try index(xColumn, "xColumn") { layout.xColumn = x }
        if let y = try index(yColumn, "yColumn") { layout.yColumn = y }
        if let z = try index(zColumn, "zColumn") { layout.zColumn = z }
        if columnsChanged {  // the units of the columns now chosen: stated, in their names, or inferred
            let name = { (column: Int) in table.header.map { MotionCSVLayout.ColumnName($0[column]) } }
            layout.inferredTimeUnit = nil
            layout.inferredAccelerationUnit = nil
            layout.inferUnits(table, timeUnit: timeUnit ?? name(layout.timeColumn)?.timeUnit,
                              accelerationUnit: accelerationUnit ?? name(layout.xColumn)?.accelerationUnit)
        }
        if let timeUnit { layout.timeUnit = timeUnit; layout.inferredTimeUnit = nil }
        if let accelerationUnit { layout.accelerationUnit = accelerationUnit; layout.inferredAccelerationUnit = nil }
        return layout
    }
}
