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

    /// A name that stays in its folder: not empty, not `.` or `..`, without `/`, `\` or NUL.
    public static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains(where: { $0 == "/" || $0 == "\\" || $0 == "\0" })
    }
}
