internal import CDBus

/// A value read from a D-Bus message (D-Bus Specification, "Type System"): variants are
/// unwrapped, `ay` is bytes, a dictionary's keys are their text (BlueZ's are strings and object
/// paths), file descriptors are left out.
public indirect enum DBusValue: Sendable, Hashable {
    case string(String)
    case boolean(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case double(Double)
    case bytes([UInt8])
    case array([DBusValue])
    case dictionary([String: DBusValue])
    case structure([DBusValue])

    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var boolean: Bool? { if case .boolean(let value) = self { value } else { nil } }
    public var bytes: [UInt8]? { if case .bytes(let value) = self { value } else { nil } }
    public var dictionary: [String: DBusValue]? { if case .dictionary(let value) = self { value } else { nil } }

    /// The text of a dictionary key.
    var keyText: String {
        switch self {
        case .string(let value): value
        case .boolean(let value): String(value)
        case .integer(let value): String(value)
        case .unsigned(let value): String(value)
        case .double(let value): String(value)
        default: ""
        }
    }
}

/// A D-Bus error reply or a failed connection: the error's name and message.
struct DBusFailure: Error, Sendable, CustomStringConvertible {
    var name: String
    var message: String
    var description: String { "\(message) (\(name))" }
}

/// A private connection to the system bus through libdbus-1, loaded when the first connection is
/// made (`DBUS_SYSTEM_BUS_ADDRESS` chooses the bus, as for every D-Bus client): blocking method calls with a timeout, match rules, and
/// the signals that arrive. Made on one thread and then used by one thread at a time (the
/// source's reader), hence `@unchecked Sendable`.
final class DBusConnection: @unchecked Sendable {
    /// A signal: where from and its arguments.
    struct Signal {
        var path: String
        var interface: String
        var member: String
        var arguments: [DBusValue]
    }

    private let connection: OpaquePointer

    /// The type codes of the D-Bus Specification ("Type System"); libdbus defines them as macros
    /// Swift does not import.
    private enum TypeCode {
        static let invalid: Int32 = 0
        static let string: Int32 = Int32(UInt8(ascii: "s"))
        static let objectPath: Int32 = Int32(UInt8(ascii: "o"))
        static let signature: Int32 = Int32(UInt8(ascii: "g"))
        static let boolean: Int32 = Int32(UInt8(ascii: "b"))
        static let byte: Int32 = Int32(UInt8(ascii: "y"))
        static let int16: Int32 = Int32(UInt8(ascii: "n"))
        static let uint16: Int32 = Int32(UInt8(ascii: "q"))
        static let int32: Int32 = Int32(UInt8(ascii: "i"))
        static let uint32: Int32 = Int32(UInt8(ascii: "u"))
        static let int64: Int32 = Int32(UInt8(ascii: "x"))
        static let uint64: Int32 = Int32(UInt8(ascii: "t"))
        static let double: Int32 = Int32(UInt8(ascii: "d"))
        static let variant: Int32 = Int32(UInt8(ascii: "v"))
        static let structure: Int32 = Int32(UInt8(ascii: "r"))
        static let dictEntry: Int32 = Int32(UInt8(ascii: "e"))
        static let array: Int32 = Int32(UInt8(ascii: "a"))
    }

    /// libdbus-1's functions (loaded by the first connection).
    private let api: atk_dbus

    init() throws(DBusFailure) {
        var reason: UnsafePointer<CChar>?
        guard let table = atk_dbus_load(&reason) else {
            throw DBusFailure(name: "org.freedesktop.DBus.Error.NotSupported", message: reason.map { String(cString: $0) } ?? "cannot load libdbus-1")
        }
        let api = table.pointee
        var error = DBusError()
        api.dbus_error_init!(&error)
        guard let connection = api.dbus_bus_get_private!(DBUS_BUS_SYSTEM, &error) else { throw Self.failure(&error, api) }
        api.dbus_connection_set_exit_on_disconnect!(connection, 0)
        self.connection = connection
        self.api = api
    }

    deinit {
        api.dbus_connection_close!(connection)
        api.dbus_connection_unref!(connection)
    }

    var isConnected: Bool { api.dbus_connection_get_is_connected!(connection) != 0 }

    /// Calls `interface.method` (no arguments) on `path` of `destination`; its reply's arguments.
    func call(_ destination: String, _ path: String, _ interface: String, _ method: String,
              timeoutMilliseconds: Int32) throws(DBusFailure) -> [DBusValue] {
        guard let message = api.dbus_message_new_method_call!(destination, path, interface, method) else {
            throw DBusFailure(name: "org.freedesktop.DBus.Error.NoMemory", message: "cannot make a method call to \(path)")
        }
        defer { api.dbus_message_unref!(message) }
        var error = DBusError()
        api.dbus_error_init!(&error)
        guard let reply = api.dbus_connection_send_with_reply_and_block!(connection, message, timeoutMilliseconds, &error) else {
            throw Self.failure(&error, api)
        }
        defer { api.dbus_message_unref!(reply) }
        return arguments(reply)
    }

    /// Adds a match rule (D-Bus Specification, "Match Rules") for the signals to receive.
    func addMatch(_ rule: String) throws(DBusFailure) {
        var error = DBusError()
        api.dbus_error_init!(&error)
        api.dbus_bus_add_match!(connection, rule, &error)
        if api.dbus_error_is_set!(&error) != 0 { throw Self.failure(&error, api) }
    }

    /// The next signal that arrives within `timeoutMilliseconds` (other messages are dropped);
    /// nil when none did or the connection is gone.
    func nextSignal(timeoutMilliseconds: Int32) -> Signal? {
        var waited = false
        while true {
            if let message = api.dbus_connection_pop_message!(connection) {
                defer { api.dbus_message_unref!(message) }
                guard api.dbus_message_get_type!(message) == DBUS_MESSAGE_TYPE_SIGNAL else { continue }
                func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
                return Signal(path: text(api.dbus_message_get_path!(message)), interface: text(api.dbus_message_get_interface!(message)),
                              member: text(api.dbus_message_get_member!(message)), arguments: arguments(message))
            }
            guard !waited, api.dbus_connection_read_write!(connection, timeoutMilliseconds) != 0 else { return nil }
            waited = true
        }
    }

    private static func failure(_ error: inout DBusError, _ api: atk_dbus) -> DBusFailure {
        defer { api.dbus_error_free!(&error) }
        let name = error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
        return DBusFailure(name: name, message: error.message.map { String(cString: $0) } ?? name)
    }

    /// The arguments of a message.
    private func arguments(_ message: OpaquePointer) -> [DBusValue] {
        var iterator = DBusMessageIter()
        guard api.dbus_message_iter_init!(message, &iterator) != 0 else { return [] }
        return elements(&iterator, depth: 0)
    }

    /// The values from `iterator` to the end of its container. D-Bus nests at most 64 deep
    /// (the specification's limit, which the daemon enforces); deeper is read as empty.
    private func elements(_ iterator: inout DBusMessageIter, depth: Int) -> [DBusValue] {
        var values: [DBusValue] = []
        while api.dbus_message_iter_get_arg_type!(&iterator) != TypeCode.invalid {
            if let value = value(&iterator, depth: depth) { values.append(value) }
            _ = api.dbus_message_iter_next!(&iterator)
        }
        return values
    }

    private func value(_ iterator: inout DBusMessageIter, depth: Int) -> DBusValue? {
        let type = api.dbus_message_iter_get_arg_type!(&iterator)
        func basic<T: BitwiseCopyable>(_ initial: T) -> T {
            var value = initial
            withUnsafeMutableBytes(of: &value) { api.dbus_message_iter_get_basic!(&iterator, $0.baseAddress) }
            return value
        }
        switch type {
        case TypeCode.string, TypeCode.objectPath, TypeCode.signature:
            return .string(basic(UnsafePointer<CChar>?.none).map { String(cString: $0) } ?? "")
        case TypeCode.boolean: return .boolean(basic(dbus_bool_t(0)) != 0)
        case TypeCode.byte: return .unsigned(UInt64(basic(UInt8(0))))
        case TypeCode.int16: return .integer(Int64(basic(Int16(0))))
        case TypeCode.uint16: return .unsigned(UInt64(basic(UInt16(0))))
        case TypeCode.int32: return .integer(Int64(basic(Int32(0))))
        case TypeCode.uint32: return .unsigned(UInt64(basic(UInt32(0))))
        case TypeCode.int64: return .integer(basic(Int64(0)))
        case TypeCode.uint64: return .unsigned(basic(UInt64(0)))
        case TypeCode.double: return .double(basic(0.0))
        case TypeCode.variant, TypeCode.structure, TypeCode.dictEntry, TypeCode.array:
            guard depth < 64 else { return nil }
            var inner = DBusMessageIter()
            let element = type == TypeCode.array ? api.dbus_message_iter_get_element_type!(&iterator) : TypeCode.invalid
            api.dbus_message_iter_recurse!(&iterator, &inner)
            switch type {
            case TypeCode.variant: return value(&inner, depth: depth + 1)
            case TypeCode.structure, TypeCode.dictEntry: return .structure(elements(&inner, depth: depth + 1))
            default: break
            }
            if element == TypeCode.byte {
                var pointer: UnsafeMutableRawPointer?
                var count: Int32 = 0
                api.dbus_message_iter_get_fixed_array!(&inner, &pointer, &count)
                guard let pointer, count > 0 else { return .bytes([]) }
                return .bytes(Array(UnsafeRawBufferPointer(start: pointer, count: Int(count))))
            }
            let items = elements(&inner, depth: depth + 1)
            guard element == TypeCode.dictEntry else { return .array(items) }
            var dictionary: [String: DBusValue] = [:]
            for case .structure(let pair) in items where pair.count == 2 { dictionary[pair[0].keyText] = pair[1] }
            return .dictionary(dictionary)
        default:
            return nil
        }
    }
}
