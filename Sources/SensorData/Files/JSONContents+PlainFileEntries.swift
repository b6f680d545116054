extension JSONContents {
    /// A flattened archive's entries (docs/formats.md §8.4) in file order, every name checked to be
    /// a plain file name, so that `unpack` can write each as a file of the same name.
    public static func plainFileEntries(_ bytes: [UInt8], file: String) throws(ReadError) -> [(name: String, value: JSONValue)] {
        let entries = try flattenedArchiveEntries(bytes, file: file)
        for (name, _) in entries where !isPlainFileName(name) {
            throw ReadError(file: file, reason: .invalidValue("entry name \(ReadError.quote(name)) is not a plain file name (no \"/\", \"\\\\\", NUL, \".\" or \"..\"); nothing written"))
        }
        return entries
    }

    /// ``plainFileEntries(_:file:)`` with each entry's content as the archive spells it: the bytes
    /// of its value, so what `unpack` writes reads as the entry does inside the archive (a name
    /// given twice is refused: which content it holds would be a guess): a number beyond a Double
    /// (`1e400`, read as ±∞ with a warning) stays a number, not the string `"Infinity"` the writer
    /// would make of it, and 400 digits or `1.0` keep their spelling.
    public static func plainFileEntryBytes(_ bytes: [UInt8], file: String) throws(ReadError) -> [(name: String, bytes: [UInt8])] {
        let names = try plainFileEntries(bytes, file: file).map(\.name)
        let ranges = try bytes.withUnsafeBufferPointer { buffer throws(ReadError) -> [String: Range<Int>] in
            var cursor = JSONCursor(bytes: buffer, file: file)
            var ranges: [String: Range<Int>] = [:]
            cursor.skipWhitespace()
            try cursor.expect(UInt8(ascii: "{"), "'{'")
            var first = true
            while let key = try cursor.nextKey(first: &first) {
                let name = try cursor.decodeString(key.range, escaped: key.escaped, at: key.range.lowerBound - 1)
                guard ranges[name] == nil else {
                    throw ReadError(file: file, reason: .invalidValue("entry name \(ReadError.quote(name)) is given twice; nothing written"), offset: key.range.lowerBound - 1)
                }
                cursor.skipWhitespace()
                ranges[name] = try cursor.skipValue(depth: 1)
            }
            return ranges
        }
        return names.map { name in (name, ranges[name].map { Array(bytes[$0]) + [UInt8(ascii: "\n")] } ?? []) }
    }

    /// A name that stays in its folder: not empty, not `.` or `..`, without `/`, `\` or NUL.
    public static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains(where: { $0 == "/" || $0 == "\\" || $0 == "\0" })
    }
}
