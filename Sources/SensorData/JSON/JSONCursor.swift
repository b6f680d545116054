import Glibc

/// A pull parser over UTF-8 JSON bytes (RFC 8259, strict: no NaN/Infinity, no comments, no
/// trailing commas, no leading zeros, no control characters in strings).
///
/// It is the one JSON front end of the package: the document model (`parseValue`), the layout
/// sniffer (`skipValue` over top-level members) and the columnar item decoder all drive it, so
/// every error carries the same absolute byte offset into the file. A UTF-8 byte-order mark at
/// the start is skipped.
///
/// The cursor only borrows `bytes`; use it inside `withUnsafeBufferPointer`.
struct JSONCursor {
    /// Deepest nesting of arrays and objects accepted. ResearchKit task results nest about ten
    /// levels; the limit keeps hostile input from exhausting the stack.
    static let maximumDepth = 48

    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    /// Index of the next unread byte.
    var index: Int
    /// One past the last byte this cursor may read.
    let end: Int
    /// Keys that repeated within one object (RFC 8259 §4 leaves their meaning open): how many,
    /// and the first with where it was. The last occurrence is used everywhere (as Python's
    /// `json` and JavaScript's `JSON.parse` do); ``JSONContents`` turns this into a warning.
    private(set) var duplicateKeys: (count: Int, first: (key: String, location: String)?) = (0, nil)

