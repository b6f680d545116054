import SensorData

/// One analyzer output value, typed as it reaches every output (docs/cli.md, after the command
/// list): numbers are numbers or null, booleans are booleans, categories are text in
/// fields of their own.
public enum FeatureValue: Sendable, Hashable {
    /// A number. NaN and ±∞ arise in peer sets (R's `NA`/`NaN`/`Inf`, docs/analyses.md §0); every
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

/// A named, ordered set of features (`mhealthtools`, `atk`, …): the rows every output shows.
/// Rows come only from a typed result (``init(name:features:)``, the one derivation) or from a
/// store that holds such rows (``init(name:rows:)``); the order is the peer's column order where
/// a peer defines one.
public struct FeatureSet: Sendable, Hashable {
    public let name: String
    public private(set) var names: [String] = []
    public private(set) var values: [FeatureValue] = []

    /// The rows of a stored set, in their stored order.
    public init(name: String, rows: [(name: String, value: FeatureValue)]) {
        self.name = name
        names = rows.map(\.name)
        values = rows.map(\.value)
    }

    /// The value of the feature `name`: for tests and for rows read back from a store, never for
    /// library code, which reads the typed result's fields.
    public subscript(name: String) -> FeatureValue? {
        names.firstIndex(of: name).map { values[$0] }
    }

    public var json: JSONValue {
        var object = JSONObject()
        for (name, value) in zip(names, values) { object.append(name, value.json) }
        return .object(object)
    }
}

/// The one derivation of feature rows from typed results: every analyzer's features are the
/// stored properties of an `Encodable` struct, and ``FeatureSet/init(name:features:)`` turns
/// one into the named, ordered rows that the JSON object, the table, the store and the wide
/// columns show. The order is the properties' declaration order (synthesized `Encodable`
/// encodes in that order), which keeps each peer's column order.
///
/// Property types and what they become:
/// - `Double`, `Int` → a number (a non-finite `Double` stays a number and is written as null);
/// - `Bool` → a boolean; `String` or a `String` raw-valued enum → text (a category);
/// - `[Double]` → a series;
/// - an optional of these → the value, or `missing` when nil;
/// - a nested struct → its own properties in place, named by their own names (a group), or
///   for a ``SuffixNamedFeatures`` group member + the property's name capitalized
///   (`mean` under `tapInter` → `meanTapInter`).
///
/// Any other shape is a programming error in a feature type, caught by the tests that encode
/// every analyzer's result.
extension FeatureSet {
    /// The rows of `features` under the set name `name`.
    public init(name: String, features: some Encodable) {
        self.init(name: name, rows: [])
        append(features: features)
    }

    /// Appends the rows of `features` (a second group of the same set, e.g. a pedometer's
    /// features beside the motion recording's).
    public mutating func append(features: some Encodable) {
        let sink = FeatureSink()
        do {
            try features.encode(to: FeatureEncoder(sink: sink, naming: { $0 }))
        } catch {
            preconditionFailure("feature type \(type(of: features)): \(error)")
        }
        names += sink.names
        values += sink.values
    }
}

/// A feature's name as a coding key, for feature types whose names are made at run time
/// (`f1MeanHz`, `accelerometer.x.IMF1.mean.tm`).
struct FeatureName: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A group of features named member + the name of the property holding the group, capitalized
/// (mhealthtools' `meanTapInter`, `meanDriftLeft`; gait's `stepRegularityV`).
public protocol SuffixNamedFeatures: Encodable {}

/// The rows collected while encoding.
private final class FeatureSink {
    var names: [String] = []
    var values: [FeatureValue] = []

    func add(_ name: String, _ value: FeatureValue) {
        names.append(name)
        values.append(value)
    }
}

private struct FeatureEncoder: Encoder {
    let sink: FeatureSink
    /// The feature name of a member of the value being encoded.
    let naming: (String) -> String
    /// The name a single value takes (an enum's raw value under its property).
    var single: String?
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FeatureContainer<Key>(sink: sink, naming: naming, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        preconditionFailure("feature \(single ?? "?"): a list other than [Double] is not a feature")
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        guard let single else { preconditionFailure("a feature set is a struct of features, not a single value") }
        return FeatureValueContainer(sink: sink, name: single, codingPath: codingPath)
    }
}

private struct FeatureValueContainer: SingleValueEncodingContainer {
    let sink: FeatureSink
    let name: String
    var codingPath: [any CodingKey]

    mutating func encodeNil() throws { sink.add(name, .missing) }
    mutating func encode(_ value: Bool) throws { sink.add(name, .boolean(value)) }
    mutating func encode(_ value: String) throws { sink.add(name, .text(value)) }
    mutating func encode(_ value: Double) throws { sink.add(name, .number(value)) }
    mutating func encode(_ value: Int) throws { sink.add(name, .number(Double(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(name): \(T.self) is not a feature value"))
    }
}

private struct FeatureContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: FeatureSink
    let naming: (String) -> String
    var codingPath: [any CodingKey]

    private func add(_ key: Key, _ value: FeatureValue) { sink.add(naming(key.stringValue), value) }

    mutating func encodeNil(forKey key: Key) throws { add(key, .missing) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { add(key, .boolean(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { add(key, .text(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { add(key, .number(value)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { add(key, .number(Double(value))) }

    // An absent optional is a feature without a value, not an absent feature: its column exists.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { add(key, value.map(FeatureValue.boolean) ?? .missing) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { add(key, value.map(FeatureValue.text) ?? .missing) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { add(key, value.map(FeatureValue.number) ?? .missing) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { add(key, value.map { .number(Double($0)) } ?? .missing) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { add(key, .missing) }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if let series = value as? [Double] { return add(key, .numbers(series)) }
        let outer = naming, member = key.stringValue
        let naming: (String) -> String
        if value is any SuffixNamedFeatures {
            let suffix = member.prefix(1).uppercased() + member.dropFirst()
            naming = { outer($0 + suffix) }
        } else {
            naming = outer
        }
        try value.encode(to: FeatureEncoder(sink: sink, naming: naming, single: outer(member), codingPath: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(FeatureContainer<NestedKey>(sink: sink, naming: naming, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        preconditionFailure("feature \(naming(key.stringValue)): a list other than [Double] is not a feature")
    }

    mutating func superEncoder() -> any Encoder { FeatureEncoder(sink: sink, naming: naming, codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { FeatureEncoder(sink: sink, naming: naming, codingPath: codingPath + [key]) }
}
