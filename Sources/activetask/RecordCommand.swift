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
    static let configuration = CommandConfiguration(
        abstract: "Record samples from a source into ResearchKit-compatible files (data-logger JSON, streaming WAV).",
        discussion: """
            Sources: simulate (deterministic walker for motion, pedometer and location, tapper for touch, heart rate, voice or \
            room noise for audio; paced in real time unless --fast), stdin, tcp:PORT (loopback), tcp:HOST:PORT or unix:PATH (the first sender; JSON or CSV \
            lines of recorder items, or --format gatt-hex for heart rate; for audio raw interleaved PCM, --pcm s16le|f32le, or a \
            WAV stream whose header must match --sample-rate/--channels; the recording ends when the sender closes; a bad line \
            stops it with its line number, keeping the items before it), replay:FILE (any recording the readers accept, paced by \
            its timestamps unless --fast), alsa:DEVICE (audio from an ALSA capture device such as alsa:default, alsa:hw:1,0 or \
            alsa:plughw:CARD=USB, in the sample format of --encoding at --sample-rate and --channels, or the nearest the device \
            gives, said on stderr; overruns are recovered, counted and reported with the time lost; --list-devices names them), \
            iio:DEVICE (accelerometer scans from a Linux IIO device's buffer, named by its directory, iio:device0, or its name \
            attribute, under --iio-root; at the sampling frequency nearest --frequency the device offers; in g with Core Motion's \
            sign, timed by the device's timestamp channel when it has one; deviceMotion from a device with a gyroscope too, \
            attitude by Madgwick's IMU filter; --list-devices names them), ble:ADDRESS (heart rate \
            from a Bluetooth LE strap through BlueZ on the system D-Bus: the Heart Rate Measurement characteristic 0x2A37 \
            notified, decoded as gatt-hex lines are, RR intervals to a second file; a dropped link is reconnected within \
            --reconnect-seconds and the gap said and counted; --list-devices names the devices BlueZ knows). Live items whose timestamps show a rate more than 10 % off --frequency are reported \
            with their lines. Files go to OUT/recorder-<UUID>/; the ORKFileResults are printed \
            as a JSON array. SIGINT/SIGTERM stop the recording and finish the files; after SIGKILL the current file is still \
            valid and holds every item up to the last flush (--flush-interval).
            """
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case accelerometer, deviceMotion, pedometer, heartRate, location, touch, audio, step

        var recorderKind: RecorderKind? {
            switch self {
            case .accelerometer: .accelerometer
            case .deviceMotion: .deviceMotion
            case .pedometer: .pedometer
            case .heartRate: .healthQuantity
            case .location: .location
            case .touch: .touch
            case .audio, .step: nil
            }
        }
    }

    @Argument(help: "What to record: \(Kind.allCases.map(\.rawValue).joined(separator: ", ")) (step: an active step from CONFIG).")
    var kind: Kind

    @Argument(help: "With step: the step configuration JSON (see Recording.ActiveStepConfiguration).")
    var config: String?

    @Option(name: .long, help: "simulate, stdin, tcp:PORT (on 127.0.0.1), tcp:HOST:PORT (bound where asked), unix:PATH, replay:FILE, alsa:DEVICE (audio), iio:DEVICE (accelerometer, deviceMotion) or ble:ADDRESS (heartRate) (not for step).")
    var source: String?

    /// `--source` parsed (nil: absent or none of ``SourceAddress/forms``).
    var address: SourceAddress? { source.flatMap(SourceAddress.init) }

    @Option(name: .customLong("out"), help: "Output directory (created if missing).")
    var output: String?
    /// --out (validate() requires it unless --list-devices).
    var out: String { output ?? "." }

    @Option(name: .long, help: "Duration, s (simulate: required length; other sources: stop after this long).")
    var duration: Double?

    @Option(name: .long, help: "Sampling frequency of motion simulators, Hz.")
    var frequency: Double = RecorderConfiguration.Defaults.motionFrequencyHz

    @Option(name: .long, help: "Audio sample rate, Hz.")
    var sampleRate: Int = RecorderConfiguration.Defaults.sampleRateHz

    @Option(name: .long, help: "Audio channels.")
    var channels: Int = 1

    @Option(name: .long, help: "WAV encoding: pcm16, pcm24 or float32.")
    var encoding: WAVWriter.Encoding = .pcm16

    @Option(name: .long, help: "Lines from stdin or a socket: json (recorder items), csv (a header of item field names, then one item per line) or gatt-hex (heartRate: Bluetooth 0x2A37 values in hex, one per line, timed on arrival; RR intervals go to a second file).")
    var format: LineFormat = .json

    @Option(name: .long, help: "Live sources: items the queue between reader and writer holds.")
    var bufferItems: Int = RecorderPlan.DeviceOptions().capacityItems

    @Option(name: .long, help: "Live sources, when the queue is full: block (wait, slowing the sender through pipe/TCP flow control; nothing lost) or drop (never wait; dropped items counted and reported).")
    var overflow: OverflowPolicy = .block

    @Option(name: .long, help: "Raw PCM on stdin: s16le or f32le.")
    var pcm: PCMStreamReader.SampleFormat = .s16le

    @Option(name: .long, help: "Walker cadence of the simulator, steps/min.")
    var cadence: Double = 110

    @Option(name: .long, help: "Tapper rate of the touch simulator, taps/s.")
    var tapsPerSecond: Double = 5

    @Option(name: .customLong("noise-dba"), help: "Audio simulator: room noise at this level, dB(A) SPL, instead of a voice.")
    var noiseDba: Double?

    @Option(name: .long, help: "Audio simulator: dB SPL that an RMS of 1.0 reads (default 117.3, ResearchKit's iPhone).")
    var calibrationOffset: Double?

    @Option(name: .long, help: "Items reach the file at least this often, s.")
    var flushInterval: Double = RecorderConfiguration.Defaults.flushIntervalSeconds

    @Option(name: .long, help: "Roll JSON files over at this size, bytes (0: never).")
    var rollover: Int = 0

    @Option(name: .long, help: "File-result identifier (default: the kind).")
    var identifier: String?

    @Flag(name: .long, help: "Do not pace simulate/replay in real time.")
    var fast = false

    @Option(name: .long, help: "iio:DEVICE sources: the prefix under which ROOT/sys/bus/iio/devices and ROOT/dev are looked up.")
    var iioRoot: String = RecorderPlan.DeviceOptions().iioRoot

    @Option(name: .long, help: "ble:ADDRESS sources: how long a dropped link is reconnected before the recording ends with an error, s.")
    var reconnectSeconds: Double = RecorderPlan.DeviceOptions().reconnectSeconds

    @Option(name: .long, help: "alsa:, iio: and ble: sources: how long opening the device (or reaching BlueZ) may take before the command fails, s; a ble: source's connecting adds --reconnect-seconds.")
    var openTimeoutSeconds: Double = RecorderPlan.DeviceOptions().openTimeoutSeconds

    @Flag(name: .long, help: "List the devices and exit: audio, the ALSA capture devices (--source alsa:NAME); accelerometer or deviceMotion, the IIO devices under --iio-root (--source iio:NAME); heartRate, the Bluetooth devices BlueZ knows, those with a heart-rate characteristic first (--source ble:ADDRESS).")
    var listDevices = false

    func validate() throws {
        try OptionCheck.require(frequency, "--frequency", in: 0.001...10_000, "Hz")
        try OptionCheck.require(channels, "--channels", in: 1...8)
        try OptionCheck.require(sampleRate, "--sample-rate", in: 1_000...384_000)
        try OptionCheck.require(flushInterval, "--flush-interval", in: 0...3_600, "s")
        try OptionCheck.require(cadence, "--cadence", in: 1...400, "steps/min")
        try OptionCheck.require(tapsPerSecond, "--taps-per-second", in: 0.01...50)
        try OptionCheck.require(bufferItems, "--buffer-items", in: 1...(1 << 26))
        try OptionCheck.require(rollover, "--rollover", in: 0...(1 << 40))
        try OptionCheck.require(noiseDba, "--noise-dba", in: -50...200, "dB(A)")
        try OptionCheck.require(calibrationOffset, "--calibration-offset", in: -400...400, "dB")
        // A week: longer recordings are rolled over into several runs.
        try OptionCheck.require(duration, "--duration", in: 0.001...604_800, "s")
        try OptionCheck.require(reconnectSeconds, "--reconnect-seconds", in: 0...86_400, "s")
        try OptionCheck.require(openTimeoutSeconds, "--open-timeout-seconds", in: 0.001...86_400, "s")
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

    func run() async throws {
        if listDevices {
            let devices: [(String, String)]
            do {
                devices = switch kind {
                case .audio: AlsaPCM.devices(.capture)
                case .heartRate: try DeviceWait(seconds: openTimeoutSeconds).run("answer", source: "ble:") { () throws(RecordingError) in
                    try BLEHeartRateSource.devices()
                }.map { ($0.address, $0.name + ($0.heartRate ? "\theart rate" : "")) }
                default: try IIODevice.listDevices(root: iioRoot).map { ($0.id, $0.name) }
                }
            } catch {
                throw CommandFailure(.invalidInput, error.description)
            }
            // Names are bytes from the device or the bus: shown as FileName shows them (\xFF).
            for device in devices { try print(device.1.isEmpty ? FileName.display(device.0) : "\(FileName.display(device.0))\t\(FileName.display(device.1))") }
            if devices.isEmpty { printError("no \(kind == .audio ? "ALSA capture device" : kind == .heartRate ? "Bluetooth device known to BlueZ" : "IIO device under \(FileName.display(iioRoot))") was found") }
            return
        }
        do { try FileSystem.makeDirectory(out) } catch {
            throw CommandFailure(.invalidInput, "\(FileName.display(out)): cannot create: \(error.reason)")
        }
        // A terminal closing (SIGHUP) ends a recording as SIGINT and SIGTERM do: finished files, nothing torn.
        InterruptSignals.stopOnInterrupt { _ in interruption.stop() }
        if kind == .step { return try await recordStep() }
        if kind == .audio, address?.isLive == true {
            do { try Self.printResults([try recordAudio()]) } catch let error as RecordingError {
                throw CommandFailure(.invalidInput, error.description)
            }
            return
        }
        try await recordOne()
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
        for report in result.reports {
            printError("\(report.identifier): \(report.itemsWritten) \(report.identifier.lowercased().contains("audio") ? "frames" : "items")"
                + (report.itemsRejected > 0 ? ", \(report.itemsRejected) refused" : "") + (report.itemsDropped > 0 ? ", \(report.itemsDropped) dropped" : ""))
        }
        let failed = Self.printProblems(result)
        printError("step \(result.identifier) ended by \(result.endReason) after \(String(format: "%.2f", result.endSeconds - result.startSeconds)) s; "
            + "peak resident memory \(ActiveTask.peakResidentMegabytes().map(String.init) ?? "unknown") MB")
        try print(JSONWriter(indent: 2).string(result.researchKitJSON(utcOffsetSeconds: TimeZone.current.secondsFromGMT())))
        if failed { throw CommandFailure(.invalidInput) }
    }

    /// Prints each recorder's refused and dropped items, source warnings and source error on
    /// stderr; true when a source failed (a bad line): the files hold every item before it.
    static func printProblems(_ result: StepResult) -> Bool {
        for report in result.reports {
            if report.itemsRejected > 0 {
                printError("\(report.identifier): \(report.itemsRejected) item(s) could not be written and were left out; first: \(report.firstRejection ?? "")")
            }
            if report.itemsDropped > 0 {
                printError("\(report.identifier): \(report.itemsDropped) item(s) dropped because the writer fell behind the source (buffer full)"
                    + (report.firstDroppedLines.map { "; first at lines \($0.lowerBound)–\($0.upperBound)" } ?? ""))
            }
            for warning in report.warnings { printError("\(report.identifier): warning: \(warning)") }
            if let error = report.sourceError { printError("\(error.description) (recording stopped; the items before it are kept)") }
        }
        return result.reports.contains { $0.sourceError != nil }
    }

    /// One recorder as a one-recorder active step: a simulator or replay (paced in real time
    /// unless --fast) or a live line source; prints the file results.
    private func recordOne() async throws {
        let configuration: RecorderConfiguration
        var settings = SimulatorSettings(cadenceStepsPerMinute: cadence, tapsPerSecond: tapsPerSecond, roomNoiseDBA: noiseDba)
        if let calibrationOffset { settings.calibrationOffsetDecibels = calibrationOffset }
        if kind == .audio {
            configuration = RecorderConfiguration(identifier: identifier ?? "streamingAudio",
                                                  kind: .audio(sampleRateHz: sampleRate, channels: channels, encoding: encoding))
        } else {
            let recorderKind = kind.recorderKind!
            configuration = RecorderConfiguration(identifier: identifier ?? kind.rawValue, kind: .sensor(recorderKind),
                                                  frequencyHz: recorderKind == .accelerometer || recorderKind == .deviceMotion ? frequency : nil,
                                                  rollingFileSizeThreshold: rollover, flushIntervalSeconds: flushInterval)
        }
        let plan: RecorderPlan
        let address = address!
        switch address {
        case .simulate:
            plan = RecorderPlan(configuration, source: .simulate(settings))
        case .replay(let path):
            plan = RecorderPlan(configuration, source: .replay(path: path))
        case .alsa, .iio, .ble:
            let options = RecorderPlan.DeviceOptions(iioRoot: iioRoot, capacityItems: bufferItems, reconnectSeconds: reconnectSeconds,
                                                     openTimeoutSeconds: openTimeoutSeconds, stop: interruption)
            let device: RecorderPlan?
            do {
                device = try RecorderPlan.device(address, configuration, options)
            } catch {
                throw CommandFailure(.invalidInput, error.description)
            }
            guard let device else { throw CommandFailure(.invalidInput, "\(address) cannot record \(kind.rawValue) items") }
            plan = device
        case .stdin, .tcp, .unix:
            // Before any file exists: a bad source leaves nothing behind.
            do {
                plan = RecorderPlan(configuration, source: .live(try LiveLineSource(
                    address: address.description, format: format, kind: kind.recorderKind!, expectedFrequencyHz: configuration.frequencyHz,
                    capacityItems: bufferItems, overflow: overflow)))
            } catch {
                throw CommandFailure(.invalidInput, error.description)
            }
        }
        // A simulation lasts 10 s and a replay its file, a live source until its sender closes, unless --duration says otherwise.
        let length = duration ?? (address == .simulate ? 10 : .infinity)
        let result = try await runStep(ActiveStepConfiguration(identifier: configuration.identifier, durationSeconds: length, recorders: [plan],
                                                         realTime: !fast))
        let failed = Self.printProblems(result)
        try Self.printResults(result.fileResults)
        if failed { throw CommandFailure(.invalidInput) }
    }

    /// Runs an active step to its end (SIGINT/SIGTERM stop it), mapping its errors to exit status 3.
    private func runStep(_ step: ActiveStepConfiguration) async throws -> StepResult {
        for plan in step.recorders {
            let identifier = plan.configuration.identifier
            switch plan.source {
            case .live(let live):
                printError("\(identifier): " + (live.listener.map { "listening on " + ($0.port.map { "tcp port \($0)" } ?? live.address) }
                    ?? "reading \(live.format.rawValue) lines from stdin"))
            case .alsa(let capture):
                printError("\(identifier): recording audio from \(capture.address) (\(capture.summary))")
            case .iio(let iio):
                let device = iio.device
                printError("\(identifier): reading \(device.id) (\(device.name)) at "
                    + (device.samplingFrequencyHz.map { "\($0.compactDescription) Hz" } ?? "its own rate")
                    + ", scans of \(device.scanBytes) bytes: \(device.channels.map { "\($0.name) \($0.type)" }.joined(separator: ", "))")
            case .ble(let ble):
                printError("\(identifier): heart-rate notifications of \(ble.deviceName) (\(ble.deviceAddress)) through BlueZ")
            case .simulate, .replay: break
            }
        }
        let directory = out
        do {
            return try await ActiveStep.run(step, outputDirectory: directory, stop: interruption)
        } catch let error as RecordingError {
            printError(error.description)
        } catch {
            printError(String(describing: error))
        }
        throw CommandFailure(.invalidInput)
    }

    /// A streaming source: stdin, or the first sender on `tcp:PORT` / `unix:PATH`; nil for the others.
    private func openStream() throws(RecordingError) -> (descriptor: Int32, name: String)? {
        guard let address, address.isLive else { return nil }
        if address == .stdin { return (0, address.description) }
        let listener = try SocketListener(address.description)
        printError("listening on \(listener.port.map { "tcp port \($0)" } ?? address.description)")
        return (try listener.accept(), address.description)
    }

    /// The audio recorder fed by raw PCM or a WAV stream from stdin or a socket, or by an ALSA
    /// capture device.
    private func recordAudio() throws -> FileResult {
        let configuration = RecorderConfiguration(identifier: identifier ?? "streamingAudio",
                                                  kind: .audio(sampleRateHz: sampleRate, channels: channels, encoding: encoding))
        guard let (descriptor, name) = try openStream() else { throw RecordingError(file: source ?? "", reason: .sample("not a streaming source")) }
        // The header (if any) is checked before the file exists: a refused stream leaves nothing behind.
        let stream = try PCMStreamReader(descriptor: descriptor, name: name, sampleRateHz: sampleRate, channels: channels, format: pcm)
        let recorder = try AudioRecorder(configuration, outputDirectory: out)
        printError("recording audio (\(stream.isWAV ? "WAV stream, " : "")\(stream.format.rawValue)) to \(recorder.path)")
        let block = max(1, sampleRate / 20)
        while !interruption.isStopped, duration.map({ Double(recorder.frames) / Double(sampleRate) < $0 }) ?? true,
            let samples = try stream.nextSamples(maximumFrames: block)
        {
            try recorder.write(samples)
        }
        if stream.trailingBytes > 0 { printError("\(name): \(stream.trailingBytes) trailing byte(s) do not make a whole frame; left out") }
        return try recorder.stop()
    }
}

extension WAVWriter.Encoding: ExpressibleByArgument {}
extension LineFormat: ExpressibleByArgument {}
extension OverflowPolicy: ExpressibleByArgument {}
extension PCMStreamReader.SampleFormat: ExpressibleByArgument {}
