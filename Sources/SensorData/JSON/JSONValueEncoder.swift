/// Encodes an `Encodable` value as a ``JSONValue`` tree, without JSON text in between (the
/// counterpart of ``JSONValueDecoder``). Numbers of every type become the `Double`s their JSON
/// text parses to, as ``JSONValue`` holds them; a nil optional is left out, as Foundation's JSONEncoder leaves it;
/// object members keep the order they were encoded in, or are sorted by key at every level
/// with `sortedKeys`.
public struct JSONValueEncoder {
    public var sortedKeys = false

    public init(sortedKeys: Bool = false) {
        self.sortedKeys = sortedKeys
    }

    public func encode(_ value: some Encodable) throws -> JSONValue {
        let root = Slot()
        try value.encode(to: Writer(slot: root, codingPath: []))
        return root.value(sortedKeys: sortedKeys)
    }
}

/// A value being built: a scalar, or the members or items encoded into it so far.
private final class Slot {
    var scalar = JSONValue.null
    var members: [(key: String, slot: Slot)]?
    var items: [Slot]?

    func value(sortedKeys: Bool) -> JSONValue {
        if let items { return .array(items.map { $0.value(sortedKeys: sortedKeys) }) }
        guard let members else { return scalar }
        var object = JSONObject()
        for (key, slot) in sortedKeys ? members.sorted(by: { $0.key < $1.key }) : members {
            object.append(key, slot.value(sortedKeys: sortedKeys))
        }
        return .object(object)
    }
}

/// The encoder of one slot, and its single-value container.
private struct Writer: Encoder, SingleValueEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if slot.members == nil { slot.members = [] }
        return KeyedEncodingContainer(Keyed<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if slot.items == nil { slot.items = [] }
        return Unkeyed(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() { slot.scalar = .null }
    func encode(_ value: Bool) { slot.scalar = .bool(value) }
    func encode(_ value: String) { slot.scalar = .string(value) }
    func encode(_ value: Double) { slot.scalar = .number(value) }
    /// The Double of the Float's shortest decimal, the number its JSON text holds (0.1 as 0.1,
    /// not 0.100000001490116).
    func encode(_ value: Float) { slot.scalar = .number(value.isFinite ? Double("\(value)") ?? Double(value) : Double(value)) }
    func encode(_ value: Int) { slot.scalar = .number(Double(value)) }
    func encode(_ value: Int8) { slot.scalar = .number(Double(value)) }
    func encode(_ value: Int16) { slot.scalar = .number(Double(value)) }
    func encode(_ value: Int32) { slot.scalar = .number(Double(value)) }
    func encode(_ value: Int64) { slot.scalar = .number(Double(value)) }
    func encode(_ value: UInt) { slot.scalar = .number(Double(value)) }
    func encode(_ value: UInt8) { slot.scalar = .number(Double(value)) }
    func encode(_ value: UInt16) { slot.scalar = .number(Double(value)) }
    func encode(_ value: UInt32) { slot.scalar = .number(Double(value)) }
    func encode(_ value: UInt64) { slot.scalar = .number(Double(value)) }
    func encode<T: Encodable>(_ value: T) throws { try value.encode(to: self) }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: Slot
    let codingPath: [any CodingKey]

    /// The writer of a new member `key` (a key encoded twice keeps its last value, as in
    /// ``JSONObject``).
    func member(_ key: Key) -> Writer {
        let child = Slot()
        slot.members?.removeAll { $0.key == key.stringValue }
        slot.members?.append((key.stringValue, child))
        return Writer(slot: child, codingPath: codingPath + [key])
    }

    func encodeNil(forKey key: Key) { member(key).encodeNil() }
    func encode(_ value: Bool, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: String, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: Double, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: Float, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: Int, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: Int8, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: Int16, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: Int32, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: Int64, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: UInt, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: UInt8, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: UInt16, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: UInt32, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: UInt64, forKey key: Key) { member(key).encode(value) }
    func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try value.encode(to: member(key)) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        member(key).container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { member(key).unkeyedContainer() }
    func superEncoder() -> any Encoder { Writer(slot: slot, codingPath: codingPath) }
    func superEncoder(forKey key: Key) -> any Encoder { member(key) }
}

private struct Unkeyed: UnkeyedEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]
    var count: Int { slot.items?.count ?? 0 }

    /// The writer of a new last item.
    func item() -> Writer {
        let child = Slot()
        let path = codingPath + [JSONIndexKey(intValue: count)]
        slot.items?.append(child)
        return Writer(slot: child, codingPath: path)
    }

    func encodeNil() { item().encodeNil() }
    func encode(_ value: Bool) { item().encode(value) }
    func encode(_ value: String) { item().encode(value) }
    func encode(_ value: Double) { item().encode(value) }
    func encode(_ value: Float) { item().encode(value) }
    func encode(_ value: Int) { item().encode(value) }
    func encode(_ value: Int8) { item().encode(value) }
    func encode(_ value: Int16) { item().encode(value) }
    func encode(_ value: Int32) { item().encode(value) }
    func encode(_ value: Int64) { item().encode(value) }
    func encode(_ value: UInt) { item().encode(value) }
    func encode(_ value: UInt8) { item().encode(value) }
    func encode(_ value: UInt16) { item().encode(value) }
    func encode(_ value: UInt32) { item().encode(value) }
    func encode(_ value: UInt64) { item().encode(value) }
    func encode<T: Encodable>(_ value: T) throws { try value.encode(to: item()) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        item().container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { item().unkeyedContainer() }
    func superEncoder() -> any Encoder { item() }
}
