import Foundation
import InputGuards
import SensorData
import Scoring

/// How a batch runs.
public struct BatchOptions: Sendable {
    /// Units analysed at once (default: the processors this process may run on, its affinity mask).
    public var jobs = Processors.usable
    /// `(index, count)`: only the units of shard `index` (0-based) of `count` (``WorkUnit/isInShard(_:of:)``).
    public var shard: (index: Int, count: Int)?

    /// The shard `i/n` names (0 ≤ i < n), nil when it names none.
    public static func shard(parsing text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let index = parts[0], let count = parts[1], count > 0, (0..<count).contains(index) else { return nil }
        return (index, count)
    }
    /// Recompute results that are already stored.
    public var force = false
    /// A transaction is committed every `commitRows` rows or `commitSeconds`, whichever comes first.
    public var commitRows = 64
    public var commitSeconds = 2.0
    /// Stored with every result.
    public var toolkitVersion: String
    /// The analyzers to run, how stand-alone audio is scored, and the analyzers' parameters
    /// (defaults, or a configuration file's); the parameters key the results.
    public var configuration = BatchConfiguration()
    /// A study manifest whose records are units too (``StudyManifest``), besides the paths.
    public var manifest: StudyManifest?
    /// The most file bytes the inventory keeps loaded for the analyses (1 GiB, and at most a
    /// quarter of the memory headroom under a limit); files beyond it are loaded a second time
    /// when their unit is analysed.
    public var loadedBytesBudget = 1 << 30

    public init(toolkitVersion: String) { self.toolkitVersion = toolkitVersion }
}

/// Counts of a batch so far (progress) or at its end (summary).
public struct BatchCounts: Sendable {
    public var unitsTotal = 0
    public var unitsDone = 0
    /// Results computed and stored now, by status.
    public var computed = 0
    public var unusable = 0
    public var errors = 0
    public var skipped = 0
    /// Results already in the store (not recomputed).
    public var alreadyStored = 0
    public var unknownFiles = 0
    /// Recordings that got no result, per reason (unknown files by what they are; readable
    /// recordings whose analyzers were not selected), for the run's summary.
    public var withoutResult: [String: Int] = [:]
    /// Bytes of the recordings done.
    public var bytes = 0
    public var elapsedSeconds = 0.0
    /// Arguments that do not exist.
    public var missing: [String] = []
}

/// Why a batch stopped before its end: the store failed, or the machine ran out of something
/// (``ResourceExhaustion``) — never stored as a file's result; results committed before are kept.
public enum BatchFailure: Error, Sendable, CustomStringConvertible {
    case store(StoreError)
    /// The message that named the resource error, and the error's text.
    case environment(message: String, resource: String)

    public var description: String {
        switch self {
        case .store(let error): error.description
        case .environment(let message, let resource):
            "batch stopped: \(message) — \"\(resource)\" is a limit of this machine or its disks, not a fact about the file; "
                + "nothing was stored for it, results committed before are kept; raise the limit (ulimit -n, -v, -f; free space) and run the batch again"
        }
    }

    /// A store error, or the machine's limit when it names one: a store connection opened without
    /// a descriptor or memory to spare (``SQLiteOpenErrors``).
    public init(_ error: StoreError) {
        if let resource = ResourceExhaustion.named(in: error.message, paths: [error.path]) {
            self = .environment(message: error.description, resource: resource)
        } else {
            self = .store(error)
        }
    }
}

/// Runs the batch: discovery, sharding, an inventory that reads each file once, parallel
/// analysis, and the store's transactions.
///
/// Reads: every file is opened once per run. The inventory loads it (``LoadedInput``), hashes
/// the bytes it loaded (SHA-256, ``SHA256``) and keeps it for the analyses while the loaded
/// bytes stay within ``BatchOptions/loadedBytesBudget`` (beyond it a file is loaded again for its
/// analyses, and its hash checked). A file whose device, inode, size, modification and
/// status-change times equal those stored with its hash is not read at all: its facts come from
/// the store, and when every result of its unit is stored nothing is read.
public enum BatchRunner {
    public static func run(_ arguments: [String], store: ResultStore, options: BatchOptions,
                           progress: @escaping @Sendable (BatchCounts) -> Void = { _ in }) async throws(BatchFailure) -> BatchCounts {
        do { return try await run(arguments, store: store, options: options, checked: progress) } catch let error as BatchFailure {
            throw error
        } catch let error as StoreError {
            throw BatchFailure(error)
        } catch {
            throw .store(StoreError(path: store.path, error))
        }
    }

