import InputGuards
import ArgumentParser
import Batch
import Scoring
import Foundation
import SensorData

/// `activetask batch PATH… --db FILE`, and `batch export`, `batch merge`.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Analyse every recording under the given paths into a SQLite result store; export and merge stores.",
        subcommands: [Run.self, Export.self, Merge.self],
        defaultSubcommand: Run.self
    )
}

extension BatchCommand {
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "run",
            abstract: "Analyse every recording under PATH… (files, folders, @MANIFEST files listing paths) into --db.",
            discussion: """
                Each file is read once and classified like `info` does; each recording (a file, an upload folder, a task result \
                with its recorder files, a --manifest record) is scored by every analyzer that applies (tapping, gait, balance, \
                spl, voice, audiometry; audio by its task), one row per (recording, analyzer) with features, versions, parameters, \
                content hash, timing and warnings; failures are rows with the error text, unknown files are listed. Results are \
                keyed by content hash, analyzer version and parameters: a rerun skips what is stored without reading unchanged \
                files (--force recomputes), a killed run loses no committed transaction. --shard i/n (0-based) takes a stable \
                subset by a hash of each upload folder, manifest record or file; `batch merge` combines shard stores. Progress goes \
                to stderr; the summary to stdout.
                """
        ).leaf()

        @Argument(help: "Files, folders, or @FILE lists (one path per line).") var paths: [String] = []
        @Option(name: .long, help: "A study manifest (CSV, e.g. a Synapse table): one recording per row, file columns (cells are paths) and metadata columns (exported first).") var manifest: String?
        @Option(name: .long, help: "With --manifest: the column that identifies a record.") var idColumn: String = "recordId"
        @Option(name: .long, help: "With --manifest: the folder its paths are relative to (default: the manifest's folder).") var base: String?
        @Option(name: .long, help: "The SQLite result store (created if missing).") var db: String
        @Option(name: .long, help: "Recordings analysed at once (default: the processors this process may run on).") var jobs: Int?
        @Option(name: .long, help: "Only shard i of n (0 ≤ i < n), e.g. --shard $JOB_COMPLETION_INDEX/8 or --shard $SLURM_ARRAY_TASK_ID/8.") var shard: String?
        @Flag(name: .long, help: "Recompute results that are already stored.") var force = false
        @Option(name: .long, help: "The voice analyzer's bound: recordings with more samples (frames × channels) become error rows (default 2^24, or the configuration's [voice] maximumSamples).") var maxVoiceSamples: Int?
        @Option(name: .long, help: "A TOML file: [batch] analyzers and audio, and one section per analyzer with its parameters, e.g. [spl] calibrationOffsetDecibels = 111.28 (docs/batch.md, \"Batch configuration\"). The parameters key the results.") var config: String?
        @Option(name: .long, help: "Only these analyzers, comma-separated (\(Scoring.Analyzer.allCases.map(\.rawValue).joined(separator: ", "))); overrides the configuration's [batch] analyzers.") var analyzers: AnalyzerList?
        @Option(name: .long, help: "How stand-alone audio files are scored: voice (default), environmentNoise (spl) or both; overrides the configuration's [batch] audio.") var audio: BatchConfiguration.AudioTask?
        @OptionGroup var limits: FileLimitOptions

        func validate() throws {
            guard !paths.isEmpty || manifest != nil else { throw ValidationError("give PATH… or --manifest FILE") }
            try OptionCheck.require(jobs, "--jobs", in: 1...1_024)
            if let maxVoiceSamples { try OptionCheck.require(maxVoiceSamples, "--max-voice-samples", in: VoiceScorer.Parameters.maximumSamplesRange) }
        }

        @Flag(name: .long, help: "Print the summary as one JSON object.") var json = false

        func run() async throws {
            var options = BatchOptions(toolkitVersion: ActiveTask.configuration.version)
            options.jobs = jobs ?? options.jobs
            options.force = force
            if let config {
                do { options.configuration = try BatchConfiguration.read(config) } catch {
                    throw CommandFailure(.badInvocation, error.description)
                }
            }
            if let maxVoiceSamples { options.configuration.parameters.voice.maximumSamples = maxVoiceSamples }
            if let analyzers { options.configuration.analyzers = analyzers.analyzers }
            if let audio { options.configuration.audio = audio }
            if let shard {
                guard let parsed = BatchOptions.shard(parsing: shard) else { throw CommandFailure(.badInvocation, "--shard must be i/n with 0 ≤ i < n, got \(shard)") }
                options.shard = parsed
            }
            if let manifest {
                do { options.manifest = try StudyManifest.read(manifest, idColumn: idColumn, base: base) } catch {
                    throw CommandFailure(.invalidInput, error.description)
                }
            }
            // Every path given must exist before a store is created: a typo is an error, not an empty run.
            let absent = Discovery.absent(paths)
            guard absent.isEmpty else {
                for path in absent { printError("\(FileName.display(path)): no such file or folder; nothing was analysed") }
                throw CommandFailure(.invalidInput)
            }
            let inputs = paths + (manifest.map { [$0] } ?? []) + (options.manifest?.records.flatMap(\.files.values) ?? [])
            do { try OutputFile.refuseIfInput(db, inputs: inputs) } catch {
                throw error.failure
            }
            let store: ResultStore
            do { store = try ResultStore(path: db) } catch {
                throw CommandFailure(.invalidInput, BatchFailure(error).description)
            }
            let reporter = ProgressReporter()
            let (paths, settings) = (paths, options)
            let counts: BatchCounts
            do {
                counts = try await FileBytes.$maximumBytes.withValue(limits.maxFileBytes) {
                    try await BatchRunner.run(paths, store: store, options: settings) { reporter.show($0) }
                }
            } catch {
                throw CommandFailure(.invalidInput, String(describing: error))
            }
            reporter.finish()
            for path in counts.missing { printError("\(FileName.display(path)): no such file or folder") }
            try print(json ? JSONWriter(indent: 2).string(counts.json(store: db)) : counts.summary(store: db))
            if !counts.missing.isEmpty { throw CommandFailure(.invalidInput) }
        }
    }
}

