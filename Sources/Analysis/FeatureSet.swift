import SensorData

/// One analyzer output value, typed as it reaches every output (architecture.md, "typed values
/// end to end"): numbers are numbers or null, booleans are booleans, categories are text in
/// fields of their own.
public enum FeatureValue: Sendable, Hashable {
    /// A number. NaN and ±∞ arise in peer sets (R's `NA`/`NaN`/`Inf`, analysis.md §0); every
    /// output writes a non-finite number as null (JSON, store) or an empty cell (CSV).
    case number(Double)
    /// A yes/no fact (`researchKitTooLoud`, `asymmetric`): JSON true/false, SQLite 0/1.
    case boolean(Bool)
    /// A categorical state or a message (`betterEar`, `right8000HzStatus`, `cadenceSource`).
    case text(String)
    /// A series (e.g. cadence per window), in the unit of the feature's name.
    case numbers([Double])
    /// Not computable or not applicable (JSON `null`).
    case missing

    public var number: Double? {
        if case .number(let value) = self { value } else { nil }
    }

    public var json: JSONValue {
        switch self {
        case .number(let value): value.isFinite ? .number(value) : .null
        case .boolean(let value): .bool(value)
        case .text(let text): .string(text)
        case .numbers(let values): .array(values.map { $0.isFinite ? .number($0) : .null })
        case .missing: .null
        }
    }
}

/// A named, ordered set of features (`mhealthtools`, `atk`, …): the order is the peer's column
/// order where a peer defines one.
public struct FeatureSet: Sendable, Hashable {
    public let name: String
    public private(set) var names: [String] = []
    public private(set) var values: [FeatureValue] = []

    /// A set named `name`, with room for `capacity` features.
    public init(name: String, capacity: Int = 0) {
        self.name = name
        names.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    public mutating func append(_ name: String, _ value: FeatureValue) {
        names.append(name)
        values.append(value)
    }

    public mutating func append(_ name: String, _ value: Double) {
        append(name, .number(value))
    }

    public mutating func append(_ name: String, _ value: Bool) {
        append(name, .boolean(value))
    }

    /// Appends a number, or `.missing` for nil.
    public mutating func append(_ name: String, _ value: Double?) {
        append(name, value.map(FeatureValue.number) ?? .missing)
    }

    public subscript(name: String) -> FeatureValue? {
        names.firstIndex(of: name).map { values[$0] }
    }

    public var json: JSONValue {
        var object = JSONObject()
        for (name, value) in zip(names, values) { object.append(name, value.json) }
        return .object(object)
    }
}
