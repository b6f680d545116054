import Analysis
import ArgumentParser
import HearingTest
import InputGuards
import Recording

/// `activetask hearing-test`: a dB HL pure-tone test at the terminal (``HearingTestSpec``).
struct HearingTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hearing-test",
        abstract: "Take a dB HL pure-tone hearing test at the terminal: calibrated tones through ALSA, space when heard.",
        discussion: """
            For each ear and frequency the procedure's levels are played (dB HL → dB SPL through the headphone's RETSPL \
            → dBFS, as `tone` computes them) with ResearchKit's trial: a pre-stimulus delay (a key then counts as a \
            pre-stimulus response), the tone with 0.2-s ramps, and the response window after it. Space = heard; q stops. \
            Writes DIR/hearing-test.json (an ORKdBHLToneAudiometryResult, rewritten after every trial; userInfo.incomplete \
            until the end), DIR/trials.jsonl (one line per trial, synced) and DIR/audiogram.svg. The settings are the \
            defaults, then --config, then the options given.
            """
    ).leaf()

    /// The defaults the help texts quote, from the one place they are declared.
    private static let defaults = HearingTestSpec.defaults

    @Option(name: .long, help: "A JSON file of settings (HearingTestSpec's fields: headphone, frequenciesHz, toneSeconds, microphone, …); the options below override it.") var config: String?
    @Option(name: .long, help: "ResearchKit headphone id (AIRPODSV1, AIRPODSPROV2, EARPODS, …); or --calibration.") var headphone: String?
    @Option(name: .long, help: "A measured calibration table (CSV or JSON: frequency → dB SPL at a reference dBFS, RETSPL) in place of --headphone.") var calibration: String?
    @Option(name: .long, help: "Table version for --headphone: rk-2.x, rk-3.0, rk-3.2 (default \(defaults.tables.rawValue)).") var tables: HeadphoneCalibration.TableVersion?
    @Option(name: .long, help: "System output volume 0–1 the --headphone tables are read at; a measured table holds at its own volume only (default \(defaults.volume.compactDescription)).") var volume: Double?
    @Option(name: .long, help: "Output folder.") var out: String
    @Option(name: .long, help: "researchkit or asha (default \(defaults.procedure.rawValue)).") var procedure: AudiometrySimulation.Procedure?
    @Option(name: .long, help: "Ears in order: left, right or both, comma-separated (default \(defaults.ears.map(\.name).joined(separator: ","))).") var ears: String?
    @Option(name: .long, help: "Frequencies in order, Hz, comma-separated (default \(defaults.frequenciesHz.map { $0.compactDescription }.joined(separator: ","))).") var frequencies: String?
    @Option(name: .long, help: "Playback device, alsa:DEVICE (default \(defaults.device)).") var device: String?
    @Option(name: .long, help: "Sample rate of the tones, Hz (default \(defaults.sampleRateHz)).") var sampleRate: Int?
    @Option(name: .long, help: "Full-level tone duration, s (ResearchKit's toneDuration; default \(defaults.toneSeconds.compactDescription)).") var toneSeconds: Double?
    @Option(name: .long, help: "Shortest pre-stimulus delay, s (ResearchKit's; default \(defaults.preStimulusMinSeconds.compactDescription)).") var preStimulusMin: Double?
    @Option(name: .long, help: "Longest pre-stimulus delay, s, drawn in 0.1-s steps (ResearchKit's; default \(defaults.preStimulusMaxSeconds.compactDescription)).") var preStimulusMax: Double?
    @Option(name: .long, help: "Response window after the tone, s (ResearchKit's postStimulusDelay; default \(defaults.postStimulusSeconds.compactDescription)).") var postStimulusSeconds: Double?
    @Option(name: .long, help: "Seed of the pre-stimulus delays (default: the clock).") var seed: UInt64?
    @Option(name: .long, help: "Microphone for the ambient-noise check (alsa:DEVICE): before the test and between trials, the one-third-octave bands 31.5 Hz–8 kHz against ISO 8253-1:2010's limits.") var mic: String?
    @Option(name: .long, help: "The microphone's calibration: an offset in dB SPL at RMS 1.0, or the JSON `calibrate --json` writes (default: ResearchKit's iPhone offset, with a warning that the check is uncalibrated).") var micCalibration: String?
    @Option(name: .long, help: "Earphones for the ambient limits (ISO 8253-1 Table 3): supra-aural, ER-3A or HDA-200 (default \(defaults.earphone.rawValue)).") var earphone: AmbientNoiseLimits.Earphone?
    @Option(name: .long, parsing: .unconditional, help: "The lowest hearing level the ambient limits must allow, dB HL (ISO 8253-1 clause 11: the limits move with it; default \(defaults.lowestLevelDecibelsHL.compactDescription)).") var lowestLevel: Double?
    @Option(name: .long, help: "Length of the ambient check before the test, s (default \(defaults.ambientSeconds.compactDescription)).") var ambientSeconds: Double?

    func validate() throws {
        typealias Bounds = HearingTestSpec.Bounds
        try OptionCheck.require(volume, "--volume", in: Bounds.volume)
        try OptionCheck.require(sampleRate, "--sample-rate", in: Bounds.sampleRateHz)
        try OptionCheck.require(toneSeconds, "--tone-seconds", in: Bounds.toneSeconds, "s")
        try OptionCheck.require(preStimulusMin, "--pre-stimulus-min", in: Bounds.preStimulusSeconds, "s")
        try OptionCheck.require(preStimulusMax, "--pre-stimulus-max", in: Bounds.preStimulusSeconds, "s")
        try OptionCheck.require(postStimulusSeconds, "--post-stimulus-seconds", in: Bounds.postStimulusSeconds, "s")
        try OptionCheck.require(lowestLevel, "--lowest-level", in: Bounds.lowestLevelDecibelsHL, "dB HL")
        try OptionCheck.require(ambientSeconds, "--ambient-seconds", in: Bounds.ambientSeconds, "s")
        // How options combine; the values themselves are checked with the settings (HearingTestSpec.problems).
        if headphone != nil && calibration != nil || config == nil && headphone == nil && calibration == nil {
            throw ValidationError("give --headphone ID or --calibration FILE")
        }
        if calibration != nil, let volume, volume != 1 { throw ValidationError("--volume is for --headphone tables; a measured table holds at the volume it was measured at") }
        if config == nil, mic == nil, micCalibration != nil { throw ValidationError("--mic-calibration needs --mic") }
        if let device, SourceAddress(device)?.alsaDevice == nil { throw ValidationError("--device takes alsa:DEVICE, got \"\(device)\"") }
        if let mic, SourceAddress(mic)?.alsaDevice == nil { throw ValidationError("--mic takes alsa:DEVICE, got \"\(mic)\"") }
        _ = try parsedEars()
        _ = try parsedFrequencies()
    }

    func parsedEars() throws -> [Audiogram.Ear]? {
        do { return try ears.map { text throws(HearingTestError) in try HearingTestSpec.ears(parsing: text) } } catch { throw ValidationError("--ears: \(error)") }
    }

    func parsedFrequencies() throws -> [Double]? {
        do { return try frequencies.map { text throws(HearingTestError) in try HearingTestSpec.frequencies(parsing: text) } } catch { throw ValidationError("--frequencies: \(error)") }
    }

    /// The defaults, then --config, then the options given; checked as a whole.
    func spec() throws -> HearingTestSpec {
        var spec = HearingTestSpec()
        if let config {
            do { spec = try HearingTestSpec(file: config) } catch { throw CommandFailure(error) }
        }
        if headphone != nil || calibration != nil { (spec.headphone, spec.calibration) = (headphone, calibration) }
        spec.tables = tables ?? spec.tables
        spec.volume = volume ?? spec.volume
        spec.procedure = procedure ?? spec.procedure
        spec.ears = try parsedEars() ?? spec.ears
        spec.frequenciesHz = try parsedFrequencies() ?? spec.frequenciesHz
        spec.device = device ?? spec.device
        spec.sampleRateHz = sampleRate ?? spec.sampleRateHz
        spec.toneSeconds = toneSeconds ?? spec.toneSeconds
        spec.preStimulusMinSeconds = preStimulusMin ?? spec.preStimulusMinSeconds
        spec.preStimulusMaxSeconds = preStimulusMax ?? spec.preStimulusMaxSeconds
        spec.postStimulusSeconds = postStimulusSeconds ?? spec.postStimulusSeconds
        spec.seed = seed ?? spec.seed
        spec.microphone = mic ?? spec.microphone
        spec.microphoneCalibration = micCalibration ?? spec.microphoneCalibration
        spec.earphone = earphone ?? spec.earphone
        spec.lowestLevelDecibelsHL = lowestLevel ?? spec.lowestLevelDecibelsHL
        spec.ambientSeconds = ambientSeconds ?? spec.ambientSeconds
        if let problem = spec.problems.first { throw CommandFailure(.badInvocation, CommandFailure.withOptionHints(problem)) }
        return spec
    }

    func run() throws {
        let outcome: HearingTestOutcome
        do {
            outcome = try spec().run(folder: out, say: { try print($0, terminator: "\r\n") },
                                     show: { line in try StandardStream.output.write("\r\u{1B}[K" + line) },  // rewritten in place, unbuffered
                                     warn: { printError(CommandFailure.withOptionHints($0)) })
        } catch let error as HearingTestError {
            throw CommandFailure(error)
        } catch let refusal as OutputFile.Refusal {
            throw refusal.failure
        } catch let failure as FileSystem.Failure {
            throw CommandFailure(failure)
        }
        for line in outcome.thresholdLines { try print(line, terminator: "\r\n") }
        try print("wrote \(outcome.resultPath)\(outcome.ending == .stopped ? " (stopped: incomplete)" : "")", terminator: "\r\n")
        if outcome.ending == .stopped { throw CommandFailure(.unusable) }
    }
}

extension AmbientNoiseLimits.Earphone: ExpressibleByArgument {}

extension CommandFailure {
    /// A hearing-test or tone error: bad invocation (2), invalid input (3) or unusable (1).
    init(_ error: HearingTestError) {
        let status: Status = switch error.status {
        case .badRequest: .badInvocation
        case .invalidInput: .invalidInput
        case .unusable: .unusable
        }
        self.init(status, Self.withOptionHints(error.description))
    }
}
