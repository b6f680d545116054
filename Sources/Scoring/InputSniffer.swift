import AudioIO
import SensorData

/// What a file's first bytes say it is, never its extension (docs/formats.md §1): the first step of
/// the one classifier, ``LoadedInput/load(_:lenient:audio:inspect:)``.
public enum InputSniffer {
    /// What the first bytes say.
    public enum Format: Sendable, Hashable {
        case empty
        /// JSON text (`{` or `[` first).
        case json
        /// An audio container, with the signature's name.
        case audio(String)
        /// A ZIP archive (an upload: ``UploadArchive``).
        case zip
        /// Delimited text with at least two fields per line.
        case csv
        /// Other UTF-8 text (documentation, notes).
        case text
        /// Anything else.
        case binary
    }

    /// Bytes read for sniffing.
    static let prefixLength = 4096

    public static func sniff(prefix bytes: [UInt8]) -> Format {
        guard !bytes.isEmpty else { return .empty }
        if let audio = audioSignature(bytes) { return .audio(audio) }
        // A local file header, or the end record of an empty archive (APPNOTE.TXT §4.3.7, §4.3.16).
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return .zip }
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        if let first = bytes[start...].first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        {
            return .json
        }
        guard !bytes.contains(0), isMostlyUTF8(bytes) else { return .binary }
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).prefix(5)
        for delimiter in [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")] {
            let counts = lines.map { line in line.reduce(0) { $1 == delimiter ? $0 + 1 : $0 } }
            if let first = counts.first, first >= 1, counts.allSatisfy({ $0 == first }) || lines.count == 1 {
                return .csv
            }
        }
        return .text
    }

    /// Container signatures of docs/formats.md §1.
    static func audioSignature(_ b: [UInt8]) -> String? {
        func ascii(_ range: Range<Int>, _ text: String) -> Bool {
            range.upperBound <= b.count && Array(b[range]) == Array(text.utf8)
        }
        if (ascii(0..<4, "RIFF") || ascii(0..<4, "RF64")) && ascii(8..<12, "WAVE") { return "WAV" }
        if ascii(4..<8, "ftyp") { return "MPEG-4" }
        if ascii(0..<4, "caff") { return "CAF" }
        if ascii(0..<4, "FORM") { return "AIFF" }
        if ascii(0..<4, "fLaC") { return "FLAC" }
        if ascii(0..<4, "OggS") { return "Ogg" }
        if ascii(0..<3, "ID3") { return "MP3" }
        if ascii(0..<4, ".snd") { return "AU" }
        if b.count >= 2, b[0] == 0xFF, b[1] & 0xE0 == 0xE0, b[1] & 0x06 != 0 { return "MPEG audio" }
        return nil
    }

    /// True if the bytes decode as UTF-8, allowing a character cut at the end of the prefix.
    private static func isMostlyUTF8(_ bytes: [UInt8]) -> Bool {
        var end = bytes.count
        var back = 0
        while end > 0, back < 3, bytes[end - 1] & 0xC0 == 0x80 { end -= 1; back += 1 }
        if end > 0, bytes[end - 1] >= 0xC0 { end -= 1 }
        return String(validating: bytes[0..<end], as: UTF8.self) != nil
    }
}
