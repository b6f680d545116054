import Glibc

/// File names are bytes, not text: Linux allows any byte but `/` and NUL, and a name such as
/// `a\xFF.json` (Latin-1 from an old archive) is not UTF-8. `String(cString:)` repairs such bytes
/// to U+FFFD, so two names can become one string and neither can be opened again.
///
/// Paths whose names came from the file system travel as `String`s in a lossless form instead:
/// every byte of a name that is not part of a valid UTF-8 sequence becomes one scalar of the
/// private-use block U+10FE80–U+10FEFF (byte 0x80–0xFF; ASCII is always valid), and the bytes of a
/// genuine scalar of that block are escaped the same way, so ``bytes(of:)`` gives back exactly the
/// bytes that ``string(decoding:)`` was given. Valid UTF-8 names are unchanged. Everything that hands
/// a path to the system goes through ``withCString(_:_:)``; messages and exports show
/// ``display(_:)``, where each escaped byte reads `\xHH`.
public enum FileName {
    private static let escapeBase: UInt32 = 0x10FE00
    private static let escapes: ClosedRange<UInt32> = 0x10FE80...0x10FEFF

    /// The lossless string of a file name or path given as bytes (without a terminating NUL).
    public static func string(decoding bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            if let (scalar, length) = validScalar(bytes, at: i), !escapes.contains(scalar.value) {
                scalars.append(scalar)
                i += length
            } else {
                let length = validScalar(bytes, at: i)?.length ?? 1
                for byte in bytes[i..<(i + length)] { scalars.append(Unicode.Scalar(escapeBase + UInt32(byte))!) }
                i += length
            }
        }
        return String(scalars)
    }

    /// The lossless string of a NUL-terminated C name (a `readdir` entry, an `argv` element).
    public static func string(cString: UnsafePointer<CChar>) -> String {
        let length = strlen(cString)
        return cString.withMemoryRebound(to: UInt8.self, capacity: length) {
            string(decoding: UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// The bytes a lossless string stands for.
    public static func bytes(of path: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if escapes.contains(scalar.value) {
                bytes.append(UInt8(scalar.value - escapeBase))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Calls `body` with the NUL-terminated bytes of `path`, for a system call. A path holding a
    /// NUL byte (from a manifest cell, a list line, a JSON string) names no file: `body` gets the
    /// empty path, which every call refuses (ENOENT), rather than the shorter path before the NUL.
    public static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        if path.utf8.contains(0) { return try "".withCString(body) }
        guard path.unicodeScalars.contains(where: { escapes.contains($0.value) }) else {
            return try path.withCString(body)
        }
        return try (bytes(of: path).map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// Whether `path` holds bytes that are not UTF-8 (it cannot be passed on as text, e.g. to a
    /// child process's arguments).
    public static func hasEscapedBytes(_ path: String) -> Bool {
        path.unicodeScalars.contains { escapes.contains($0.value) }
    }

    /// `path` for people: each escaped byte as `\xHH`, and each NUL too (it cannot be part of a
    /// name), everything else as it is.
    public static func display(_ path: String) -> String {
        guard hasEscapedBytes(path) || path.utf8.contains(0) else { return path }
        var text = ""
        for scalar in path.unicodeScalars {
            if scalar.value == 0 {
                text += "\\x00"
            } else if escapes.contains(scalar.value) {
                let byte = scalar.value - escapeBase
                text += "\\x" + String(byte, radix: 16, uppercase: true)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// The scalar of the valid UTF-8 sequence at `i` and its length (RFC 3629 §4: no overlong
    /// forms, no surrogates, nothing above U+10FFFF), or nil.
    private static func validScalar(_ bytes: [UInt8], at i: Int) -> (Unicode.Scalar, length: Int)? {
        let lead = bytes[i]
        let length: Int, secondRange: ClosedRange<UInt8>
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: (length, secondRange) = (2, 0x80...0xBF)
        case 0xE0: (length, secondRange) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, secondRange) = (3, 0x80...0xBF)
        case 0xED: (length, secondRange) = (3, 0x80...0x9F)
        case 0xF0: (length, secondRange) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, secondRange) = (4, 0x80...0xBF)
        case 0xF4: (length, secondRange) = (4, 0x80...0x8F)
        default: return nil
        }
        guard i + length <= bytes.count, secondRange.contains(bytes[i + 1]) else { return nil }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for k in 1..<length {
            let byte = bytes[i + k]
            guard k == 1 || (0x80...0xBF).contains(byte) else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return Unicode.Scalar(value).map { ($0, length) }
    }
}

extension Sequence<UInt8> {
    /// The bytes as lowercase hexadecimal, two digits each (how digests appear in keys and stores).
    public var hexadecimal: String {
        var ascii: [UInt8] = []
        ascii.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            ascii.append(Self.hexDigit(byte >> 4))
            ascii.append(Self.hexDigit(byte & 15))
        }
        return String(decoding: ascii, as: UTF8.self)
    }

    /// The ASCII digit of `nibble` (0…15).
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
