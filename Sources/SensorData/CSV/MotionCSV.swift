/// How a CSV motion recording maps to an accelerometer series.
public struct MotionCSVLayout: Sendable, Hashable {
    /// Unit of the time column.
    public enum TimeUnit: String, Sendable, Hashable, CaseIterable {
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
    public enum AccelerationUnit: String, Sendable, Hashable, CaseIterable {
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

    /// Guesses the layout of a table: the Oxford layout for five numeric columns of which the
    /// first is nanoseconds; otherwise a header naming `time`/`timestamp`, `x`, `y`, `z`.
    public static func detect(_ table: CSVTable) -> MotionCSVLayout? {
        if let header = table.header {
            let names = header.map { $0.lowercased() }
            guard let t = names.firstIndex(where: { $0.hasPrefix("timestamp") || $0.hasPrefix("time") }),
                let x = names.firstIndex(where: { $0 == "x" || $0.hasPrefix("x_") || $0.hasPrefix("x ") }),
                let y = names.firstIndex(where: { $0 == "y" || $0.hasPrefix("y_") || $0.hasPrefix("y ") }),
                let z = names.firstIndex(where: { $0 == "z" || $0.hasPrefix("z_") || $0.hasPrefix("z ") })
            else { return nil }
            var layout = MotionCSVLayout(timeColumn: t, xColumn: x, yColumn: y, zColumn: z)
            let timeName = names[t]
            layout.timeUnit = TimeUnit.allCases.first { timeName.hasSuffix("_\($0.rawValue)") || timeName.hasSuffix("(\($0.rawValue))") } ?? .seconds
            if names[x].contains("m/s") { layout.accelerationUnit = .metresPerSecondSquared }
            return layout
        }
        guard table.columns.count == 5, table.columns.allSatisfy({ $0.numbers != nil }),
            let time = table.columns[0].numbers, time.count >= 2, let step = medianStep(time),
            step > 1e5, step < 1e9
        else { return nil }
        return .oxfordStepCounter
    }

    static func medianStep(_ values: [Double]) -> Double? {
        guard values.count >= 2 else { return nil }
        var steps = zip(values.dropFirst(), values).map { $0 - $1 }
        steps.sort()
        return steps[steps.count / 2]
    }
}

extension SensorSeries {
    /// An accelerometer series from a CSV table: time in s, acceleration in g (the ResearchKit
    /// units of formats.md §4.1), converted from `layout`'s units.
    ///
    /// - Throws: `ReadError` naming a missing or non-numeric column, or the first row with a
    ///   non-finite value.
    public static func accelerometer(from table: CSVTable, layout: MotionCSVLayout, file: String) throws(ReadError) -> (SensorSeries, [ReadWarning]) {
        func column(_ index: Int, _ role: String) throws(ReadError) -> [Double] {
            guard index < table.columns.count else {
                throw ReadError(file: file, reason: .invalidValue("no column \(index + 1) for \(role); the table has \(table.columns.count)"))
            }
            guard let values = table.columns[index].numbers else {
                throw ReadError(file: file, reason: .wrongType(expected: "numbers", found: "text"), path: "column \(index + 1) (\(role))")
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
        let warning = series.sortByTime()
        return (series, warning.map { [$0] } ?? [])
    }
}
