import Analysis
import Foundation
import Recording
import SensorData

/// Everything a hearing test is set to (docs/hearing.md): the headphone and its calibration, the
/// procedure, ears and frequencies, ResearchKit's trial timing (docs/audiometry.md §1–2), the
/// playback device and the room check (ISO 8253-1). Every default is declared here once; a
/// JSON file (``init(json:file:)``) or the command line's options override them field by field.
public struct HearingTestSpec: Sendable, Equatable {
    /// ResearchKit headphone id (`AIRPODSV1`, …; docs/audiometry.md §7.2); exactly one of this and
    /// ``calibration`` is given.
    public var headphone: String?
    /// Path of a measured calibration table (CSV or JSON, ``HeadphoneCalibration/Measured``) used
    /// in place of ``headphone``.
    public var calibration: String?
    /// ResearchKit table version the ``headphone`` is read in (docs/audiometry.md §7.4).
    public var tables = HeadphoneCalibration.TableVersion.researchKit3_2
    /// System output volume, 0–1, the ``headphone`` tables are read at (a measured table holds at
    /// its own volume only, so it requires 1).
    public var volume = 1.0
    /// Threshold procedure: ResearchKit's (docs/audiometry.md §3) or ASHA's (§5).
    public var procedure = AudiometrySimulation.Procedure.researchkit
    /// Ears in the order tested, each at most once.
    public var ears: [Audiogram.Ear] = [.right, .left]
    /// Frequencies in the order tested, Hz, 1–64 of them in 20–20,000 Hz, each in the calibration.
    public var frequenciesHz: [Double] = [1000, 2000, 4000, 8000, 500, 250]
    /// Playback device, `alsa:DEVICE` (stereo float at ``sampleRateHz``).
    public var device = "alsa:default"
    /// Sample rate of the tones, Hz.
    public var sampleRateHz = 48_000
    /// Full-level tone duration, s (ResearchKit's `toneDuration`).
    public var toneSeconds = 1.0
    /// Shortest pre-stimulus delay, s (ResearchKit: 1.0).
    public var preStimulusMinSeconds = 1.0
    /// Longest pre-stimulus delay, s, drawn in 0.1-s steps (ResearchKit: 1.9).
    public var preStimulusMaxSeconds = 1.9
    /// Response window after the tone, s (ResearchKit's `postStimulusDelay`).
    public var postStimulusSeconds = 1.0
    /// Seed of the pre-stimulus delays (nil: the clock's microseconds).
    public var seed: UInt64?
    /// Microphone of the ambient-noise check, `alsa:DEVICE` (nil: the room is not checked).
    public var microphone: String?
    /// The rate the microphone is opened at, Hz (or the nearest it gives; at least 17.8 kHz holds
    /// the 8-kHz band).
    public var microphoneSampleRateHz = 48_000
    /// The microphone's calibration: an offset in dB SPL at RMS 1.0 written as a number, or the
    /// path of the JSON `calibrate --json` writes (nil: ResearchKit's iPhone offset, uncalibrated).
    public var microphoneCalibration: String?
    /// Earphones the ambient limits are for (ISO 8253-1:2010 Table 3).
    public var earphone = AmbientNoiseLimits.Earphone.supraAural
    /// The lowest hearing level the ambient limits must allow, dB HL (ISO 8253-1 clause 11).
    public var lowestLevelDecibelsHL = 0.0
    /// Length of the ambient check before the test, s.
    public var ambientSeconds = 3.0

    /// The allowed values, shared by ``problems`` and the command line's checks.
    public enum Bounds {
        public static let volume = 0.0...1.0
        public static let sampleRateHz = 8_000...384_000
        public static let toneSeconds = 0.05...30.0
        public static let preStimulusSeconds = 0.0...30.0
        public static let postStimulusSeconds = 0.1...30.0
        public static let lowestLevelDecibelsHL = -20.0...80.0
        public static let ambientSeconds = 0.5...600.0
        public static let frequencyHz = 20.0...20_000.0
        public static let frequencyCount = 1...64
    }

    public init() {}

    /// The defaults, for help texts and for `tone`'s table version and volume.
    public static let defaults = HearingTestSpec()

    /// Ears from a comma-separated list of `left`, `right` and `both` (right, then left), each
    /// ear at most once.
    public static func ears(parsing text: String) throws(HearingTestError) -> [Audiogram.Ear] {
        var list: [Audiogram.Ear] = []
        for name in text.split(separator: ",") {
            switch name {
            case "left": list.append(.left)
            case "right": list.append(.right)
            case "both": list += [.right, .left]
            default: throw HearingTestError(.badRequest, "left, right or both, got \"\(name)\"")
            }
        }
        guard !list.isEmpty, Set(list).count == list.count else { throw HearingTestError(.badRequest, "names each ear at most once") }
        return list
    }

