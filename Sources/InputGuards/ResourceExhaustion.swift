import Glibc

/// The system errors that describe the machine, not a file: too many open files (EMFILE, ENFILE),
/// no memory (ENOMEM), a failing device (EIO), a full disk or quota (ENOSPC, EDQUOT), a file-size
/// limit (EFBIG). A reader that meets one has learnt nothing about its input, so a batch never
/// stores it as the input's result: it stops, keeping what it committed, and says which limit to
/// raise (`BatchRunner`).
///
/// Errors reach the batch as messages from several layers (the toolkit's readers, libsndfile's
/// "System error : …", FFmpeg's `av_strerror`), all of which quote the C library's `strerror`
/// text; the texts are taken from `strerror` at run time, so they match whatever the library says.
public enum ResourceExhaustion {
    public static let errorNumbers: [Int32] = [EMFILE, ENFILE, ENOMEM, EIO, ENOSPC, EDQUOT, EFBIG]

    /// The `strerror` texts of ``errorNumbers``.
    public static let texts: [String] = errorNumbers.map { String(cString: strerror($0)) }

    /// The resource error `message` states, or nil when it states none. A text that only appears
    /// inside one of `paths` (a file may be named `Too many open files.json`) or inside a quoted
    /// value (`"…"`, how readers quote data) is data, not the system speaking: it does not count,
    /// so no input can stop a batch by its name or content. The system's text follows a colon
    /// (`path: cannot be read: Too many open files`, libsndfile's `System error : …`).
    public static func named(in message: String, paths: [String] = []) -> String? {
        var spoken = message
        for path in paths.map(FileName.display) where !path.isEmpty { spoken = spoken.replacing(path, with: "") }
        spoken = withoutQuotedValues(spoken)
        return texts.first { spoken.contains(": " + $0) }
    }

    /// `text` without its double-quoted parts (JSON quoting: `\"` inside does not end one).
    static func withoutQuotedValues(_ text: String) -> String {
        var result = ""
        var quoted = false
        var escaped = false
        for character in text {
            if quoted {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { quoted = false }
            } else if character == "\"" {
                quoted = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
