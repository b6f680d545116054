/// A value of a TOML 1.0 document (docs/batch.md, "Batch configuration"): what `TOMLParser`
/// returns. Tables keep their keys in the order the document first names them.
public enum TOMLValue: Sendable, Hashable {
    case string(String)
    /// A 64-bit integer (decimal, `0x`, `0o` or `0b`); a literal outside Int64 is refused.
    case integer(Int64)
    /// A binary64 float (`inf` and `nan` included; a literal beyond ±1.8e308 reads as ±∞).
    case float(Double)
    case boolean(Bool)
    /// An offset or local date-time, a local date or a local time, checked and kept as written.
    case dateTime(String)
    case array([TOMLValue])
    case table(TOMLTable)

    /// The TOML type's name, for messages.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .float: "float"
        case .boolean: "boolean"
        case .dateTime: "date or time"
        case .array: "array"
        case .table: "table"
        }
    }

    /// ``typeName`` with its indefinite article ("an integer", "a string"), for messages.
    var typeNameWithArticle: String {
        switch self {
        case .integer, .array: "an \(typeName)"
        default: "a \(typeName)"
        }
    }
}

/// A TOML table: keys in document order, each with its value.
public struct TOMLTable: Sendable, Hashable {
    public private(set) var keys: [String] = []
    private var values: [String: TOMLValue] = [:]

    public init() {}

    public subscript(key: String) -> TOMLValue? { values[key] }

    /// The members in document order.
    public var members: [(key: String, value: TOMLValue)] { keys.map { ($0, values[$0]!) } }

    /// Adds `value` under a key not yet present.
    mutating func append(_ key: String, _ value: TOMLValue) {
        precondition(values[key] == nil, "TOMLTable.append: duplicate key")
        keys.append(key)
        values[key] = value
    }
}

/// Why a document is not TOML, and where (1-based line; column in Unicode scalars).
public struct TOMLError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "line \(line), column \(column): \(message)" }
}