    private static func run(_ arguments: [String], store: ResultStore, options: BatchOptions,
                            checked progress: @escaping @Sendable (BatchCounts) -> Void) async throws -> BatchCounts {
        // Under a memory limit the files kept loaded for later analyses take at most a quarter of
        // the headroom, leaving the rest to the analyses (``MemoryBudget``).
        var adjusted = options
        if let (headroom, _) = MemoryBudget.headroom() { adjusted.loadedBytesBudget = min(options.loadedBytesBudget, headroom / 4) }
        let options = adjusted
        let start = Date()
        // The walk (a stat per file and folder) and the store's reads (stored keys, file facts,
        // recordings: each a pool reader of its own) are independent: on two cores or more they
        // overlap (together about half of a fully stored rerun: Benchmarks/README.md, "Rerun").
        async let walked = Discovery.walked(arguments)
        async let storedKeys = store.storedKeys()
        async let cachedFacts = options.force ? [:] : store.fileFacts()
        // Recordings stored exactly as this run finds them are not written again.
        let storedRecordings = try store.storedRecordings()
        let (keys, skippedReads) = try await storedKeys
        let stored = options.force ? [] : keys
        let cached = try await cachedFacts
        let walk = await walked
        var files = walk.files
        var refused = walk.refused
        if let shard = options.shard {
            let uploads = Discovery.uploadFolders(files)
            files = files.filter { WorkUnit.isInShard(key: Discovery.shardKey(of: $0, uploadFolders: uploads), shard.index, of: shard.count) }
            refused = refused.filter { WorkUnit.isInShard(key: $0.path, shard.index, of: shard.count) }
        }
        var records = options.manifest?.units ?? []
        if let shard = options.shard { records = records.filter { WorkUnit.isInShard(key: $0.path, shard.index, of: shard.count) } }
        let runID = try store.startRun(arguments: arguments, shard: options.shard.map { "\($0.index)/\($0.count)" },
                                       toolkitVersion: options.toolkitVersion)
        let (found, inventory) = await Discovery.units(files: files, refused: refused, records: records, cached: cached, options: options,
                                                       versions: walk.versions)
        try store.commitFileFacts(inventory.fresh)

        var counts = BatchCounts()
        counts.unitsTotal = found.count
        counts.missing = walk.missing
        var pending = StoreBatch()
        // Content reached by several paths (links, mounts, a folder and its .zip, two records) is
        // analysed once; its other paths are stored as paths of the same content.
        let (distinct, aliases, contents) = distinctRecordings(found, inventory.facts)
        for alias in aliases {
            if !storedRecordings.contains(alias.entry) { pending.recordings.append(alias.entry) }
            counts.unitsDone += 1
            counts.bytes += alias.entry.bytes
            // The unknown-files table is by path: each path of an unknown file is listed.
            if case .unknown(let kind, let reason)? = try? UnitPlan.make(alias.unit, facts: inventory.facts, audio: options.configuration.audio,
                                                                         selected: options.configuration.analyzers) {
                pending.unknownFiles.append(UnknownFile(path: alias.unit.path, kind: kind, reason: reason))
                counts.unknownFiles += 1
                counts.withoutResult["unknown: \(kind) (\(reason))", default: 0] += 1
            }
        }
        let units = longestFirst(distinct, inventory.facts)
        var lastCommit = Date()
        let jobs = max(1, options.jobs)
        do {
            try await withThrowingTaskGroup(of: UnitOutcome.self) { group in
                var next = 0
                func enqueue() {
                    guard next < units.count else { return }
                    let unit = units[next]
                    next += 1
                    let content = contents[unit.path]
                    group.addTask { process(unit, content: content, inventory: inventory, stored: stored, options: options) }
                }
                for _ in 0..<jobs { enqueue() }
                for try await outcome in group {
                    if let (message, resource) = outcome.environment {
                        try store.commit(pending, runID: runID, replace: options.force)
                        throw BatchFailure.environment(message: message, resource: resource)
                    }
                    enqueue()
                    counts.add(outcome)
                    if let recording = outcome.recording, !storedRecordings.contains(recording) { pending.recordings.append(recording) }
                    pending.results += outcome.results
                    if let unit = outcome.recording?.path, skippedReads.contains(unit), outcome.results.contains(where: { $0.key.analyzer != "read" && $0.status != .skipped }) {
                        pending.readAfterSkip.append(unit)
                    }
                    pending.unknownFiles += outcome.unknown.map { [$0] } ?? []
                    if pending.count >= options.commitRows || Date().timeIntervalSince(lastCommit) >= options.commitSeconds {
                        try store.commit(pending, runID: runID, replace: options.force)
                        pending = StoreBatch()
                        lastCommit = Date()
                    }
                    counts.elapsedSeconds = Date().timeIntervalSince(start)
                    progress(counts)
                }
            }
            try store.commit(pending, runID: runID, replace: options.force)
        } catch let error as StoreError {
            throw error
        } catch let error as BatchFailure {
            throw error
        } catch {
            throw StoreError(path: store.path, error)
        }
        counts.elapsedSeconds = Date().timeIntervalSince(start)
        try store.finishRun(runID, units: counts.unitsDone, computed: counts.computed, skipped: counts.alreadyStored, errors: counts.errors)
        if counts.computed > 0 { try store.refreshWideViews() }  // new results may bring new feature columns
        return counts
    }

