import AudioIO
import InputGuards
import SensorData

/// One recorder as `record KIND --source …` and an entry of a step configuration's `recorders`
/// describe it: what it records, from where, and how; every default and bound declared here
/// once. ``plan(stop:)`` turns it into a ``RecorderPlan`` (opening a device or binding a socket
/// before any file exists).
public struct RecorderSpec: Sendable {
    /// What is recorded (a step configuration's `kind`).
    public enum Kind: String, Sendable, CaseIterable {
        case accelerometer, deviceMotion, pedometer, heartRate, location, touch, audio

        /// The sensor recorder's kind; nil for audio.
        public var sensor: RecorderKind? {
            switch self {
            case .accelerometer: .accelerometer
            case .deviceMotion: .deviceMotion
            case .pedometer: .pedometer
            case .heartRate: .healthQuantity
            case .location: .location
            case .touch: .touch
            case .audio: nil
            }
        }

        /// The identifier `record KIND` gives its file result when none is asked for: the kind's
        /// name, and for audio `streamingAudio` (ResearchKit's streaming audio recorder's).
        public var standaloneIdentifier: String { self == .audio ? "streamingAudio" : rawValue }
    }

    /// What is recorded.
    public var kind: Kind
    /// The file result's identifier (nil: the kind's name).
    public var identifier: String?
    /// Where the samples come from.
    public var source = SourceAddress.simulate
    /// Motion sampling frequency, Hz (nil: 100 Hz for accelerometer and device motion, none for
    /// the other kinds); a live source's items are checked against it.
    public var frequencyHz: Double?
    /// Audio sample rate, Hz.
    public var sampleRateHz = RecorderConfiguration.Defaults.sampleRateHz
    /// Audio channels.
    public var channels = 1
    /// WAV encoding.
    public var encoding = WAVWriter.Encoding.pcm16
    /// Items reach the file at least this often, s.
    public var flushIntervalSeconds = RecorderConfiguration.Defaults.flushIntervalSeconds
    /// JSON files roll over at this size, bytes (0: never).
    public var rolloverBytes = 0
    /// The simulators' walker cadence, tapper rate, room noise and calibration.
    public var simulator = SimulatorSettings()
    /// Lines from stdin or a socket: json, csv or gatt-hex.
    public var format = LineFormat.json
    /// A live source's queue when full: block or drop.
    public var overflow = OverflowPolicy.block
    /// Queue bound, IIO root, reconnect and open deadlines of live and device sources.
    public var device = RecorderPlan.DeviceOptions()

    /// The allowed values, shared by the step configuration and the command line's checks.
    public enum Bounds {
        public static let frequencyHz = 0.001...10_000.0
        public static let sampleRateHz = 1_000...384_000
        public static let channels = 1...8
        public static let flushIntervalSeconds = 0.0...3_600
        public static let rolloverBytes = 0...(1 << 40)
        public static let bufferItems = 1...(1 << 26)
        public static let cadenceStepsPerMinute = 1.0...400
        public static let tapsPerSecond = 0.01...50.0
        public static let noiseDBA = -50.0...200
        public static let calibrationOffsetDecibels = -400.0...400
        public static let reconnectSeconds = 0.0...86_400
        public static let openTimeoutSeconds = 0.001...86_400.0
    }

    public init(kind: Kind) {
        self.kind = kind
    }

    /// The recorder's configuration: its identifier, kind, frequency, rollover and flush interval.
    public var configuration: RecorderConfiguration {
        let recorderKind: RecorderConfiguration.Kind = kind.sensor.map { .sensor($0) }
            ?? .audio(sampleRateHz: sampleRateHz, channels: channels, encoding: encoding)
        return RecorderConfiguration(identifier: identifier ?? kind.rawValue, kind: recorderKind, frequencyHz: effectiveFrequencyHz,
                                     rollingFileSizeThreshold: rolloverBytes, flushIntervalSeconds: flushIntervalSeconds)
    }

    /// ``frequencyHz``, or 100 Hz for accelerometer and device motion.
    var effectiveFrequencyHz: Double? {
        frequencyHz ?? (kind == .accelerometer || kind == .deviceMotion ? RecorderConfiguration.Defaults.motionFrequencyHz : nil)
    }

    /// The recorder's plan: a device opened (within ``RecorderPlan/DeviceOptions/openTimeoutSeconds``),
    /// a socket bound or stdin taken for lines, a replay or the simulator; refused when the
    /// source cannot record this kind.
    public func plan(stop: StopSignal) throws(RecordingError) -> RecorderPlan {
        var options = device
        options.stop = stop
        if source.isDevice, let plan = try RecorderPlan.device(source, configuration, options) { return plan }
        switch (source, kind.sensor) {
        case (.simulate, _):
            return RecorderPlan(configuration, source: .simulate(simulator))
        case (.replay(let path), .some):
            return RecorderPlan(configuration, source: .replay(path: path))
        case (_, .some(let sensor)) where source.isLive:
            return RecorderPlan(configuration, source: .live(try LiveLineSource(
                address: source.description, format: format, kind: sensor, expectedFrequencyHz: effectiveFrequencyHz,
                capacityItems: device.capacityItems, overflow: overflow)))
        default:
            throw RecordingError(file: source.description, reason: .sample("cannot record \(kind.rawValue) items"))
        }
    }
}

