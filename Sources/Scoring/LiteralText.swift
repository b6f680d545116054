extension String {
    /// Whether `part` (not empty) occurs in the text byte for byte (UTF-8): task and step names
    /// are matched literally, over the two strings' bytes (neither Foundation's search, a CFString
    /// round trip per call, nor the standard library's generic collection search).
    func includes(_ part: String) -> Bool {
        var text = self, part = part
        return text.withUTF8 { text in
            part.withUTF8 { part in
                guard let first = part.first, part.count <= text.count else { return false }
                for start in 0...(text.count - part.count) where text[start] == first {
                    var k = 1
                    while k < part.count, text[start + k] == part[k] { k += 1 }
                    if k == part.count { return true }
                }
                return false
            }
        }
    }
}
