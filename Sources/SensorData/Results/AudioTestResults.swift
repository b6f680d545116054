import InputGuards

/// `ORKEnvironmentSPLMeterResult` (docs/formats.md §10.1).
public struct SPLMeterResult: Sendable, Hashable {
    /// The step's identifier (`splMeter`).
    public var identifier: String?
    /// When the step began, as recorded.
    public var startDate: DateString?
    /// When the step ended, as recorded.
    public var endDate: DateString?
    /// dB; −23.3 on iPhone (a level is dBFS + 117.3), −29.3 on iPad.
    public var sensitivityOffsetDecibels: Double?
    /// One level per sampling interval, dB SPL (A-weighted approximation).
    public var recordedSPLMeterSamplesDecibels: [Double]

    public init(identifier: String? = nil, startDate: DateString? = nil, endDate: DateString? = nil,
                sensitivityOffsetDecibels: Double? = nil, recordedSPLMeterSamplesDecibels: [Double]) {
        self.identifier = identifier
        self.startDate = startDate
        self.endDate = endDate
        self.sensitivityOffsetDecibels = sensitivityOffsetDecibels
        self.recordedSPLMeterSamplesDecibels = recordedSPLMeterSamplesDecibels
    }

    /// The readings a meter can give, dB: sound in air ends near 194 dB SPL, and a phone's
    /// quietest reading (its noise floor, dBFS + 117.3) lies far above −200 dB. 1e300 dB (or an
    /// overflowing literal, ±∞) is no reading.
    public static let plausibleDecibels: ClosedRange<Double> = -200...200

    /// Readings and the sensitivity offset within ``plausibleDecibels``, else refused naming the key.
    static func decode(_ object: JSONObject, path: String, reader: ObjectReader) throws(ReadError) -> SPLMeterResult {
        var samples: [Double] = []
        if let values = object["recordedSPLMeterSamples"], values != .null {
            for (index, value) in try reader.array(values, path + "recordedSPLMeterSamples").enumerated() {
                let at = "\(path)recordedSPLMeterSamples[\(index)]"
                samples.append(try reader.plausible(reader.number(value, at), at, "reading", plausibleDecibels, " dB"))
            }
        }
        let offset = path + "sensitivityOffset"
        return SPLMeterResult(
            identifier: try reader.optionalString(object["identifier"], path + "identifier"),
            startDate: try reader.optionalDate(object["startDate"], path + "startDate"),
            endDate: try reader.optionalDate(object["endDate"], path + "endDate"),
            sensitivityOffsetDecibels: try reader.plausible(reader.optionalNumber(object["sensitivityOffset"], offset), offset, "sensitivity offset",
                                                            plausibleDecibels, " dB"),
            recordedSPLMeterSamplesDecibels: samples)
    }
}

/// `ORKdBHLToneAudiometryResult` (docs/formats.md §10.2).
public struct DBHLToneAudiometryResult: Sendable, Hashable {
    /// One presentation (`ORKdBHLToneAudiometryUnit`); times are step runtime, s.
    public struct Unit: Sendable, Hashable {
        public var dBHLValue: Double
        public var startOfUnitTimeStamp: Double
        public var preStimulusDelay: Double
        /// 0 if the listener did not tap.
        public var userTapTimeStamp: Double
        /// 0 if the presentation did not time out.
        public var timeoutTimeStamp: Double

        public init(dBHLValue: Double, startOfUnitTimeStamp: Double, preStimulusDelay: Double,
                    userTapTimeStamp: Double, timeoutTimeStamp: Double) {
            self.dBHLValue = dBHLValue
            self.startOfUnitTimeStamp = startOfUnitTimeStamp
            self.preStimulusDelay = preStimulusDelay
            self.userTapTimeStamp = userTapTimeStamp
            self.timeoutTimeStamp = timeoutTimeStamp
        }
    }