    /// What one unit gave.
    struct UnitOutcome: Sendable {
        var recording: RecordingEntry?
        var results: [ResultRow] = []
        var unknown: UnknownFile?
        /// Why the unit got no result although it was read (its analyzers were not selected).
        var notSelected: String?
        var alreadyStored = 0
        /// An error of the machine met on the way (the message, the resource): nothing of the
        /// unit is stored and the batch stops.
        var environment: (message: String, resource: String)?
    }

    struct ReadFailure: Error {
        var message: String
        /// Refused for memory (``FileFacts/loadNeedsMemory``): stored `skipped`, not `error`.
        var needsMemory = false
    }

    /// Plans a unit from its facts and runs the analyses whose results are not stored, on its
    /// files as loaded by the inventory (or loaded again, hash checked, beyond the budget).
    /// `content`, when known, is the unit's content key (``contentKey(_:_:)``), else it is made here.
    static func process(_ unit: WorkUnit, content: String? = nil, inventory: Inventory, stored: Set<ResultKey>, options: BatchOptions) -> UnitOutcome {
        let outcome = analyse(unit, content: content, inventory: inventory, stored: stored, options: options)
        for message in outcome.results.compactMap(\.error) {
            if let resource = ResourceExhaustion.named(in: message, paths: [unit.path] + unit.members) {
                return UnitOutcome(environment: (message, resource))
            }
        }
        return outcome
    }