    init(bytes: UnsafeBufferPointer<UInt8>, file: String, range: Range<Int>? = nil) {
        self.bytes = bytes
        self.file = file
        let range = range ?? 0..<bytes.count
        var start = range.lowerBound
        if start == 0, range.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            start = 3
        }
        self.index = start
        self.end = range.upperBound
    }

    mutating func noteDuplicateKey(_ key: String, location: @autoclosure () -> String) {
        if duplicateKeys.first == nil { duplicateKeys.first = (key, location()) }
        duplicateKeys.count += 1
    }

    /// Adds what a cursor over part of the same text found.
    mutating func absorbDuplicateKeys(of other: JSONCursor) {
        if duplicateKeys.first == nil { duplicateKeys.first = other.duplicateKeys.first }
        duplicateKeys.count += other.duplicateKeys.count
    }

    // MARK: - Errors

    func error(_ reason: ReadError.Reason, at offset: Int? = nil) -> ReadError {
        let position = min(offset ?? index, bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<position where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        return ReadError(
            file: file, reason: reason, offset: position, line: line, column: position - lineStart + 1)
    }

    /// The error for an unexpected byte (or the end of the text) at `index`.
    func unexpected(_ expected: String) -> ReadError {
        guard index < end else { return error(.truncatedJSON) }
        return error(.syntax("expected \(expected), found \(quoteToken(at: index))"))
    }

    /// A short quotation of the token at `offset`, for messages: `"NaN"`, `string "0.1"`.
    func quoteToken(at offset: Int) -> String {
        let isString = bytes[offset] == UInt8(ascii: "\"")
        let stop = min(end, offset + (isString ? 42 : 24))
        var text = ""
        for i in (isString ? offset + 1 : offset)..<stop {
            let byte = bytes[i]
            if isString && byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 || byte >= 0x7F {
                if text.isEmpty && !isString { return byte < 0x80 ? "control byte 0x\(hex(byte))" : "byte 0x\(hex(byte))" }
                break
            }
            if !isString, !text.isEmpty, [UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20].contains(byte) { break }
            text.append(Character(Unicode.Scalar(byte)))
        }
        return isString ? "string \(ReadError.quote(text))" : ReadError.quote(text)
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    // MARK: - Tokens

    @inline(__always)
    mutating func skipWhitespace() {
        while index < end {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// The next non-whitespace byte, without consuming it; nil at the end.
    @inline(__always)
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < end ? bytes[index] : nil
    }

    /// Consumes `byte` (after whitespace) or throws.
    @inline(__always)
    mutating func expect(_ byte: UInt8, _ what: String) throws(ReadError) {
        skipWhitespace()
        guard index < end, bytes[index] == byte else { throw unexpected(what) }
        index += 1
    }

    /// Consumes `byte` if it is next (after whitespace).
    @inline(__always)
    mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        if index < end, bytes[index] == byte {
            index += 1
            return true
        }
        return false
    }

    /// After the last value: only whitespace may follow.
    mutating func expectEnd() throws(ReadError) {
        skipWhitespace()
        if index < end {
            throw error(.syntax("unexpected \(quoteToken(at: index)) after the end of the JSON value"))
        }
    }

    // MARK: - Containers

    /// Starts an object: consumes `{`.
    mutating func beginObject() throws(ReadError) {
        skipWhitespace()
        guard index < end, bytes[index] == UInt8(ascii: "{") else {
            throw wrongType(expected: "object")
        }
        index += 1
    }

    /// Starts an array: consumes `[`.
    mutating func beginArray() throws(ReadError) {
        skipWhitespace()
        guard index < end, bytes[index] == UInt8(ascii: "[") else {
            throw wrongType(expected: "array")
        }
        index += 1
    }

    /// Iteration inside an object: returns the next key's raw byte range (between its quotes,
    /// escapes undecoded) and consumes the `:`; nil after the closing `}`.
    /// `first` is true for the first call after `beginObject`.
    mutating func nextKey(first: inout Bool) throws(ReadError) -> (range: Range<Int>, escaped: Bool)? {
        skipWhitespace()
        guard index < end else { throw error(.truncatedJSON) }
        if bytes[index] == UInt8(ascii: "}") {
            index += 1
            return nil
        }
        if !first {
            guard bytes[index] == UInt8(ascii: ",") else { throw unexpected("',' or '}'") }
            index += 1
            skipWhitespace()
        }
        first = false
        guard index < end else { throw error(.truncatedJSON) }
        guard bytes[index] == UInt8(ascii: "\"") else { throw unexpected("a string key") }
        let key = try rawString()
        try expect(UInt8(ascii: ":"), "':'")
        return key
    }

    /// Consumes the next key and its colon when they are written exactly as `quoted` (`"key":`),
    /// after the `,` that separates it from the previous member unless it is the first: what
    /// ``nextKey(first:)`` followed by `expect(":")` reads there, for a key without escapes and
    /// nothing between its bytes. False, consuming nothing, otherwise.
    @inline(__always)
    mutating func consumeKey(_ quoted: [UInt8], first: inout Bool) -> Bool {
        let start = first ? index : index + 1
        guard start + quoted.count <= end, first || bytes[index] == UInt8(ascii: ",") else { return false }
        let same = quoted.withUnsafeBufferPointer { key in
            var k = 0
            while k < key.count, bytes[start + k] == key[k] { k += 1 }
            return k == key.count
        }
        guard same else { return false }
        index = start + quoted.count
        first = false
        return true
    }

    /// Iteration inside an array: true if another element follows (consuming the `,`), false
    /// after the closing `]`.
    mutating func nextElement(first: inout Bool) throws(ReadError) -> Bool {
        skipWhitespace()
        guard index < end else { throw error(.truncatedJSON) }
        if bytes[index] == UInt8(ascii: "]") {
            index += 1
            return false
        }
        if !first {
            guard bytes[index] == UInt8(ascii: ",") else { throw unexpected("',' or ']'") }
            index += 1
        }
        first = false
        return true
    }

    func wrongType(expected: String) -> ReadError {
        guard index < end else { return error(.truncatedJSON) }
        return error(.wrongType(expected: expected, found: quoteToken(at: index)))
    }

    // MARK: - Strings

    /// Consumes a string and returns the byte range of its contents (without quotes) and
    /// whether it contains escapes. Validates escapes and rejects control characters.
    @inline(__always)
    mutating func rawString() throws(ReadError) -> (range: Range<Int>, escaped: Bool) {
        index += 1  // opening quote
        let start = index
        var escaped = false
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let range = start..<index
                index += 1
                return (range, escaped)
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                index += 1
                guard index < end else { break }
                switch bytes[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 1
                case UInt8(ascii: "u"):
                    guard index + 4 < end else { index = end; break }
                    for k in 1...4 where hexValue(bytes[index + k]) == nil {
                        throw error(.syntax("invalid \\u escape"), at: index - 1)
                    }
                    index += 5
                default:
                    throw error(.syntax("invalid escape sequence"), at: index - 1)
                }
                continue
            }
            if byte < 0x20 {
                throw error(.syntax("control character in a string"))
            }
            index += 1
        }
        throw error(.truncatedJSON)
    }

    /// Consumes a string and decodes it (escapes, surrogate pairs, UTF-8 validation).
    mutating func parseString() throws(ReadError) -> String {
        skipWhitespace()
        guard index < end, bytes[index] == UInt8(ascii: "\"") else { throw wrongType(expected: "string") }
        let start = index
        let (range, escaped) = try rawString()
        return try decodeString(range, escaped: escaped, at: start)
    }

    /// Decodes the contents of a string token whose raw bytes are `range`.
    func decodeString(_ range: Range<Int>, escaped: Bool, at offset: Int) throws(ReadError) -> String {
        let raw = UnsafeBufferPointer(rebasing: bytes[range])
        if !escaped {
            guard let text = String(validating: raw, as: UTF8.self) else {
                throw error(.invalidUTF8, at: offset)
            }
            return text
        }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            let byte = raw[i]
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                i += 1
                continue
            }
            let code = raw[i + 1]
            i += 2
            switch code {
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(raw, i)
                i += 4
                if (0xD800..<0xDC00).contains(scalar), i + 5 < raw.count, raw[i] == UInt8(ascii: "\\"),
                    raw[i + 1] == UInt8(ascii: "u")
                {
                    let low = hex4(raw, i + 2)
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    }
                }
                // Lone surrogates become U+FFFD, as JSON text may hold them but Swift strings cannot.
                utf8.append(contentsOf: Unicode.Scalar(scalar).map { Array(String($0).utf8) } ?? [0xEF, 0xBF, 0xBD])
            default: utf8.append(code)  // \" \\ \/
            }
        }
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw error(.invalidUTF8, at: offset)
        }
        return text
    }

    private func hex4(_ raw: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt32 {
        var value: UInt32 = 0
        for k in 0..<4 { value = value << 4 | UInt32(hexValue(raw[i + k]) ?? 0) }
        return value
    }

    @inline(__always)
    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// True if the raw (unescaped) bytes at `range` equal `key`.
    @inline(__always)
    func rawEquals(_ range: Range<Int>, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard range.count == key.count else { return false }
        return memcmp(bytes.baseAddress! + range.lowerBound, key.baseAddress!, key.count) == 0
    }

    // MARK: - Numbers

    /// Consumes a number and returns it as the nearest `Double` (round-to-nearest-even, as
    /// `strtod`); literals beyond the Double range become ±infinity.
    ///
    /// Fast path: up to 19 significant digits with |decimal exponent| ≤ 22 and a mantissa below
    /// 2^53 is exact by Clinger's method (W. D. Clinger, "How to read floating point numbers
    /// accurately", PLDI 1990): one correctly rounded multiply or divide by an exact power of ten.
    /// Everything else goes to the C library's correctly rounded `strtod`.
    @inline(__always)
    mutating func parseNumber() throws(ReadError) -> Double {
        skipWhitespace()
        let start = index
        var negative = false
        if index < end, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard index < end else { throw error(.truncatedJSON) }
        // The digits go into `mantissa` while it holds fewer than 19 (below 10^18, so ten times
        // it plus a digit fits in 64 bits; eight at a time below 10^11); after that a digit
        // only moves the exponent (integer part) and, when not 0, marks the value `inexact`.
        // Leading zeros of a fraction are digits like the others: they leave the mantissa 0.
        var mantissa: UInt64 = 0
        var inexact = false
        var exponent = 0
        let first = bytes[index]
        guard first &- UInt8(ascii: "0") < 10 else {
            index = start
            throw wrongType(expected: "number")
        }
        if first == UInt8(ascii: "0") {
            index += 1
            if index < end, bytes[index] &- UInt8(ascii: "0") < 10 {
                throw error(.syntax("leading zero in a number"), at: start)
            }
        } else {
            exponent += digits(into: &mantissa, inexact: &inexact).dropped
        }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            exponent -= digits(into: &mantissa, inexact: &inexact).kept
            guard index > fractionStart else {
                if index >= end { throw error(.truncatedJSON) }
                throw error(.syntax("expected a digit after the decimal point"))
            }
        }
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let digitsStart = index
            var value = 0
            while index < end, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
                if value < 100_000 { value = value * 10 + Int(digit) }
                index += 1
            }
            guard index > digitsStart else {
                if index >= end { throw error(.truncatedJSON) }
                throw error(.syntax("expected a digit in the exponent"))
            }
            exponent += exponentNegative ? -value : value
        }
        // Clinger's fast path: an exact mantissa below 2^53 times an exact power of ten is one
        // correctly rounded operation.
        if !inexact, mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
            var value = Double(mantissa)
            if exponent < 0 {
                value /= Self.powersOfTen[-exponent]
            } else {
                value *= Self.powersOfTen[exponent]
            }
            return negative ? -value : value
        }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        return slowNumber(start..<index)
    }

    /// Consumes a run of digits (see ``parseNumber()``), up to eight at a time while they fit in
    /// 19, then one at a time: how many went into `mantissa` and how many did not (after the
    /// 19th; `inexact` when one of those is not 0).
    @inline(__always)
    private mutating func digits(into mantissa: inout UInt64, inexact: inout Bool) -> (kept: Int, dropped: Int) {
        var kept = 0, dropped = 0
        while let (value, count) = digitRun(at: index), mantissa < Self.digitRoom[count] {
            mantissa = mantissa &* Self.powersOfTenInteger[count] &+ value
            kept += count
            index += count
            if count < 8 { return (kept, dropped) }
        }
        while index < end, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
            if mantissa < 1_000_000_000_000_000_000 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                kept += 1
            } else {
                dropped += 1
                if digit != 0 { inexact = true }
            }
            index += 1
        }
        return (kept, dropped)
    }

    /// The digits that start at `position`, at most eight, as (value, count), by SWAR on one
    /// 64-bit load (nil when fewer than eight bytes remain): the first byte that is not a digit
    /// is found from the bytes' high bits after adding 0x76 to each byte's distance from "0"
    /// (a carry out of a byte of 0x8A or more reaches only the bytes after it); the digits are
    /// moved to the top of the word, the zeros below them leading zeros, and the eight read as
    /// one number (Lemire, "Number parsing at a gigabyte per second", Softw. Pract. Exper.
    /// 51(8), 2021): pairs of digits, then pairs of pairs, by multiplications.
    @inline(__always)
    private func digitRun(at position: Int) -> (value: UInt64, count: Int)? {
        guard end - position >= 8 else { return nil }
        let chunk = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + position).loadUnaligned(as: UInt64.self))
        let distance = chunk ^ 0x3030_3030_3030_3030
        let count = (((distance &+ 0x7676_7676_7676_7676) | distance) & 0x8080_8080_8080_8080).trailingZeroBitCount >> 3
        guard count > 0 else { return (0, 0) }
        var value = distance &<< UInt64((8 - count) * 8)
        value = (value &* 10) &+ (value >> 8)  // byte pairs: 10·d0 + d1 in the low byte of each pair
        let low = (value & 0x0000_00FF_0000_00FF) &* (100 &+ (1_000_000 << 32))
        let high = ((value >> 16) & 0x0000_00FF_0000_00FF) &* (1 &+ (10_000 << 32))
        return ((low &+ high) >> 32, count)
    }

    /// 10^0 … 10^8 as integers: a mantissa moves up by a run of `count` digits.
    private static let powersOfTenInteger: [UInt64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]

    /// The mantissa below which a run of `count` more digits keeps it under 19 digits (10^(19 −
    /// count)); 0 for an empty run, which ends the loop.
    private static let digitRoom: [UInt64] = [
        0, 1_000_000_000_000_000_000, 100_000_000_000_000_000, 10_000_000_000_000_000, 1_000_000_000_000_000,
        100_000_000_000_000, 10_000_000_000_000, 1_000_000_000_000, 100_000_000_000,
    ]

    /// 10^0 … 10^22, each exact in a Double; literals, so the array is initialized statically
    /// (no lazy-initialization check on each number).
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Correctly rounded conversion of a validated JSON number token through `strtod`.
    /// JSON number syntax has no locale-dependent characters other than '.', and Swift programs
    /// run in the "C" locale unless they call `setlocale`, so '.' is the decimal point.
    private func slowNumber(_ range: Range<Int>) -> Double {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: range.count + 1) { buffer in
            for (k, i) in range.enumerated() { buffer[k] = CChar(bitPattern: bytes[i]) }
            buffer[range.count] = 0
            return strtod(buffer.baseAddress!, nil)
        }
    }

    // MARK: - Literals and skipping

    /// Consumes `true`, `false` or `null`; returns which.
    mutating func parseLiteral() throws(ReadError) -> JSONValue {
        skipWhitespace()
        for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)] {
            let utf8 = Array(word.utf8)
            if index < end, bytes[index] == utf8[0] {
                for (k, byte) in utf8.enumerated() {
                    guard index + k < end else { index = end; throw error(.truncatedJSON) }
                    guard bytes[index + k] == byte else { throw error(.syntax("invalid literal \(quoteToken(at: index))")) }
                }
                index += utf8.count
                return value
            }
        }
        throw unexpected("a JSON value")
    }

    /// Parses any value into the document model.
    mutating func parseValue(depth: Int = 0) throws(ReadError) -> JSONValue {
        guard let byte = peek() else { throw error(.truncatedJSON) }
        switch byte {
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { throw error(.nestingTooDeep(limit: Self.maximumDepth)) }
            index += 1
            var object = JSONObject()
            var first = true
            var names: Set<String>?  // built once an object outgrows a linear search
            while let key = try nextKey(first: &first) {
                let name = try decodeString(key.range, escaped: key.escaped, at: key.range.lowerBound - 1)
                let repeated: Bool
                if object.count < 16 {
                    repeated = object.keys.contains(name)
                } else {
                    if names == nil { names = Set(object.keys) }
                    repeated = !names!.insert(name).inserted
                }
                if repeated { noteDuplicateKey(name, location: "byte \(key.range.lowerBound - 1)") }
                object.append(name, try parseValue(depth: depth + 1))
            }
            return .object(object)
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw error(.nestingTooDeep(limit: Self.maximumDepth)) }
            index += 1
            var array: [JSONValue] = []
            var first = true
            while try nextElement(first: &first) {
                array.append(try parseValue(depth: depth + 1))
            }
            return .array(array)
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            return try parseLiteral()
        }
    }

    /// Validates and skips one value; returns its byte range.
    @discardableResult
    mutating func skipValue(depth: Int = 0) throws(ReadError) -> Range<Int> {
        guard let byte = peek() else { throw error(.truncatedJSON) }
        let start = index
        switch byte {
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { throw error(.nestingTooDeep(limit: Self.maximumDepth)) }
            index += 1
            var first = true
            while try nextKey(first: &first) != nil { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw error(.nestingTooDeep(limit: Self.maximumDepth)) }
            index += 1
            var first = true
            while try nextElement(first: &first) { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""):
            _ = try rawString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try parseNumber()
        default:
            _ = try parseLiteral()
        }
        return start..<index
    }
}

extension JSONValue {
    /// Parses a complete JSON text.
    ///
    /// - Parameters:
    ///   - bytes: UTF-8 text (a leading byte-order mark is skipped).
    ///   - file: name used in error messages.
    public static func parse(_ bytes: [UInt8], file: String) throws(ReadError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(ReadError) in
            var cursor = JSONCursor(bytes: buffer, file: file)
            let value = try cursor.parseValue()
            try cursor.expectEnd()
            return value
        }
    }
}
