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
    /// Kinds: accelerometer, deviceMotion, pedometer, heartRate, location, touch, audio; optional per
    /// recorder: identifier (default: the kind), flushInterval (s), rollover (bytes). Sources:
    /// `simulate` (with cadence steps/min, tapsPerSecond, and for audio noiseDBA and
    /// calibrationOffset dB), `replay:FILE`, or live `stdin`, `tcp:PORT`, `unix:PATH` (sensor kinds;
    /// format json, csv or gatt-hex; bufferItems, the queue bound; overflow block or drop; sockets are bound when the
    /// configuration is read). Errors name the key.
    public init(json: JSONValue, file: String) throws(RecordingError) {
        func fail(_ message: String) -> RecordingError { RecordingError(file: file, reason: .sample(message)) }
        guard let root = json.object else { throw fail("the step configuration must be a JSON object") }
        guard let identifier = root["identifier"]?.string else { throw fail("identifier: a string is required") }
        guard let duration = root["duration"]?.number, duration > 0 else { throw fail("duration: a number of seconds > 0 is required") }
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
                let rate = Int(item["sampleRate"]?.number ?? 44_100), channels = Int(item["channels"]?.number ?? 1)
                guard (1_000...384_000).contains(rate), (1...8).contains(channels) else { throw fail("\(at): sampleRate 1000–384000, channels 1–8") }
                guard let encoding = WAVWriter.Encoding(rawValue: item["encoding"]?.string ?? "pcm16") else {
                    throw fail("\(at).encoding: pcm16, pcm24 or float32")
                }
                kind = .audio(sampleRateHz: rate, channels: channels, encoding: encoding)
            default: throw fail("\(at).kind: unknown kind \"\(kindName)\"")
            }
            let frequency = item["frequency"]?.number
            if let frequency, !(frequency > 0 && frequency <= 10_000) { throw fail("\(at).frequency: (0, 10000] Hz") }
            let defaultFrequency: Double? = kindName == "accelerometer" || kindName == "deviceMotion" ? 100 : nil
            let sourceName = item["source"]?.string ?? "simulate"
            let source: RecorderPlan.Source
            switch (sourceName, kind) {
            case ("simulate", _):
                var settings = SimulatorSettings()
                settings.cadenceStepsPerMinute = item["cadence"]?.number ?? settings.cadenceStepsPerMinute
                settings.tapsPerSecond = item["tapsPerSecond"]?.number ?? settings.tapsPerSecond
                settings.roomNoiseDBA = item["noiseDBA"]?.number
                settings.calibrationOffsetDecibels = item["calibrationOffset"]?.number ?? settings.calibrationOffsetDecibels
                guard settings.cadenceStepsPerMinute > 0, settings.tapsPerSecond > 0 else { throw fail("\(at): cadence and tapsPerSecond must be > 0") }
                source = .simulate(settings)
            case (_, .sensor) where sourceName.hasPrefix("replay:"):
                source = .replay(path: String(sourceName.dropFirst("replay:".count)))
            case (_, .sensor(let sensorKind)) where sourceName == "stdin" || sourceName.hasPrefix("tcp:") || sourceName.hasPrefix("unix:"):
                guard let format = LineFormat(rawValue: item["format"]?.string ?? "json") else { throw fail("\(at).format: json, csv or gatt-hex") }
                if sourceName == "stdin", plans.contains(where: { if case .live(let other) = $0.source { other.address == "stdin" } else { false } }) {
                    throw fail("\(at).source: only one recorder can read stdin")
                }
                let capacity = Int(item["bufferItems"]?.number ?? 262_144)
                guard capacity > 0 else { throw fail("\(at).bufferItems: must be > 0") }
                guard let overflow = OverflowPolicy(rawValue: item["overflow"]?.string ?? "block") else { throw fail("\(at).overflow: block or drop") }
                do {
                    source = .live(try LiveLineSource(address: sourceName, format: format, kind: sensorKind,
                                                      expectedFrequencyHz: frequency ?? defaultFrequency, capacityItems: capacity,
                                                      overflow: overflow))
                } catch {
                    throw fail("\(at).source: \(error.description)")
                }
            default:
                throw fail("\(at).source: simulate, replay:FILE, stdin, tcp:PORT or unix:PATH (all but simulate for sensor kinds)")
            }
            plans.append(RecorderPlan(RecorderConfiguration(
                identifier: item["identifier"]?.string ?? kindName, kind: kind, frequencyHz: frequency ?? defaultFrequency,
                rollingFileSizeThreshold: Int(item["rollover"]?.number ?? 0), flushIntervalSeconds: item["flushInterval"]?.number ?? 1),
                source: source))
        }
        let steps = root["stopAfterSteps"]?.number.map { Int($0) }
        if steps != nil, !plans.contains(where: { $0.configuration.kind == .sensor(.pedometer) }) {
            throw fail("stopAfterSteps needs a pedometer recorder")
        }
        self.init(identifier: identifier, durationSeconds: duration, stopAfterSteps: steps, recorders: plans,
                  realTime: root["realTime"]?.bool ?? true)
    }
}