    /// ``process(_:inventory:stored:options:)`` before its check for errors of the machine.
    private static func analyse(_ unit: WorkUnit, content known: String?, inventory: Inventory, stored: Set<ResultKey>, options: BatchOptions) -> UnitOutcome {
        var outcome = UnitOutcome()
        func row(_ analyzer: Analyzer?, parameters: String = "{}", content: String, status: ResultStatus, report: ScoreReport? = nil,
                 error: String? = nil, started: Date = Date()) -> ResultRow {
            ResultRow(recording: unit.path, key: key(analyzer, parameters: parameters, content: content),
                      toolkitVersion: options.toolkitVersion, status: status, kind: report?.kind, dialect: report?.dialect,
                      featuresJSON: JSONWriter().string(report?.featuresJSON ?? .object(JSONObject())),
                      warningsJSON: JSONWriter().string(.array((report?.warnings ?? []).map { .string($0) })), error: error,
                      computedAt: Date().timeIntervalSince1970, durationMilliseconds: Date().timeIntervalSince(started) * 1000)
        }
        if case .refused(let reason) = unit.shape {
            outcome.results.append(row(nil, content: "unreadable:" + unit.path, status: .error, error: "\(FileName.display(unit.path)): \(reason)"))
            if !unit.metadata.isEmpty {  // a manifest record keeps its identifiers beside its error
                outcome.recording = RecordingEntry(path: unit.path, contentSHA256: "unreadable:" + unit.path, bytes: 0, files: 0, metadata: unit.metadata)
            }
            return outcome
        }
        let content: String
        switch known.map({ .success($0) }) ?? contentKey(unit, inventory.facts) {
        case .success(let found): content = found
        case .failure(let failure):
            outcome.results.append(row(nil, content: "unreadable:" + unit.path, status: failure.needsMemory ? .skipped : .error, error: failure.message))
            return outcome
        }
        outcome.recording = recordingEntry(unit, content: content, inventory.facts)
        let plan: UnitPlan
        do { plan = try UnitPlan.make(unit, facts: inventory.facts, audio: options.configuration.audio, selected: options.configuration.analyzers) } catch {
            if stored.contains(key(nil, parameters: "{}", content: content)) { outcome.alreadyStored += 1 } else {
                outcome.results.append(row(nil, content: content, status: error.status == .insufficientMemory ? .skipped : .error, error: error.description))
            }
            return outcome
        }
        let plans: [AnalysisPlan]
        switch plan {
        case .unknown(let kind, let reason):
            outcome.unknown = UnknownFile(path: unit.path, kind: kind, reason: reason)
            return outcome
        case .analyses(let all):
            plans = all.filter { options.configuration.analyzers?.contains($0.analyzer) ?? true }.map {
                var plan = $0
                plan.settings = options.configuration.parameters
                return plan
            }
            if plans.isEmpty, !all.isEmpty {
                let applicable = Set(all.map(\.analyzer.rawValue)).sorted().joined(separator: ", ")
                outcome.notSelected = "only \(applicable) applies, not selected"
            }
        }
        let pending = plans.filter { plan in
            let stored = stored.contains(key(plan.analyzer, parameters: plan.parameters, content: content))
            if stored { outcome.alreadyStored += 1 }
            return !stored
        }
        guard !pending.isEmpty else { return outcome }
        // The unit's files as analysed: the bytes the inventory hashed.
        let loaded: LoadedUnit
        switch inventory.load(unit) {
        case .success(let found): loaded = found
        case .failure(let failure):
            outcome = UnitOutcome()
            outcome.results = [row(nil, content: "changed:" + unit.path, status: .error, error: failure.message)]
            return outcome
        }
        for plan in pending {
            let started = Date()
            do {
                let report = try plan.run(loaded).report
                outcome.results.append(row(plan.analyzer, parameters: plan.parameters, content: content, status: report.unusable == nil ? .ok : .unusable,
                                           report: report, error: report.unusable, started: started))
            } catch {
                outcome.results.append(row(plan.analyzer, parameters: plan.parameters, content: content,
                                           status: error.status == .insufficientMemory ? .skipped : .error, error: error.description, started: started))
            }
        }
        // Long audio is decoded from the file rather than the bytes hashed: a file written meanwhile
        // may have been analysed in another version than its key says, so nothing is stored.
        for input in loaded.inputs where input.decodesFromFile {
            if (try? FileVersion.of(input.path).get()) != inventory.versions[input.path] {
                outcome = UnitOutcome()
                outcome.results = [row(nil, content: "changed:" + unit.path, status: .error,
                                       error: "\(FileName.display(input.path)): changed or vanished while it was analysed; its results were not stored (run the batch again)")]
            }
        }
        return outcome
    }

    static func recordingEntry(_ unit: WorkUnit, content: String, _ facts: [String: FileFacts]) -> RecordingEntry {
        RecordingEntry(path: unit.path, contentSHA256: content, bytes: unit.members.reduce(0) { $0 + (facts[$1]?.bytes ?? 0) },
                       files: unit.members.count, metadata: unit.metadata)
    }

