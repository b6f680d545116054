/// The recorders whose `{"items":[…]}` files ResearchKit writes (docs/formats.md §3.3, §4), and
/// the camera heart-rate recorder of mPower 2's heart snapshot (§4.9).
public enum RecorderKind: String, Sendable, CaseIterable, Hashable {
    case accelerometer
    case deviceMotion
    case pedometer
    case healthQuantity
    case location
    case touch
    /// Per video frame the mean red, green and blue of the back camera with the flash on, a
    /// finger over the lens (Sage Bionetworks' CardiorespiratoryFitness recorder; mhealthtools'
    /// `heartrate_data`).
    case camera

    /// The file-name prefix ResearchKit uses (`recorderType`, docs/formats.md §3.3). HealthKit quantity
    /// files are prefixed by their type identifier; heart rate is the common one.
    public var recorderType: String {
        switch self {
        case .accelerometer: "accel"
        case .deviceMotion: "deviceMotion"
        case .pedometer: "pedometer"
        case .healthQuantity: "HKQuantityTypeIdentifierHeartRate"
        case .location: "location"
        case .touch: "touch"
        case .camera: "heartRate"
        }
    }

    /// The item schema of this recorder.
    public var schema: RecorderSchema { RecorderSchema.of(self) }

    /// Whether the analyzers take this recorder's items for one continuous recording and refuse
    /// a file whose times are not (``SensorSeries/detachedTimes``): motion, pedometer and camera
    /// files. Location fixes (iOS hands over cached ones minutes old), touches and HealthKit
    /// samples are not.
    public var isContinuous: Bool { [.accelerometer, .deviceMotion, .pedometer, .camera].contains(self) }
}

/// How an item field is stored in its column.
public enum FieldType: Sendable, Hashable {
    /// A JSON number, as Double.
    case number
    /// A JSON number that must be integral (stored as Double).
    case integer
    /// A date string (docs/formats.md §4.8), stored as Unix seconds.
    case date
    /// A JSON string, stored in a text column.
    case string

    /// How messages name it: "expected number, found null".
    var description: String {
        switch self {
        case .number: "number"
        case .integer: "integer"
        case .date: "date string"
        case .string: "string"
        }
    }
}

/// One field of a recorder item: its column name, its key path in the item, type and unit.
public struct FieldSpec: Sendable, Hashable {
    /// Column name: the key path joined by dots (`userAcceleration.x`).
    public let name: String
    /// Keys from the item object down to the value.
    public let path: [String]
    /// The value's JSON type (number, string, date string, …).
    public let type: FieldType
    /// A missing required key is an error; a missing optional key is unavailable (NaN / nil).
    public let required: Bool
    /// Unit of the stored value, for documentation and output.
    public let unit: String
    /// The values the field can hold; a number outside is refused where it is read, naming its
    /// place (nil: any number).
    public let plausible: ClosedRange<Double>?

    init(_ name: String, _ type: FieldType = .number, required: Bool = true, unit: String, plausible: ClosedRange<Double>? = nil) {
        self.name = name
        self.path = name.split(separator: ".").map(String.init)
        self.type = type
        self.required = required
        self.unit = unit
        self.plausible = plausible
    }
}

/// The item layout of one recorder (docs/formats.md §4), in the key order our writer emits.
///
/// Sources: ResearchKit `ResearchKitActiveTask/Common/Recorders/**/*+ORKJSONDictionary.m` and
/// `ResearchKit/Common/HKSample+ORKJSONDictionary.m` (HEAD `daba8c9`).
public struct RecorderSchema: Sendable, Hashable {
    public let kind: RecorderKind
    public let fields: [FieldSpec]
    /// The column that orders the items in time.
    public let timeField: String

    public func index(of name: String) -> Int? { fields.firstIndex { $0.name == name } }

