import InputGuards

/// Why a file could not be read, and where.
///
/// Every fatal reader problem is one of these: it names the **file** (for flattened archives also
/// the inner entry), **what** is wrong and **where** — a byte offset with line and column for
/// syntax errors, a JSON path such as `items[1234].timestamp` for schema errors
/// (docs/formats.md §11). `description` is the single line the command-line tool prints.
public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Equatable {
        /// The file could not be opened or read (the system's message).
        case unreadable(String)
        /// The file is larger than the reader's bound (whole-file readers hold it in memory).
        case tooLarge(bytes: Int, limit: Int)
        /// The file has zero bytes.
        case emptyFile
        /// JSON text ends inside a value (a torn tail: killed mid-write, partial copy).
        case truncatedJSON
        /// JSON syntax error; the text says what was expected.
        case syntax(String)
        /// Arrays and objects nest deeper than the reader's limit.
        case nestingTooDeep(limit: Int)
        /// A string holds bytes that are not UTF-8.
        case invalidUTF8
        /// A value has the wrong JSON type; `found` quotes the offending text.
        case wrongType(expected: String, found: String)
        /// A required key is missing.
        case missingKey(String)
        /// A value has the right type but cannot be used; the text says why.
        case invalidValue(String)
        /// The content is none of the layouts of docs/formats.md §1.
        case unrecognisedLayout(String)
        /// The file is recognised but does not hold what was asked for.
        case notFound(String)
        /// Audio decoding failed (the decoder's message).
        case audio(String)
    }

    /// Path of the file, with `›` and the entry name for an entry of a flattened archive.
    public var file: String
    public var reason: Reason
    /// Byte offset of the problem in the file, if it is a syntax-level problem.
    public var offset: Int?
    /// 1-based line and column of `offset`.
    public var line: Int?
    public var column: Int?
    /// JSON path (`items[3].x`) or CSV position (`row 12, column 3`) of a schema-level problem.
    public var path: String?

    public init(
        file: String, reason: Reason, offset: Int? = nil, line: Int? = nil, column: Int? = nil,
        path: String? = nil
    ) {
        self.file = file
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
        self.path = path
    }

    /// Text from a file quoted for a one-line message: JSON escapes for quotes and control
    /// characters, cut to `limit` characters.
    public static func quote(_ text: some StringProtocol, limit: Int = 40) -> String {
        var quoted = ""
        JSONWriter.quote(String(text.prefix(limit)) + (text.count > limit ? "…" : ""), into: &quoted)
        return quoted
    }

    public var description: String {
        var text = "\(FileName.display(file)): \(reason.text)"
        if let path { text += " at \(path)" }
        if let offset {
            text += path == nil ? " at byte \(offset)" : " (byte \(offset))"
            if let line, let column { text += " (line \(line), column \(column))" }
        }
        return text
    }
}

extension ReadError.Reason {
    /// One human-readable phrase.
    public var text: String {
        switch self {
        case .unreadable(let message): "cannot read file: \(message)"
        case .tooLarge(let bytes, let limit):
            "\(bytes) bytes exceed the whole-file readers' limit of \(limit) bytes (JSON and CSV are held in memory with their columns; the limit is FileBytes.maximumBytes)"
        case .emptyFile: "empty file (0 bytes)"
        case .truncatedJSON: "truncated JSON: the text ends inside a value"
        case .syntax(let message): "invalid JSON: \(message)"
        case .nestingTooDeep(let limit): "invalid JSON: nesting deeper than \(limit) levels"
        case .invalidUTF8: "invalid UTF-8 in a string"
        case .wrongType(let expected, let found): "expected \(expected), found \(found)"
        case .missingKey(let key): "missing required key \(ReadError.quote(key))"
        case .invalidValue(let message): "invalid value: \(message)"
        case .unrecognisedLayout(let message): "unrecognised layout: \(message)"
        case .notFound(let message): message
        case .audio(let message): message
        }
    }
}
