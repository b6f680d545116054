import InputGuards
import Analysis
import ArgumentParser
import Batch
import Scoring
import Reports
import Foundation
import SensorData

/// `activetask score KIND FILE`: features of one recording.
struct ScoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Score one recording: tapping, gait, balance, spl, voice, loudness, audiometry.",
        subcommands: [ScoreTapping.self, ScoreGait.self, ScoreBalance.self, ScoreSPL.self, ScoreVoice.self, ScoreLoudness.self, ScoreAudiometry.self]
    )
}

/// Options every `score` subcommand shares.
struct ScoreOptions: ParsableArguments {
    @Flag(name: .long, help: "Print one JSON object instead of a table.")
    var json = false

    @Flag(name: .long, help: "Keep the complete items before a torn tail, with a warning.")
    var lenient = false

    @Option(name: .long, help: "A TOML file with the analyzer's parameters, as batch --config reads it (README, \"Batch configuration\"); the options below override it.")
    var config: String?

    @Option(name: .long, help: "Also write a self-contained HTML page with the features and charts to this file.")
    var html: String?

    @OptionGroup var limits: FileLimitOptions

    @Argument(help: "The file to score.")
    var file: String
}

extension ScoreReport {
    func print(json: Bool) {
        activetask.print(json ? JSONWriter(indent: 2).string(self.json) : table, terminator: json ? "\n" : "")
    }
}

extension ScoreOptions {
    /// `analyzer`'s parameters: the defaults, then `--config`, then the options given in
    /// `groups` (and `--lenient`), each checked as a configuration is.
    func parameters(_ analyzer: Scoring.Analyzer, _ groups: [any ParameterOptions]) throws -> AnalyzerParameters {
        var configuration = BatchConfiguration()
        if let config {
            do { configuration = try BatchConfiguration.read(config) } catch { throw CommandFailure(.badInvocation, error.description) }
        }
        var section = JSONObject()
        for group in groups {
            for (key, value) in group.overrides.members { section.append(key, value) }
        }
        if lenient, AnalyzerParameters.encoded(configuration.parameters)[analyzer.rawValue]?.object?["lenient"] != nil {
            section.append("lenient", .bool(true))
        }
        var document = JSONObject()
        document.append(analyzer.rawValue, .object(section))
        do { return try configuration.overriding(document, file: "command line").parameters } catch {
            throw CommandFailure(.badInvocation, error.description)
        }
    }
}

/// Loads the file once, runs `analyzer` on it with the parameters of the defaults, `--config`
/// and the options in `groups` (the dispatch `batch` uses too), prints the score's report
/// (table or JSON), writes its HTML page when asked, and exits with the contract's status — 1
/// when the recording is unusable, 2 or 3 for a scoring error (message on stderr). Returns the
/// score for commands that write more.
@discardableResult
func emit(_ options: ScoreOptions, _ analyzer: Scoring.Analyzer, _ groups: [any ParameterOptions]) throws -> Score {
    try emit(options, analyzer, options.parameters(analyzer, groups))
}

/// ``emit(_:_:_:)`` with the parameters resolved.
@discardableResult
func emit(_ options: ScoreOptions, _ analyzer: Scoring.Analyzer, _ parameters: AnalyzerParameters) throws -> Score {
    if let html = options.html { try OutputFile.refuseIfInputOrExit(html, inputs: [options.file]) }
    let scored = options.limits.applied {
        Result { () throws(ScoringError) in
            try parameters.score(analyzer, file: options.file, lenient: options.lenient)
        }
    }
    let score: Score
    do { score = try scored.get() } catch { throw failure(error) }
    let report = score.report
    if options.json {
        // The result key a batch with the same parameters stores the same features under.
        var object = report.json.object ?? JSONObject()
        object.append("key", ResultKey(scoring: options.file, analyzer, parameters)?.json ?? .null)
        print(JSONWriter(indent: 2).string(.object(object)))
    } else {
        report.print(json: false)
    }
    if let html = options.html {
        try OutputFile.writeOrExit(HTMLReport.recording(score), to: html, inputs: [options.file])
    }
    if let reason = report.unusable {
        throw CommandFailure(.unusable, "\(report.file): \(reason)")
    }
    return score
}

/// A scoring error as the command's failure (its message, status 2 or 3).
func failure(_ error: ScoringError) -> CommandFailure {
    CommandFailure(error)
}

struct ScoreTapping: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tapping",
        abstract: "Two-finger tapping features (mhealthtools-compatible by default, plus atk extras).",
        discussion: "Reads either dialect, alone, inside a task result or a flattened archive, or a bare TappingSamples array. Exit status 1 when too few taps remain (the peer's reason text)."
    )

    @OptionGroup var options: ScoreOptions

    @OptionGroup var parameters: TappingParameterOptions

    func run() throws {
        try emit(options, .tapping, [parameters])
    }
}

struct ScoreGait: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gait",
        abstract: "Gait features: steps, cadence (overall and per 20-s window), step/stride times, regularity, symmetry, harmonic ratio, bouts.",
        discussion: "Reads accelerometer or device-motion recordings (JSON, or CSV: layout from the header, or the options below) and pedometer files. A walking task (a folder of an unpacked upload, a flattened archive, or a task result whose recorder files sit next to it) is scored per recording: outbound, return, rest."
    )

    @OptionGroup var options: ScoreOptions

    @OptionGroup(title: "CSV") var csv: MotionCSVOptions
    @OptionGroup(title: "Motion analysis") var analysis: MotionAnalysisOptions

    func run() throws {
        try emit(options, .gait, [csv, analysis])
    }
}

struct ScoreBalance: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "balance",
        abstract: "Sway and rest tremor of the rest part of a walking task (standing still): no steps, no cadence.",
        discussion: "Reads the recordings a gait score reads and keeps those whose step, manifest column or file name says rest (accelerometer_walking.rest, deviceMotion_walking_rest.json.items): sway RMS, jerk, 95 % ellipse area, centroid and F95 frequencies (Mancini et al. 2012) and the 3–12 Hz tremor spectrum."
    )

    @OptionGroup var options: ScoreOptions
    @OptionGroup(title: "Motion analysis") var analysis: MotionAnalysisOptions

    func run() throws {
        try emit(options, .balance, [analysis])
    }
}
