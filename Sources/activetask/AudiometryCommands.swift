import Analysis
import ArgumentParser
import AudioIO
import Batch
import Scoring
import Foundation
import HearingTest
import InputGuards
import Recording
import SensorData

/// `activetask audiometry simulate|verify`.
struct AudiometryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiometry",
        abstract: "Threshold procedures against virtual listeners, and FFT verification of tones.",
        subcommands: [Simulate.self, Verify.self]
    )

    struct Simulate: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "simulate",
            abstract: "Run the threshold procedures against listeners.",
            discussion: "--golden FILE: ResearchKit's golden set (deterministic listeners; thresholdsTotal and thresholdsExact). --nhanes FILE: logistic listeners (--slope, --false-alarm, --lapse) whose true thresholds are the NHANES audiograms; both procedures; bias, SD and mean absolute error of estimate − truth and presentations per frequency. With --out: one simulated test of --row as a ResearchKit dB HL result."
        ).leaf()

        @Option(name: .long, help: "ResearchKit's ORKAudiometryTestData.json.") var golden: String?
        @Option(name: .long, help: "NHANES audiogram CSV (AUXU…R/L columns, dB HL; 666/888 = no value).") var nhanes: String?
        @Option(name: .long, help: "At most this many NHANES rows.") var rows: Int = 500
        @Option(name: .long, help: "With --out: the NHANES data row (first = 1) whose audiogram the listener has.") var row: Int = 1
        @Option(name: .long, help: "With --out: researchkit or asha.") var procedure: AudiometrySimulation.Procedure = .researchkit
        @Option(name: .long, help: "Write one simulated test of --row as ResearchKit dB HL result JSON.") var out: String?
        @Option(name: .long, help: "With --out: headphoneType to record.") var headphone: String = "AIRPODSV1"
        @Option(name: .long, help: "With --out: outputVolume to record (0–1).") var volume: Double = HearingTestSpec.defaults.volume
        @Option(name: .long, help: "Psychometric slope, dB.") var slope: Double = 2
        @Option(name: .long, help: "False-alarm rate.") var falseAlarm: Double = 0.01
        @Option(name: .long, help: "Lapse rate.") var lapse: Double = 0.01
        @Option(name: .long, help: "Repetitions per true threshold.") var repeats: Int = 1
        @Option(name: .long, help: "Seed of the listener's random stream.") var seed: UInt64 = 1
        @Flag(name: .long, help: "One JSON object.") var json = false

        func validate() throws {
            try OptionCheck.require(slope, "--slope", in: 1e-9...1_000, "dB")  // tiny slopes make a step-like listener
            try OptionCheck.require(volume, "--volume", in: 0...1)
            try OptionCheck.require(rows, "--rows", in: 1...10_000_000)
            try OptionCheck.require(row, "--row", in: 1...10_000_000)
            try OptionCheck.require(repeats, "--repeats", in: 1...1_000_000)
            guard (0..<1).contains(falseAlarm), (0..<1).contains(lapse), falseAlarm + lapse < 1 else {
                throw ValidationError("--false-alarm and --lapse must be in [0, 1) with a sum below 1")
            }
        }

        func run() throws {
            if let golden {
                let table: AudiogramTable
                do {
                    guard let read = try JSONContents.read(golden).audiograms else {
                        throw CommandFailure(.invalidInput, "\(golden): no audiogram table")
                    }
                    table = read
                } catch let error as ReadError {
                    throw CommandFailure(.invalidInput, error.description)
                }
                let s = GoldenSet.run(table)
                try print(json ? JSONWriter(indent: 2).string(s.json) : s.line)
                if s.thresholdsExact != s.thresholdsTotal { throw CommandFailure(.unusable) }
                return
            }
            guard let nhanes else {
                throw CommandFailure(.badInvocation, "give --golden FILE or --nhanes FILE")
            }
            let listener = VirtualListener(slopeDecibels: slope, falseAlarmRate: falseAlarm, lapseRate: lapse)
            if let out {
                let truth: Audiogram
                do { truth = try AUXUTable.load(nhanes).audiogram(row: row) } catch { throw CommandFailure(error) }
                let test = AudiometrySimulation.test(truth: truth, procedure: procedure, listener: listener, seed: seed,
                                                     headphone: headphone, outputVolume: volume)
                try OutputFile.writeOrExit(JSONWriter().string(test.researchKitJSON), to: out, inputs: [nhanes].compactMap { $0 })
                let presented = test.samples.reduce(0) { $0 + $1.units.count }
                try print("wrote \(out): \(test.samples.count) frequency entries, \(presented) presentations (\(procedure.rawValue), NHANES row \(row))")
                return
            }
            let truths: [(frequencyHz: Double, threshold: Double)]
            do { truths = try AUXUTable.load(nhanes).thresholds(rows: rows) } catch { throw CommandFailure(error) }
            let result = AudiometrySimulation.run(truths: truths, listener: listener, repeats: repeats, seed: seed)
            if json { return try print(JSONWriter(indent: 2).string(.array(result.map(\.json)))) }
            try print("listener: slope \(slope) dB, false alarms \(falseAlarm), lapses \(lapse); \(truths.count) ear-frequency thresholds × \(repeats)")
            try print(AudiometrySimulation.Row.table(result))
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "verify",
            abstract: "Frequency, level (flat-top), THD, THD+N and ramp times of a tone recording.",
            discussion: "Analyses the channel with the most energy. Ramp times from the Hilbert envelope (−20 → −1 dB of its steady value); level, frequency, THD and THD+N over the steady part: the recording without the rise time + 0.1 s at each end (at most a quarter of it each)."
        ).leaf()

        @Argument(help: "An audio file holding one tone.") var file: String
        @Flag(name: .long, help: "One JSON object.") var json = false
        @Option(name: .customLong("max-samples"), help: "Refuse recordings of more samples (frames × channels): the analysis holds the whole tone, ~30 bytes per sample (1–2^34).") var maximumSamples = 1 << 24

        func validate() throws {
            try OptionCheck.require(maximumSamples, "--max-samples", in: 1...(1 << 34))
        }

        func run() throws {
            let outcome: ToneVerificationReport.Outcome
            do { outcome = try ToneVerificationReport.measure(file: file, maximumSamples: maximumSamples) } catch {
                throw CommandFailure(.invalidInput, error.description + (error.description.contains("exceed the limit") ? " (raise the limit with --max-samples)" : ""))
            }
            switch outcome {
            case .unusable(let reason): throw CommandFailure(.unusable, "\(FileName.display(file)): \(reason)")
            case .measured(let report): try print(json ? JSONWriter(indent: 2).string(report.json) : report.table, terminator: json ? "\n" : "")
            }
        }
    }
}

