import Foundation
import InputGuards
import Scoring

/// A file's facts as stored with the version they were computed from.
struct CachedFile: Sendable {
    var path: String
    var version: FileVersion
    var facts: FileFacts
}

/// Every file of a batch, read once: its version, its facts and hash, and — within the budget —
/// the loaded file itself for the analyses.
struct Inventory: Sendable {
    var facts: [String: FileFacts] = [:]
    var versions: [String: FileVersion] = [:]
    var loaded: [String: LoadedInput] = [:]
    /// Facts computed in this run (not taken from the store), to store with their versions.
    var fresh: [CachedFile] = []
    /// Bytes of the files kept loaded.
    var loadedBytes = 0

    /// What the inventory learnt of one file: its version, facts and loaded form, and for an
    /// upload archive the same of each entry (under `ARCHIVE/NAME`, with the archive's version).
    private struct Taken: Sendable {
        var path: String
        var version: Result<FileVersion, BatchRunner.ReadFailure>
        var facts: FileFacts
        var input: LoadedInput?
        var isFresh = false
        var entries: [(path: String, facts: FileFacts, input: LoadedInput?)] = []
    }

    /// Takes the inventory of `files`, `options.jobs` at a time: a file whose version equals
    /// the stored one is not read; any other is loaded and hashed once. Whether a file is the
    /// stored version is decided on `versions` (what the folder walk just read) when it has the
    /// file; a file that is read has its version read again just before.
    static func take(_ files: [String], cached: [String: CachedFile], options: BatchOptions, versions: [String: FileVersion] = [:]) async -> Inventory {
        var inventory = Inventory()
        await withTaskGroup(of: Taken.self) { group in
            var next = 0
            func enqueue() {
                guard next < files.count else { return }
                let path = files[next]
                next += 1
                let walked = versions[path]
                group.addTask {
                    func stored(_ current: FileVersion) -> Taken? {
                        guard let known = cached[path], known.version == current else { return nil }
                        var entries: [(path: String, facts: FileFacts, input: LoadedInput?)] = []
                        for name in known.facts.archiveEntries {
                            if let entry = cached[path + "/" + name], entry.version == current { entries.append((entry.path, entry.facts, nil)) }
                        }
                        return entries.count == known.facts.archiveEntries.count ? Taken(path: path, version: .success(current), facts: known.facts, entries: entries) : nil
                    }
                    if let walked, let taken = stored(walked) { return taken }
                    let version = FileVersion.of(path)
                    guard case .success(let current) = version else {
                        return Taken(path: path, version: version, facts: FileFacts(sha256: "", bytes: 0, error: version.failureMessage))
                    }
                    if walked == nil, let taken = stored(current) { return taken }
                    let (facts, input) = examineSteady(path, version: current)
                    // Facts of a read the machine or the device cut short (ENOMEM, EIO, …) are not the file's: never kept.
                    let isFresh = !facts.sha256.isEmpty && facts.loadNeedsMemory == nil
                        && facts.loadError.flatMap { ResourceExhaustion.named(in: $0, paths: [path]) ?? ResourceExhaustion.deviceFault(in: $0, paths: [path]) } == nil
                    return Taken(path: path, version: version, facts: facts, input: input, isFresh: isFresh, entries: entries(of: input))
                }
            }
            for _ in 0..<max(1, options.jobs) { enqueue() }
            for await taken in group {
                enqueue()
                for (path, facts, input) in [(taken.path, taken.facts, taken.input)] + taken.entries {
                    inventory.facts[path] = facts
                    if case .success(let current) = taken.version {
                        inventory.versions[path] = current
                        if taken.isFresh { inventory.fresh.append(CachedFile(path: path, version: current, facts: facts)) }
                    }
                    if let input, facts.category != .archive, inventory.loadedBytes + input.byteCount <= options.loadedBytesBudget {
                        inventory.loaded[path] = input
                        inventory.loadedBytes += input.byteCount
                    }
                }
            }
        }
        return inventory
    }

