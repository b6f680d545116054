import Analysis
import ArgumentParser
import AudioIO
import Batch
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
    do {
        return try AudioInput.open(file)
    } catch {
        printError(error.description)
        throw ExitCode(ActiveTask.Status.invalidInput)
    }
}

/// Streams one channel of `decoder` through `body`, block by block (memory independent of the
/// file's length).
func streamChannel(_ decoder: any AudioDecoder, file: String, channel: Int, _ body: ([Double]) -> Void) throws {
    let channels = decoder.format.channels
    guard channel < channels else {
        printError("\(file): no channel \(channel); the file has \(channels)")
        throw ExitCode(ActiveTask.Status.badInvocation)
    }
    do {
        try decoder.forEachBlock { block, frames in
            body((0..<frames).map { Double(block[$0 * channels + channel]) })
        }
    } catch {
        printError(String(describing: error))
        throw ExitCode(ActiveTask.Status.invalidInput)
    }
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
        if InputSniffer.sniff(options.file) == .json { return try scoreResult() }
        let (offset, source) = calibration.resolved
        let decoder = try openAudio(options.file)
        let rate = decoder.format.sampleRateHz
        guard rate > 2000 else {
            printError("\(options.file): \(rate) Hz is too low for A-weighting (needs > 2 kHz)")
            throw ExitCode(ActiveTask.Status.unusable)
        }
        guard [1, 2, 4].contains(oversampling) else {
            printError("--oversampling must be 1, 2 or 4")
            throw ExitCode(ActiveTask.Status.badInvocation)
        }
        var levelMeter = SoundLevelMeter(sampleRateHz: rate, calibrationOffsetDecibels: offset, intervalSeconds: interval, oversampling: oversampling)
        try streamChannel(decoder, file: options.file, channel: channel) { levelMeter.process($0) }
        let result = levelMeter.result
        let readings = result.intervalLevelsDecibels
        let pass = ResearchKitSPL.decision(readings: readings, threshold: threshold, required: required)
        if researchkitJson {
            let recorded = pass.map { Array(readings[...$0]) } ?? readings
            let rk = SPLMeterResult(identifier: "splMeter", sensitivityOffsetDecibels: 94 - offset, recordedSPLMeterSamplesDecibels: recorded)
            print(JSONWriter(indent: 2).string(rk.researchKitJSON))
            return
        }
        var set = FeatureSet(name: "atk")
        set.append("laeqDecibels", result.laeqDecibels)
        set.append("lceqDecibels", result.lceqDecibels)
        set.append("lzeqDecibels", result.lzeqDecibels)
        set.append("laeDecibels", result.laeDecibels)
        set.append("lafmaxDecibels", result.lafmaxDecibels)
        set.append("lasmaxDecibels", result.lasmaxDecibels)
        set.append("l10Decibels", result.laf10Decibels)
        set.append("l50Decibels", result.laf50Decibels)
        set.append("l90Decibels", result.laf90Decibels)
        set.append("statisticsSource", .text("LAF every 0.1 s"))
        set.append("l10IntervalLaeqDecibels", levelMeter.intervalLevelExceeded(percent: 10))
        set.append("l50IntervalLaeqDecibels", levelMeter.intervalLevelExceeded(percent: 50))
        set.append("l90IntervalLaeqDecibels", levelMeter.intervalLevelExceeded(percent: 90))
        set.append("laeqIntervalsDecibels", .numbers(readings))
        set.append("intervalSeconds", interval)
        set.append("durationSeconds", result.durationSeconds)
        set.append("calibrationOffsetDecibels", offset)
        set.append("calibrationSource", .text(source))
        set.append("oversampling", Double(oversampling))
        appendDecision(to: &set, readings: readings, pass: pass)
        var warnings: [String] = []
        if rate * Double(oversampling) < 40_000 { warnings.append("sample rate \(rate) Hz: A and C weighting read low in the top octave (bilinear design below 40 kHz)") }
        ScoreReport(kind: "spl", file: options.file, dialect: "audio", sets: [set], warnings: warnings).print(json: options.json)
    }

    func appendDecision(to set: inout FeatureSet, readings: [Double], pass: Int?) {
        set.append("thresholdDecibels", threshold)
        set.append("requiredContiguousIntervals", Double(required))
        set.append("researchKitDecision", .text(pass == nil ? "fail" : "pass"))
        set.append("researchKitPassIntervalIndex", pass.map(Double.init))
    }

    /// An ORKEnvironmentSPLMeterResult: the decision on its recorded readings.
    func scoreResult() throws {
        let contents = try readContents(options)
        guard let result = contents.splMeterResults.first else {
            printError(ReadError(file: options.file, reason: .notFound("no audio and no environment SPL meter result in this file")).description)
            throw ExitCode(ActiveTask.Status.invalidInput)
        }
        let readings = result.recordedSPLMeterSamplesDecibels
        var set = FeatureSet(name: "researchKit")
        set.append("readingCount", Double(readings.count))
        set.append("readingsDecibels", .numbers(readings))
        set.append("sensitivityOffsetDecibels", result.sensitivityOffsetDecibels)
        set.append("calibrationOffsetDecibels", result.sensitivityOffsetDecibels.map { 94 - $0 })
        appendDecision(to: &set, readings: readings, pass: ResearchKitSPL.decision(readings: readings, threshold: threshold, required: required))
        ScoreReport(kind: "spl", file: options.file, dialect: "ORKEnvironmentSPLMeterResult", sets: [set], warnings: contents.warnings.map(\.description))
            .print(json: options.json)
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

    func run() throws {
        let decoder = try openAudio(file)
        let trim = Int(0.5 * decoder.format.sampleRateHz)
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
            printError("\(file): silent or empty channel \(channel)")
            throw ExitCode(ActiveTask.Status.unusable)
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

    func run() throws {
        let decoder = try openAudio(options.file)
        let format = decoder.format
        let samples: [Float]
        do {
            samples = try decoder.readAll()
        } catch {
            printError(error.description)
            throw ExitCode(ActiveTask.Status.invalidInput)
        }
        var voiceOptions = VoiceAnalysis.Options(calibrationOffsetDecibels: calibrationOffset)
        voiceOptions.pitchFloorHz = pitchFloor
        voiceOptions.pitchCeilingHz = pitchCeiling
        let (set, warnings) = VoiceAnalysis.analyze(interleaved: samples.map(Double.init), channels: format.channels,
                                                   sampleRateHz: format.sampleRateHz, options: voiceOptions)
        ScoreReport(kind: "voice", file: options.file, dialect: "\(format.container) \(format.encoding), \(Int(format.sampleRateHz)) Hz, \(format.channels) ch",
                    sets: [set], warnings: warnings).print(json: options.json)
        if set["f0MedianHz"] == .missing {
            printError("\(options.file): no voiced signal found")
            throw ExitCode(ActiveTask.Status.unusable)
        }
    }
}
