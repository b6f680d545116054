extension OutputFile {
    /// Writes every file or none: each to a temporary file beside its target (``OutputFile``),
    /// then each put in place without replacing anything; an existing target, a failed write (a
    /// full disk, a file-size limit) or a failed placement removes every temporary and every file
    /// this call placed, so the folder is as it was.
    public static func writeAll(_ files: [(path: String, bytes: [UInt8])], inputs: [String]) throws(OutputFile.Refusal) {
        for (path, _) in files where FileSystem.statusIfAny(path) != nil {
            throw OutputFile.Refusal(description: "\(FileName.display(path)): exists (not overwritten)")
        }
        var pending: [OutputFile] = []
        for (path, bytes) in files {
            let file = try OutputFile(path, inputs: inputs)
            pending.append(file)
            try file.write(bytes)
        }
        var placed: [String] = []
        do {
            for file in pending {
                try file.commit(replacing: false)
                placed.append(file.path)
            }
        } catch {
            for path in placed { try? FileSystem.remove(path) }
            throw error
        }
    }
}
