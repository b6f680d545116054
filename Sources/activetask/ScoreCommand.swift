import Analysis
import ArgumentParser
import Batch
import Foundation
import InputGuards
import Reports
import Scoring
import SensorData

/// `activetask score KIND FILE`: features of one recording, one subcommand per analyzer (nested types).
struct ScoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Score one recording: tapping, gait, balance, spl, voice, loudness, audiometry, rangeOfMotion, walkTest, tremor, heartRate.",
        subcommands: [Tapping.self, Gait.self, Balance.self, SPL.self, Voice.self, Loudness.self, Audiometry.self, ROM.self, WalkTest.self, Tremor.self, HeartRate.self]
    )
}

/// Options every `score` subcommand shares.
struct ScoreOptions: ParsableArguments {
    @Flag(name: .long, help: "Print one JSON object instead of a table.") var json = false
    @Flag(name: .long, help: "Keep the complete items before a torn tail, with a warning.") var lenient = false
    @Option(name: .long, help: "A TOML file with the analyzer's parameters, as batch --config reads it (docs/batch.md, \"Batch configuration\"); the options below override it.") var config: String?
    @Option(name: .long, help: "Also write a self-contained HTML page with the features and charts to this file.") var html: String?
    @OptionGroup var limits: FileLimitOptions

    @Argument(help: "The file to score.") var file: String
}

extension ScoreOptions {
    /// `analyzer`'s parameters: the defaults, then `--config`, then the options given in
    /// `groups` (and `--lenient`), each checked as a configuration is.
    func parameters(_ analyzer: Scoring.Analyzer, _ groups: [any ParameterOptions]) throws -> AnalyzerParameters {
        do {
            let configuration = try config.map { path throws(ReadError) in try BatchConfiguration.read(path) } ?? BatchConfiguration()
            return try configuration.parameters(analyzer, overrides: groups.map(\.overrides), lenient: lenient)
        } catch {
            throw CommandFailure(.badInvocation, error.description)
        }
    }
}

/// Loads the file once, runs `analyzer` on it with the parameters of the defaults, `--config`
/// and the options in `groups` (the dispatch `batch` uses too), prints the score's report
/// (table or JSON), writes its HTML page when asked, and exits with the contract's status — 1
/// when the recording is unusable, 2 or 3 for a scoring error (message on stderr).
func emit(_ options: ScoreOptions, _ analyzer: Scoring.Analyzer, _ groups: [any ParameterOptions]) throws {
    try emit(options, analyzer, options.parameters(analyzer, groups))
}

/// Runs `analyzer` on the options' file with `parameters` under the options' limits: the one
/// dispatch `batch` uses too.
func score(_ options: ScoreOptions, _ analyzer: Scoring.Analyzer, _ parameters: AnalyzerParameters) throws -> Score {
    let scored = options.limits.applied {
        Result { () throws(ScoringError) in
            try parameters.score(analyzer, file: options.file, lenient: options.lenient)
        }
    }
    do { return try scored.get() } catch { throw CommandFailure(error) }
}

/// A file a `score` command writes besides its report, named by `option`: `text` makes it from
/// the score (nil: nothing to write).
struct ScoreOutput {
    var option: String
    var path: String
    var text: (Score) -> String?
}

/// ``emit(_:_:_:)`` with the parameters resolved, writing `outputs` too. Every output file (the
/// HTML page and `outputs`) is opened before the analysis — one that is an input, or cannot be
/// created where it is named, ends the command before any work — and each is put in place whole
/// after the report, before an unusable recording's exit.
func emit(_ options: ScoreOptions, _ analyzer: Scoring.Analyzer, _ parameters: AnalyzerParameters,
          outputs: [ScoreOutput] = []) throws {
    let outputs = [options.html.map { ScoreOutput(option: "--html", path: $0) { HTMLReport.recording($0) } }].compactMap(\.self) + outputs
    // Two outputs in one file would leave only the last: refused before anything is opened.
    let targets = outputs.map { URL(fileURLWithPath: $0.path).standardizedFileURL.resolvingSymlinksInPath().path }
    for (index, target) in targets.enumerated() {
        if let earlier = targets.prefix(index).firstIndex(of: target) {
            throw CommandFailure(.badInvocation, "\(outputs[index].path): named by both \(outputs[earlier].option) and \(outputs[index].option); give each output its own file")
        }
    }
    let files = try outputs.map { output throws(CommandFailure) in try OutputFile.openOrExit(output.path, inputs: [options.file]) }
    let score = try score(options, analyzer, parameters)
    let report = score.report
    try print(options.json ? JSONWriter(indent: 2).string(report.json(keyedFor: options.file, analyzer, parameters)) : report.table, terminator: options.json ? "\n" : "")
    for (file, output) in zip(files, outputs) {
        guard let text = output.text(score) else { file.discard(); continue }
        try file.writeOrExit(text)
    }
    if let reason = report.unusable {
        throw CommandFailure(.unusable, "\(report.file): \(reason)")
    }
}