    /// One entry of the frequency list (`ORKdBHLToneAudiometryFrequencySample`).
    public struct FrequencySample: Sendable, Hashable {
        public var frequencyHz: Double
        /// 0 left, 1 right.
        public var channel: Int
        /// dB HL; nil = no threshold (`DBL_MAX`, its overflowing spelling, or infinity).
        public var calculatedThresholdDecibelsHL: Double?
        public var units: [Unit]

        public init(frequencyHz: Double, channel: Int, calculatedThresholdDecibelsHL: Double?, units: [Unit]) {
            self.frequencyHz = frequencyHz
            self.channel = channel
            self.calculatedThresholdDecibelsHL = calculatedThresholdDecibelsHL
            self.units = units
        }
    }

    public var identifier: String?
    public var startDate: DateString?
    public var endDate: DateString?
    /// System output volume 0–1.
    public var outputVolume: Double?
    public var tonePlaybackDurationSeconds: Double?
    public var postStimulusDelaySeconds: Double?
    public var headphoneType: String?
    public var samples: [FrequencySample]
    /// The result's `userInfo` (`hearing-test` writes `incomplete`, true until the test ends).
    public var userInfo: JSONObject

    public init(identifier: String? = nil, startDate: DateString? = nil, endDate: DateString? = nil,
                outputVolume: Double? = nil, tonePlaybackDurationSeconds: Double? = nil,
                postStimulusDelaySeconds: Double? = nil, headphoneType: String? = nil, samples: [FrequencySample],
                userInfo: JSONObject = JSONObject()) {
        self.userInfo = userInfo
        self.identifier = identifier
        self.startDate = startDate
        self.endDate = endDate
        self.outputVolume = outputVolume
        self.tonePlaybackDurationSeconds = tonePlaybackDurationSeconds
        self.postStimulusDelaySeconds = postStimulusDelaySeconds
        self.headphoneType = headphoneType
        self.samples = samples
    }

    /// The `userInfo` key under which `hearing-test` lists the entries it had begun and not
    /// finished (`[{"frequency": Hz, "channel": 0|1}]`): their missing threshold means "not
    /// finished", not "no response" (ResearchKit writes DBL_MAX for both).
    public static let unfinishedKey = "unfinishedFrequencies"

    /// An entry of the frequency list by its ear and frequency.
    public struct EntryKey: Sendable, Hashable {
        public var channel: Int
        public var frequencyHz: Double

        public init(_ sample: FrequencySample) { (channel, frequencyHz) = (sample.channel, sample.frequencyHz) }
        public init(channel: Int, frequencyHz: Double) { (self.channel, self.frequencyHz) = (channel, frequencyHz) }
    }

    /// The entries `userInfo` says were not finished (a channel that is not a whole number names none).
    public var unfinishedEntries: Set<EntryKey> {
        var entries = Set<EntryKey>()
        for item in userInfo[Self.unfinishedKey]?.array ?? [] {
            if let f = item.object?["frequency"]?.number, let channel = item.object?["channel"]?.number.flatMap({ Int(exactly: $0) }) {
                entries.insert(EntryKey(channel: channel, frequencyHz: f))
            }
        }
        return entries
    }

    /// This result with `userInfo` naming `samples[from...]` as not finished (none: the key removed).
    public func markingUnfinished(from index: Int) -> DBHLToneAudiometryResult {
        var copy = self
        var info = JSONObject()
        for (key, value) in userInfo.members where key != Self.unfinishedKey { info.append(key, value) }
        let open = samples.dropFirst(index)
        if !open.isEmpty {
            info.append(Self.unfinishedKey, .array(open.map { .object(JSONObject(["frequency": .number($0.frequencyHz), "channel": .number(Double($0.channel))])) }))
        }
        copy.userInfo = info
        return copy
    }

    /// Values at or above this are "no threshold" (docs/formats.md §10.2).
    static let noThresholdLimit = 1e308

