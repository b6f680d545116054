/// Reads a TOML 1.0 document (docs/batch.md, "Batch configuration") from its bytes, whole, into
/// `TOMLTable`s, and returns an error with the line and column of the first thing that is not
/// TOML; it never traps. It accepts what Python's `tomllib` accepts, checked against it on
/// generated documents (`TOMLPeerTests`), except:
/// - integers outside Int64 are refused (TOML 1.0 asks for that; `tomllib` keeps any size);
/// - tables and arrays nested deeper than `maximumDepth` are refused (no stack grows with the
///   input);
/// - a UTF-8 byte-order mark at the start is skipped (Windows editors write one).
/// CRLF line ends read as LF, as in `tomllib`; a lone CR is refused.
public struct TOMLParser {
    /// The deepest nesting of tables and arrays (header keys, dotted keys, inline tables and
    /// arrays counted together) a document may have.
    public static let maximumDepth = 64

    private var text: [UInt8]
    private var position = 0
    /// Counted at each table header: dotted keys may extend a table only in the section that made it.
    private var section = 0

    /// The document's root table.
    public static func parse(_ bytes: some Collection<UInt8>) throws(TOMLError) -> TOMLTable {
        var parser = TOMLParser(text: Self.normalised(bytes))
        try parser.checkUTF8()
        return try parser.document()
    }

    private init(text: [UInt8]) { self.text = text }