extension ScoreCommand {
    struct Tapping: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "tapping",
            abstract: "Two-finger tapping features (mhealthtools-compatible by default, plus atk extras).",
            discussion: "Reads either dialect, alone, inside a task result or a flattened archive, or a bare TappingSamples array. Exit status 1 when too few taps remain (the peer's reason text)."
        ).leaf()

        @OptionGroup var options: ScoreOptions
        @OptionGroup var parameters: TappingParameterOptions

        func run() throws { try emit(options, .tapping, [parameters]) }
    }

    struct Gait: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "gait",
            abstract: "Gait features: steps, cadence (overall and per 20-s window), step/stride times, regularity, symmetry, harmonic ratio, bouts.",
            discussion: "Reads accelerometer or device-motion recordings (JSON, or CSV: layout from the header, or the options below) and pedometer files. A walking task (a folder of an unpacked upload, a flattened archive, or a task result whose recorder files sit next to it) is scored per recording: outbound, return, rest."
        ).leaf()

        @OptionGroup var options: ScoreOptions
        @OptionGroup(title: "CSV") var csv: MotionCSVOptions
        @OptionGroup(title: "Motion analysis") var analysis: MotionAnalysisOptions
        @OptionGroup(title: "mhealthtools") var kinematics: KinematicOptions

        func run() throws { try emit(options, .gait, [csv, analysis, kinematics]) }
    }

    struct Balance: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "balance",
            abstract: "Sway and rest tremor of the rest part of a walking task (standing still): no steps, no cadence.",
            discussion: "Reads the recordings a gait score reads and keeps those whose step, manifest column or file name says rest (accelerometer_walking.rest, deviceMotion_walking_rest.json.items): sway RMS, jerk, 95 % ellipse area, centroid and F95 frequencies (Mancini et al. 2012) and the 3–12 Hz tremor spectrum."
        ).leaf()

        @OptionGroup var options: ScoreOptions
        @OptionGroup(title: "Motion analysis") var analysis: MotionAnalysisOptions
        @OptionGroup(title: "mhealthtools") var kinematics: KinematicOptions

        func run() throws { try emit(options, .balance, [analysis, kinematics]) }
    }

    struct ROM: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rangeOfMotion",
            abstract: "ResearchKit's knee and shoulder range of motion: start, finish, minimum, maximum and range, recomputed from the attitudes and as the step stored them.",
            discussion: "Reads a task result with its ORKRangeOfMotionResult and the device-motion file its knee.range.of.motion or shoulder.range.of.motion step recorded (or a device-motion file alone), and recomputes the angles by the step's rules (docs/analyses.md §7.1): the pitch in portrait, the roll in landscape, relative to the first attitude."
        ).leaf()

        @OptionGroup var options: ScoreOptions
        @OptionGroup(title: "Range of motion") var parameters: RangeOfMotionParameterOptions

        func run() throws { try emit(options, .rangeOfMotion, [parameters]) }
    }

    struct WalkTest: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "walkTest",
            abstract: "ResearchKit's timed walk and six-minute walk: per walking step its duration, requested distance, pedometer and location distances, steps and cadence; the form answers.",
            discussion: "Reads a task result with its ORKTimedWalkResults (timed.walk.trial1, timed.walk.turn.around, timed.walk.trial2) or its 6mwt step, the pedometer, location and motion files of those steps, and the form's answers (docs/analyses.md §7.2)."
        ).leaf()

        @OptionGroup var options: ScoreOptions
        @OptionGroup(title: "Walk test") var parameters: WalkTestParameterOptions
        @OptionGroup(title: "Motion analysis") var analysis: MotionAnalysisOptions

        func run() throws { try emit(options, .walkTest, [parameters, analysis]) }
    }

    struct Tremor: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "tremor",
            abstract: "ResearchKit's tremor task: per hand position mhealthtools' rest or kinetic tremor features and the 3.5–7.5 Hz dominant frequency and power.",
            discussion: "Reads a task result with the accelerometer and device-motion files of its steps tremor.handInLap, tremor.handAtShoulderLength, tremor.handAtShoulderLengthWithElbowBent, tremor.handToNose and tremor.handQueenWave (each .left or .right), or recorder files ac1_acc … ac5_motion (docs/analyses.md §7.4): the still positions with mhealthtools' get_tremor_features, the moving ones with get_kinetic_tremor_features."
        ).leaf()

        @OptionGroup var options: ScoreOptions
        @OptionGroup(title: "Motion analysis") var analysis: MotionAnalysisOptions

        func run() throws { try emit(options, .tremor, [analysis]) }
    }

    struct HeartRate: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "heartRate",
            abstract: "Heart rate from a finger over the camera: mhealthtools' get_heartrate per colour channel and window, and one rate per recording.",
            discussion: "Reads camera recordings (per frame the mean red, green and blue: mPower 2's heartRate_before_recorder.json and heartRate_after_recorder.json, or a task result naming them) and estimates the heart rate as mhealthtools does (docs/analyses.md §7.5): an elliptic band-pass, the mean-centring filter, then per window the autocorrelation (acf), the AR spectrum (psd) or the peaks (peak)."
        ).leaf()

        @OptionGroup var options: ScoreOptions
        @OptionGroup(title: "Heart rate") var parameters: HeartRateParameterOptions

        func run() throws { try emit(options, .heartRate, [parameters]) }
    }

    struct SPL: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "spl",
            abstract: "Environment sound level (IEC 61672-1 A/C/Z, F/S, Leq, SEL, Lmax, L10/50/90) and ResearchKit's quiet-room decision.",
            discussion: "Reads audio (any format AudioIO reads; channel 0 by default) streamed in blocks, or an ORKEnvironmentSPLMeterResult, whose readings get the same decision rule."
        ).leaf()

        @OptionGroup var options: ScoreOptions
        @OptionGroup(title: "SPL") var parameters: SPLParameterOptions

        @Option(help: "ResearchKit's calibration of this device (\(CalibrationDevice.allCases.map(\.rawValue).joined(separator: ", "))): sets the calibration offset and source unless --calibration-offset-decibels is given.") var device: CalibrationDevice?
        @Flag(name: .long, help: "Print a ResearchKit ORKEnvironmentSPLMeterResult JSON instead of the report.") var researchkitJson = false

        func run() throws {
            var all = try options.parameters(.spl, [parameters])
            if let device, parameters.calibrationOffsetDecibels == nil {
                (all.spl.calibrationOffsetDecibels, all.spl.calibrationSource) = device.calibration
            } else if parameters.calibrationOffsetDecibels != nil, parameters.calibrationSource == nil {
                all.spl.calibrationSource = "--calibration-offset-decibels"
            }
            guard researchkitJson else {
                try emit(options, .spl, all)
                return
            }
            let scored = try score(options, .spl, all)
            guard case .spl(let spl) = scored, let result = spl.researchKitResult else {
                throw CommandFailure(.unusable, "\(options.file): \(scored.report.unusable ?? "not an audio recording")")
            }
            // JSON has no −∞: a 1-s interval of digital silence has no level a result can hold
            // (it was written as the string "-Infinity", which no reader of the result takes).
            if let silent = result.recordedSPLMeterSamplesDecibels.firstIndex(where: { !$0.isFinite }) {
                throw CommandFailure(.unusable, "\(options.file): reading \(silent + 1) of \(result.recordedSPLMeterSamplesDecibels.count) is "
                    + "\(result.recordedSPLMeterSamplesDecibels[silent]) dB (digital silence), which an ORKEnvironmentSPLMeterResult cannot hold; "
                    + "nothing written (score spl --json reports such a reading as null)")
            }
            try print(JSONWriter(indent: 2).string(result.researchKitJSON))
        }
    }

    struct Voice: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "voice",
            abstract: "Voice loudness and quality: RMS dBFS, Praat intensity, BS.1770 loudness, ResearchKit's too-loud rule, F0, jitter, shimmer, HNR, formants, CPPS, MFCCs.",
            discussion: "Reads WAV, FLAC, Ogg, MP3 and .m4a (the ResearchKit voice task's ALAC). On channel 0: F0, jitter, shimmer and HNR follow Praat's definitions and defaults (pitch floor 75 Hz, ceiling 600 Hz); formants Praat's To Formant (burg) (set formants), CPPS its To PowerCepstrogram and Get CPPS (set cepstral), MFCCs librosa's mfcc and delta at the file's own rate (set mfcc); openSMILE 2.6.0's eGeMAPSv02 functionals under openSMILE's names, all 88 (set egemapsv02), and its frame-level descriptors with --egemaps-lld; when named in --sets, eGeMAPS v02's spectral balance, loudness and temporal features by the paper's definitions on Praat's voicing (set egemaps, not openSMILE's values)."
        ).leaf()

        @OptionGroup var options: ScoreOptions
        @OptionGroup(title: "Voice") var parameters: VoiceParameterOptions

        @Option(name: .customLong("egemaps-lld"), help: "Also write the eGeMAPSv02 set's smoothed 10-ms descriptors as CSV to this file (openSMILE's low-level-descriptor names, all 25; docs/analyses.md §4.9); needs the set egemapsv02.") var egemapsLld: String?

        func run() throws {
            let all = try options.parameters(.voice, [parameters])
            if egemapsLld != nil, !all.voice.sets.contains(.egemapsv02) {
                throw CommandFailure(.badInvocation, "--egemaps-lld: the descriptors are the set egemapsv02's; --sets leaves it out")
            }
            try emit(options, .voice, all, outputs: [egemapsLld].compactMap(\.self).map { path in
                ScoreOutput(option: "--egemaps-lld", path: path) { score in
                    guard case .voice(let voice) = score else { return nil }
                    return voice.analysis.egemapsv02LowLevelDescriptors.csv
                }
            })
        }
    }

    struct Loudness: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "loudness",
            abstract: "Programme loudness (ITU-R BS.1770-4, EBU R 128): integrated, loudness range, momentary and short-term maxima, true peak.",
            discussion: "Every channel counts, with BS.1770-4's weights (1.41 for the surrounds of a five-channel file). Integrated loudness and loudness range match EBU Tech 3341/3342 test signals and libebur128 (docs/accuracy.md). True peak: 4× oversampling below 96 kHz (BS.1770-4 Annex 2)."
        ).leaf()

        @OptionGroup var options: ScoreOptions
        @OptionGroup(title: "Loudness") var parameters: LoudnessParameterOptions

        func run() throws { try emit(options, .loudness, [parameters]) }
    }

    struct Audiometry: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "audiometry",
            abstract: "Audiogram of a ResearchKit dB HL result or an AUXU… CSV row: thresholds, PTA3/PTA4, WHO 2021 grades, asymmetry.",
            discussion: "When outputVolume < 1 the recorded thresholds are reported unchanged and a second set, volumeCorrected, adds the volume offset ResearchKit ≥ 3.1.0 did not apply (docs/audiometry.md §7.5), assuming the volume did not change during the test."
        ).leaf()

        @OptionGroup var options: ScoreOptions
        @OptionGroup(title: "Audiometry") var parameters: AudiometryParameterOptions

        @Option(name: .long, help: "Write the audiogram as SVG to this file.") var svg: String?

        func run() throws {
            try emit(options, .audiometry, options.parameters(.audiometry, [parameters]), outputs: [svg].compactMap(\.self).map { path in
                ScoreOutput(option: "--svg", path: path) { score in
                    guard case .audiometry(let audiogram) = score else { return nil }
                    return audiogram.plotted.svg(title: URL(fileURLWithPath: options.file).lastPathComponent, legend: audiogram.legend)
                }
            })
        }
    }
}

extension CalibrationDevice: ExpressibleByArgument {}
