import Foundation
import InputGuards
import SensorData

/// How a batch runs.
public struct BatchOptions: Sendable {
    /// Units analysed at once (default: the machine's cores).
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// `(index, count)`: only the units of shard `index` (0-based) of `count` (``WorkUnit/isInShard(_:of:)``).
    public var shard: (index: Int, count: Int)?
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
    /// Bytes of the recordings done.
    public var bytes = 0
    public var elapsedSeconds = 0.0
    /// Arguments that do not exist.
    public var missing: [String] = []
}

/// Runs the batch: discovery, sharding, parallel analysis, and the store's transactions.
public enum BatchRunner {
    public static func run(_ arguments: [String], store: ResultStore, options: BatchOptions,
                           progress: @escaping @Sendable (BatchCounts) -> Void = { _ in }) async throws(StoreError) -> BatchCounts {
        let start = Date()
        let (found, missing) = Discovery.units(arguments)
        let units = options.shard.map { shard in found.filter { $0.isInShard(shard.index, of: shard.count) } } ?? found
        let stored = options.force ? [] : try store.storedKeys()
        let runID = try store.startRun(arguments: arguments, shard: options.shard.map { "\($0.index)/\($0.count)" },
                                       toolkitVersion: options.toolkitVersion)
        var counts = BatchCounts()
        counts.unitsTotal = units.count
        counts.missing = missing
        var pending = StoreBatch()
        var lastCommit = Date()
        let jobs = max(1, options.jobs)
        let settings = options
        do {
            try await withThrowingTaskGroup(of: UnitOutcome.self) { group in
                var next = 0
                func enqueue() {
                    guard next < units.count else { return }
                    let unit = units[next]
                    next += 1
                    group.addTask { process(unit, stored: stored, options: settings) }
                }
                for _ in 0..<jobs { enqueue() }
                for try await outcome in group {
                    enqueue()
                    counts.add(outcome)
                    pending.recordings += outcome.recording.map { [$0] } ?? []
                    pending.results += outcome.results
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
        var alreadyStored = 0
    }

    /// Hashes a unit, chooses its analyses, and runs those whose results are not stored.
    /// `afterHashing` runs between the hashing and the analyses (tests change files there).
    static func process(_ unit: WorkUnit, stored: Set<ResultKey>, options: BatchOptions, afterHashing: () -> Void = {}) -> UnitOutcome {
        let toolkitVersion = options.toolkitVersion
        var outcome = UnitOutcome()
        func row(_ plan: AnalysisPlan, content: String, status: ResultStatus, report: ScoreReport? = nil, error: String? = nil,
                 started: Date = Date()) -> ResultRow {
            ResultRow(recording: unit.path,
                      key: ResultKey(contentSHA256: content, analyzer: plan.analyzer.rawValue, analyzerVersion: plan.analyzer.version, parameters: plan.parameters),
                      toolkitVersion: toolkitVersion, status: status, kind: report?.kind, dialect: report?.dialect,
                      featuresJSON: JSONWriter().string(report?.featuresJSON ?? .object(JSONObject())),
                      warningsJSON: JSONWriter().string(.array((report?.warnings ?? []).map { .string($0) })), error: error,
                      computedAt: Date().timeIntervalSince1970, durationMilliseconds: Date().timeIntervalSince(started) * 1000)
        }
        if case .refused(let reason) = unit.shape {
            outcome.results.append(row(.plan(.read, unit.path), content: "unreadable:" + unit.path, status: .error, error: "\(FileName.display(unit.path)): \(reason)"))
            return outcome
        }
        let key: ContentKey
        switch contentKey(unit) {
        case .success(let found): key = found
        case .failure(let failure):
            outcome.results.append(row(.plan(.read, unit.path), content: "unreadable:" + unit.path, status: .error, error: failure.message))
            return outcome
        }
        let content = key.content
        outcome.recording = RecordingEntry(path: unit.path, contentSHA256: content, bytes: key.bytes, files: unit.members.count)
        // The analyses chosen by content, each skipped when its result is stored.
        func analyse() {
            let plan: UnitPlan
            do { plan = try UnitPlan.make(unit, audio: options.configuration.audio) } catch {
                let read = AnalysisPlan.plan(.read, unit.path)
                let key = ResultKey(contentSHA256: content, analyzer: read.analyzer.rawValue, analyzerVersion: read.analyzer.version, parameters: read.parameters)
                if stored.contains(key) { outcome.alreadyStored += 1 } else { outcome.results.append(row(read, content: content, status: .error, error: error.description)) }
                return
            }
            switch plan {
            case .unknown(let kind, let reason):
                outcome.unknown = UnknownFile(path: unit.path, kind: kind, reason: reason)
            case .analyses(let plans):
                for var analysis in plans where options.configuration.analyzers?.contains(analysis.analyzer) ?? true {
                    analysis.settings = options.configuration.parameters
                    let key = ResultKey(contentSHA256: content, analyzer: analysis.analyzer.rawValue, analyzerVersion: analysis.analyzer.version,
                                        parameters: analysis.parameters)
                    if stored.contains(key) {
                        outcome.alreadyStored += 1
                        continue
                    }
                    if let reason = analysis.skipReason {
                        outcome.results.append(row(analysis, content: content, status: .skipped, error: reason))
                        continue
                    }
                    let started = Date()
                    do {
                        let report = try analysis.run()
                        outcome.results.append(row(analysis, content: content, status: report.unusable == nil ? .ok : .unusable, report: report,
                                                   error: report.unusable, started: started))
                    } catch {
                        outcome.results.append(row(analysis, content: content, status: .error, error: error.description, started: started))
                    }
                }
            }
        }
        afterHashing()
        analyse()
        // A file that changed (or vanished) while it was analysed: its results may describe
        // other bytes than the key says, so none is stored; a rerun analyses what is there then.
        // (Nothing to check when every result was stored already: nothing was read.)
        let readNow = !outcome.results.isEmpty || outcome.unknown != nil
        if readNow, (try? contentKey(unit).get()) != key {
            let changed = unit.members.count == 1 ? unit.members[0] : "a file of \(unit.path)"
            outcome = UnitOutcome()
            outcome.results = [row(.plan(.read, unit.path), content: "changed:" + unit.path, status: .error,
                                   error: "\(changed): changed or vanished while it was analysed; its results were not stored (run the batch again)")]
        }
        return outcome
    }

    struct ReadFailure: Error { var message: String }

    /// A unit's content key and size, and the version of each member file when it was hashed.
    struct ContentKey: Equatable {
        var content: String
        var bytes: Int
        /// Per member: device, inode, size and status-change time (ns). The kernel sets the
        /// status-change time on every write, truncation or rename, and no user can set it back,
        /// so a file rewritten with its old bytes again (A → B → A) still shows a new version.
        var versions: [[Int]]
    }

    /// The content key of a unit: the file's SHA-256, or for several files the SHA-256 of their
    /// relative names and hashes.
    static func contentKey(_ unit: WorkUnit) -> Result<ContentKey, ReadFailure> {
        var hashes: [String] = []
        var versions: [[Int]] = []
        var bytes = 0
        for member in unit.members {
            var info = stat()
            guard FileName.withCString(member, { stat($0, &info) }) == 0 else {
                return .failure(ReadFailure(message: "\(FileName.display(member)): cannot be read: \(String(cString: strerror(errno)))"))
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                return .failure(ReadFailure(message: "\(FileName.display(member)): is \(RegularFile.kind(of: info.st_mode)), not a regular file; not read"))
            }
            guard let (hash, size) = SHA256.file(member) else {
                return .failure(ReadFailure(message: "\(FileName.display(member)): cannot be read: \(String(cString: strerror(errno)))"))
            }
            versions.append([Int(info.st_dev), Int(info.st_ino), Int(info.st_size), info.st_ctim.tv_sec * 1_000_000_000 + info.st_ctim.tv_nsec])
            hashes.append(hash)
            bytes += size
        }
        if hashes.count == 1 { return .success(ContentKey(content: hashes[0], bytes: bytes, versions: versions)) }
        let folder = unit.shape == .upload ? unit.path : (unit.path as NSString).deletingLastPathComponent
        var hash = SHA256()
        for (member, memberHash) in zip(unit.members, hashes) {
            let relative = member.hasPrefix(folder + "/") ? String(member.dropFirst(folder.count + 1)) : member
            hash.update(Array((relative + "\u{0}" + memberHash + "\n").utf8))
        }
        return .success(ContentKey(content: hash.finalize(), bytes: bytes, versions: versions))
    }
}

extension BatchCounts {
    mutating func add(_ outcome: BatchRunner.UnitOutcome) {
        unitsDone += 1
        alreadyStored += outcome.alreadyStored
        bytes += outcome.recording?.bytes ?? 0
        if outcome.unknown != nil { unknownFiles += 1 }
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
