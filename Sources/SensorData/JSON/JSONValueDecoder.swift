/// Decodes a `Decodable` value from a ``JSONValue`` tree, without a round trip through JSON text
/// (an analyzer's parameters laid over by a configuration or the command line: Foundation's
/// JSONEncoder and JSONDecoder cost a command's start-up half a millisecond, docs/cli.md
/// "Start-up"). It decides as Foundation's JSONDecoder does on the document's text
/// (`JSONValueCodingTests`): a value of another JSON type is a `typeMismatch`, null where a value
/// is needed a `valueNotFound`, a number outside a type's range `dataCorrupted`, each with the
/// coding path where it happened. Two rules are its own: a number read as an integer type must
/// also be a whole number within ±2^53, where a Double still holds every integer (docs/batch.md,
/// "Batch configuration"); and a NaN or an infinity, which JSON text cannot hold (``JSONWriter``
/// writes them as strings), is a `typeMismatch` wherever a number is read, so a range check a
/// type leaves out cannot let one through.
public struct JSONValueDecoder {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try T(from: Node(value: value, codingPath: []))
    }
}

/// One value of the tree and where it sits: the decoder and its single-value container.
private struct Node: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(Keyed<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([Any].self) }
        return Unkeyed(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func mismatch(_ type: Any.Type) -> DecodingError {
        if case .null = value {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Cannot get \(type) -- found null value instead"))
        }
        let found = if case .number(let number) = value { "the number \(number)" } else { value.typeName }
        return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(found) instead."))
    }

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(type) }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value else { throw mismatch(type) }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let number) = value, number.isFinite else { throw mismatch(type) }
        return number
    }

    func decode(_ type: Float.Type) throws -> Float {
        guard case .number(let number) = value, number.isFinite else { throw mismatch(type) }
        // Foundation's limits: nothing beyond Float's range, and nothing that rounds to 0 but 0.
        guard abs(number) <= Double(Float.greatestFiniteMagnitude), Float(number) != 0 || number == 0 else { throw unfit(number, type) }
        return Float(number)
    }

    /// A whole number within ±2^53 (beyond, a Double no longer holds every integer: the number
    /// read may not be the one written) that `T` holds exactly.
    func integer<T: BinaryInteger>(_ type: T.Type) throws -> T {
        guard case .number(let number) = value, number.isFinite else { throw mismatch(type) }
        guard abs(number) <= 9_007_199_254_740_992, let exact = T(exactly: number) else { throw unfit(number, type) }
        return exact
    }

    func unfit(_ number: Double, _ type: Any.Type) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: "Parsed JSON number <\(number)> does not fit in \(type)."))
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }
}

/// The members of an object, by key.
private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    func node(_ key: Key) throws -> Node {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return Node(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try node(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try node(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try node(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try node(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try node(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try node(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try node(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try node(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try node(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try node(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try node(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try node(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try node(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try node(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try node(key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try T(from: node(key)) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try node(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try node(key).unkeyedContainer() }
    func superDecoder() throws -> any Decoder { Node(value: .object(object), codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try node(key) }
}

/// The items of an array, in order.
private struct Unkeyed: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(items: [JSONValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// The next item, moving past it only when `read` succeeds.
    mutating func next<T>(_ type: T.Type, _ read: (Node) throws -> T) throws -> T {
        let path = codingPath + [JSONIndexKey(intValue: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
        }
        let value = try read(Node(value: items[currentIndex], codingPath: path))
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.decode(type) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try T(from: $0) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(KeyedDecodingContainer<NestedKey>.self) { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next((any UnkeyedDecodingContainer).self) { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder { try next(Node.self) { $0 } }
}

/// An array position in a coding path.
struct JSONIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
