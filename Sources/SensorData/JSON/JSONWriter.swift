/// Serializes `JSONValue`s: compact (ResearchKit's data-logger form, no spaces, no trailing
/// newline) or indented, members in stored order, numbers in shortest round-trip form with
/// integral values printed without a fraction (docs/formats.md §12, "Writer must produce" 4).
///
/// JSON has no NaN or infinities: a non-finite number handed to the writer is written as the
/// string `"NaN"`, `"Infinity"` or `"-Infinity"`. Feature values never reach it non-finite (they
/// are written as null, `FeatureValue.json`), and writers of recorder items reject them before.
public struct JSONWriter {
    public var indent: Int?

    /// - Parameter indent: spaces per level for pretty output; nil for compact.
    public init(indent: Int? = nil) {
        self.indent = indent
    }

    public func string(_ value: JSONValue) -> String {
        var output = ""
        write(value, into: &output, level: 0)
        return output
    }

    public func bytes(_ value: JSONValue) -> [UInt8] {
        Array(string(value).utf8)
    }

    func write(_ value: JSONValue, into output: inout String, level: Int) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number): output += Self.number(number)
        case .string(let text): Self.quote(text, into: &output)
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                newline(&output, level + 1)
                write(element, into: &output, level: level + 1)
            }
            newline(&output, level)
            output += "]"
        case .object(let object):
            guard object.count > 0 else { output += "{}"; return }
            output += "{"
            for (index, (key, element)) in object.members.enumerated() {
                if index > 0 { output += "," }
                newline(&output, level + 1)
                Self.quote(key, into: &output)
                output += indent == nil ? ":" : ": "
                write(element, into: &output, level: level + 1)
            }
            newline(&output, level)
            output += "}"
        }
    }

    private func newline(_ output: inout String, _ level: Int) {
        guard let indent else { return }
        output += "\n" + String(repeating: " ", count: indent * level)
    }

    /// Shortest text that parses back to the identical Double; integral values below 2^53
    /// without a fraction (`0`, `-1`, `454`).
    public static func number(_ value: Double) -> String {
        if value.isNaN { return "\"NaN\"" }
        if value.isInfinite { return value < 0 ? "\"-Infinity\"" : "\"Infinity\"" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            return value == 0 ? (value.sign == .minus ? "-0" : "0") : String(Int64(value))
        }
        return value.description  // Swift prints the shortest round-trip form (e.g. 1e-05, 0.1)
    }

    static func quote(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            // Control characters (C0, DEL, C1) and the scalars a terminal would act on or that
            // end a line in JavaScript are written as escapes: a JSON output printed on a
            // terminal shows them rather than acting on them (`TerminalText`).
            case let c where c.value < 0x20 || (0x7F...0x9F).contains(c.value) || (0x202A...0x202E).contains(c.value)
                || (0x2066...0x2069).contains(c.value) || c.value == 0x2028 || c.value == 0x2029:
                let hex = String(c.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