extension BatchCommand {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "export",
            abstract: "Export a result store for pandas or R: long form (one row per feature), JSON lines (one object per result), or --wide (one row per recording, one column per feature).",
            discussion: """
                Long CSV columns: a manifest's metadata columns (recordId, healthCode, …), then recording, content_sha256, analyzer, analyzer_version, parameters, status, kind, feature_set, feature, \
                value, error (series features as JSON arrays in value). --wide --analyzer NAME: one row per recording and result of that \
                analyzer, the identifiers first (recording, content_sha256, analyzer_version, parameters, status, error), then one \
                typed column per scalar feature named set.feature (numbers, true/false, text; empty when absent). --wide without \
                --analyzer writes one file per analyzer into --out DIR. The store holds the same tables as views wide_<analyzer>.
                """
        ).leaf()

        @Option(name: .long, help: "The SQLite result store.") var db: String
        @Flag(name: .long, help: "CSV (RFC 4180).") var csv = false
        @Flag(name: .long, help: "JSON lines.") var jsonl = false
        @Flag(name: .long, help: "One row per recording and result, one column per scalar feature (set.feature).") var wide = false
        @Option(name: .long, help: "With --wide: the analyzer whose table to write (\(Scoring.Analyzer.allCases.map(\.rawValue).joined(separator: ", "))).") var analyzer: Scoring.Analyzer?
        @Option(name: .long, help: "Write to this file instead of stdout (replaced only when the export is complete; never one of the store's files); with --wide and no --analyzer, a folder that gets ANALYZER.csv or ANALYZER.jsonl per analyzer.") var out: String?
        @Option(name: .long, help: "With --wide --analyzer: one row per value of this manifest metadata column (e.g. healthCode): the record count, and each numeric feature's median and IQR (type-7 quantiles) over that participant's usable records.") var per: String?
        @Flag(name: .long, help: "CSV cells exactly as stored. By default a text cell starting with = + - @, tab or carriage return gets a leading ' (OWASP's CSV-injection advice) so spreadsheets do not run it as a formula; numbers are never changed.") var rawCells = false

        func validate() throws {
            guard csv != jsonl else { throw ValidationError("give exactly one of --csv and --jsonl") }
            if analyzer != nil, !wide { throw ValidationError("--analyzer chooses a --wide table; add --wide") }
            if per != nil, !wide || analyzer == nil { throw ValidationError("--per summarises one --wide table: add --wide --analyzer NAME") }
            if wide, analyzer == nil, out == nil { throw ValidationError("--wide without --analyzer writes one file per analyzer: give --out DIR (or choose one with --analyzer)") }
        }

        func run() throws {
            // Read-only: an export never changes the store (and works on read-only media).
            let store: ResultStore
            do { store = try ResultStore(path: db, access: .readOnly) } catch {
                throw CommandFailure(.invalidInput, error.description)
            }
            let export = StoreExport(store: store, path: db, csv: csv, rawCells: rawCells)
            do {
                switch (wide, analyzer) {
                case (false, _): try export.long(to: out)
                case (true, let analyzer?):
                    guard let per else { return try export.wide(analyzer.rawValue, to: out) }
                    do { try export.participants(analyzer.rawValue, by: per, to: out) } catch let unknown as StoreExport.UnknownColumn {
                        throw CommandFailure(.badInvocation, "--per \(per): no \(analyzer.rawValue) recording in \(db) has that metadata column (known: \(unknown.known.joined(separator: ", ")))")
                    }
                case (true, nil): try export.wideTables(into: out ?? ".")
                }
            } catch let refusal as OutputFile.Refusal {
                throw refusal.failure
            } catch let failure as FileSystem.Failure {
                throw CommandFailure(failure)
            } catch let failure as CommandFailure {
                throw failure
            } catch {
                throw CommandFailure(.invalidInput, "\(error)")
            }
        }
    }
}

extension BatchCommand {
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "merge",
            abstract: "Merge shard stores into --db: results with the same key (content, analyzer, version, parameters) are kept once."
        ).leaf()

        @Option(name: .long, help: "The store to merge into (created if missing).") var db: String
        @Argument(help: "Shard stores.") var stores: [String]

        func run() throws {
            do { try OutputFile.refuseIfInput(db, inputs: stores) } catch {
                throw error.failure
            }
            do {
                let target = try ResultStore(path: db)
                for store in stores {
                    let added = try target.merge(from: store)
                    printError("\(store): \(added) result(s) added")
                }
            } catch {
                throw CommandFailure(.invalidInput, error.description)
            }
        }
    }
}

/// `--analyzers tapping,gait`: a comma-separated list of analyzer names.
struct AnalyzerList: ExpressibleByArgument {
    var analyzers: Set<Scoring.Analyzer>

    init?(argument: String) {
        let names = argument.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let chosen = names.compactMap { Scoring.Analyzer(rawValue: $0) }
        guard !names.isEmpty, chosen.count == names.count else { return nil }
        analyzers = Set(chosen)
    }

    static var defaultValueDescription: String { "every analyzer" }
    static var allValueStrings: [String] { Scoring.Analyzer.allCases.map(\.rawValue) }
}

extension BatchConfiguration.AudioTask: ExpressibleByArgument {}
extension Scoring.Analyzer: ExpressibleByArgument {}
