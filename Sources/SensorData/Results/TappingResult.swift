/// Which button a tap hit (`ORKTappingButtonIdentifier`: none 0, left 1, right 2).
public enum TapButton: Int8, Sendable, Hashable, CaseIterable {
    case none = 0
    case left = 1
    case right = 2

    /// Dialect-A spelling (`buttonIdentifier`).
    public var researchKitName: String {
        switch self {
        case .none: "none"
        case .left: "left"
        case .right: "right"
        }
    }

    /// Dialect-B spelling (`TappedButtonId`).
    public var appCoreName: String {
        switch self {
        case .none: "TappedButtonNone"
        case .left: "TappedButtonLeft"
        case .right: "TappedButtonRight"
        }
    }
}

/// A two-finger tapping result in either dialect, samples as columns in recorded order
/// (docs/formats.md §9; docs/analyses.md §1.1 keeps the recorded order, so the reader does not sort).
public struct TappingResult: Sendable, Hashable {
    public enum Dialect: String, Sendable, Hashable {
        /// ResearchKit reference serializer (`ORKTappingIntervalResult`, `_class` keys).
        case researchKit
        /// AppCore / mPower (`TappingSamples`, CG strings).
        case appCore
    }

    /// Which dialect the result was read from (docs/formats.md §9).
    public var dialect: Dialect
    /// The enclosing step's identifier (`tapping.right`, …) or the result's own identifier.
    public var identifier: String?
    /// When the step began, as recorded.
    public var startDate: DateString?
    /// When the step ended, as recorded.
    public var endDate: DateString?
    /// Step view size, points.
    public var stepViewSize: Size?
    /// The left button's rectangle, points.
    public var buttonRectLeft: Rect?
    /// The right button's rectangle, points.
    public var buttonRectRight: Rect?

    /// Seconds since the first tap of the step.
    public var timestamp: [Double] = []
    /// Tap location x, points.
    public var x: [Double] = []
    /// Tap location y, points (down from the view's top).
    public var y: [Double] = []
    /// The button each tap hit (left, right, or none: outside both).
    public var button: [TapButton] = []
    /// Touch-down to release, s; NaN where the dialect has none (AppCore).
    public var duration: [Double] = []

    public init(dialect: Dialect, identifier: String? = nil) {
        self.dialect = dialect
        self.identifier = identifier
    }

    public var count: Int { timestamp.count }

    public mutating func append(timestamp t: Double, x px: Double, y py: Double, button b: TapButton, duration d: Double = .nan) {
        timestamp.append(t)
        x.append(px)
        y.append(py)
        button.append(b)
        duration.append(d)
    }

    /// Number of items whose timestamp is smaller than the previous one.
    public var decreasingTimestampPairs: Int {
        var count = 0
        for i in timestamp.indices.dropFirst() where timestamp[i] < timestamp[i - 1] { count += 1 }
        return count
    }
}

extension TappingResult {
    /// A tap's time and duration, s: times count from the step's first tap (ResearchKit, AppCore),
    /// and a tapping step lasts seconds; a day holds any, 1e300 s or −1 s is no tap's.
    public static let plausibleSeconds: ClosedRange<Double> = 0...86_400

    /// The fewest seconds per tap, on average, a recording's taps may take: no finger taps a
    /// screen a thousand times a second (people reach about ten), so taps closer than that on
    /// average carry a clock's fault (every time equal, or 10⁻¹² s apart), not a tapping test.
    public static let shortestMeanIntervalSeconds = 0.001

    /// Refuses taps whose times are not a tapping test's (``shortestMeanIntervalSeconds``), naming
    /// the samples' place; a result of fewer than two taps passes.
    func checkTimes(_ path: String, reader: ObjectReader) throws(ReadError) {
        guard count >= 2, let first = timestamp.min(), let last = timestamp.max() else { return }
        let span = last - first
        guard !(span >= Self.shortestMeanIntervalSeconds * Double(count - 1)) else { return }
        throw reader.error(.invalidValue("the \(count) taps span \(span) s, a mean interval of \(span / Double(count - 1)) s: "
            + "no finger taps a screen more than 1,000 times a second, so the times are not a tapping test's"), path)
    }

