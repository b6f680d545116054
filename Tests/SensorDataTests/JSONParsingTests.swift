import Foundation
import Testing
@testable import SensorData

@Suite struct JSONParsingTests {
    func parse(_ text: String) throws(ReadError) -> JSONValue {
        try JSONValue.parse(Array(text.utf8), file: "t.json")
    }

    func parseError(_ text: String) -> ReadError? {
        do { _ = try parse(text); return nil } catch { return error }
    }

    @Test("numbers parse to the same Double as Swift's correctly rounded Double(String)")
    func numbersMatchStandardLibrary() throws {
        let literals = [
            "0", "-0", "1", "-1", "0.1", "0.9587762355804444672", "113693.23875425", "8.087158203125E-4",
            "1054137.213619292", "-0.0010883029918012598", "3.2462616333848516E-5", "1e22", "1e23", "9007199254740993",
            "123456789012345678901234567890", "4.9e-324", "2.2250738585072014e-308", "1.7976931348623157e+308",
            "0.000000000000000000000000000001", "5e-1", "12345678901234567.89", "1E+2",
            // Eight digits at a time: runs of 7, 8, 9, 11, 12, 16, 19, 20 digits, a run broken at every place
            // of an eight-byte load, leading fraction zeros before and inside one.
            "1234567", "12345678", "123456789", "12345678901", "123456789012", "1234567890123456", "1234567890123456789",
            "12345678901234567890", "1234567.8", "123456.78", "1.2345678", "0.12345678", "0.123456789", "0.0000000012345678",
            "0.00000000012345678901", "98765432.12345678", "99999999999999999999", "0.99999999999999999999", "1234567e1",
            "12345678e-8", "3.0000000000000004", "10000000.00000001",
            // Past the 19 digits kept: zeros only (exact, beyond 2^53), a digit that is not 0, leading
            // fraction zeros longer than 19 digits, a long integer with an exponent that brings it back.
            "1000000000000000000000", "1000000000000000000000.000", "0.10000000000000000000000000001",
            "0.0000000000000000000000000000000000000001234567890123", "1234567890123456789012e-3",
            "9999999999999999999.5", "0.00000000000000000000000000000000000000000000000000", "-0.000000000000000000001e21",
        ]
        // A run of digits cut by each byte that is not one (the load sees it at every offset).
        for cut in 1...9 {
            for terminator in [",", "]", "e1", ".5", " "] {
                let digits = String("9876543219876".prefix(cut))
                let value = try #require(try parse("[" + digits + terminator + (terminator == "," ? "1]" : terminator == "]" ? "" : "]")).array?.first?.number)
                #expect(value == Double(digits + (terminator.hasPrefix("e") || terminator.hasPrefix(".") ? terminator : "")), "\(digits)\(terminator)")
            }
        }
        // A byte above 0x7F right after the digits ends the run there (its carry reaches only
        // the bytes after it): an error naming the byte's place, never a longer number.
        for text in ["[1234567\u{E9}]", "[12\u{FF}3456789]", "[0.1234\u{85}5678]"] {
            #expect(parseError(text) != nil, "\(text)")
        }
        for literal in literals {
            let value = try #require(try parse(literal).number)
            let expected = try #require(Double(literal))
            #expect(value.bitPattern == expected.bitPattern, "\(literal)")
        }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let value = Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
            for text in [value.description, String(format: "%.17g", value), String(format: "%.6e", value), String(format: "%.15f", value)]
            where !text.contains("inf") && !text.contains("nan") {
                let json = text.hasPrefix("+") ? String(text.dropFirst()) : text
                guard let expected = Double(json), json.first != ".", !json.contains(".e") else { continue }
                #expect(try parse(json).number?.bitPattern == expected.bitPattern, "\(json)")
            }
        }
    }

    @Test("overflowing literals become infinity (DBL_MAX's overflowing spelling)")
    func overflow() throws {
        #expect(try parse("1.797693134862316e+308").number == .infinity)
        #expect(try parse("-1e400").number == -.infinity)
        #expect(try parse(String(repeating: "9", count: 400)).number == .infinity)
    }

    @Test("strings: escapes, surrogate pairs, UTF-8")
    func strings() throws {
        #expect(try parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#).string == "a\"b\\c/d\n\té😀")
        #expect(try parse("\"Zürich\"").string == "Zürich")
        #expect(parseError("\"a\u{01}b\"")?.reason == .syntax("control character in a string"))
        #expect(parseError(#""\x""#)?.reason == .syntax("invalid escape sequence"))
        let invalid: [UInt8] = [0x22, 0x61, 0xFF, 0x22]
        #expect(throws: ReadError.self) { try JSONValue.parse(invalid, file: "t.json") }
    }

    @Test("objects keep order; a UTF-8 BOM and CRLF are accepted")
    func objects() throws {
        let value = try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("{\r\n \"b\": 1,\r\n \"a\": [true, false, null]\r\n}".utf8), file: "t")
        #expect(value.object?.keys == ["b", "a"])
        #expect(value["a"] == .array([.bool(true), .bool(false), .null]))
    }

    @Test("syntax errors name the byte offset, line and column")
    func syntaxErrors() throws {
        let error = try #require(parseError("{\n  \"x\": 0.1,\n  \"y\": NaN\n}"))
        #expect(error.offset == 21)
        #expect(error.line == 3)
        #expect(error.column == 8)
        #expect(error.description == #"t.json: invalid JSON: expected a JSON value, found "NaN" at byte 21 (line 3, column 8)"#)
        #expect(parseError("[1, Infinity]")?.offset == 4)
        #expect(parseError("[1,]")?.reason == .syntax("expected a JSON value, found \"]\""))
        #expect(parseError("{\"a\":1,}")?.reason == .syntax("expected a string key, found \"}\""))
        #expect(parseError("01")?.reason == .syntax("leading zero in a number"))
        #expect(parseError("[1] 2")?.reason == .syntax("unexpected \"2\" after the end of the JSON value"))
        #expect(parseError("1.")?.reason == .truncatedJSON)
        #expect(parseError("1.e5")?.reason == .syntax("expected a digit after the decimal point"))
    }

    @Test("truncated text is reported as truncated at the end offset")
    func truncation() throws {
        let text = #"{"items":[{"x":0.1,"y":"#
        let error = try #require(parseError(text))
        #expect(error.reason == .truncatedJSON)
        #expect(error.offset == text.utf8.count)
    }

    @Test("nesting beyond the limit is an error, not a stack overflow")
    func nesting() throws {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(parseError(deep)?.reason == .nestingTooDeep(limit: JSONCursor.maximumDepth))
        let hostile = String(repeating: "[", count: 100_000)
        #expect(parseError(hostile)?.reason == .nestingTooDeep(limit: JSONCursor.maximumDepth))
        let fine = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(parseError(fine) == nil)
    }

    @Test("writer output parses back to identical values")
    func writerRoundTrip() throws {
        var random = SystemRandomNumberGenerator()
        var object = JSONObject()
        for k in 0..<500 {
            object.append("k\(k)", .number(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF) * (k % 2 == 0 ? 1 : -1)))
        }
        object.append("s", .string("quote \" backslash \\ newline \n tab \t control \u{01} é"))
        object.append("n", .array([.number(0), .number(-1), .number(454), .number(411.5), .null, .bool(true)]))
        let value = JSONValue.object(object)
        for indent in [nil, 2] {
            let text = JSONWriter(indent: indent).string(value)
            #expect(try parse(text) == value)
        }
        #expect(JSONWriter().string(.array([.number(0), .number(-1), .number(1e-5), .number(0.1)])) == "[0,-1,1e-05,0.1]")
        #expect(JSONWriter.number(.greatestFiniteMagnitude) == "1.7976931348623157e+308")
    }
}