/// `activetask tone`: calibrated pure tones to WAV or ALSA (``ToneRequest``).
struct Tone: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tone",
        abstract: "Write a calibrated pure tone to a 32-bit float WAV or play it through ALSA (stereo; the untested ear silent).",
        discussion: "Level as --level-dbfs (sine peak) or --level-hl with --headphone and --volume (ResearchKit tables). Raised-cosine ramps of --ramp-ms (rise time 20–50 ms required) or --researchkit-ramp."
    ).leaf()

    private static let defaults = ToneRequest.defaults

    @Option(name: .long, help: "Frequency, Hz.") var frequency: Double
    @Option(name: .long, help: "Full-level duration, s.") var duration: Double = defaults.durationSeconds
    @Option(name: .long, parsing: .unconditional, help: "Sine peak level, dBFS (negative).") var levelDbfs: Double?
    @Option(name: .long, parsing: .unconditional, help: "Level, dB HL (needs --headphone).") var levelHl: Double?
    @Option(name: .long, help: "ResearchKit headphone id (AIRPODSV1, AIRPODSPROV2, EARPODS, …).") var headphone: String?
    @Option(name: .long, help: "System output volume 0–1.") var volume: Double = HearingTestSpec.defaults.volume
    @Option(name: .long, help: "Table version: rk-2.x, rk-3.0, rk-3.2.") var tables: HeadphoneCalibration.TableVersion = HearingTestSpec.defaults.tables
    @Option(name: .long, help: "left, right or both.") var ear: ToneSpecification.Ear = defaults.ear
    @Option(name: .long, help: "Raised-cosine ramp duration, ms.") var rampMs: Double = ToneSpecification.rampSeconds * 1000
    @Flag(name: .long, help: "ResearchKit's −40 → 0 dB ramp over 0.2 s (rise time 95 ms, outside the standard's limits).") var researchkitRamp = false
    @Option(name: .long, help: "Sample rate, Hz.") var sampleRate: Double = defaults.sampleRateHz
    @Option(name: .long, help: "Output WAV file.") var out: String?
    @Option(name: .long, help: "Play the tone on this ALSA device (alsa:DEVICE, e.g. alsa:default), with or without --out.") var play: String?

    func validate() throws {
        try OptionCheck.require(sampleRate, "--sample-rate", in: 8_000...384_000, "Hz")
        try OptionCheck.require(frequency, "--frequency", in: 1...(sampleRate / 2), "Hz")
        try OptionCheck.require(duration, "--duration", in: 0.001...3_600, "s")
        try OptionCheck.require(volume, "--volume", in: 0...1)
        try OptionCheck.require(levelDbfs, "--level-dbfs", in: -400...0, "dBFS")
        try OptionCheck.require(levelHl, "--level-hl", in: -50...200, "dB HL")
        try OptionCheck.require(rampMs, "--ramp-ms", in: 0...10_000, "ms")
        guard out != nil || play != nil else { throw ValidationError("give --out FILE, --play alsa:DEVICE or both") }
        if let play, SourceAddress(play)?.alsaDevice == nil { throw ValidationError("--play takes alsa:DEVICE, got \"\(play)\"") }
    }

    func run() throws {
        let level: ToneRequest.Level
        if let levelDbfs {
            level = .dbfs(levelDbfs)
        } else if let levelHl, let headphone {
            level = .hearingLevel(levelHl, headphone: headphone, tables: tables, volume: volume)
        } else {
            throw CommandFailure(.badInvocation, "give --level-dbfs, or --level-hl with --headphone")
        }
        var request = ToneRequest(frequencyHz: frequency, level: level)
        request.durationSeconds = duration
        request.ear = ear
        request.ramp = researchkitRamp ? .researchKit : .raisedCosine(seconds: rampMs / 1000)
        request.sampleRateHz = sampleRate
        (request.outputPath, request.playbackDevice) = (out, play)
        do { try request.run(warn: printError) } catch let error as HearingTestError {
            throw CommandFailure(error)
        } catch let refusal as OutputFile.Refusal {
            throw refusal.failure
        }
    }
}

extension AudiometrySimulation.Procedure: ExpressibleByArgument {}
extension ToneSpecification.Ear: ExpressibleByArgument {}
