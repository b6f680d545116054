/// `ORKRangeOfMotionResult` (docs/formats.md §10.4): the angles ResearchKit's knee and shoulder
/// range-of-motion steps (`knee.range.of.motion`, `shoulder.range.of.motion`) compute from the
/// device-motion attitude while the step runs, degrees.
public struct RangeOfMotionResult: Sendable, Hashable {
    /// The step's identifier.
    public var identifier: String?
    /// When the step began, as recorded.
    public var startDate: DateString?
    /// When the step ended, as recorded.
    public var endDate: DateString?
    /// 90° less the device's angle at the first motion sample, degrees.
    public var startDegrees: Double
    /// `start` less the last angle relative to the first sample, degrees.
    public var finishDegrees: Double
    /// `start` less the largest relative angle, degrees.
    public var minimumDegrees: Double
    /// `start` less the smallest relative angle (as the step tracks it), degrees.
    public var maximumDegrees: Double
    /// |maximum − minimum|, degrees.
    public var rangeDegrees: Double

    public init(identifier: String? = nil, startDate: DateString? = nil, endDate: DateString? = nil, startDegrees: Double,
                finishDegrees: Double, minimumDegrees: Double, maximumDegrees: Double, rangeDegrees: Double) {
        self.identifier = identifier
        self.startDate = startDate
        self.endDate = endDate
        self.startDegrees = startDegrees
        self.finishDegrees = finishDegrees
        self.minimumDegrees = minimumDegrees
        self.maximumDegrees = maximumDegrees
        self.rangeDegrees = rangeDegrees
    }

    /// The angles a step can store, degrees: its start, 90° less an angle of −180…180°, less
    /// another such angle lies within −270…450° and the range within 0…360°; two turns either way
    /// hold them all. 1e300° (or an overflowing literal, ±∞) is not an angle.
    public static let plausibleDegrees: ClosedRange<Double> = -720...720

    /// Every angle required and within ``plausibleDegrees``, else refused naming the key.
    static func decode(_ object: JSONObject, path: String, reader: ObjectReader) throws(ReadError) -> RangeOfMotionResult {
        func angle(_ key: String) throws(ReadError) -> Double {
            try reader.plausible(reader.number(object[key], path + key), path + key, key, plausibleDegrees, "°")
        }
        return RangeOfMotionResult(
            identifier: try reader.optionalString(object["identifier"], path + "identifier"),
            startDate: try reader.optionalDate(object["startDate"], path + "startDate"),
            endDate: try reader.optionalDate(object["endDate"], path + "endDate"),
            startDegrees: try angle("start"), finishDegrees: try angle("finish"), minimumDegrees: try angle("minimum"),
            maximumDegrees: try angle("maximum"), rangeDegrees: try angle("range"))
    }

    /// `ORKRangeOfMotionResult` in dialect A.
    public var researchKitJSON: JSONValue {
        var object = JSONObject()
        object.append("_class", .string("ORKRangeOfMotionResult"))
        object.append("identifier", .string(identifier ?? ""))
        object.append("startDate", startDate.map { .string($0.researchKitText) })
        object.append("endDate", endDate.map { .string($0.researchKitText) })
        object.append("userInfo", .object(JSONObject()))
        object.append("start", .number(startDegrees))
        object.append("finish", .number(finishDegrees))
        object.append("minimum", .number(minimumDegrees))
        object.append("maximum", .number(maximumDegrees))
        object.append("range", .number(rangeDegrees))
        return .object(object)
    }
}