    /// Frequencies from a comma-separated list, Hz: 1 to 64 of them, each in 20–20,000 Hz.
    public static func frequencies(parsing text: String) throws(HearingTestError) -> [Double] {
        let list = text.split(separator: ",").map { Double($0) }
        guard Bounds.frequencyCount.contains(list.count), list.allSatisfy({ $0.map { Bounds.frequencyHz.contains($0) } ?? false }) else {
            throw HearingTestError(.badRequest, "1 to 64 frequencies in 20–20000 Hz, comma-separated")
        }
        return list.compactMap { $0 }
    }

    /// What is wrong with these settings, each naming its field (empty: none).
    public var problems: [String] {
        var found: [String] = []
        func check<T: Comparable>(_ value: T, _ range: ClosedRange<T>, _ name: String) {
            if !range.contains(value) { found.append("\(name) \(value) is outside \(range.lowerBound)…\(range.upperBound)") }
        }
        check(volume, Bounds.volume, "volume")
        check(sampleRateHz, Bounds.sampleRateHz, "sampleRateHz")
        check(microphoneSampleRateHz, Bounds.sampleRateHz, "microphoneSampleRateHz")
        check(toneSeconds, Bounds.toneSeconds, "toneSeconds")
        check(preStimulusMinSeconds, Bounds.preStimulusSeconds, "preStimulusMinSeconds")
        check(preStimulusMaxSeconds, preStimulusMinSeconds...max(preStimulusMinSeconds, Bounds.preStimulusSeconds.upperBound), "preStimulusMaxSeconds")
        check(postStimulusSeconds, Bounds.postStimulusSeconds, "postStimulusSeconds")
        check(lowestLevelDecibelsHL, Bounds.lowestLevelDecibelsHL, "lowestLevelDecibelsHL")
        check(ambientSeconds, Bounds.ambientSeconds, "ambientSeconds")
        // NaN fails every range check above through `contains`.
        if (headphone == nil) == (calibration == nil) { found.append("give headphone or calibration, not both") }
        if calibration != nil, volume != 1 { found.append("volume is for headphone tables; a measured table holds at the volume it was measured at") }
        if SourceAddress(device)?.alsaDevice == nil { found.append("device takes alsa:DEVICE, got \"\(device)\"") }
        if let microphone, SourceAddress(microphone)?.alsaDevice == nil { found.append("microphone takes alsa:DEVICE, got \"\(microphone)\"") }
        if microphone == nil, microphoneCalibration != nil { found.append("microphoneCalibration needs a microphone") }
        if ears.isEmpty || Set(ears).count != ears.count { found.append("ears names each ear at most once") }
        if !Bounds.frequencyCount.contains(frequenciesHz.count) || !frequenciesHz.allSatisfy({ Bounds.frequencyHz.contains($0) }) {
            found.append("frequenciesHz: 1 to 64 frequencies in 20–20000 Hz")
        }
        return found
    }
}

extension HearingTestSpec: Codable {
    enum CodingKeys: String, CodingKey {
        case headphone, calibration, tables, volume, procedure, ears, frequenciesHz, device, sampleRateHz, toneSeconds
        case preStimulusMinSeconds, preStimulusMaxSeconds, postStimulusSeconds, seed, microphone, microphoneSampleRateHz, microphoneCalibration
        case earphone, lowestLevelDecibelsHL, ambientSeconds
    }

