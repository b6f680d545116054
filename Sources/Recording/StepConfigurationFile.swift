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
            guard let item = entry.object else { throw fail("\(at).kind: a string is required") }
            let spec = try RecorderSpec(json: item, at: at, file: file)
            if spec.source == .stdin, plans.contains(where: { if case .live(let other) = $0.source { other.address == "stdin" } else { false } }) {
                throw fail("\(at).source: only one recorder can read stdin")
            }
            if spec.kind == .audio, spec.source.isLive || { if case .replay = spec.source { true } else { false } }() {
                throw fail("\(at).source: \(RecorderSpec.sourceForms)")
            }
            do { plans.append(try spec.plan(stop: stop)) } catch { throw fail("\(at).source: \(error.description)") }
        }
        let steps = root["stopAfterSteps"] == nil ? nil : try integer(root["stopAfterSteps"], "stopAfterSteps", 0, in: 1...10_000_000)
        if steps != nil, !plans.contains(where: { $0.configuration.kind == .sensor(.pedometer) }) {
            throw fail("stopAfterSteps needs a pedometer recorder")
        }
        self.init(identifier: identifier, durationSeconds: duration, stopAfterSteps: steps, recorders: plans,
                  realTime: root["realTime"]?.bool ?? true)
    }
}
