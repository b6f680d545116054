import Glibc

/// The system errors that describe the machine, not a file: too many open files (EMFILE, ENFILE),
/// no memory (ENOMEM), a full disk or quota (ENOSPC, EDQUOT), a file-size limit (EFBIG). A
/// reader that meets one has learnt nothing about its input, so a batch never stores it as the
/// input's result: it stops, keeping what it committed, and says which limit to raise
/// (`BatchRunner`). An error of one file's device (EIO: a bad sector; ESTALE: a network mount gone)
/// is that file's error — the batch goes on — but is not remembered as the file's facts, so a
/// rerun reads it again (``deviceFault(in:paths:)``).
///
/// Errors reach the batch as messages from several layers (the toolkit's readers, libsndfile's
/// "System error : …", FFmpeg's `av_strerror`), all of which quote the C library's `strerror`
/// text; the texts are taken from `strerror` at run time, so they match whatever the library says.
public enum ResourceExhaustion {
    public static let errorNumbers: [Int32] = [EMFILE, ENFILE, ENOMEM, ENOSPC, EDQUOT, EFBIG]

    /// The `strerror` texts of ``errorNumbers``.
    public static let texts: [String] = errorNumbers.map { String(cString: strerror($0)) }

    /// Errors of the device one file is on: the file's error, worth another read on a rerun.
    public static let deviceErrorNumbers: [Int32] = [EIO, ESTALE]

    /// The device error `message` states (as ``named(in:paths:)`` reads it), or nil.
    public static func deviceFault(in message: String, paths: [String] = []) -> String? {
        let spoken = withoutQuotedValues(withoutPaths(message, paths))
        return deviceErrorNumbers.map { String(cString: strerror($0)) }.first { spoken.contains(": " + $0) }
    }

    private static func withoutPaths(_ message: String, _ paths: [String]) -> String {
        var spoken = message
        for path in paths.map(FileName.display) where !path.isEmpty { spoken = spoken.replacing(path, with: "") }
        return spoken
    }

    /// The resource error `message` states, or nil when it states none. A text that only appears
    /// inside one of `paths` (a file may be named `Too many open files.json`) or inside a quoted
    /// value (`"…"`, how readers quote data) is data, not the system speaking: it does not count,
    /// so no input can stop a batch by its name or content. The system's text follows a colon
    /// (`path: cannot be read: Too many open files`, libsndfile's `System error : …`).
    public static func named(in message: String, paths: [String] = []) -> String? {
        let spoken = withoutQuotedValues(withoutPaths(message, paths))
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
