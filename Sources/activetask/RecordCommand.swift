import ArgumentParser
import AudioIO
import Foundation
import Recording
import SensorData

/// Raised by SIGINT/SIGTERM: the recording stops at the next batch and finishes its files.
let interruption = StopSignal()

/// `activetask record KIND --source … --out DIR`.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record samples from a source into ResearchKit-compatible files (data-logger JSON, streaming WAV).",
        discussion: """
            Sources: simulate (deterministic walker, heart rate or voice, paced in real time unless --fast), stdin, tcp:PORT \
            or unix:PATH (the first sender; JSON lines of recorder items, or --format gatt-hex for heart rate; for audio raw \
            interleaved PCM, --pcm s16le|f32le; the recording ends when the sender closes), replay:FILE (any recording the readers \
            accept, paced by its timestamps unless --fast). Files go to OUT/recorder-<UUID>/; the ORKFileResults are printed \
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

    @Option(name: .long, help: "simulate, stdin, tcp:PORT, unix:PATH or replay:FILE (not for step).")
    var source: String?

    @Option(name: .long, help: "Output directory (created if missing).")
    var out: String

    @Option(name: .long, help: "Duration, s (simulate: required length; other sources: stop after this long).")
    var duration: Double?

    @Option(name: .long, help: "Sampling frequency of motion simulators, Hz.")
    var frequency: Double = 100

    @Option(name: .long, help: "Audio sample rate, Hz.")
    var sampleRate: Int = 44_100

    @Option(name: .long, help: "Audio channels.")
    var channels: Int = 1

    @Option(name: .long, help: "WAV encoding: pcm16, pcm24 or float32.")
    var encoding: String = "pcm16"

    @Option(name: .long, help: "Lines on stdin: json (recorder items) or gatt-hex (heartRate: Bluetooth 0x2A37 values in hex, one per line, timed on arrival).")
    var format: String = "json"

    @Option(name: .long, help: "Raw PCM on stdin: s16le or f32le.")
    var pcm: String = "s16le"

    @Option(name: .long, help: "Walker cadence of the simulator, steps/min.")
    var cadence: Double = 110

    @Option(name: .long, help: "Items reach the file at least this often, s.")
    var flushInterval: Double = 1

    @Option(name: .long, help: "Roll JSON files over at this size, bytes (0: never).")
    var rollover: Int = 0

    @Option(name: .long, help: "File-result identifier (default: the kind).")
    var identifier: String?

    @Flag(name: .long, help: "Do not pace simulate/replay in real time.")
    var fast = false

    func validate() throws {
        guard frequency > 0, frequency <= 10_000 else { throw ValidationError("--frequency must be in (0, 10000] Hz") }
        guard (1...8).contains(channels), (1_000...384_000).contains(sampleRate) else { throw ValidationError("--channels 1–8, --sample-rate 1000–384000") }
        guard flushInterval >= 0 else { throw ValidationError("--flush-interval must be ≥ 0") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be > 0") }
        if kind == .step {
            guard config != nil else { throw ValidationError("record step needs CONFIG.json") }
        } else {
            guard let source, ["simulate", "stdin"].contains(source) || ["tcp:", "unix:", "replay:"].contains(where: { source.hasPrefix($0) }) else {
                throw ValidationError("--source is required: simulate, stdin, tcp:PORT, unix:PATH or replay:FILE")
            }
            guard config == nil else { throw ValidationError("only record step takes a configuration file") }
        }
    }

    func run() throws {
        if mkdir(out, 0o755) != 0, errno != EEXIST {
            printError("\(out): cannot create: \(String(cString: strerror(errno)))")
            throw ExitCode(ActiveTask.Status.invalidInput)
        }
        for signalNumber in [SIGINT, SIGTERM] { signal(signalNumber) { _ in interruption.stop() } }
        if kind == .step { return try recordStep() }
        if source == "simulate" || source?.hasPrefix("replay:") == true { return try recordPulled() }
        let results: [FileResult]
        do {
            results = kind == .audio ? [try recordAudio()] : try recordSensor(kind.recorderKind!)
        } catch let error as RecordingError {
            printError(error.description)
            throw ExitCode(ActiveTask.Status.invalidInput)
        }
        Self.printResults(results)
    }

    /// The file results as a JSON array of ORKFileResults, dates in the machine's UTC offset.
    static func printResults(_ results: [FileResult]) {
        let offset = TimeZone.current.secondsFromGMT()
        print(JSONWriter(indent: 2).string(.array(results.map { $0.researchKitJSON(utcOffsetSeconds: offset) })))
    }

    /// Runs the active step of `config`; prints its ORKStepResult, and a summary on stderr.
    private func recordStep() throws {
        var step: ActiveStepConfiguration
        do {
            let path = config!
            step = try ActiveStepConfiguration(json: try JSONValue.parse(try FileBytes.read(path), file: path), file: path)
        } catch let error as ReadError {
            printError(error.description)
            throw ExitCode(ActiveTask.Status.invalidInput)
        } catch let error as RecordingError {
            printError(error.description)
            throw ExitCode(ActiveTask.Status.invalidInput)
        }
        if fast { step.realTime = false }
        if let duration { step.durationSeconds = duration }
        let result = try runStep(step)
        for (identifier, count) in result.itemsWritten.sorted(by: { $0.key < $1.key }) {
            printError("\(identifier): \(count) \(identifier.lowercased().contains("audio") ? "frames" : "items")"
                + ((result.itemsRejected[identifier] ?? 0) > 0 ? ", \(result.itemsRejected[identifier]!) refused" : ""))
        }
        printError("step \(result.identifier) ended by \(result.endReason) after \(String(format: "%.2f", result.endSeconds - result.startSeconds)) s; "
            + "peak resident memory \(Self.peakResidentMegabytes().map(String.init) ?? "unknown") MB")
        print(JSONWriter(indent: 2).string(result.researchKitJSON(utcOffsetSeconds: TimeZone.current.secondsFromGMT())))
    }

    /// One recorder fed by a pulled source (simulate, replay:FILE): a one-recorder active step,
    /// paced in real time unless --fast; prints the file results.
    private func recordPulled() throws {
        let configuration: RecorderConfiguration
        if kind == .audio {
            guard source == "simulate" else {
                printError("\(source!): audio replay is not supported (audio sources: simulate, stdin, tcp:PORT, unix:PATH)")
                throw ExitCode(ActiveTask.Status.invalidInput)
            }
            guard let wavEncoding = WAVWriter.Encoding(rawValue: encoding) else {
                printError("\(out): --encoding must be pcm16, pcm24 or float32")
                throw ExitCode(ActiveTask.Status.invalidInput)
            }
            configuration = RecorderConfiguration(identifier: identifier ?? "streamingAudio",
                                                  kind: .audio(sampleRateHz: sampleRate, channels: channels, encoding: wavEncoding))
        } else {
            let recorderKind = kind.recorderKind!
            if source == "simulate", [.location, .touch].contains(recorderKind) {
                printError("simulate: no simulator for \(kind.rawValue) (simulate: accelerometer, deviceMotion, pedometer, heartRate, audio)")
                throw ExitCode(ActiveTask.Status.invalidInput)
            }
            configuration = RecorderConfiguration(identifier: identifier ?? kind.rawValue, kind: .sensor(recorderKind),
                                                  frequencyHz: recorderKind == .accelerometer || recorderKind == .deviceMotion ? frequency : nil,
                                                  rollingFileSizeThreshold: rollover, flushIntervalSeconds: flushInterval)
        }
        let plan = RecorderPlan(configuration, source: source == "simulate"
            ? .simulate(cadenceStepsPerMinute: cadence) : .replay(path: String(source!.dropFirst("replay:".count))))
        // A replay ends with its file unless --duration says otherwise.
        let length = duration ?? (source == "simulate" ? 10 : .infinity)
        let result = try runStep(ActiveStepConfiguration(identifier: configuration.identifier, durationSeconds: length, recorders: [plan],
                                                         realTime: !fast))
        if let rejected = result.itemsRejected[configuration.identifier], rejected > 0 {
            printError("\(rejected) item(s) could not be written and were left out; first: \(result.firstRejections[configuration.identifier] ?? "")")
        }
        Self.printResults(result.fileResults)
    }

    /// Runs an active step to its end (SIGINT/SIGTERM stop it), mapping its errors to exit status 3.
    private func runStep(_ step: ActiveStepConfiguration) throws -> StepResult {
        final class Outcome: @unchecked Sendable { var result: Result<StepResult, any Error>? }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let directory = out
        Task {
            do { outcome.result = .success(try await ActiveStep.run(step, outputDirectory: directory, stop: interruption)) } catch {
                outcome.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        switch outcome.result {
        case .success(let result):
            return result
        case .failure(let error as RecordingError):
            printError(error.description)
        case .failure(let error):
            printError(String(describing: error))
        case nil:
            break
        }
        throw ExitCode(ActiveTask.Status.invalidInput)
    }

    /// This process's peak resident set, MB: `VmHWM` of /proc/self/status, which belongs to the
    /// address space created by exec (getrusage's ru_maxrss survives exec and can report the
    /// parent's peak after a fork).
    static func peakResidentMegabytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return nil }
        return kilobytes / 1024
    }

    /// A streaming source: stdin, or the first sender on `tcp:PORT` / `unix:PATH`; nil for the others.
    private func openStream() throws(RecordingError) -> (descriptor: Int32, name: String)? {
        guard let source else { return nil }
        if source == "stdin" { return (0, "stdin") }
        guard source.hasPrefix("tcp:") || source.hasPrefix("unix:") else { return nil }
        let listener = try SocketListener(source)
        printError("listening on \(listener.port.map { "tcp port \($0)" } ?? source)")
        return (try listener.accept(), source)
    }

    /// A sensor recorder fed by a streaming source (stdin or a socket), JSON lines or GATT hex lines.
    private func recordSensor(_ recorderKind: RecorderKind) throws -> [FileResult] {
        let configuration = RecorderConfiguration(identifier: identifier ?? kind.rawValue, kind: .sensor(recorderKind),
                                                  frequencyHz: recorderKind == .accelerometer || recorderKind == .deviceMotion ? frequency : nil,
                                                  rollingFileSizeThreshold: rollover, flushIntervalSeconds: flushInterval)
        // Before any file exists: a bad source leaves nothing behind.
        guard let (descriptor, name) = try openStream() else { throw RecordingError(file: source ?? "", reason: .sample("not a streaming source")) }
        guard format == "json" || (format == "gatt-hex" && recorderKind == .healthQuantity) else {
            throw RecordingError(file: name, reason: .sample("--format must be json, or gatt-hex for heartRate"))
        }
        let recorder = try SensorRecorder(configuration, outputDirectory: out)
        printError("recording \(kind.rawValue) to \(recorder.currentPath)")
        let start = DataLogger.wallClock()
        func expired() -> Bool { interruption.isStopped || duration.map { DataLogger.wallClock() - start >= $0 } ?? false }
        let reader = LineReader(descriptor: descriptor, name: name)
        var decoder = JSONLinesDecoder(kind: recorderKind, name: name)
        var heartRate = GATTHeartRateLines(name: name)
        while !expired(), let lines = try reader.nextLines() {
            let (items, error) = format == "gatt-hex" ? heartRate.decode(lines) : decoder.decode(lines)
            try recorder.record(items)
            if let error {
                // Keep what came before the bad line: finish the files, then report.
                Self.printResults(try recorder.stop())
                printError(error.description)
                throw ExitCode(ActiveTask.Status.invalidInput)
            }
        }
        if format == "gatt-hex" { printError("\(heartRate.rrIntervals) RR interval(s) parsed (the heart-rate item format has no field for them)") }
        if recorder.rejectedItems > 0 {
            printError("\(recorder.rejectedItems) item(s) could not be written and were left out; first: \(recorder.firstRejection ?? "")")
        }
        return try recorder.stop()
    }

    /// The audio recorder fed by raw PCM from a streaming source (stdin or a socket).
    private func recordAudio() throws -> FileResult {
        guard let wavEncoding = WAVWriter.Encoding(rawValue: encoding) else {
            throw RecordingError(file: out, reason: .sample("--encoding must be pcm16, pcm24 or float32"))
        }
        let configuration = RecorderConfiguration(identifier: identifier ?? "streamingAudio",
                                                  kind: .audio(sampleRateHz: sampleRate, channels: channels, encoding: wavEncoding))
        guard let (descriptor, name) = try openStream() else { throw RecordingError(file: source ?? "", reason: .sample("not a streaming source")) }
        let recorder = try AudioRecorder(configuration, outputDirectory: out)
        printError("recording audio to \(recorder.path)")
        let block = max(1, sampleRate / 20)
        do {
            let bytesPerSample = pcm == "f32le" ? 4 : 2
            guard pcm == "s16le" || pcm == "f32le" else { throw RecordingError(file: name, reason: .sample("--pcm must be s16le or f32le")) }
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: block * channels * bytesPerSample)
            while !interruption.isStopped, duration.map({ Double(recorder.frames) / Double(sampleRate) < $0 }) ?? true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count < 0 { throw RecordingError(file: name, reason: .system(call: "read", message: String(cString: strerror(errno)))) }
                if count == 0 { break }
                pending += chunk[0..<count]
                let frameBytes = channels * bytesPerSample
                let usable = pending.count / frameBytes * frameBytes
                guard usable > 0 else { continue }
                var samples = [Float](repeating: 0, count: usable / bytesPerSample)
                pending.withUnsafeBytes { raw in
                    for i in 0..<samples.count {
                        if bytesPerSample == 2 {
                            samples[i] = Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self))) / 32_768
                        } else {
                            samples[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
                        }
                    }
                }
                pending.removeFirst(usable)
                try recorder.write(samples)
            }
            if !pending.isEmpty { printError("\(name): \(pending.count) trailing byte(s) do not make a whole frame; left out") }
        }
        return try recorder.stop()
    }
}