    /// The units to analyse — the first of those with the same content key — and the others as
    /// recording entries only, each with its own metadata (results are keyed by content, so they
    /// are the first's; a manifest's two records of the same files stay two recordings); and the
    /// content key of each unit to analyse whose path no other unit has (made once).
    static func distinctRecordings(_ units: [WorkUnit], _ facts: [String: FileFacts])
        -> (units: [WorkUnit], aliases: [(unit: WorkUnit, entry: RecordingEntry)], contents: [String: String])
    {
        var seen = Set<String>(), contents: [String: String] = [:], paths = Set<String>(), shared = Set<String>()
        var distinct: [WorkUnit] = []
        var aliases: [(unit: WorkUnit, entry: RecordingEntry)] = []
        for unit in units {
            let content: String?
            if case .refused = unit.shape { content = nil } else if case .success(let found) = contentKey(unit, facts) { content = found } else { content = nil }
            if let content, !seen.insert(content).inserted {
                aliases.append((unit, recordingEntry(unit, content: content, facts)))
                continue
            }
            distinct.append(unit)
            if !paths.insert(unit.path).inserted { shared.insert(unit.path) }
            if let content { contents[unit.path] = content }
        }
        for path in shared { contents[path] = nil }
        return (distinct, aliases, contents)
    }

    /// The units in the order they are started: longest first (R. L. Graham's LPT rule, "Bounds
    /// on multiprocessing timing anomalies", SIAM J. Appl. Math. 17(2), 1969), a unit's file
    /// bytes standing for its work, so the long audio (voice, room noise) starts first and no
    /// worker is left alone with one at the end. Stable: units of equal size keep their order.
    static func longestFirst(_ units: [WorkUnit], _ facts: [String: FileFacts]) -> [WorkUnit] {
        units.map { unit in (unit, unit.members.reduce(0) { $0 + (facts[$1]?.bytes ?? 0) }) }.sorted { $0.1 > $1.1 }.map(\.0)
    }

    /// A result's key; `analyzer` nil is the row of a unit that could not be read.
    static func key(_ analyzer: Analyzer?, parameters: String, content: String) -> ResultKey {
        ResultKey(contentSHA256: content, analyzer: analyzer?.rawValue ?? "read", analyzerVersion: analyzer?.version ?? "1", parameters: parameters)
    }

    /// The content key of a unit: its file's SHA-256, or for several files the SHA-256 of their
    /// relative names and hashes.
    static func contentKey(_ unit: WorkUnit, _ facts: [String: FileFacts]) -> Result<String, ReadFailure> {
        var hashes: [String] = []
        for member in unit.members {
            guard let known = facts[member] else { return .failure(ReadFailure(message: "\(FileName.display(member)): was not read")) }
            if known.sha256.isEmpty {
                return .failure(ReadFailure(message: known.loadError ?? "\(FileName.display(member)): cannot be read", needsMemory: known.loadNeedsMemory == true))
            }
            hashes.append(known.sha256)
        }
        if hashes.count == 1 { return .success(hashes[0]) }
        var hash = SHA256()
        for (member, memberHash) in zip(unit.members, hashes) {
            hash.update(data: Array((unit.relativeName(member) + "\u{0}" + memberHash + "\n").utf8))
        }
        return .success(hash.finalize().hexadecimal)
    }
}

extension BatchCounts {
    mutating func add(_ outcome: BatchRunner.UnitOutcome) {
        unitsDone += 1
        alreadyStored += outcome.alreadyStored
        bytes += outcome.recording?.bytes ?? 0
        if let unknown = outcome.unknown {
            unknownFiles += 1
            withoutResult["unknown: \(unknown.kind) (\(unknown.reason))", default: 0] += 1
        }
        if let reason = outcome.notSelected { withoutResult[reason, default: 0] += 1 }
        for row in outcome.results {
            computed += 1
            switch row.status {
            case .ok: break
            case .unusable: unusable += 1
            case .error: errors += 1
            case .skipped: skipped += 1
            }
        }
    }
}
