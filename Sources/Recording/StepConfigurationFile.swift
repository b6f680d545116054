import InputGuards
import AudioIO
import SensorData

extension ActiveStepConfiguration {
    /// An active step from its JSON description (`activetask record step CONFIG.json`):
    ///
    ///     {"identifier": "walking.outbound", "duration": 30, "stopAfterSteps": 20, "realTime": true,
    ///      "recorders": [{"kind": "accelerometer", "frequency": 100, "source": "simulate", "cadence": 110},
    ///                    {"kind": "pedometer", "source": "simulate"},
    ///                    {"kind": "audio", "sampleRate": 48000, "channels": 1, "encoding": "pcm16", "source": "simulate"},
    ///                    {"kind": "deviceMotion", "identifier": "motion", "source": "replay:walk.json"},
    ///                    {"kind": "heartRate", "source": "tcp:5000", "format": "gatt-hex"}]}
    ///
    /// or with devices: `{"kind": "audio", "source": "alsa:plughw:CARD=USB", "sampleRate": 48000}`,
    /// `{"kind": "accelerometer", "source": "iio:lsm6dsx_accel", "frequency": 104, "iioRoot": "/"}`.
    ///
    /// Kinds: accelerometer, deviceMotion, pedometer, heartRate, location, touch, audio; optional per
    /// recorder: identifier (default: the kind), flushInterval (s), rollover (bytes). Sources:
    /// `simulate` (with cadence steps/min, tapsPerSecond, and for audio noiseDBA and
    /// calibrationOffset dB), `replay:FILE`, or live `stdin`, `tcp:PORT`, `unix:PATH` (sensor kinds;
    /// format json, csv or gatt-hex; bufferItems, the queue bound; overflow block or drop; sockets are bound when the
    /// configuration is read), `iio:DEVICE` (accelerometer; ``IIOSource``, under iioRoot) or `alsa:DEVICE` (audio;
    /// ``AlsaCapture``) or `ble:ADDRESS` (heartRate; ``BLEHeartRateSource``, reconnectSeconds); devices
    /// are opened when the configuration is read, within openTimeoutSeconds (`stop`, the command's
    /// signal flag, ends the wait), so a missing, busy or silent one leaves no file behind. Errors
    /// name the key.
    public init(json: JSONValue, file: String, stop: StopSignal = StopSignal()) throws(RecordingError) {
        func fail(_ message: String) -> RecordingError { RecordingError(file: file, reason: .sample(message)) }
        /// A whole number within `range` at `key`, or `fallback` when the key is absent.
        func integer(_ value: JSONValue?, _ key: String, _ fallback: Int, in range: ClosedRange<Int>) throws(RecordingError) -> Int {
            guard let value else { return fallback }
            guard let number = value.number, let whole = Int(checking: number, in: range), Double(whole) == number else {
                throw fail("\(key): a whole number in \(range.lowerBound)…\(range.upperBound) is required")
            }
            return whole
        }
        /// A number within `range` at `key`, or `fallback` when the key is absent.
        func number(_ value: JSONValue?, _ key: String, _ fallback: Double?, in range: ClosedRange<Double>) throws(RecordingError) -> Double? {
            guard let value else { return fallback }
            guard let number = value.number, number.isFinite, range.contains(number) else {
                throw fail("\(key): a number in \(range.lowerBound.compactDescription)…\(range.upperBound.compactDescription) is required")
            }
            return number
        }
        guard let root = json.object else { throw fail("the step configuration must be a JSON object") }
        guard let identifier = root["identifier"]?.string else { throw fail("identifier: a string is required") }
        guard root["duration"] != nil, let duration = try number(root["duration"], "duration", nil, in: 0.001...604_800) else {
            throw fail("duration: a number of seconds in 0.001…604800 is required")
        }
        guard let list = root["recorders"]?.array, !list.isEmpty else { throw fail("recorders: a non-empty array is required") }
        var plans: [RecorderPlan] = []
        for (index, entry) in list.enumerated() {
            let at = "recorders[\(index)]"
            guard let item = entry.object, let kindName = item["kind"]?.string else { throw fail("\(at).kind: a string is required") }
            let kind: RecorderConfiguration.Kind
            switch kindName {
            case "accelerometer": kind = .sensor(.accelerometer)
            case "deviceMotion": kind = .sensor(.deviceMotion)
            case "pedometer": kind = .sensor(.pedometer)
            case "heartRate": kind = .sensor(.healthQuantity)
            case "location": kind = .sensor(.location)
            case "touch": kind = .sensor(.touch)
            case "audio":
                let rate = try integer(item["sampleRate"], "\(at).sampleRate", RecorderConfiguration.Defaults.sampleRateHz, in: 1_000...384_000)
                let channels = try integer(item["channels"], "\(at).channels", 1, in: 1...8)
                guard let encoding = WAVWriter.Encoding(rawValue: item["encoding"]?.string ?? "pcm16") else {
                    throw fail("\(at).encoding: pcm16, pcm24 or float32")
                }
                kind = .audio(sampleRateHz: rate, channels: channels, encoding: encoding)
            default: throw fail("\(at).kind: unknown kind \"\(kindName)\"")
            }
            let frequency = try number(item["frequency"], "\(at).frequency", nil, in: 0.001...10_000)
            let defaultFrequency = kindName == "accelerometer" || kindName == "deviceMotion" ? RecorderConfiguration.Defaults.motionFrequencyHz : nil
            let sourceName = item["source"]?.string ?? SourceAddress.simulate.description
            let unknownSource = fail("\(at).source: simulate, replay:FILE, stdin, tcp:PORT, unix:PATH, iio:DEVICE (accelerometer, deviceMotion), ble:ADDRESS (heartRate), alsa:DEVICE (audio)")
            guard let address = SourceAddress(sourceName) else { throw unknownSource }
            let source: RecorderPlan.Source
            let configuration = RecorderConfiguration(
                identifier: item["identifier"]?.string ?? kindName, kind: kind, frequencyHz: frequency ?? defaultFrequency,
                rollingFileSizeThreshold: try integer(item["rollover"], "\(at).rollover", 0, in: 0...(1 << 40)),
                flushIntervalSeconds: try number(item["flushInterval"], "\(at).flushInterval", RecorderConfiguration.Defaults.flushIntervalSeconds, in: 0...3_600)!)
            if address.isDevice {
                let defaults = RecorderPlan.DeviceOptions()
                let options = RecorderPlan.DeviceOptions(
                    iioRoot: item["iioRoot"]?.string ?? defaults.iioRoot,
                    capacityItems: try integer(item["bufferItems"], "\(at).bufferItems", defaults.capacityItems, in: 1...(1 << 26)),
                    reconnectSeconds: try number(item["reconnectSeconds"], "\(at).reconnectSeconds", defaults.reconnectSeconds, in: 0...86_400)!,
                    openTimeoutSeconds: try number(item["openTimeoutSeconds"], "\(at).openTimeoutSeconds", defaults.openTimeoutSeconds,
                                                   in: 0.001...86_400)!,
                    stop: stop)
                let plan: RecorderPlan?
                do {
                    plan = try RecorderPlan.device(address, configuration, options)
                } catch {
                    throw fail("\(at).source: \(error.description)")
                }
                if let plan {
                    plans.append(plan)
                    continue
                }
            }
            switch (address, kind) {
            case (.simulate, _):
                var settings = SimulatorSettings()
                settings.cadenceStepsPerMinute = try number(item["cadence"], "\(at).cadence", settings.cadenceStepsPerMinute, in: 1...400)!
                settings.tapsPerSecond = try number(item["tapsPerSecond"], "\(at).tapsPerSecond", settings.tapsPerSecond, in: 0.01...50)!
                settings.roomNoiseDBA = try number(item["noiseDBA"], "\(at).noiseDBA", nil, in: -50...200)
                settings.calibrationOffsetDecibels = try number(item["calibrationOffset"], "\(at).calibrationOffset",
                                                                settings.calibrationOffsetDecibels, in: -400...400)!
                source = .simulate(settings)
            case (.replay(let path), .sensor):
                source = .replay(path: path)
            case (_, .sensor(let sensorKind)) where address.isLive:
                guard let format = LineFormat(rawValue: item["format"]?.string ?? "json") else { throw fail("\(at).format: json, csv or gatt-hex") }
                if address == .stdin, plans.contains(where: { if case .live(let other) = $0.source { other.address == "stdin" } else { false } }) {
                    throw fail("\(at).source: only one recorder can read stdin")
                }
                let capacity = try integer(item["bufferItems"], "\(at).bufferItems", RecorderPlan.DeviceOptions().capacityItems, in: 1...(1 << 26))
                guard let overflow = OverflowPolicy(rawValue: item["overflow"]?.string ?? "block") else { throw fail("\(at).overflow: block or drop") }
                do {
                    source = .live(try LiveLineSource(address: sourceName, format: format, kind: sensorKind,
                                                      expectedFrequencyHz: frequency ?? defaultFrequency, capacityItems: capacity,
                                                      overflow: overflow))
                } catch {
                    throw fail("\(at).source: \(error.description)")
                }
            default:
                throw unknownSource
            }
            plans.append(RecorderPlan(configuration, source: source))
        }
        let steps = root["stopAfterSteps"] == nil ? nil : try integer(root["stopAfterSteps"], "stopAfterSteps", 0, in: 1...10_000_000)
        if steps != nil, !plans.contains(where: { $0.configuration.kind == .sensor(.pedometer) }) {
            throw fail("stopAfterSteps needs a pedometer recorder")
        }
        self.init(identifier: identifier, durationSeconds: duration, stopAfterSteps: steps, recorders: plans,
                  realTime: root["realTime"]?.bool ?? true)
    }
}
