/// A parsed JSON value (RFC 8259), the small-document model used for results, manifests and
/// command output. Recorder item arrays do not go through it: `ItemColumnsDecoder` reads them
/// straight into columns.
///
/// Numbers are `Double` (docs/formats.md §11: decode as Double, check integrality where an Int is
/// needed); a literal too large for a Double (e.g. `1.797693134862316e+308`, an overflowing
/// spelling of `DBL_MAX`) becomes `±infinity`. Object members keep their order.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public var object: JSONObject? {
        if case .object(let value) = self { value } else { nil }
    }
    public var array: [JSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }
    public var string: String? {
        if case .string(let value) = self { value } else { nil }
    }
    public var number: Double? {
        if case .number(let value) = self { value } else { nil }
    }
    public var bool: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The JSON type's name, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Member lookup on objects; `nil` for other values or absent keys.
    public subscript(key: String) -> JSONValue? {
        object?[key]
    }
}

/// A JSON object with its members in document order.
///
/// Lookup is linear: ResearchKit objects have a handful of keys. If a key repeats, the last
/// occurrence wins (as in Python's `json` and JavaScript; the reader warns, `duplicateKeys`).
public struct JSONObject: Sendable, Hashable {
    public private(set) var keys: [String] = []
    public private(set) var values: [JSONValue] = []

    public init() {}

    public init(_ members: KeyValuePairs<String, JSONValue>) {
        for (key, value) in members { append(key, value) }
    }

    public var count: Int { keys.count }

    public subscript(key: String) -> JSONValue? {
        guard let index = keys.lastIndex(of: key) else { return nil }
        return values[index]
    }

    /// Appends a member (no check for duplicates; the last occurrence wins on lookup).
    public mutating func append(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
    }

    /// Appends a member unless `value` is nil (ResearchKit omits nil properties).
    public mutating func append(_ key: String, _ value: JSONValue?) {
        if let value { append(key, value) }
    }

    public var members: Zip2Sequence<[String], [JSONValue]> { zip(keys, values) }
}