    /// Hearing levels an audiometer presents, dB HL: clinical audiometers span −10…120 dB HL
    /// (ResearchKit's step −10…75), and 10 dB below and 20 dB above leave room for a calibration
    /// offset. A threshold or presented level outside it (other than the no-threshold values) is
    /// refused where it is read, naming its place (docs/formats.md §10.2): 1e300 dB HL is not a
    /// hearing level, and it would make a PTA of 3e299 dB HL and a "complete" grade.
    public static let plausibleDecibelsHL: ClosedRange<Double> = -20...140

    /// The result's `outputVolume`, the system volume when the test ran: absent, or a fraction
    /// 0…1 (AVAudioSession's); anything else (−1, 1e300, ±∞) is refused naming it, since the
    /// volume correction reads it as a volume (docs/formats.md §10.2). The older tone result's,
    /// only reported, is read as it is (ResearchKit's own fixture holds 123).
    static func outputVolume(_ object: JSONObject, path: String, reader: ObjectReader) throws(ReadError) -> Double? {
        let volume = try reader.optionalNumber(object["outputVolume"], path + "outputVolume")
        if let volume, !(0...1).contains(volume) {
            throw reader.error(.invalidValue("outputVolume \(volume) is not a system volume (0…1)"), path + "outputVolume")
        }
        return volume
    }

    /// The text of a refused level: what it is, the range, and why.
    public static func implausible(_ what: String, _ value: Double) -> String {
        "\(what) \(value) dB HL is outside \(plausibleDecibelsHL.lowerBound.compactDescription)…\(plausibleDecibelsHL.upperBound.compactDescription) dB HL, "
            + "the levels an audiometer presents"
    }

    static func decode(_ object: JSONObject, path: String, reader: ObjectReader) throws(ReadError) -> DBHLToneAudiometryResult {
        var samples: [FrequencySample] = []
        if let values = object["samples"], values != .null {
            for (index, value) in try reader.array(values, path + "samples").enumerated() {
                let at = "\(path)samples[\(index)]"
                let sample = try reader.object(value, at)
                var units: [Unit] = []
                if let list = sample["units"], list != .null {
                    for (k, unitValue) in try reader.array(list, at + ".units").enumerated() {
                        let u = "\(at).units[\(k)]"
                        let unit = try reader.object(unitValue, u)
                        let level = try reader.number(unit["dBHLValue"], u + ".dBHLValue")
                        guard plausibleDecibelsHL.contains(level) else { throw reader.error(.invalidValue(implausible("level", level)), u + ".dBHLValue") }
                        units.append(Unit(
                            dBHLValue: level,
                            startOfUnitTimeStamp: try reader.optionalNumber(unit["startOfUnitTimeStamp"], u + ".startOfUnitTimeStamp") ?? 0,
                            preStimulusDelay: try reader.optionalNumber(unit["preStimulusDelay"], u + ".preStimulusDelay") ?? 0,
                            userTapTimeStamp: try reader.optionalNumber(unit["userTapTimeStamp"], u + ".userTapTimeStamp") ?? 0,
                            timeoutTimeStamp: try reader.optionalNumber(unit["timeoutTimeStamp"], u + ".timeoutTimeStamp") ?? 0))
                    }
                }
                let channel = try reader.number(sample["channel"], at + ".channel")
                guard channel == 0 || channel == 1 else {
                    throw reader.error(.invalidValue("channel must be 0 (left) or 1 (right), found \(channel)"), at + ".channel")
                }
                var threshold = try reader.optionalNumber(sample["calculatedThreshold"], at + ".calculatedThreshold")
                if let value = threshold, value.isNaN || abs(value) >= noThresholdLimit { threshold = nil }
                if let value = threshold, !plausibleDecibelsHL.contains(value) {
                    throw reader.error(.invalidValue(implausible("threshold", value)), at + ".calculatedThreshold")
                }
                samples.append(FrequencySample(
                    frequencyHz: try reader.frequency(sample["frequency"], at + ".frequency"),
                    channel: Int(channel), calculatedThresholdDecibelsHL: threshold, units: units))
            }
        }
        return DBHLToneAudiometryResult(
            identifier: try reader.optionalString(object["identifier"], path + "identifier"),
            startDate: try reader.optionalDate(object["startDate"], path + "startDate"),
            endDate: try reader.optionalDate(object["endDate"], path + "endDate"),
            outputVolume: try outputVolume(object, path: path, reader: reader),
            tonePlaybackDurationSeconds: try reader.optionalNumber(object["tonePlaybackDuration"], path + "tonePlaybackDuration"),
            postStimulusDelaySeconds: try reader.optionalNumber(object["postStimulusDelay"], path + "postStimulusDelay"),
            headphoneType: try reader.optionalString(object["headphoneType"], path + "headphoneType"),
            samples: samples, userInfo: object["userInfo"]?.object ?? JSONObject())
    }
}

