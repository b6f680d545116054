import InputGuards

extension Discovery {
    /// The content key a batch would give the recording at `path` now — the SHA-256 of its file,
    /// or of its members' names and hashes (``BatchRunner/contentKey(_:_:)``) — found as a batch
    /// finds it (the same walk, grouping and hashing), or nil when it cannot be read or is not one
    /// recording. A report compares it with a stored key before it charts the file beside the
    /// stored features: a file rewritten after the batch is other bytes than those features.
    public static func currentContentKey(of path: String) -> String? {
        let walk = walk([path])
        guard walk.missing.isEmpty, walk.refused.isEmpty else { return nil }
        var facts: [String: FileFacts] = [:]
        func examine(_ file: String) {
            let (found, input) = Inventory.examine(file, audio: .streamed)  // the hash alone: audio is not held
            facts[file] = found
            for entry in Inventory.entries(of: input) { facts[entry.path] = entry.facts }
        }
        walk.files.forEach(examine)
        let named = Set(walk.files.flatMap { namedFiles(of: $0, facts) }).subtracting(walk.files).filter(FileVersion.exists).sorted()
        named.forEach(examine)
        let units = group(walk.files + named, facts: facts).filter { !named.contains($0.path) }
        guard let unit = units.first(where: { $0.path == path }) ?? (units.count == 1 ? units.first : nil),
            case .success(let key) = BatchRunner.contentKey(unit, facts)
        else { return nil }
        return key
    }
}
