import Glibc

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
        try place(pending)
    }

    /// Puts `files` (written, not yet committed) in place, every one or none, replacing nothing
    /// that holds other bytes: a target that already holds exactly a file's bytes is kept as it is
    /// (a generator run again over its own output), and a target that exists with other content,
    /// or is not a regular file, refuses the whole set before any is placed. Every temporary is
    /// gone when this returns or throws.
    public static func commitAll(_ files: [OutputFile]) throws(OutputFile.Refusal) {
        var pending: [OutputFile] = []
        for file in files {
            guard let target = FileSystem.linkStatusIfAny(file.path) else {
                pending.append(file)
                continue
            }
            let same = target.isRegularFile && sameContents(file.temporaryPath, file.path)
            guard same else {
                for other in files { other.discard() }
                throw OutputFile.Refusal(description: "\(FileName.display(file.path)): exists "
                    + (target.isRegularFile ? "with other content" : "and is \(target.kind)")
                    + " (not overwritten); none of the \(files.count) files of this set was written")
            }
            file.discard()
        }
        try place(pending)
    }

    /// Commits `pending` without replacing anything; on a failure removes what it placed and
    /// discards the rest.
    private static func place(_ pending: [OutputFile]) throws(OutputFile.Refusal) {
        var placed: [String] = []
        do {
            for file in pending {
                try file.commit(replacing: false)
                placed.append(file.path)
            }
        } catch {
            for path in placed { try? FileSystem.remove(path) }
            for file in pending { file.discard() }
            throw error
        }
    }

    /// Whether the regular files at `a` and `b` hold the same bytes (false when either cannot be
    /// read): sizes first, then 64-KiB blocks, so a large other file costs one `fstat`.
    private static func sameContents(_ a: String, _ b: String) -> Bool {
        guard let first = try? FileSystem.open(a, flags: O_RDONLY | O_NOFOLLOW | O_CLOEXEC) else { return false }
        defer { FileSystem.close(first) }
        guard let second = try? FileSystem.open(b, flags: O_RDONLY | O_NOFOLLOW | O_CLOEXEC) else { return false }
        defer { FileSystem.close(second) }
        guard let sizeA = try? FileSystem.status(descriptor: first, path: a).size, let sizeB = try? FileSystem.status(descriptor: second, path: b).size,
              sizeA == sizeB else { return false }
        var blockA = [UInt8](repeating: 0, count: 1 << 16), blockB = blockA
        var offset: Int64 = 0
        while offset < sizeA {
            guard let gotA = try? FileSystem.read(first, path: a, into: &blockA, at: offset),
                  let gotB = try? FileSystem.read(second, path: b, into: &blockB, at: offset),
                  gotA == gotB, gotA > 0, blockA[0..<gotA] == blockB[0..<gotB] else { return false }
            offset += Int64(gotA)
        }
        return true
    }
}
