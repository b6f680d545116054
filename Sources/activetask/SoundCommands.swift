import Analysis
import ArgumentParser
import AudioIO
import Batch
import Scoring
import InputGuards
import Foundation
import SensorData

/// ResearchKit's device calibrations (analysis.md §3.5): a preset for the SPL calibration offset.
enum CalibrationDevice: String, ExpressibleByArgument, CaseIterable {
    case iphone, ipad

    /// The offset (dB SPL at RMS 1.0) and its source, as the SPL parameters name them.
    var calibration: (offset: Double, source: String) {
        switch self {
        case .iphone: (94 - ResearchKitSPL.iPhoneSensitivityOffset, "ResearchKit iPhone sensitivity offset −23.3 dB")
        case .ipad: (94 - ResearchKitSPL.iPadSensitivityOffset, "ResearchKit iPad sensitivity offset −29.3 dB")
        }
    }
}

/// Opens an audio file for a command: errors become exit status 3 with the one-line message.
func openAudio(_ file: String) throws -> any AudioDecoder {
    do { return try AudioInput.open(file) } catch { throw failure(.input(error)) }
}

/// Streams one channel of `decoder` through `body`, block by block.
func streamChannel(_ decoder: any AudioDecoder, file: String, channel: Int, _ body: ([Double]) -> Void) throws {
    do { try AudioScoring.stream(decoder, file: file, channel: channel, body) } catch { throw failure(error) }
}

struct ScoreSPL: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spl",
        abstract: "Environment sound level (IEC 61672-1 A/C/Z, F/S, Leq, SEL, Lmax, L10/50/90) and ResearchKit's quiet-room decision.",
        discussion: "Reads audio (any format AudioIO reads; channel 0 by default) streamed in blocks, or an ORKEnvironmentSPLMeterResult, whose readings get the same decision rule."
    )

    @OptionGroup var options: ScoreOptions
    @OptionGroup(title: "SPL") var parameters: SPLParameterOptions

    @Option(help: "ResearchKit's calibration of this device (\(CalibrationDevice.allCases.map(\.rawValue).joined(separator: ", "))): sets the calibration offset and source unless --calibration-offset-decibels is given.")
    var device: CalibrationDevice?

    @Flag(name: .long, help: "Print a ResearchKit ORKEnvironmentSPLMeterResult JSON instead of the report.")
    var researchkitJson = false

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
        let score: SPLScore
        do { score = try SPLScorer.score(LoadedInput.load(options.file, lenient: options.lenient), all.spl) } catch { throw failure(error) }
        guard case .audio = score.source, !score.readingsDecibels.isEmpty else {
            throw CommandFailure(.unusable, "\(options.file): \(score.report.unusable ?? "not an audio recording")")
        }
        let readings = score.readingsDecibels
        let recorded = score.passIndex.map { Array(readings[...$0]) } ?? readings
        let result = SPLMeterResult(identifier: "splMeter", sensitivityOffsetDecibels: 94 - all.spl.calibrationOffsetDecibels,
                                    recordedSPLMeterSamplesDecibels: recorded)
        print(JSONWriter(indent: 2).string(result.researchKitJSON))
    }
}

struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Derive the calibration offset (dB SPL at RMS 1.0) from a calibrator recording.",
        discussion: "Measures the RMS of one channel, skipping 0.5 s at both ends when the file is at least 2 s long: offset = reference − 20·lg(RMS)."
    )

    @Argument(help: "A recording of an acoustic calibrator.")
    var file: String

    @Option(name: .long, help: "The calibrator's level, dB SPL (94 = 1 Pa).")
    var reference: Double = 94

    @Option(name: .long, help: "Channel of the measurement microphone.")
    var channel: Int = 0

    @Flag(name: .long, help: "Print one JSON object.")
    var json = false

    func validate() throws {
        try OptionCheck.require(reference, "--reference", in: 0...400, "dB SPL")
        try OptionCheck.require(channel, "--channel", in: 0...1_023)
    }

    func run() throws {
        let decoder = try openAudio(file)
        var meter = CalibratorLevel(sampleRateHz: decoder.format.sampleRateHz)
        try streamChannel(decoder, file: file, channel: channel) { meter.process($0) }
        guard let levelDbfs = meter.levelDbfs, let offset = meter.offsetDecibels(reference: reference) else {
            throw CommandFailure(.unusable, "\(FileName.display(file)): silent or empty channel \(channel)")
        }
        if json {
            print(JSONWriter(indent: 2).string(.object(JSONObject([
                "kind": .string("calibration"), "file": .string(file), "referenceDecibels": .number(reference),
                "levelDbfs": .number(levelDbfs), "calibrationOffsetDecibels": .number(offset),
            ]))))
        } else {
            print(String(format: "%@\n  level      %.3f dBFS (RMS, channel %d)\n  reference  %.2f dB SPL\n  offset     %.3f dB SPL at RMS 1.0", file as NSString, levelDbfs, channel, reference, offset))
        }
    }
}

struct ScoreVoice: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voice",
        abstract: "Voice loudness and quality: RMS dBFS, Praat intensity, BS.1770 loudness, ResearchKit's too-loud rule, F0, jitter, shimmer, HNR.",
        discussion: "Reads WAV, FLAC, Ogg, MP3 and .m4a (the ResearchKit voice task's ALAC). F0, jitter, shimmer and HNR follow Praat's definitions and defaults (pitch floor 75 Hz, ceiling 600 Hz) on channel 0."
    )

    @OptionGroup var options: ScoreOptions

    @OptionGroup(title: "Voice") var parameters: VoiceParameterOptions

    func run() throws {
        try emit(options, .voice, [parameters])
    }
}

struct ScoreLoudness: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loudness",
        abstract: "Programme loudness (ITU-R BS.1770-4, EBU R 128): integrated, loudness range, momentary and short-term maxima, true peak.",
        discussion: "Every channel counts, with BS.1770-4's weights (1.41 for the surrounds of a five-channel file). Integrated loudness and loudness range match EBU Tech 3341/3342 test signals and libebur128 (docs: README, \"Accuracy\"). True peak: 4× oversampling below 96 kHz (BS.1770-4 Annex 2)."
    )

    @OptionGroup var options: ScoreOptions

    @OptionGroup(title: "Loudness") var parameters: LoudnessParameterOptions

    func run() throws {
        try emit(options, .loudness, [parameters])
    }
}
