import Crypto
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

    /// Takes the inventory of `files`, `options.jobs` at a time: a file whose version equals
    /// the stored one is not read; any other is loaded and hashed once.
    static func take(_ files: [String], cached: [String: CachedFile], options: BatchOptions) async -> Inventory {
        var inventory = Inventory()
        await withTaskGroup(of: (String, Result<FileVersion, BatchRunner.ReadFailure>, FileFacts, LoadedInput?, Bool).self) { group in
            var next = 0
            func enqueue() {
                guard next < files.count else { return }
                let path = files[next]
                next += 1
                group.addTask {
                    let version = FileVersion.of(path)
                    guard case .success(let current) = version else {
                        return (path, version, FileFacts(sha256: "", bytes: 0, error: version.failureMessage), nil, false)
                    }
                    if let known = cached[path], known.version == current { return (path, version, known.facts, nil, false) }
                    let (facts, input) = examine(path)
                    return (path, version, facts, input, !facts.sha256.isEmpty)
                }
            }
            for _ in 0..<max(1, options.jobs) { enqueue() }
            for await (path, version, facts, input, isFresh) in group {
                enqueue()
                inventory.facts[path] = facts
                if case .success(let current) = version {
                    inventory.versions[path] = current
                    if isFresh { inventory.fresh.append(CachedFile(path: path, version: current, facts: facts)) }
                }
                if let input, inventory.loadedBytes + input.byteCount <= options.loadedBytesBudget {
                    inventory.loaded[path] = input
                    inventory.loadedBytes += input.byteCount
                }
            }
        }
        return inventory
    }

    /// Loads `path` once, hashing the bytes as they are loaded: its facts, and the loaded file.
    static func examine(_ path: String) -> (FileFacts, LoadedInput?) {
        var hash = SHA256()
        var bytes = 0
        var opened = false
        do {
            let input = try LoadedInput.load(path) { block in
                hash.update(bufferPointer: block)
                bytes += block.count
                opened = true
            }
            return (FileFacts(input, sha256: BatchRunner.hexadecimal(hash.finalize())), input)
        } catch {
            // Bytes that do not parse still have a hash (their error row is keyed by it); a file
            // that could not be opened has none.
            let sha = opened ? BatchRunner.hexadecimal(hash.finalize()) : ""
            return (FileFacts(sha256: sha, bytes: bytes, error: error.description), nil)
        }
    }

    mutating func add(_ other: Inventory) {
        facts.merge(other.facts) { $1 }
        versions.merge(other.versions) { $1 }
        loaded.merge(other.loaded) { $1 }
        fresh += other.fresh
        loadedBytes += other.loadedBytes
    }

    /// The unit's files as the inventory loaded them, or loaded again when they were beyond the
    /// budget — then their bytes must still hash to the facts' hash.
    func load(_ unit: WorkUnit) -> Result<LoadedUnit, BatchRunner.ReadFailure> {
        var inputs: [LoadedInput] = []
        for member in unit.members {
            if let input = loaded[member] {
                inputs.append(input)
                continue
            }
            let (again, input) = Self.examine(member)
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

