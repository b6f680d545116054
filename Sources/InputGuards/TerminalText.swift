/// Text from data made safe to print on a terminal.
///
/// A file name, an `info.json` field or a result's category is data: written raw, its ESC and
/// OSC sequences (ECMA-48: C0 controls U+0000–U+001F and DEL, C1 controls U+0080–U+009F) would
/// retitle, recolour or rewrite the user's terminal, forge lines, or plant clipboard writes, and
/// the bidirectional overrides (Unicode UAX #9: U+202A–U+202E, U+2066–U+2069) and line separators
/// (U+2028, U+2029) would show other text than is there. Each such scalar is shown as an escape
/// instead: `\xHH` up to U+00FF, `\u{HHHH}` above (a backslash is left as it is: the escapes only
/// need to be unambiguous to a reader, and a backslash cannot act on a terminal).
public enum TerminalText {
    /// `text` with every scalar a terminal would act on escaped; `keepingLineBreaks` keeps `\n`
    /// and tabs (for whole outputs whose layout is the program's, not the data's).
    public static func escaped(_ text: String, keepingLineBreaks: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { acts($0, keepingLineBreaks) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if acts(scalar, keepingLineBreaks) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += scalar.value <= 0xFF ? "\\x" + (hex.count == 1 ? "0" : "") + hex : "\\u{" + hex + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether a terminal acts on `scalar` rather than showing it (see the type's comment).
    public static func acts(_ scalar: Unicode.Scalar, _ keepingLineBreaks: Bool = false) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: !keepingLineBreaks
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }
}