    /// The bytes without a leading byte-order mark, each CRLF as LF.
    private static func normalised(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var input = Array(bytes)
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { input.removeFirst(3) }
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            if input[index] == 0x0D, index + 1 < input.count, input[index + 1] == 0x0A { index += 1 }
            output.append(input[index])
            index += 1
        }
        return output
    }

    // MARK: - Errors and bytes

    private func error(_ message: String, at offset: Int? = nil) -> TOMLError {
        let offset = min(offset ?? position, text.count)
        let lineStart = text[..<offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let line = text[..<offset].count { $0 == 0x0A } + 1
        let column = text[lineStart..<offset].count { $0 & 0xC0 != 0x80 } + 1
        return TOMLError(line: line, column: column, message: message)
    }

    private func peek(_ ahead: Int = 0) -> UInt8? {
        position + ahead < text.count ? text[position + ahead] : nil
    }

    private func starts(with literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= text.count else { return false }
        return literal.withUTF8Buffer { pattern in
            (0..<count).allSatisfy { text[position + $0] == pattern[$0] }
        }
    }

    /// A byte for messages: the character, or its code when it is a control character.
    private func shown(_ byte: UInt8?) -> String {
        guard let byte else { return "the end of the document" }
        if byte == 0x0A { return "the end of the line" }
        if byte < 0x20 || byte == 0x7F { return "control character U+\(String(byte, radix: 16, uppercase: true).leftPadded(to: 4))" }
        if byte >= 0x80 { return "a non-ASCII character" }
        return "'\(Character(Unicode.Scalar(byte)))'"
    }

    private static func isControl(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }
    private static func isBareKey(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F || byte == 0x2D
    }
    private static func isDigit(_ byte: UInt8?) -> Bool { byte.map { (0x30...0x39).contains($0) } ?? false }

    /// Refuses bytes that are not UTF-8 (overlong forms, surrogates and code points past U+10FFFF included).
    private mutating func checkUTF8() throws(TOMLError) {
        var index = 0
        while index < text.count {
            let lead = text[index]
            let length: Int
            var lowest: UInt32
            switch lead {
            case 0x00...0x7F: index += 1; continue
            case 0xC2...0xDF: length = 2; lowest = 0x80
            case 0xE0...0xEF: length = 3; lowest = 0x800
            case 0xF0...0xF4: length = 4; lowest = 0x10000
            default: throw error("byte 0x\(String(lead, radix: 16, uppercase: true)) is not UTF-8", at: index)
            }
            guard index + length <= text.count else { throw error("a UTF-8 sequence is cut off by the end of the document", at: index) }
            var scalar = UInt32(lead) & (0xFF >> (length + 1))
            for offset in 1..<length {
                let byte = text[index + offset]
                guard byte & 0xC0 == 0x80 else { throw error("byte 0x\(String(byte, radix: 16, uppercase: true)) is not UTF-8", at: index) }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            guard scalar >= lowest, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
                throw error("bytes are not UTF-8 (an overlong form, a surrogate or beyond U+10FFFF)", at: index)
            }
            lowest = 0
            index += length
        }
    }

    // MARK: - The document

    private mutating func document() throws(TOMLError) -> TOMLTable {
        let root = TOMLTreeTable()
        var current = root
        var headerDepth = 0
        while true {
            skipWhitespace()
            guard let byte = peek() else { break }
            if byte == 0x0A { position += 1; continue }
            if Self.isBareKey(byte) || byte == 0x22 || byte == 0x27 {
                try keyValue(into: current, depth: headerDepth)
                skipWhitespace()
            } else if byte == 0x5B {
                section += 1
                let isArray = peek(1) == 0x5B
                let start = position
                position += isArray ? 2 : 1
                skipWhitespace()
                let path = try key()
                guard path.count <= Self.maximumDepth else { throw error("a table header nested deeper than \(Self.maximumDepth) levels", at: start) }
                if isArray {
                    guard starts(with: "]]") else { throw error("expected ']]' to close the array-of-tables header, found \(shown(peek()))") }
                    position += 2
                } else {
                    guard peek() == 0x5D else { throw error("expected ']' to close the table header, found \(shown(peek()))") }
                    position += 1
                }
                current = try table(at: path, in: root, appending: isArray, start: start)
                headerDepth = path.count
                skipWhitespace()
            } else if byte != 0x23 {
                throw error("expected a key, a [table] header or a comment, found \(shown(byte))")
            }
            try skipComment()
            guard let end = peek() else { break }
            guard end == 0x0A else { throw error("expected the end of the line after a statement, found \(shown(end))") }
            position += 1
        }
        return root.value
    }

    /// The table a `[path]` (or `[[path]]`, `appending`) header opens.
    private func table(at path: [String], in root: TOMLTreeTable, appending: Bool, start: Int) throws(TOMLError) -> TOMLTreeTable {
        let name = path.map(Self.shownKey).joined(separator: ".")
        var node = root
        for part in path.dropLast() {
            switch node[part] {
            case nil:
                let created = TOMLTreeTable()
                node[part] = .table(created)
                node = created
            case .table(let nested): node = nested
            case .tables(let list): node = list[list.count - 1]
            case .value(let value): throw error("[\(name)]: \(Self.shownKey(part)) already holds \(value.typeNameWithArticle)", at: start)
            }
        }
        let last = path[path.count - 1]
        if appending {
            let created = TOMLTreeTable()
            created.headerDefined = true
            switch node[last] {
            case nil: node[last] = .tables([created])
            case .tables(let list): node[last] = .tables(list + [created])
            case .table: throw error("[[\(name)]]: \(name) is already a table, not an array of tables", at: start)
            case .value(let value): throw error("[[\(name)]]: \(name) already holds \(value.typeNameWithArticle)", at: start)
            }
            return created
        }
        switch node[last] {
        case nil:
            let created = TOMLTreeTable()
            created.headerDefined = true
            node[last] = .table(created)
            return created
        case .table(let existing):
            guard !existing.headerDefined, existing.dottedSection == nil else { throw error("[\(name)]: the table is defined twice", at: start) }
            existing.headerDefined = true
            return existing
        case .tables: throw error("[\(name)]: \(name) is an array of tables; its tables are added with [[\(name)]]", at: start)
        case .value(let value): throw error("[\(name)]: \(name) already holds \(value.typeNameWithArticle)", at: start)
        }
    }

    /// A `key = value` line (or an inline table's member) added to `table`.
    private mutating func keyValue(into table: TOMLTreeTable, depth: Int) throws(TOMLError) {
        let start = position
        let path = try key()
        guard peek() == 0x3D else { throw error("expected '=' after the key, found \(shown(peek()))") }
        position += 1
        skipWhitespace()
        guard depth + path.count <= Self.maximumDepth else { throw error("a key nested deeper than \(Self.maximumDepth) levels", at: start) }
        let value = try value(depth: depth + path.count)
        let name = path.map(Self.shownKey).joined(separator: ".")
        var node = table
        for part in path.dropLast() {
            switch node[part] {
            case nil:
                let created = TOMLTreeTable()
                created.dottedSection = section
                node[part] = .table(created)
                node = created
            case .table(let nested):
                guard !nested.headerDefined, nested.dottedSection == nil || nested.dottedSection == section else {
                    throw error("\(name): the table \(Self.shownKey(part)) was defined elsewhere; dotted keys cannot add to it", at: start)
                }
                nested.dottedSection = section
                node = nested
            case .tables: throw error("\(name): \(Self.shownKey(part)) is an array of tables; dotted keys cannot add to it", at: start)
            case .value(let existing): throw error("\(name): \(Self.shownKey(part)) already holds \(existing.typeNameWithArticle)", at: start)
            }
        }
        let last = path[path.count - 1]
        guard node[last] == nil else { throw error("\(name) is defined twice", at: start) }
        node[last] = .value(value)
    }

    // MARK: - Keys

    private mutating func key() throws(TOMLError) -> [String] {
        var parts = [try keyPart()]
        skipWhitespace()
        while peek() == 0x2E {
            position += 1
            skipWhitespace()
            parts.append(try keyPart())
            skipWhitespace()
        }
        return parts
    }

    private mutating func keyPart() throws(TOMLError) -> String {
        switch peek() {
        case 0x22: return try basicString()
        case 0x27: return try literalString()
        case let byte? where Self.isBareKey(byte):
            let start = position
            while let next = peek(), Self.isBareKey(next) { position += 1 }
            return String(decoding: text[start..<position], as: UTF8.self)
        case let byte: throw error("a key starts with a letter, a digit, '_', '-' or a quote, not \(shown(byte))")
        }
    }

    // MARK: - Values

    private mutating func value(depth: Int) throws(TOMLError) -> TOMLValue {
        switch peek() {
        case 0x22: return .string(starts(with: "\"\"\"") ? try multilineString(literal: false) : try basicString())
        case 0x27: return .string(starts(with: "'''") ? try multilineString(literal: true) : try literalString())
        case 0x74 where starts(with: "true"): position += 4; return .boolean(true)
        case 0x66 where starts(with: "false"): position += 5; return .boolean(false)
        case 0x5B: return try array(depth: depth + 1)
        case 0x7B: return try inlineTable(depth: depth + 1)
        default: break
        }
        if let dateTime = try dateTime() { return .dateTime(dateTime) }
        if let number = try number() { return number }
        for special in ["inf", "nan", "+inf", "-inf", "+nan", "-nan"] where text[position...].starts(with: special.utf8) {
            position += special.utf8.count
            let magnitude: Double = special.hasSuffix("inf") ? .infinity : .nan
            return .float(special.hasPrefix("-") ? -magnitude : magnitude)
        }
        throw error("expected a value (a string, number, boolean, date, array or inline table), found \(shown(peek()))")
    }

    private mutating func array(depth: Int) throws(TOMLError) -> TOMLValue {
        guard depth <= Self.maximumDepth else { throw error("arrays and tables nested deeper than \(Self.maximumDepth) levels") }
        position += 1
        var items: [TOMLValue] = []
        try skipArraySpace()
        if peek() == 0x5D { position += 1; return .array(items) }
        while true {
            items.append(try value(depth: depth))
            try skipArraySpace()
            switch peek() {
            case 0x5D: position += 1; return .array(items)
            case 0x2C:
                position += 1
                try skipArraySpace()
                if peek() == 0x5D { position += 1; return .array(items) }
            case let byte: throw error("expected ',' or ']' in the array, found \(shown(byte))")
            }
        }
    }

    private mutating func inlineTable(depth: Int) throws(TOMLError) -> TOMLValue {
        guard depth <= Self.maximumDepth else { throw error("arrays and tables nested deeper than \(Self.maximumDepth) levels") }
        position += 1
        let table = TOMLTreeTable()
        skipWhitespace()
        if peek() == 0x7D { position += 1; return .table(table.value) }
        while true {
            try keyValue(into: table, depth: depth)
            skipWhitespace()
            switch peek() {
            case 0x7D: position += 1; return .table(table.value)
            case 0x2C: position += 1; skipWhitespace()
            case let byte: throw error("expected ',' or '}' in the inline table (on one line, no trailing comma), found \(shown(byte))")
            }
        }
    }

    // MARK: - Strings

    private mutating func basicString() throws(TOMLError) -> String {
        position += 1
        var bytes: [UInt8] = []
        while true {
            guard let byte = peek() else { throw error("the string is not closed before the end of the document") }
            switch byte {
            case 0x22: position += 1; return String(decoding: bytes, as: UTF8.self)
            case 0x5C: try escape(into: &bytes, multiline: false)
            case 0x09: bytes.append(byte); position += 1
            case _ where Self.isControl(byte): throw error("\(shown(byte)) inside a string (a one-line string ends on its line)")
            default: bytes.append(byte); position += 1
            }
        }
    }

    private mutating func literalString() throws(TOMLError) -> String {
        position += 1
        let start = position
        while true {
            guard let byte = peek() else { throw error("the string is not closed before the end of the document") }
            if byte == 0x27 { break }
            if byte != 0x09, Self.isControl(byte) { throw error("\(shown(byte)) inside a literal string") }
            position += 1
        }
        defer { position += 1 }
        return String(decoding: text[start..<position], as: UTF8.self)
    }

    /// A `"""` or `'''` string: a newline right after the opening is dropped, and up to two
    /// quotes before the closing three belong to the string.
    private mutating func multilineString(literal: Bool) throws(TOMLError) -> String {
        let quote: UInt8 = literal ? 0x27 : 0x22
        position += 3
        if peek() == 0x0A { position += 1 }
        var bytes: [UInt8] = []
        while true {
            guard let byte = peek() else { throw error("the multi-line string is not closed before the end of the document") }
            if byte == quote, peek(1) == quote, peek(2) == quote {
                position += 3
                for _ in 0..<2 where peek() == quote {
                    bytes.append(quote)
                    position += 1
                }
                return String(decoding: bytes, as: UTF8.self)
            }
            if byte == 0x5C, !literal {
                try escape(into: &bytes, multiline: true)
            } else if byte != 0x09, byte != 0x0A, Self.isControl(byte) {
                throw error("\(shown(byte)) inside a multi-line string")
            } else {
                bytes.append(byte)
                position += 1
            }
        }
    }

    private mutating func escape(into bytes: inout [UInt8], multiline: Bool) throws(TOMLError) {
        let code = peek(1)
        position += 2
        if multiline, code == 0x20 || code == 0x09 || code == 0x0A {
            // A line-ending backslash: the whitespace and newlines after it are dropped.
            if code != 0x0A {
                skipWhitespace()
                guard let next = peek() else { return }
                guard next == 0x0A else { throw error("a backslash followed by spaces must end its line") }
                position += 1
            }
            while let next = peek(), next == 0x20 || next == 0x09 || next == 0x0A { position += 1 }
            return
        }
        switch code {
        case 0x62: bytes.append(0x08)
        case 0x74: bytes.append(0x09)
        case 0x6E: bytes.append(0x0A)
        case 0x66: bytes.append(0x0C)
        case 0x72: bytes.append(0x0D)
        case 0x22: bytes.append(0x22)
        case 0x5C: bytes.append(0x5C)
        case 0x75, 0x55:
            let length = code == 0x75 ? 4 : 8
            let digits = text[position..<min(position + length, text.count)]
            guard digits.count == length, let value = UInt32(String(decoding: digits, as: UTF8.self), radix: 16), digits.allSatisfy({ $0 != 0x2B && $0 != 0x2D }) else {
                throw error("\\\(code == 0x75 ? "u" : "U") needs \(length) hexadecimal digits")
            }
            guard let scalar = Unicode.Scalar(value) else { throw error("\\\(code == 0x75 ? "u" : "U")\(String(decoding: digits, as: UTF8.self)) is not a Unicode scalar value") }
            position += length
            bytes.append(contentsOf: String(Character(scalar)).utf8)
        default:
            position -= 2
            throw error("unknown escape '\\\(code.map { Self.isControl($0) || $0 >= 0x80 ? "?" : String(Unicode.Scalar($0)) } ?? "")' (\\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)")
        }
    }

    // MARK: - Numbers, dates and times

    /// A decimal, hexadecimal, octal or binary integer, or a float, at `position` (nil: none).
    private mutating func number() throws(TOMLError) -> TOMLValue? {
        let start = position
        if peek() == 0x30, let prefix = peek(1), let radix: Int = [0x78: 16, 0x6F: 8, 0x62: 2][prefix] {
            position += 2
            let digits = digitRun { byte in
                switch radix {
                case 16: Self.isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
                case 8: (0x30...0x37).contains(byte)
                default: byte == 0x30 || byte == 0x31
                }
            }
            if let digits {
                guard let value = Int64(digits, radix: radix) else { throw error("the integer is outside the 64-bit range", at: start) }
                return .integer(value)
            }
            position = start
        }
        var literal = ""
        if let sign = peek(), sign == 0x2B || sign == 0x2D {
            literal.append(Character(Unicode.Scalar(sign)))
            position += 1
        }
        guard Self.isDigit(peek()) else { position = start; return nil }
        if peek() == 0x30 {
            literal += "0"
            position += 1
        } else {
            literal += digitRun(Self.isDigit)!
        }
        var isFloat = false
        if peek() == 0x2E, Self.isDigit(peek(1)) {
            position += 1
            literal += "." + digitRun(Self.isDigit)!
            isFloat = true
        }
        if let e = peek(), e == 0x65 || e == 0x45 {
            let mark = position
            position += 1
            var exponent = "e"
            if let sign = peek(), sign == 0x2B || sign == 0x2D {
                exponent.append(Character(Unicode.Scalar(sign)))
                position += 1
            }
            if let digits = digitRun(Self.isDigit) {
                literal += exponent + digits
                isFloat = true
            } else {
                position = mark
            }
        }
        if isFloat {
            guard let value = Double(literal) else { throw error("not a number: \(literal)", at: start) }
            return .float(value)
        }
        guard let value = Int64(literal) else { throw error("the integer is outside the 64-bit range (−2^63 … 2^63 − 1)", at: start) }
        return .integer(value)
    }

    /// Digits accepted by `isDigit`, single underscores between them dropped (nil: no digit here).
    private mutating func digitRun(_ isDigit: (UInt8) -> Bool) -> String? {
        guard let first = peek(), isDigit(first) else { return nil }
        var digits = [first]
        position += 1
        while let next = peek() {
            if isDigit(next) {
                digits.append(next)
                position += 1
            } else if next == 0x5F, let after = peek(1), isDigit(after) {
                digits.append(after)
                position += 2
            } else {
                break
            }
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// A date-time, date or time at `position` (nil: none), checked (a real day, hours 00–23).
    private mutating func dateTime() throws(TOMLError) -> String? {
        let start = position
        if let date = fixedDigits([4, 2, 2], separator: 0x2D) {
            let (year, month, day) = (date[0], date[1], date[2])
            guard (1...12).contains(month), (1...31).contains(day) else { position = start; return nil }
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
            guard year >= 1, day <= days else { throw error("not a date: \(String(decoding: text[start..<position], as: UTF8.self))", at: start) }
            let afterDate = position
            if let separator = peek(), separator == 0x54 || separator == 0x74 || separator == 0x20 {
                position += 1
                if time() {
                    let afterTime = position
                    if let zone = peek(), zone == 0x5A || zone == 0x7A {
                        position += 1
                    } else if let sign = peek(), sign == 0x2B || sign == 0x2D {
                        position += 1
                        if let offset = fixedDigits([2, 2], separator: 0x3A), offset[0] <= 23, offset[1] <= 59 {} else { position = afterTime }
                    }
                } else {
                    position = afterDate
                }
            }
            return String(decoding: text[start..<position], as: UTF8.self)
        }
        position = start
        return time() ? String(decoding: text[start..<position], as: UTF8.self) : nil
    }

    /// `HH:MM:SS[.fraction]` at `position`, advancing past it (false: none, position kept).
    private mutating func time() -> Bool {
        let start = position
        guard let parts = fixedDigits([2, 2, 2], separator: 0x3A), parts[0] <= 23, parts[1] <= 59, parts[2] <= 59 else {
            position = start
            return false
        }
        if peek() == 0x2E, Self.isDigit(peek(1)) {
            position += 1
            while Self.isDigit(peek()) { position += 1 }
        }
        return true
    }

    /// Groups of exactly these many digits joined by `separator` (nil: not there; position then undefined).
    private mutating func fixedDigits(_ widths: [Int], separator: UInt8) -> [Int]? {
        var values: [Int] = []
        for (index, width) in widths.enumerated() {
            if index > 0 {
                guard peek() == separator else { return nil }
                position += 1
            }
            var value = 0
            for _ in 0..<width {
                guard let byte = peek(), Self.isDigit(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
                position += 1
            }
            values.append(value)
        }
        return values
    }

    // MARK: - Space and comments

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 { position += 1 }
    }

    private mutating func skipComment() throws(TOMLError) {
        guard peek() == 0x23 else { return }
        while let byte = peek(), byte != 0x0A {
            if byte != 0x09, Self.isControl(byte) { throw error("\(shown(byte)) inside a comment") }
            position += 1
        }
    }

    /// Spaces, newlines and comments between an array's values.
    private mutating func skipArraySpace() throws(TOMLError) {
        while true {
            let before = position
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A { position += 1 }
            try skipComment()
            if position == before { return }
        }
    }

    // MARK: - Messages

    /// A key as TOML would write it: bare when it can be, quoted otherwise.
    static func shownKey(_ key: String) -> String {
        if !key.isEmpty, key.utf8.allSatisfy(isBareKey) { return key }
        var quoted = "\""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: quoted += "\\u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}

extension String {
    /// This text with zeros before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
