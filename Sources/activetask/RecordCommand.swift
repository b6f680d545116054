import ArgumentParser
import InputGuards
import AudioIO
import Foundation
import Recording
import SensorData

/// Raised by SIGINT/SIGTERM: the recording stops at the next batch and finishes its files.
let interruption = StopSignal()

/// `activetask record KIND --source … --out DIR`.
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "record",
        abstract: "Record samples from a source into ResearchKit-compatible files (data-logger JSON, streaming WAV).",
        discussion: """
            Sources: simulate, stdin, tcp:PORT, tcp:HOST:PORT, unix:PATH, replay:FILE, alsa:DEVICE (audio), iio:DEVICE \
            (accelerometer, deviceMotion) and ble:ADDRESS (heartRate); each described in docs/devices.md, with what a live \
            source checks and how a device is opened, negotiated and reconnected. Files go to OUT/recorder-<UUID>/; the \
            ORKFileResults are printed as a JSON array. SIGINT/SIGTERM stop the recording and finish the files; after SIGKILL \
            the current file is still valid and holds every item up to the last flush (--flush-interval).
            """
    ).leaf()

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case accelerometer, deviceMotion, pedometer, heartRate, location, touch, audio, step

        /// The recorder this kind records (nil: a whole step).
        var recorder: RecorderSpec.Kind? { RecorderSpec.Kind(rawValue: rawValue) }
    }

    /// The defaults the help texts quote, from the one place they are declared.
    private static let defaults = RecorderSpec(kind: .accelerometer)
    private typealias Bounds = RecorderSpec.Bounds

    @Argument(help: "What to record: \(Kind.allCases.map(\.rawValue).joined(separator: ", ")) (step: an active step from CONFIG).") var kind: Kind
    @Argument(help: "With step: the step configuration JSON (see Recording.ActiveStepConfiguration).") var config: String?
    @Option(name: .long, help: "simulate, stdin, tcp:PORT (on 127.0.0.1), tcp:HOST:PORT (bound where asked), unix:PATH, replay:FILE, alsa:DEVICE (audio), iio:DEVICE (accelerometer, deviceMotion) or ble:ADDRESS (heartRate) (not for step).") var source: String?
    @Option(name: .customLong("out"), help: "Output directory (created if missing).") var output: String?
    @Option(name: .long, help: "Duration, s (simulate: default 10 s; other sources: stop after this long).") var duration: Double?
    @Option(name: .long, help: "Sampling frequency of motion simulators, Hz (default \(RecorderConfiguration.Defaults.motionFrequencyHz.compactDescription)).") var frequency: Double?
    @Option(name: .long, help: "Audio sample rate, Hz (default \(defaults.sampleRateHz)).") var sampleRate: Int?
    @Option(name: .long, help: "Audio channels (default \(defaults.channels)).") var channels: Int?
    @Option(name: .long, help: "WAV encoding: pcm16, pcm24 or float32 (default \(defaults.encoding.rawValue)).") var encoding: WAVWriter.Encoding?
    @Option(name: .long, help: "Lines from stdin or a socket: json (recorder items), csv (a header of item field names, then one item per line) or gatt-hex (heartRate: Bluetooth 0x2A37 values in hex, one per line, timed on arrival; RR intervals go to a second file) (default \(defaults.format.rawValue)).") var format: LineFormat?
    @Option(name: .long, help: "Live sources: items the queue between reader and writer holds (default \(defaults.device.capacityItems)).") var bufferItems: Int?
    @Option(name: .long, help: "Live sources, when the queue is full: block (wait, slowing the sender through pipe/TCP flow control; nothing lost) or drop (never wait; dropped items counted and reported) (default \(defaults.overflow.rawValue)).") var overflow: OverflowPolicy?
    @Option(name: .long, help: "Raw PCM on stdin: s16le or f32le.") var pcm: PCMStreamReader.SampleFormat = .s16le
    @Option(name: .long, help: "Walker cadence of the simulator, steps/min (default \(defaults.simulator.cadenceStepsPerMinute.compactDescription)).") var cadence: Double?
    @Option(name: .long, help: "Tapper rate of the touch simulator, taps/s (default \(defaults.simulator.tapsPerSecond.compactDescription)).") var tapsPerSecond: Double?
    @Option(name: .customLong("noise-dba"), help: "Audio simulator: room noise at this level, dB(A) SPL, instead of a voice.") var noiseDba: Double?
    @Option(name: .long, help: "Audio simulator: dB SPL that an RMS of 1.0 reads (default \(defaults.simulator.calibrationOffsetDecibels.compactDescription), ResearchKit's iPhone).") var calibrationOffset: Double?
    @Option(name: .long, help: "Items reach the file at least this often, s (default \(defaults.flushIntervalSeconds.compactDescription)).") var flushInterval: Double?
    @Option(name: .long, help: "Roll JSON files over at this size, bytes (0: never; the default).") var rollover: Int?
    @Option(name: .long, help: "File-result identifier (default: the kind; streamingAudio for audio).") var identifier: String?
    @Flag(name: .long, help: "Do not pace simulate/replay in real time.") var fast = false
    @Option(name: .long, help: "iio:DEVICE sources: the prefix under which ROOT/sys/bus/iio/devices and ROOT/dev are looked up (default \(defaults.device.iioRoot)).") var iioRoot: String?
    @Option(name: .long, help: "ble:ADDRESS sources: how long a dropped link is reconnected before the recording ends with an error, s (default \(defaults.device.reconnectSeconds.compactDescription)).") var reconnectSeconds: Double?
    @Option(name: .long, help: "alsa:, iio: and ble: sources: how long opening the device (or reaching BlueZ) may take before the command fails, s; a ble: source's connecting adds --reconnect-seconds (default \(defaults.device.openTimeoutSeconds.compactDescription)).") var openTimeoutSeconds: Double?
    @Flag(name: .long, help: "List the devices and exit: audio, the ALSA capture devices (--source alsa:NAME); accelerometer or deviceMotion, the IIO devices under --iio-root (--source iio:NAME); heartRate, the Bluetooth devices BlueZ knows, those with a heart-rate characteristic first (--source ble:ADDRESS).") var listDevices = false

    /// `--source` parsed (nil: absent or none of ``SourceAddress/forms``).
    var address: SourceAddress? { source.flatMap(SourceAddress.init) }
    /// --out (validate() requires it unless --list-devices).
    var out: String { output ?? "." }

    func validate() throws {
        try OptionCheck.require(frequency, "--frequency", in: Bounds.frequencyHz, "Hz")
        try OptionCheck.require(channels, "--channels", in: Bounds.channels)
        try OptionCheck.require(sampleRate, "--sample-rate", in: Bounds.sampleRateHz)
        try OptionCheck.require(flushInterval, "--flush-interval", in: Bounds.flushIntervalSeconds, "s")
        try OptionCheck.require(cadence, "--cadence", in: Bounds.cadenceStepsPerMinute, "steps/min")
        try OptionCheck.require(tapsPerSecond, "--taps-per-second", in: Bounds.tapsPerSecond)
        try OptionCheck.require(bufferItems, "--buffer-items", in: Bounds.bufferItems)
        try OptionCheck.require(rollover, "--rollover", in: Bounds.rolloverBytes)
        try OptionCheck.require(noiseDba, "--noise-dba", in: Bounds.noiseDBA, "dB(A)")
        try OptionCheck.require(calibrationOffset, "--calibration-offset", in: Bounds.calibrationOffsetDecibels, "dB")
        // A week: longer recordings are rolled over into several runs.
        try OptionCheck.require(duration, "--duration", in: 0.001...604_800, "s")
        try OptionCheck.require(reconnectSeconds, "--reconnect-seconds", in: Bounds.reconnectSeconds, "s")
        try OptionCheck.require(openTimeoutSeconds, "--open-timeout-seconds", in: Bounds.openTimeoutSeconds, "s")
        if kind == .step {
            guard output != nil else { throw ValidationError("--out DIR is required") }
            guard config != nil else { throw ValidationError("record step needs CONFIG.json") }
        } else {
            if listDevices {
                guard [.audio, .accelerometer, .deviceMotion, .heartRate].contains(kind) else {
                    throw ValidationError("--list-devices lists ALSA capture devices (record audio), IIO devices (record accelerometer) or Bluetooth devices (record heartRate)")
                }
                return
            }
            guard output != nil else { throw ValidationError("--out DIR is required") }
            guard let address else { throw ValidationError("--source is required: \(SourceAddress.forms)") }
            switch address {
            case .ble where kind != .heartRate: throw ValidationError("ble:ADDRESS records heartRate only")
            case .alsa where kind != .audio: throw ValidationError("alsa:DEVICE records audio only")
            case .iio where kind != .accelerometer && kind != .deviceMotion: throw ValidationError("iio:DEVICE records accelerometer or deviceMotion items")
            default: break
            }
            guard config == nil else { throw ValidationError("only record step takes a configuration file") }
        }
    }

    /// The recorder the options describe: the defaults, each option given over them.
    func spec(_ recorder: RecorderSpec.Kind) -> RecorderSpec {
        var spec = RecorderSpec(kind: recorder)
        spec.identifier = identifier ?? recorder.standaloneIdentifier
        spec.source = address ?? spec.source
        spec.frequencyHz = frequency ?? spec.frequencyHz
        spec.sampleRateHz = sampleRate ?? spec.sampleRateHz
        spec.channels = channels ?? spec.channels
        spec.encoding = encoding ?? spec.encoding
        spec.flushIntervalSeconds = flushInterval ?? spec.flushIntervalSeconds
        spec.rolloverBytes = rollover ?? spec.rolloverBytes
        spec.simulator.cadenceStepsPerMinute = cadence ?? spec.simulator.cadenceStepsPerMinute
        spec.simulator.tapsPerSecond = tapsPerSecond ?? spec.simulator.tapsPerSecond
        spec.simulator.roomNoiseDBA = noiseDba ?? spec.simulator.roomNoiseDBA
        spec.simulator.calibrationOffsetDecibels = calibrationOffset ?? spec.simulator.calibrationOffsetDecibels
        spec.format = format ?? spec.format
        spec.overflow = overflow ?? spec.overflow
        spec.device.iioRoot = iioRoot ?? spec.device.iioRoot
        spec.device.capacityItems = bufferItems ?? spec.device.capacityItems
        spec.device.reconnectSeconds = reconnectSeconds ?? spec.device.reconnectSeconds
        spec.device.openTimeoutSeconds = openTimeoutSeconds ?? spec.device.openTimeoutSeconds
        return spec
    }

    func run() async throws {
        if listDevices, let recorder = kind.recorder {
            let root = iioRoot ?? Self.defaults.device.iioRoot
            do {
                let lines = try DeviceListing.lines(recorder, iioRoot: root, openTimeoutSeconds: openTimeoutSeconds ?? Self.defaults.device.openTimeoutSeconds)
                for line in lines { try print(line) }
                if lines.isEmpty { printError(DeviceListing.noneFound(recorder, iioRoot: root)) }
            } catch let error as RecordingError {
                throw CommandFailure(.invalidInput, error.description)
            }
            return
        }
        do { try FileSystem.makeDirectory(out) } catch {
            throw CommandFailure(.invalidInput, "\(FileName.display(out)): cannot create: \(error.reason)")
        }
        // A terminal closing (SIGHUP) ends a recording as SIGINT and SIGTERM do: finished files, nothing torn.
        InterruptSignals.stopOnInterrupt { _ in interruption.stop() }
        guard let recorder = kind.recorder else { return try await recordStep() }
        let spec = spec(recorder)
        if recorder == .audio, spec.source.isLive {
            do {
                try Self.printResults([spec.recordAudioStream(pcm: pcm, folder: out, durationSeconds: duration, stop: interruption, say: printError)])
            } catch let error as RecordingError {
                throw CommandFailure(.invalidInput, error.description)
            }
            return
        }
        // Before any file exists: a bad source leaves nothing behind.
        let plan: RecorderPlan
        do { plan = try spec.plan(stop: interruption) } catch { throw CommandFailure(.invalidInput, error.description) }
        // A simulation lasts 10 s and a replay its file, a live source until its sender closes, unless --duration says otherwise.
        let length = duration ?? (spec.source == .simulate ? 10 : .infinity)
        let result = try await runStep(ActiveStepConfiguration(identifier: plan.configuration.identifier, durationSeconds: length, recorders: [plan],
                                                               realTime: !fast))
        for line in result.problemLines { printError(line) }
        try Self.printResults(result.fileResults)
        if result.sourceFailed { throw CommandFailure(.invalidInput) }
    }

    /// The file results as a JSON array of ORKFileResults, dates in the machine's UTC offset.
    static func printResults(_ results: [FileResult]) throws(CommandFailure) {
        let offset = TimeZone.current.secondsFromGMT()
        try print(JSONWriter(indent: 2).string(.array(results.map { $0.researchKitJSON(utcOffsetSeconds: offset) })))
    }

    /// Runs the active step of `config`; prints its ORKStepResult, and a summary on stderr.
    private func recordStep() async throws {
        var step: ActiveStepConfiguration
        do {
            let path = config!
            step = try ActiveStepConfiguration(json: try JSONValue.parse(try FileBytes.read(path), file: path), file: path, stop: interruption)
        } catch let error as ReadError {
            throw CommandFailure(.invalidInput, error.description)
        } catch let error as RecordingError {
            throw CommandFailure(.invalidInput, error.description)
        }
        if fast { step.realTime = false }
        if let duration { step.durationSeconds = duration }
        let result = try await runStep(step)
        for line in result.countLines + result.problemLines { printError(line) }
        printError(result.endLine + "; peak resident memory \(MemoryBudget.peakResidentMegabytes().map(String.init) ?? "unknown") MB")
        try print(JSONWriter(indent: 2).string(result.researchKitJSON(utcOffsetSeconds: TimeZone.current.secondsFromGMT())))
        if result.sourceFailed { throw CommandFailure(.invalidInput) }
    }

    /// Runs an active step to its end (SIGINT/SIGTERM stop it), mapping its errors to exit status 3.
    private func runStep(_ step: ActiveStepConfiguration) async throws -> StepResult {
        for line in step.recorders.compactMap(\.sourceLine) { printError(line) }
        do {
            return try await ActiveStep.run(step, outputDirectory: out, stop: interruption)
        } catch let error as RecordingError {
            printError(error.description)
        } catch {
            printError(String(describing: error))
        }
        throw CommandFailure(.invalidInput)
    }
}

extension WAVWriter.Encoding: ExpressibleByArgument {}
extension LineFormat: ExpressibleByArgument {}
extension OverflowPolicy: ExpressibleByArgument {}
extension PCMStreamReader.SampleFormat: ExpressibleByArgument {}
