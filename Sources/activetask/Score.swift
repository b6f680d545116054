import Analysis
import ArgumentParser
import Foundation
import SensorData

/// `activetask score KIND FILE`: features of one recording.
struct Score: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Score one recording: tapping, gait, spl, voice, audiometry.",
        subcommands: [ScoreTapping.self, ScoreGait.self, ScoreSPL.self, ScoreVoice.self, ScoreAudiometry.self]
    )
}

/// Options every `score` subcommand shares.
struct ScoreOptions: ParsableArguments {
    @Flag(name: .long, help: "Print one JSON object instead of a table.")
    var json = false

    @Flag(name: .long, help: "Keep the complete items before a torn tail, with a warning.")
    var lenient = false

    @Argument(help: "The file to score.")
    var file: String
}

/// The report of one `score` run: `{"kind", "file", "dialect", "features", "warnings"}`
/// (architecture.md, command-line contract).
struct ScoreReport {
    var kind: String
    var file: String
    var dialect: String?
    var sets: [FeatureSet]
    var warnings: [String]

    var json: JSONValue {
        var features = JSONObject()
        for set in sets { features.append(set.name, set.json) }
        var object = JSONObject()
        object.append("kind", .string(kind))
        object.append("file", .string(file))
        object.append("dialect", dialect.map { .string($0) } ?? .null)
        object.append("features", .object(features))
        object.append("warnings", .array(warnings.map { .string($0) }))
        return .object(object)
    }

    var table: String {
        var text = "\(file)\n  kind      \(kind)\n"
        if let dialect { text += "  dialect   \(dialect)\n" }
        for warning in warnings { text += "  warning   \(warning)\n" }
        for set in sets {
            text += "  [\(set.name)]\n"
            let width = set.names.map(\.count).max() ?? 0
            for (name, value) in zip(set.names, set.values) {
                let shown: String
                switch value {
                case .number(let number): shown = number.isFinite ? String(format: "%.10g", number) : "\(number)"
                case .text(let text): shown = text
                case .numbers(let values): shown = values.map { String(format: "%.4g", $0) }.joined(separator: " ")
                case .missing: shown = "–"
                }
                text += "    " + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + shown + "\n"
            }
        }
        return text
    }

    func print(json: Bool) {
        Swift.print(json ? JSONWriter(indent: 2).string(self.json) : table, terminator: json ? "\n" : "")
    }
}

/// Reads a JSON file for scoring, mapping read errors to exit status 3.
func readContents(_ options: ScoreOptions) throws -> JSONContents {
    do {
        return try JSONContents.read(options.file, options: .init(lenient: options.lenient))
    } catch {
        printError(error.description)
        throw ExitCode(ActiveTask.Status.invalidInput)
    }
}

struct ScoreTapping: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tapping",
        abstract: "Two-finger tapping features (mhealthtools-compatible by default, plus atk extras).",
        discussion: "Reads either dialect, alone, inside a task result or a flattened archive, or a bare TappingSamples array. Exit status 1 when too few taps remain (the peer's reason text)."
    )

    @OptionGroup var options: ScoreOptions

    @Option(name: .long, help: "Peer convention of the main feature set: \(TappingAnalysis.Convention.allCases.map(\.rawValue).joined(separator: ", ")).")
    var convention: TappingAnalysis.Convention = .mhealthtools

    @Option(name: .long, help: "Minimum |Δx| between kept taps, points.")
    var depressThreshold: Double = 20

    @Option(name: .long, help: "Which tapping result to score when the file holds several (its step identifier, e.g. tapping.left).")
    var identifier: String?

    func run() throws {
        let contents = try readContents(options)
        let results = contents.tappingResults
        guard !results.isEmpty else {
            printError(ReadError(file: options.file, reason: .notFound("no tapping result in this file (\(contents.layout.name))")).description)
            throw ExitCode(ActiveTask.Status.invalidInput)
        }
        var warnings: [String] = contents.warnings.map(\.description)
        let chosen: TappingResult
        if let identifier {
            guard let match = results.first(where: { $0.identifier == identifier }) else {
                printError("\(options.file): no tapping result with identifier \"\(identifier)\"; found: \(results.map { $0.identifier ?? "(none)" }.joined(separator: ", "))")
                throw ExitCode(ActiveTask.Status.badInvocation)
            }
            chosen = match
        } else {
            chosen = results[0]
            if results.count > 1 {
                warnings.append("the file holds \(results.count) tapping results (\(results.map { $0.identifier ?? "(none)" }.joined(separator: ", "))); scored the first, choose with --identifier")
            }
        }
        let analysis = TappingAnalysis.analyze(chosen, convention: convention, depressThreshold: depressThreshold)
        warnings += analysis.warnings.map(\.description)
        let report = ScoreReport(kind: "tapping", file: options.file, dialect: chosen.dialect == .appCore ? "AppCore" : "ResearchKit serializer",
                                 sets: [analysis.peer, analysis.atk], warnings: warnings)
        report.print(json: options.json)
        if let error = analysis.error {
            printError("\(options.file): \(error)")
            throw ExitCode(ActiveTask.Status.unusable)
        }
    }
}

extension TappingAnalysis.Convention: ExpressibleByArgument {}

struct ScoreGait: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gait",
        abstract: "Gait features: steps, cadence (overall and per 20-s window), step/stride times, regularity, symmetry, harmonic ratio, bouts.",
        discussion: "Reads accelerometer or device-motion recordings (JSON, or CSV with --csv-layout) and pedometer files. A walking task (a folder of an unpacked upload, a flattened archive, or a task result whose recorder files sit next to it) is scored per recording: outbound, return, rest."
    )

    @OptionGroup var options: ScoreOptions

    @Option(name: .long, help: "CSV column layout: oxford (ns, accuracy, x, y, z in m/s²) or auto (header names).")
    var csvLayout: String = "auto"

    func run() throws {
        let report = try GaitScoring.score(file: options.file, lenient: options.lenient, csvLayout: csvLayout)
        report.print(json: options.json)
        let usable = report.sets.contains { set in
            (set["stepCount"]?.number ?? 0) > 0 || set["cadencePedometerStepsPerMinute"]?.number != nil
                || set["tremorDominantFrequencyHzAccel"]?.number != nil
        }
        if !usable {
            printError("\(options.file): too little motion data to analyse (no walking, less than 5 s for rest and tremor)")
            throw ExitCode(ActiveTask.Status.unusable)
        }
    }
}