    /// Fields absent from the document keep their defaults; ears are written by name.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        headphone = try c.decodeIfPresent(String.self, forKey: .headphone) ?? headphone
        calibration = try c.decodeIfPresent(String.self, forKey: .calibration) ?? calibration
        tables = try c.decodeIfPresent(HeadphoneCalibration.TableVersion.self, forKey: .tables) ?? tables
        volume = try c.decodeIfPresent(Double.self, forKey: .volume) ?? volume
        procedure = try c.decodeIfPresent(String.self, forKey: .procedure).map { name in
            guard let value = AudiometrySimulation.Procedure(rawValue: name) else {
                throw DecodingError.dataCorruptedError(forKey: .procedure, in: c, debugDescription: "researchkit or asha, got \"\(name)\"")
            }
            return value
        } ?? procedure
        ears = try c.decodeIfPresent([String].self, forKey: .ears).map { names in
            try names.map { name in
                guard let ear = Audiogram.Ear.allCases.first(where: { $0.name == name }) else {
                    throw DecodingError.dataCorruptedError(forKey: .ears, in: c, debugDescription: "left or right, got \"\(name)\"")
                }
                return ear
            }
        } ?? ears
        frequenciesHz = try c.decodeIfPresent([Double].self, forKey: .frequenciesHz) ?? frequenciesHz
        device = try c.decodeIfPresent(String.self, forKey: .device) ?? device
        sampleRateHz = try c.decodeIfPresent(Int.self, forKey: .sampleRateHz) ?? sampleRateHz
        toneSeconds = try c.decodeIfPresent(Double.self, forKey: .toneSeconds) ?? toneSeconds
        preStimulusMinSeconds = try c.decodeIfPresent(Double.self, forKey: .preStimulusMinSeconds) ?? preStimulusMinSeconds
        preStimulusMaxSeconds = try c.decodeIfPresent(Double.self, forKey: .preStimulusMaxSeconds) ?? preStimulusMaxSeconds
        postStimulusSeconds = try c.decodeIfPresent(Double.self, forKey: .postStimulusSeconds) ?? postStimulusSeconds
        seed = try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? seed
        microphone = try c.decodeIfPresent(String.self, forKey: .microphone) ?? microphone
        microphoneSampleRateHz = try c.decodeIfPresent(Int.self, forKey: .microphoneSampleRateHz) ?? microphoneSampleRateHz
        microphoneCalibration = try c.decodeIfPresent(String.self, forKey: .microphoneCalibration) ?? microphoneCalibration
        earphone = try c.decodeIfPresent(String.self, forKey: .earphone).map { name in
            guard let value = AmbientNoiseLimits.Earphone(rawValue: name) else {
                throw DecodingError.dataCorruptedError(forKey: .earphone, in: c, debugDescription: "supra-aural, ER-3A or HDA-200, got \"\(name)\"")
            }
            return value
        } ?? earphone
        lowestLevelDecibelsHL = try c.decodeIfPresent(Double.self, forKey: .lowestLevelDecibelsHL) ?? lowestLevelDecibelsHL
        ambientSeconds = try c.decodeIfPresent(Double.self, forKey: .ambientSeconds) ?? ambientSeconds
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(headphone, forKey: .headphone)
        try c.encodeIfPresent(calibration, forKey: .calibration)
        try c.encode(tables, forKey: .tables)
        try c.encode(volume, forKey: .volume)
        try c.encode(procedure.rawValue, forKey: .procedure)
        try c.encode(ears.map(\.name), forKey: .ears)
        try c.encode(frequenciesHz, forKey: .frequenciesHz)
        try c.encode(device, forKey: .device)
        try c.encode(sampleRateHz, forKey: .sampleRateHz)
        try c.encode(toneSeconds, forKey: .toneSeconds)
        try c.encode(preStimulusMinSeconds, forKey: .preStimulusMinSeconds)
        try c.encode(preStimulusMaxSeconds, forKey: .preStimulusMaxSeconds)
        try c.encode(postStimulusSeconds, forKey: .postStimulusSeconds)
        try c.encodeIfPresent(seed, forKey: .seed)
        try c.encodeIfPresent(microphone, forKey: .microphone)
        try c.encode(microphoneSampleRateHz, forKey: .microphoneSampleRateHz)
        try c.encodeIfPresent(microphoneCalibration, forKey: .microphoneCalibration)
        try c.encode(earphone.rawValue, forKey: .earphone)
        try c.encode(lowestLevelDecibelsHL, forKey: .lowestLevelDecibelsHL)
        try c.encode(ambientSeconds, forKey: .ambientSeconds)
    }

    /// The settings of a JSON document (at most 1 MiB, the file's name in messages): the fields
    /// it has over the defaults, refused with the reason when it does not decode or
    /// ``problems`` finds something.
    public init(json bytes: [UInt8], file: String) throws(HearingTestError) {
        // The project's parser first: a syntax error or an out-of-range number is named with its line and column.
        let document: JSONValue
        do { document = try JSONValue.parse(bytes, file: file) } catch { throw HearingTestError(.invalidInput, error.description) }
        // A number beyond Double's range parses as ±∞: named here with its field, not as invalid JSON.
        for (key, value) in document.object?.members ?? JSONObject().members {
            for case .number(let x) in [value] + (value.array ?? []) where !x.isFinite {
                throw HearingTestError(.invalidInput, "\(file): \(key): \(x) is not a finite number")
            }
        }
        do {
            self = try JSONDecoder().decode(HearingTestSpec.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw HearingTestError(.invalidInput, "\(file): \(Self.describe(error))")
        } catch {
            throw HearingTestError(.invalidInput, "\(file): \(error)")
        }
        if let problem = problems.first { throw HearingTestError(.invalidInput, "\(file): \(problem)") }
    }

    /// The settings of the JSON file at `path` (at most 1 MiB), as ``init(json:file:)``.
    public init(file path: String) throws(HearingTestError) {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path, maximumBytes: 1 << 20) } catch { throw HearingTestError(.invalidInput, error.description) }
        try self.init(json: bytes, file: path)
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            return (path.isEmpty ? "" : String(path.drop { $0 == "." }) + ": ") + context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}

/// Why a hearing test could not run or ended early: the status the command exits with and a
/// message naming the file, device or setting.
public struct HearingTestError: Error, Sendable, CustomStringConvertible {
    public enum Status: Sendable {
        /// The settings do not fit (an unknown headphone, no terminal).
        case badRequest
        /// A file or device that cannot be read or used.
        case invalidInput
        /// It cannot be done as asked: the room is too loud to test, a tone would clip.
        case unusable
    }
    public var status: Status
    public var description: String

    public init(_ status: Status, _ description: String) {
        self.status = status
        self.description = description
    }
}
