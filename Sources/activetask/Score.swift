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

/// Loads the file once, runs `analyzer` on it with `parameters` (the dispatch `batch` uses too),
/// prints the score's report (table or JSON), writes its HTML page when asked, and exits with
/// the contract's status — 1 when the recording is unusable, 2 or 3 for a scoring error
/// (message on stderr). Returns the score for commands that write more.
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
    report.print(json: options.json)
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

    @Option(name: .long, help: "Peer convention of the main feature set: \(TappingAnalysis.Convention.allCases.map(\.rawValue).joined(separator: ", ")).")
    var convention: TappingAnalysis.Convention = .mhealthtools

    @Option(name: .long, help: "Minimum |Δx| between kept taps, points.")
    var depressThreshold: Double = 20

    @Option(name: .long, help: "Which tapping result to score when the file holds several (its step identifier, e.g. tapping.left).")
    var identifier: String?

    func run() throws {
        var parameters = AnalyzerParameters()
        parameters.tapping.convention = convention
        parameters.tapping.depressThreshold = depressThreshold
        parameters.tapping.identifier = identifier
        parameters.tapping.lenient = options.lenient
        try emit(options, .tapping, parameters)
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

    enum CSVLayout: String, ExpressibleByArgument, CaseIterable {
        case auto, oxford
    }

    @Option(name: .long, help: "CSV column layout: auto (from the header: phyphox, Sensor Logger, Physics Toolbox, time/x/y/z) or oxford (ns, accuracy, x, y, z in m/s², no header).")
    var csvLayout: CSVLayout = .auto

    @Option(name: .long, help: "CSV: the time column, by header name or 1-based number.")
    var timeColumn: String?

    @Option(name: .long, help: "CSV: the x acceleration column, by header name or 1-based number.")
    var xColumn: String?

    @Option(name: .long, help: "CSV: the y acceleration column, by header name or 1-based number.")
    var yColumn: String?

    @Option(name: .long, help: "CSV: the z acceleration column, by header name or 1-based number.")
    var zColumn: String?

    @Option(name: .long, help: "CSV: unit of the time column (\(MotionCSVLayout.TimeUnit.allCases.map(\.rawValue).joined(separator: ", "))); default: from the header, else from the sampling interval.")
    var timeUnit: MotionCSVLayout.TimeUnit?

    @Option(name: .long, help: "CSV: unit of the acceleration columns (g, m/s2); default: from the header, else from the magnitude.")
    var accelerationUnit: MotionCSVLayout.AccelerationUnit?

    func run() throws {
        var parameters = AnalyzerParameters()
        parameters.gait.csv.oxford = csvLayout == .oxford
        parameters.gait.csv.timeColumn = timeColumn
        parameters.gait.csv.xColumn = xColumn
        parameters.gait.csv.yColumn = yColumn
        parameters.gait.csv.zColumn = zColumn
        parameters.gait.csv.timeUnit = timeUnit
        parameters.gait.csv.accelerationUnit = accelerationUnit
        parameters.gait.lenient = options.lenient
        try emit(options, .gait, parameters)
    }
}

extension MotionCSVLayout.TimeUnit: ExpressibleByArgument {}
extension MotionCSVLayout.AccelerationUnit: ExpressibleByArgument {}

struct ScoreBalance: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "balance",
        abstract: "Sway and rest tremor of the rest part of a walking task (standing still): no steps, no cadence.",
        discussion: "Reads the recordings a gait score reads and keeps those whose step, manifest column or file name says rest (accelerometer_walking.rest, deviceMotion_walking_rest.json.items): sway RMS, jerk, 95 % ellipse area, centroid and F95 frequencies (Mancini et al. 2012) and the 3–12 Hz tremor spectrum."
    )

    @OptionGroup var options: ScoreOptions

    func run() throws {
        var parameters = AnalyzerParameters()
        parameters.balance.lenient = options.lenient
        try emit(options, .balance, parameters)
    }
}