    static func of(_ kind: RecorderKind) -> RecorderSchema {
        switch kind {
        case .accelerometer:
            RecorderSchema(
                kind: kind,
                fields: [
                    FieldSpec("timestamp", unit: "s since boot"),
                    FieldSpec("timestampSince1970", required: false, unit: "s since 1970"),
                    FieldSpec("x", unit: "g"), FieldSpec("y", unit: "g"), FieldSpec("z", unit: "g"),
                ],
                timeField: "timestamp")
        case .deviceMotion:
            RecorderSchema(
                kind: kind,
                fields: [
                    FieldSpec("timestamp", unit: "s since boot"),
                    FieldSpec("timestampSince1970", required: false, unit: "s since 1970"),
                ] + ["x", "y", "z", "w"].map { FieldSpec("attitude.\($0)", unit: "quaternion") }
                    + ["x", "y", "z"].map { FieldSpec("rotationRate.\($0)", unit: "rad/s") }
                    + ["x", "y", "z"].map { FieldSpec("gravity.\($0)", unit: "g") }
                    + ["x", "y", "z"].map { FieldSpec("userAcceleration.\($0)", unit: "g") }
                    + ["x", "y", "z"].map { FieldSpec("magneticField.\($0)", required: false, unit: "µT") }
                    + [FieldSpec("magneticField.accuracy", .integer, required: false, unit: "-1…2")],
                timeField: "timestamp")
        case .pedometer:
            RecorderSchema(
                kind: kind,
                fields: [
                    FieldSpec("startDate", .date, unit: "s since 1970"),
                    FieldSpec("endDate", .date, unit: "s since 1970"),
                    // Counts since the recording began: 10⁹ steps or metres (25 times round the
                    // Earth) and 10⁶ floors are beyond any, 1e300 or −1 is none.
                    FieldSpec("numberOfSteps", .integer, unit: "steps", plausible: 0...1e9),
                    FieldSpec("distance", required: false, unit: "m", plausible: 0...1e9),
                    FieldSpec("floorsAscended", .integer, required: false, unit: "floors", plausible: 0...1e6),
                    FieldSpec("floorsDescended", .integer, required: false, unit: "floors", plausible: 0...1e6),
                ],
                timeField: "endDate")
        case .healthQuantity:
            RecorderSchema(
                kind: kind,
                fields: [
                    FieldSpec("type", .string, unit: "HealthKit type identifier"),
                    FieldSpec("startDate", .date, unit: "s since 1970"),
                    FieldSpec("endDate", .date, unit: "s since 1970"),
                    FieldSpec("unit", .string, unit: "HealthKit unit string"),
                    FieldSpec("value", unit: "the item's unit"),
                    FieldSpec("source", .string, required: false, unit: "source name"),
                ],
                timeField: "startDate")
        case .location:
            RecorderSchema(
                kind: kind,
                fields: [
                    FieldSpec("timestamp", .date, unit: "s since 1970"),
                    FieldSpec("coordinate.latitude", required: false, unit: "degrees (WGS 84)"),
                    FieldSpec("coordinate.longitude", required: false, unit: "degrees (WGS 84)"),
                    FieldSpec("horizontalAccuracy", required: false, unit: "m"),
                    FieldSpec("altitude", required: false, unit: "m"),
                    FieldSpec("verticalAccuracy", required: false, unit: "m"),
                    FieldSpec("course", required: false, unit: "degrees from north"),
                    FieldSpec("speed", required: false, unit: "m/s"),
                    FieldSpec("floor", .integer, required: false, unit: "level"),
                ],
                timeField: "timestamp")
        case .touch:
            RecorderSchema(
                kind: kind,
                fields: [
                    FieldSpec("timestamp", unit: "s since boot"),
                    FieldSpec("phase", .integer, unit: "UITouchPhase"),
                    FieldSpec("index", .integer, unit: "touch index"),
                    FieldSpec("x", unit: "points"), FieldSpec("y", unit: "points"),
                    FieldSpec("width", unit: "points"), FieldSpec("height", unit: "points"),
                ],
                timeField: "timestamp")
        case .camera:
            // CardiorespiratoryFitness' CRFHeartRateSample: a step-change marker carries the
            // times alone, hence the optional colours (docs/formats.md §4.9).
            RecorderSchema(
                kind: kind,
                fields: [
                    FieldSpec("timestamp", unit: "s since the recorder started"),
                    FieldSpec("uptime", required: false, unit: "s since boot"),
                    FieldSpec("red", required: false, unit: "frame mean, 0…1"),
                    FieldSpec("green", required: false, unit: "frame mean, 0…1"),
                    FieldSpec("blue", required: false, unit: "frame mean, 0…1"),
                    FieldSpec("hue", required: false, unit: "degrees"),
                    FieldSpec("saturation", required: false, unit: "0…1"),
                    FieldSpec("brightness", required: false, unit: "0…1"),
                    FieldSpec("bpm", required: false, unit: "beats/min, the app's estimate"),
                ],
                timeField: "timestamp")
        }
    }
}