extension RecorderSpec {
    /// A step configuration's recorder entry (docs/devices.md): `kind` and the fields it gives
    /// over the defaults; `at` (`recorders[2]`) and `file` name a refused value.
    public init(json item: JSONObject, at: String, file: String) throws(RecordingError) {
        func fail(_ message: String) -> RecordingError { RecordingError(file: file, reason: .sample("\(at).\(message)")) }
        func integer(_ key: String, _ fallback: Int, in range: ClosedRange<Int>) throws(RecordingError) -> Int {
            guard let value = item[key] else { return fallback }
            guard let number = value.number, let whole = Int(checking: number, in: range), Double(whole) == number else {
                throw fail("\(key): a whole number in \(range.lowerBound)…\(range.upperBound) is required")
            }
            return whole
        }
        func number(_ key: String, in range: ClosedRange<Double>) throws(RecordingError) -> Double? {
            guard let value = item[key] else { return nil }
            guard let number = value.number, number.isFinite, range.contains(number) else {
                throw fail("\(key): a number in \(range.lowerBound.compactDescription)…\(range.upperBound.compactDescription) is required")
            }
            return number
        }
        func choice<T: RawRepresentable<String>>(_ key: String, _ fallback: T, _ forms: String) throws(RecordingError) -> T {
            guard let value = item[key] else { return fallback }
            guard let text = value.string, let chosen = T(rawValue: text) else { throw fail("\(key): \(forms)") }
            return chosen
        }
        guard let kindName = item["kind"]?.string else { throw fail("kind: a string is required") }
        guard let kind = Kind(rawValue: kindName) else { throw fail("kind: unknown kind \"\(kindName)\"") }
        self.init(kind: kind)
        identifier = item["identifier"]?.string
        let sourceName = item["source"]?.string ?? SourceAddress.simulate.description
        guard let address = SourceAddress(sourceName) else { throw fail("source: \(Self.sourceForms)") }
        source = address
        frequencyHz = try number("frequency", in: Bounds.frequencyHz)
        if kind == .audio {
            sampleRateHz = try integer("sampleRate", sampleRateHz, in: Bounds.sampleRateHz)
            channels = try integer("channels", channels, in: Bounds.channels)
            encoding = try choice("encoding", encoding, "pcm16, pcm24 or float32")
        }
        rolloverBytes = try integer("rollover", rolloverBytes, in: Bounds.rolloverBytes)
        flushIntervalSeconds = try number("flushInterval", in: Bounds.flushIntervalSeconds) ?? flushIntervalSeconds
        simulator.cadenceStepsPerMinute = try number("cadence", in: Bounds.cadenceStepsPerMinute) ?? simulator.cadenceStepsPerMinute
        simulator.tapsPerSecond = try number("tapsPerSecond", in: Bounds.tapsPerSecond) ?? simulator.tapsPerSecond
        simulator.roomNoiseDBA = try number("noiseDBA", in: Bounds.noiseDBA)
        simulator.calibrationOffsetDecibels = try number("calibrationOffset", in: Bounds.calibrationOffsetDecibels) ?? simulator.calibrationOffsetDecibels
        format = try choice("format", format, "json, csv or gatt-hex")
        overflow = try choice("overflow", overflow, "block or drop")
        device.iioRoot = item["iioRoot"]?.string ?? device.iioRoot
        device.capacityItems = try integer("bufferItems", device.capacityItems, in: Bounds.bufferItems)
        device.reconnectSeconds = try number("reconnectSeconds", in: Bounds.reconnectSeconds) ?? device.reconnectSeconds
        device.openTimeoutSeconds = try number("openTimeoutSeconds", in: Bounds.openTimeoutSeconds) ?? device.openTimeoutSeconds
    }

    /// The sources a step's recorder takes, for messages.
    static let sourceForms = "simulate, replay:FILE, stdin, tcp:PORT, unix:PATH, iio:DEVICE (accelerometer, deviceMotion), ble:ADDRESS (heartRate), alsa:DEVICE (audio)"
}

extension RecorderSpec {
    /// Audio from stdin or the first sender on a socket (raw interleaved PCM in `pcm`'s format, or
    /// a WAV stream whose header must match ``sampleRateHz`` and ``channels``) into a streaming WAV
    /// recorder in `folder`, until the sender closes, `durationSeconds` of audio or `stop`. The
    /// header is checked before the file exists, so a refused stream leaves nothing behind.
    /// `say` hears where it listens and records, and of trailing bytes that make no whole frame.
    public func recordAudioStream(pcm: PCMStreamReader.SampleFormat, folder: String, durationSeconds: Double?, stop: StopSignal,
                                  say: (String) -> Void) throws(RecordingError) -> FileResult {
        let name = source.description
        let descriptor: Int32
        switch source {
        case .stdin: descriptor = 0
        case .tcp, .unix:
            let listener = try SocketListener(name)
            say("listening on \(listener.port.map { "tcp port \($0)" } ?? name)")
            descriptor = try listener.accept()
        default: throw RecordingError(file: name, reason: .sample("not a streaming source"))
        }
        let stream = try PCMStreamReader(descriptor: descriptor, name: name, sampleRateHz: sampleRateHz, channels: channels, format: pcm)
        let recorder = try AudioRecorder(configuration, outputDirectory: folder)
        say("recording audio (\(stream.isWAV ? "WAV stream, " : "")\(stream.format.rawValue)) to \(recorder.path)")
        let block = max(1, sampleRateHz / 20)
        while !stop.isStopped, durationSeconds.map({ Double(recorder.frames) / Double(sampleRateHz) < $0 }) ?? true,
            let samples = try stream.nextSamples(maximumFrames: block)
        {
            try recorder.write(samples)
        }
        if stream.trailingBytes > 0 { say("\(name): \(stream.trailingBytes) trailing byte(s) do not make a whole frame; left out") }
        return try recorder.stop()
    }
}
