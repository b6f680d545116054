/// Text from data (a file name, a headphone name, a message) inside XML, SVG or HTML: every page
/// and chart the toolkit writes escapes through here, so no text from outside can end an
/// element, an attribute or the document. `&`, `<`, `>`, `"` and `'` become character
/// references; characters XML 1.0 does not allow at all (C0 controls other than tab, line feed
/// and carriage return; U+FFFE, U+FFFF) are shown as `\xHH` / `\u{HHHH}`, as ``TerminalText``
/// shows them, since not even a character reference may stand for them.
public enum XMLText {
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20:
                out += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            case "\u{FFFE}", "\u{FFFF}": out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