    /// Dialect B: an AppCore tapping result object (`tapping_results.json`, `NoName.json`).
    static func appCore(_ object: JSONObject, path: String, reader: ObjectReader) throws(ReadError) -> TappingResult {
        var result = try appCoreSamples(reader.array(object["TappingSamples"], path + "TappingSamples"),
                                        path: path + "TappingSamples", reader: reader)
        result.identifier = try reader.optionalString(object["item"], path + "item")
        result.stepViewSize = try reader.cgString(object["TappingViewSize"], path + "TappingViewSize", CGString.size)
        result.buttonRectLeft = try reader.cgString(object["ButtonRectLeft"], path + "ButtonRectLeft", CGString.rect)
        result.buttonRectRight = try reader.cgString(object["ButtonRectRight"], path + "ButtonRectRight", CGString.rect)
        result.startDate = try reader.optionalDate(object["startDate"], path + "startDate")
        result.endDate = try reader.optionalDate(object["endDate"], path + "endDate")
        return result
    }

    /// Dialect B: a `TappingSamples` array (also the bare arrays downloaded from Synapse tables).
    static func appCoreSamples(_ samples: [JSONValue], path: String, reader: ObjectReader) throws(ReadError) -> TappingResult {
        var result = TappingResult(dialect: .appCore)
        for (index, value) in samples.enumerated() {
            let at = "\(path)[\(index)]"
            let sample = try reader.object(value, at)
            let t = try reader.number(sample["TapTimeStamp"], at + ".TapTimeStamp")
            guard let location = try reader.cgString(sample["TapCoordinate"], at + ".TapCoordinate", CGString.point) else {
                throw reader.error(.missingKey("TapCoordinate"), at + ".TapCoordinate")
            }
            let name = try reader.string(sample["TappedButtonId"], at + ".TappedButtonId")
            guard let button = TapButton.allCases.first(where: { $0.appCoreName == name }) else {
                throw reader.error(.invalidValue("unknown TappedButtonId \(ReadError.quote(name))"), at + ".TappedButtonId")
            }
            guard t.isFinite else { throw reader.error(.invalidValue("TapTimeStamp is not finite"), at + ".TapTimeStamp") }
            result.append(timestamp: try reader.plausible(t, at + ".TapTimeStamp", "TapTimeStamp", plausibleSeconds, " s"), x: location.x, y: location.y, button: button)
        }
        try result.checkTimes(path, reader: reader)
        return result
    }

    /// Dialect A: an `ORKTappingIntervalResult` object.
    static func researchKit(_ object: JSONObject, path: String, reader: ObjectReader) throws(ReadError) -> TappingResult {
        var result = TappingResult(dialect: .researchKit)
        if let samples = object["samples"], samples != .null {
            result = try researchKitSamples(reader.array(samples, path + "samples"), path: path + "samples", reader: reader)
        }
        result.identifier = try reader.optionalString(object["identifier"], path + "identifier")
        result.stepViewSize = try reader.size(object["stepViewSize"], path + "stepViewSize")
        result.buttonRectLeft = try reader.rect(object["buttonRect1"], path + "buttonRect1")
        result.buttonRectRight = try reader.rect(object["buttonRect2"], path + "buttonRect2")
        result.startDate = try reader.optionalDate(object["startDate"], path + "startDate")
        result.endDate = try reader.optionalDate(object["endDate"], path + "endDate")
        return result
    }

    /// Dialect A: an array of `ORKTappingSample` objects.
    static func researchKitSamples(_ samples: [JSONValue], path: String, reader: ObjectReader) throws(ReadError) -> TappingResult {
        var result = TappingResult(dialect: .researchKit)
        for (index, value) in samples.enumerated() {
            let at = "\(path)[\(index)]"
            let sample = try reader.object(value, at)
            let t = try reader.number(sample["timestamp"], at + ".timestamp")
            guard let location = try reader.point(sample["location"], at + ".location") else {
                throw reader.error(.missingKey("location"), at + ".location")
            }
            let name = try reader.string(sample["buttonIdentifier"], at + ".buttonIdentifier")
            guard let button = TapButton.allCases.first(where: { $0.researchKitName == name }) else {
                throw reader.error(.invalidValue("unknown buttonIdentifier \(ReadError.quote(name))"), at + ".buttonIdentifier")
            }
            let duration = try reader.plausible(reader.optionalNumber(sample["duration"], at + ".duration"), at + ".duration", "duration", plausibleSeconds, " s")
            guard t.isFinite else { throw reader.error(.invalidValue("timestamp is not finite"), at + ".timestamp") }
            result.append(timestamp: try reader.plausible(t, at + ".timestamp", "timestamp", plausibleSeconds, " s"), x: location.x, y: location.y,
                          button: button, duration: duration ?? .nan)
        }
        try result.checkTimes(path, reader: reader)
        return result
    }
}
