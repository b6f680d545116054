import Analysis
import ArgumentParser
import AudioIO
import Batch
import Scoring
import InputGuards
import Foundation
import SensorData

/// Calibration options shared by the sound commands (analysis.md §3.5).
struct CalibrationOptions: ParsableArguments {
    enum Device: String, ExpressibleByArgument, CaseIterable { case iphone, ipad }

    @Option(name: .long, help: "dB SPL that an RMS of 1.0 reads (default: ResearchKit's iPhone value 117.3).")
    var calibrationOffset: Double?

    @Option(name: .long, help: "ResearchKit device default when no offset is given: iphone (117.3) or ipad (123.3).")
    var device: Device = .iphone

    /// The offset and where it came from.
    var resolved: (offset: Double, source: String) {
        if let calibrationOffset { return (calibrationOffset, "--calibration-offset") }
        switch device {
        case .iphone: return (94 - ResearchKitSPL.iPhoneSensitivityOffset, "ResearchKit iPhone sensitivity offset −23.3 dB")
        case .ipad: return (94 - ResearchKitSPL.iPadSensitivityOffset, "ResearchKit iPad sensitivity offset −29.3 dB")
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
    @OptionGroup var calibration: CalibrationOptions

    @Option(name: .long, help: "Decision threshold, dB(A).")
    var threshold: Double = 35

    @Option(name: .long, help: "Length of each reading, s.")
    var interval: Double = 1

    @Option(name: .long, help: "Consecutive readings below the threshold needed to pass.")
    var required: Int = 5

    @Option(name: .long, help: "Audio channel to measure.")
    var channel: Int = 0

    @Option(name: .long, help: "Run the weighting filters at 1, 2 or 4 × the file's rate (half-band FIR upsampling).")
    var oversampling: Int = 1

    @Flag(name: .long, help: "Print a ResearchKit ORKEnvironmentSPLMeterResult JSON instead of the report.")
    var researchkitJson = false

    func run() throws {
        var parameters = SPLScorer.Parameters()
        (parameters.calibrationOffsetDecibels, parameters.calibrationSource) = calibration.resolved
        parameters.thresholdDecibels = threshold
        parameters.intervalSeconds = interval
        parameters.requiredIntervals = required
        parameters.channel = channel
        parameters.oversampling = oversampling
        parameters.lenient = options.lenient
        if researchkitJson {
            let score: SPLScore
            do { score = try SPLScorer.score(LoadedInput.load(options.file, lenient: options.lenient), parameters) } catch { throw failure(error) }
            guard case .audio = score.source, !score.readingsDecibels.isEmpty else {
                throw CommandFailure(.unusable, "\(options.file): \(score.report.unusable ?? "not an audio recording")")
            }
            let readings = score.readingsDecibels
            let recorded = score.passIndex.map { Array(readings[...$0]) } ?? readings
            let result = SPLMeterResult(identifier: "splMeter", sensitivityOffsetDecibels: 94 - parameters.calibrationOffsetDecibels,
                                        recordedSPLMeterSamplesDecibels: recorded)
            return print(JSONWriter(indent: 2).string(result.researchKitJSON))
        }
        var all = AnalyzerParameters()
        all.spl = parameters
        try emit(options, .spl, all)
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
        let trim = Int(clamping: 0.5 * decoder.format.sampleRateHz)
        // Sum of squares of everything, of the first `trim` samples, and a ring of the last `trim`.
        var total = 0.0, head = 0.0, count = 0
        var ring = [Double](repeating: 0, count: max(1, trim)), ringSum = 0.0
        try streamChannel(decoder, file: file, channel: channel) { block in
            for value in block {
                let square = value * value
                total += square
                if count < trim { head += square }
                let slot = count % ring.count
                ringSum += square - ring[slot]
                ring[slot] = square
                count += 1
            }
        }
        var n = count
        if Double(count) >= 4 * Double(trim) {  // ≥ 2 s: skip 0.5 s at both ends
            total -= head + ringSum
            n -= 2 * trim
        }
        guard n > 0, total > 0 else {
            throw CommandFailure(.unusable, "\(FileName.display(file)): silent or empty channel \(channel)")
        }
        let levelDbfs = 10 * log10(total / Double(n))
        let offset = reference - levelDbfs
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

    @Option(name: .long, help: "dB SPL at RMS 1.0 of the recording chain; adds splDecibels.")
    var calibrationOffset: Double?

    @Option(name: .long, help: "Pitch floor, Hz.")
    var pitchFloor: Double = 75

    @Option(name: .long, help: "Pitch ceiling, Hz.")
    var pitchCeiling: Double = 600

    @Option(name: .long, help: "The most samples (frames × channels) the analysis holds in memory, ~40 bytes each; longer recordings are refused.")
    var maxVoiceSamples: Int = VoiceScorer.Parameters.defaultMaximumSamples

    @Flag(name: .long, help: "Loudness: count a stereo file whose two channels are sample-identical once (−3.01 LU), instead of summing both as BS.1770-4 does.")
    var countIdenticalChannelsOnce = false

    func run() throws {
        var parameters = AnalyzerParameters()
        parameters.voice.maximumSamples = maxVoiceSamples
        parameters.voice.calibrationOffsetDecibels = calibrationOffset
        parameters.voice.pitchFloorHz = pitchFloor
        parameters.voice.pitchCeilingHz = pitchCeiling
        parameters.voice.countIdenticalChannelsOnce = countIdenticalChannelsOnce
        try emit(options, .voice, parameters)
    }
}

struct ScoreLoudness: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loudness",
        abstract: "Programme loudness (ITU-R BS.1770-4, EBU R 128): integrated, loudness range, momentary and short-term maxima, true peak.",
        discussion: "Every channel counts, with BS.1770-4's weights (1.41 for the surrounds of a five-channel file). Integrated loudness and loudness range match EBU Tech 3341/3342 test signals and libebur128 (docs: README, \"Accuracy\"). True peak: 4× oversampling below 96 kHz (BS.1770-4 Annex 2)."
    )

    @OptionGroup var options: ScoreOptions

    @Flag(name: .long, help: "Count a stereo file whose two channels are sample-identical once (−3.01 LU), instead of summing both as BS.1770-4 does.")
    var countIdenticalChannelsOnce = false

    func run() throws {
        var parameters = AnalyzerParameters()
        parameters.loudness.countIdenticalChannelsOnce = countIdenticalChannelsOnce
        try emit(options, .loudness, parameters)
    }
}
