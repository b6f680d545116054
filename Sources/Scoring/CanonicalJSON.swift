import SensorData

/// The text Foundation's `JSONEncoder` gives an Encodable value with `.sortedKeys`,
/// `.withoutEscapingSlashes` and non-finite numbers as the strings `"NaN"`, `"Infinity"`,
/// `"-Infinity"` — the parameter text of every stored result key — written from the value's
/// ``JSONValue`` tree (``JSONValueEncoder``) without Foundation's encoder, whose first use cost a
/// `score` command 0.3–0.4 ms of its start (docs/cli.md, "Start-up"). swift-foundation's rules
/// on Linux: members sorted by their keys' UTF-8 bytes at every level, a nil optional left out,
/// a Double as its `description` less a trailing `.0` (an integer as its decimal digits, the
/// same text below 2^53), strings escaped as `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t` and
/// `\u00XX` (lowercase) for the other C0 controls, everything else as is.
enum CanonicalJSON {
    /// Nil when the tree holds an integral number of magnitude 2^53 or more: there the text of
    /// an `Int` field (all its digits) and of a `Double` field (`1e+16`) differ, and the tree
    /// holds both as Doubles.
    static func text(_ value: JSONValue) -> String? {
        var output = ""
        return write(value, into: &output) ? output : nil
    }

    private static func write(_ value: JSONValue, into output: inout String) -> Bool {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .string(let text): quote(text, into: &output)
        case .number(let number):
            if number.isNaN { output += "\"NaN\""; return true }
            if number.isInfinite { output += number < 0 ? "\"-Infinity\"" : "\"Infinity\""; return true }
            if number == number.rounded(), abs(number) >= 9_007_199_254_740_992 { return false }
            let text = number.description
            output += text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                guard write(element, into: &output) else { return false }
            }
            output += "]"
        case .object(let object):
            output += "{"
            for (index, (key, element)) in object.members.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }).enumerated() {
                if index > 0 { output += "," }
                quote(key, into: &output)
                output += ":"
                guard write(element, into: &output) else { return false }
            }
            output += "}"
        }
        return true
    }

    private static func quote(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: output += "\\\""
            case 0x5C: output += "\\\\"
            case 0x08: output += "\\b"
            case 0x0C: output += "\\f"
            case 0x0A: output += "\\n"
            case 0x0D: output += "\\r"
            case 0x09: output += "\\t"
            case 0..<0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