    /// The JSON and audio entries of an upload archive, with their facts (hashed as inflated).
    static func entries(of input: LoadedInput?) -> [(path: String, facts: FileFacts, input: LoadedInput?)] {
        guard case .archive(let archive)? = input?.kind else { return [] }
        return archive.entries.filter(\.input.isUploadMember).map { ($0.input.path, FileFacts($0.input, sha256: $0.sha256), $0.input) }
    }

    /// Loads `path` once, hashing the bytes as they are loaded: its facts, and the loaded file
    /// (audio held as `audio` says: a caller that wants the hash alone streams it).
    static func examine(_ path: String, audio: LoadedInput.AudioBytes = .held) -> (FileFacts, LoadedInput?) {
        var hash = SHA256()
        var bytes = 0
        var opened = false
        do {
            let input = try LoadedInput.load(path, audio: audio) { block in
                hash.update(bufferPointer: block)
                bytes += block.count
                opened = true
            }
            return (FileFacts(input, sha256: hash.finalize().hexadecimal), input)
        } catch {
            // Bytes that do not parse still have a hash (their error row is keyed by it); a file
            // that could not be opened has none.
            let sha = opened ? hash.finalize().hexadecimal : ""
            var facts = FileFacts(sha256: sha, bytes: bytes, error: error.description)
            if error.status == .insufficientMemory { facts.loadNeedsMemory = true }
            return (facts, nil)
        }
    }

    /// ``examine(_:)`` of a file whose version was `version` before the read, refused when its
    /// version after the read differs: bytes read while a writer changed the file may be of no
    /// version it ever had whole (a prefix of the new one, or the old one's start and the new one's
    /// end), and a reader that recovers truncated recordings would analyse them.
    static func examineSteady(_ path: String, version: FileVersion) -> (FileFacts, LoadedInput?) {
        let (facts, input) = examine(path)
        guard (try? FileVersion.of(path).get()) == version else {
            return (FileFacts(sha256: "", bytes: 0, error: "\(FileName.display(path)): changed while it was read; not analysed (run the batch again)"), nil)
        }
        return (facts, input)
    }

    mutating func add(_ other: Inventory) {
        facts.merge(other.facts) { $1 }
        versions.merge(other.versions) { $1 }
        loaded.merge(other.loaded) { $1 }
        fresh += other.fresh
        loadedBytes += other.loadedBytes
    }

    /// The unit's files as the inventory loaded them, or loaded again when they were beyond the
    /// budget — then their bytes must still hash to the facts' hash. An archive's entries are
    /// loaded again with their archive.
    func load(_ unit: WorkUnit) -> Result<LoadedUnit, BatchRunner.ReadFailure> {
        var inputs: [LoadedInput] = []
        var reopened: [String: (path: String, facts: FileFacts, input: LoadedInput?)] = [:]
        var archivesRead = Set<String>()
        for member in unit.members {
            if let input = loaded[member] {
                inputs.append(input)
                continue
            }
            let archive = TaskFiles.parent(of: member)
            if facts[archive]?.category == .archive, archivesRead.insert(archive).inserted {
                for entry in Self.entries(of: Self.examine(archive).1) { reopened[entry.path] = entry }
            }
            let (again, input) = reopened[member].map { ($0.facts, $0.input) }
                ?? (try? FileVersion.of(member).get()).map { Self.examineSteady(member, version: $0) } ?? (FileFacts(sha256: "", bytes: 0, error: ""), nil)
            guard again.sha256 == facts[member]?.sha256, let input else {
                return .failure(.init(message: "\(FileName.display(member)): changed or vanished while the batch ran; its results were not stored (run the batch again)"))
            }
            inputs.append(input)
        }
        var labels: [String: String] = [:]
        if case .record(let columns) = unit.shape { for (column, path) in columns { labels[path] = column } }
        return .success(LoadedUnit(path: unit.path, inputs: inputs, labels: labels))
    }
}

extension Result where Failure == BatchRunner.ReadFailure {
    var failureMessage: String { if case .failure(let failure) = self { failure.message } else { "" } }
}