/// `ORKToneAudiometryResult`, the older uncalibrated tone test (docs/formats.md §10.3).
public struct ToneAudiometryResult: Sendable, Hashable {
    public struct Sample: Sendable, Hashable {
        public var frequencyHz: Double
        /// The ear that played: 0 left, 1 right.
        public var channel: Int
        /// The button tapped; −1 = no tap before the tone ended.
        public var channelSelected: Int
        /// Linear peak amplitude, uncalibrated.
        public var amplitude: Double
    }

    public var identifier: String?
    public var outputVolume: Double?
    public var samples: [Sample]

    static func decode(_ object: JSONObject, path: String, reader: ObjectReader) throws(ReadError) -> ToneAudiometryResult {
        var samples: [Sample] = []
        if let values = object["samples"], values != .null {
            for (index, value) in try reader.array(values, path + "samples").enumerated() {
                let at = "\(path)samples[\(index)]"
                let sample = try reader.object(value, at)
                samples.append(Sample(
                    frequencyHz: try reader.frequency(sample["frequency"], at + ".frequency"),
                    channel: Int(exactly: try reader.number(sample["channel"], at + ".channel")) ?? -1,
                    channelSelected: Int(exactly: try reader.number(sample["channelSelected"], at + ".channelSelected")) ?? -1,
                    amplitude: try reader.number(sample["amplitude"], at + ".amplitude")))
            }
        }
        return ToneAudiometryResult(
            identifier: try reader.optionalString(object["identifier"], path + "identifier"),
            outputVolume: try reader.optionalNumber(object["outputVolume"], path + "outputVolume"),
            samples: samples)
    }
}

/// A table of audiograms with NHANES/ResearchKit column names (`AUXU500`, `AUXU1K1`, …, dB HL),
/// e.g. ResearchKit's golden set `ORKAudiometryTestData` or the NHANES AUX files.
public struct AudiogramTable: Sendable, Hashable {
    /// Column names in the order of the first row, e.g. `["AUXU500", "AUXU1K1", …]`.
    public var columns: [String]
    /// One row per audiogram; NaN where a value is missing.
    public var rows: [[Double]]

    /// The test frequency of an `AUXU…` column name, Hz (`AUXU1K2` → 1000, `AUXU500R` → 500).
    public static func frequencyHz(ofColumn name: String) -> Double? {
        guard name.hasPrefix("AUXU") else { return nil }
        var body = name.dropFirst(4)
        if let last = body.last, last == "R" || last == "L" { body = body.dropLast() }
        var hertz: Double?
        if let k = body.firstIndex(of: "K") {
            let suffix = body[body.index(after: k)...]
            guard suffix.isEmpty || suffix == "1" || suffix == "2" else { return nil }
            hertz = decimal(body[..<k]).map { $0 * 1000 }
        } else {
            hertz = decimal(body)
        }
        // Audiometric frequencies: 125 Hz … 20 kHz (extended high frequencies included).
        guard let hertz, (125...20_000).contains(hertz) else { return nil }
        return hertz
    }

    /// Digits with at most one decimal point (`500`, `1.5`); not `Double(_:)`'s `inf`, `1e3`, `0x…`.
    private static func decimal(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.count <= 8, text.filter({ $0 == "." }).count <= 1,
            text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
        else { return nil }
        return Double(text)
    }
}
