import Foundation
import SensorData
import Synchronization

/// The analyzers, shared by `score` and `batch`. Each has typed `Parameters` (`Codable`, with
/// their defaults in one place: ``AnalyzerParameters``) and a version that is part of every
/// result key: bump it whenever the analyzer's definitions change, and a resumed batch
/// recomputes exactly its results.
public enum Analyzer: String, Sendable, CaseIterable, Codable {
    case tapping, gait, spl, voice, audiometry, loudness, balance, rangeOfMotion, walkTest, tremor, heartRate

    /// 2 (spl): metered from the first sample, filters start in their steady state, Lmax no
    /// longer skips 5τ. 2 (gait): cadence disagreement and implausible-cadence warnings.
    /// 2 (voice): BS.1770 loudness sums identical stereo channels; unfinished WAVs are read;
    /// 3 (voice): Praat's isPeriod for the mean period, harmonicity exactly as Praat's cc.
    /// 4 (voice): formants, cepstral and mfcc sets. 5 (voice): the egemaps set. 6 (voice): the
    /// egemapsv02 set. 7 (voice): its formant amplitudes and H1–A3. 8 (voice): MFCC's lg through
    /// libmvec, the octave-scale spline's knot-only factors computed once (features within
    /// 2.4e-12 relative of 7 on SampleData, the shared voices and the generated 10-s vowels).
    /// 9 (voice): the egemapsv02 set's jitterLocal and shimmerLocaldB (all 88 functionals).
    /// 10 (voice): its pitch candidates in openSMILE's slots and its Viterbi smoother's own costs.
    /// 11 (voice): its HNR, harmonic differences and formant amplitudes by cHarmonics' own rules.
    /// 12 (voice): its Peaks2 extrema by cFunctionalPeaks2's rules; the pitch-rate functionals
    /// over the frames the pitch smoother had decided when the recording ended. 13 (voice): its
    /// samples truncated to 16 bits as openSMILE is given them (float recordings change).
    /// 14 (voice): its voiced and unvoiced segments by cFunctionalSegments' minimum lengths, its
    /// formant roots outside the unit circle taken inside (bandwidths positive), openSMILE's
    /// frequency axis and jitter reading at rates such as 11,025 and 44,000 Hz. 15 (voice): its
    /// formant, harmonic, jitter and shimmer contours smoothed up to the last decided frame (a
    /// recording that ends voiced: jitterLocal's mean within 1.7e-7 of openSMILE's, median over
    /// the 18 peer files, instead of 1.2e-4); a recording shorter than one 400-ms loudness block
    /// warned as if every block were below −70 LUFS. 16 (voice): egemapsv02's functionals of no
    /// values (unvoiced descriptors of a recording without unvoiced frames, segment lengths
    /// without segments) null instead of openSMILE's 0. 17 (voice): a warning that counts
    /// egemapsv02's null functionals and says why; its alphaRatio and hammarbergIndex descriptors
    /// NaN (empty in `--egemaps-lld`) where their upper band has no bin (rates below 2 and 4 kHz).
    /// 18 (voice): a warning when no pitch or HNR frame fits (the floor's window longer than the
    /// recording, or under 6 samples at its rate). 19 (voice): F0 and HNR by Praat's own Brent
    /// search (its variant, in its coordinates) and, for HNR, the cross-correlation's energies
    /// and, where rounding decides a maximum, its lag products in Praat's 80-bit sums (a low voice
    /// after digital silence: mean HNR 7 % from Praat's before, 2.8e-11 after). 20 (voice): a
    /// time's sample and frame indices as Praat computes them, from (t − x1)/dx + 1 (a cepstrogram
    /// frame halfway between two pitch frames by that rounding: voiced CPP mean 1e-4 from Praat's
    /// before, 1e-15 after).
    /// 2 (tapping, audiometry): typed values (no-error null; per-frequency status fields).
    /// 3 (tapping): `atk.hand`, the hand the task says tapped.
    /// 3 (gait), 2 (balance): rows with an acceleration beyond ±1,000 g or a rotation rate beyond
    /// ±1,000 rad/s left out, with an implausibleValues warning; the dominant gait frequency
    /// through the segments' summed autocorrelation (within 4.2e-16 of before on real walks).
    /// 4 (gait), 3 (balance): mhealthtools' walk and balance features (set `mhealthtools`).
    /// 4 (tapping): the depress threshold on the steps of x − mean(x) in every convention, and
    /// the drift sides split at R's mean (a step of exactly 20 points far from the mean, a tap at
    /// the mean).
    /// 5 (gait): without a cadence, the warning says what walked: `noWalking` with the seconds of
    /// walking windows that form no 5-s stretch, `noCadence` for stretches without a stride
    /// (before, `noWalking` said no window walked).
    /// 2 (walkTest): location fixes more than the trial's duration and a minute from the fixes'
    /// median time left out with a warning (a fix of another walk moved the path); a speed that
    /// overflows said as such instead of "inf m/s". 2 (heartRate): a channel's frame means
    /// outside 0…1 counted in a warning.
    public var version: String {
        switch self {
        case .voice: "20"
        case .gait: "5"
        case .tapping: "4"
        case .balance: "3"
        case .spl, .audiometry, .walkTest, .heartRate: "2"
        case .loudness, .rangeOfMotion, .tremor: "1"
        }
    }
}

/// The parameters of every analyzer, with their defaults in one place (each scorer's
/// `Parameters`); a batch configuration file sets them.
public struct AnalyzerParameters: Sendable, Hashable, Codable {
    /// The `tapping` analyzer's parameters (a configuration's `[tapping]` section).
    public var tapping = TappingScorer.Parameters()
    /// The `gait` analyzer's parameters (a configuration's `[gait]` section).
    public var gait = GaitScorer.Parameters()
    /// The `spl` analyzer's parameters (a configuration's `[spl]` section).
    public var spl = SPLScorer.Parameters()
    /// The `voice` analyzer's parameters (a configuration's `[voice]` section).
    public var voice = VoiceScorer.Parameters()
    /// The `audiometry` analyzer's parameters (a configuration's `[audiometry]` section).
    public var audiometry = AudiometryScorer.Parameters()
    /// The `loudness` analyzer's parameters (a configuration's `[loudness]` section).
    public var loudness = LoudnessScorer.Parameters()
    /// The `balance` analyzer's parameters (a configuration's `[balance]` section).
    public var balance = BalanceScorer.Parameters()
    /// The `rangeOfMotion` analyzer's parameters (a configuration's `[rangeOfMotion]` section).
    public var rangeOfMotion = RangeOfMotionScorer.Parameters()
    /// The `walkTest` analyzer's parameters (a configuration's `[walkTest]` section).
    public var walkTest = WalkTestScorer.Parameters()
    /// The `tremor` analyzer's parameters (a configuration's `[tremor]` section).
    public var tremor = TremorScorer.Parameters()
    /// The `heartRate` analyzer's parameters (a configuration's `[heartRate]` section).
    public var heartRate = HeartRateScorer.Parameters()
    public init() {}

    /// The canonical JSON of one analyzer's parameters (keys sorted, shortest numbers): the
    /// parameter part of a result key.
    ///
    /// Remembered per (analyzer, parameters) for the process: a batch keys every unit with the
    /// same few parameter sets, and the encoding (then Foundation's JSONEncoder) cost a fully
    /// stored rerun a twentieth of its time. At most ``canonicalMemoLimit`` sets are kept (a study's
    /// audiogram rows each give tapping's or audiometry's parameters a value of their own).
    public func canonical(_ analyzer: Analyzer) -> String {
        let key = CanonicalKey(analyzer: analyzer, parameters: self)
        if let known = Self.canonicalMemo.withLock({ $0[key] }) { return known }
        let text = encodedCanonical(analyzer)
        Self.canonicalMemo.withLock { memo in
            if memo.count < Self.canonicalMemoLimit { memo[key] = text }
        }
        return text
    }

    /// The most parameter sets ``canonical(_:)`` remembers.
    static let canonicalMemoLimit = 256

    private struct CanonicalKey: Hashable {
        var analyzer: Analyzer
        var parameters: AnalyzerParameters
    }

    private static let canonicalMemo = Mutex<[CanonicalKey: String]>([:])

    private func encodedCanonical(_ analyzer: Analyzer) -> String { Self.canonical(self[analyzer]) }

    /// `analyzer`'s parameters.
    public subscript(analyzer: Analyzer) -> any Encodable {
        switch analyzer {
        case .tapping: tapping
        case .gait: gait
        case .spl: spl
        case .voice: voice
        case .audiometry: audiometry
        case .loudness: loudness
        case .balance: balance
        case .rangeOfMotion: rangeOfMotion
        case .walkTest: walkTest
        case .tremor: tremor
        case .heartRate: heartRate
        }
    }

    /// The defaults with `analyzer`'s parameters decoded from their canonical JSON (a stored
    /// result key's), or nil if they do not decode.
    public init?(_ analyzer: Analyzer, canonical: String) {
        guard let value = try? JSONValue.parse(Array(canonical.utf8), file: "parameters"),
              let decoded = try? AnalyzerParameters().replacing(analyzer, with: value) else { return nil }
        self = decoded
    }

    /// These parameters with `analyzer`'s decoded from `value` (the section's object, every
    /// parameter present; ``JSONValueDecoder``); the decoder's error as it threw it, its coding
    /// path inside the section.
    public func replacing(_ analyzer: Analyzer, with value: JSONValue) throws -> AnalyzerParameters {
        let decoder = JSONValueDecoder()
        var copy = self
        switch analyzer {
        case .tapping: copy.tapping = try decoder.decode(TappingScorer.Parameters.self, from: value)
        case .gait: copy.gait = try decoder.decode(GaitScorer.Parameters.self, from: value)
        case .spl: copy.spl = try decoder.decode(SPLScorer.Parameters.self, from: value)
        case .voice: copy.voice = try decoder.decode(VoiceScorer.Parameters.self, from: value)
        case .audiometry: copy.audiometry = try decoder.decode(AudiometryScorer.Parameters.self, from: value)
        case .loudness: copy.loudness = try decoder.decode(LoudnessScorer.Parameters.self, from: value)
        case .balance: copy.balance = try decoder.decode(BalanceScorer.Parameters.self, from: value)
        case .rangeOfMotion: copy.rangeOfMotion = try decoder.decode(RangeOfMotionScorer.Parameters.self, from: value)
        case .walkTest: copy.walkTest = try decoder.decode(WalkTestScorer.Parameters.self, from: value)
        case .tremor: copy.tremor = try decoder.decode(TremorScorer.Parameters.self, from: value)
        case .heartRate: copy.heartRate = try decoder.decode(HeartRateScorer.Parameters.self, from: value)
        }
        return copy
    }

    /// Sorted keys, no escaped slashes; a non-finite number (refused before it is used) cannot
    /// make it fail. The text of Foundation's JSONEncoder, written by ``CanonicalJSON``; by the
    /// encoder itself only for a value with an integral number of 2^53 or more.
    public static func canonical(_ value: some Encodable) -> String {
        if let tree = try? JSONValueEncoder().encode(value), let text = CanonicalJSON.text(tree) { return text }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Loads `file` (with the recorder files its task result names, or a folder's JSON files) and
    /// runs `analyzer` on it: what `score` does.
    public func score(_ analyzer: Analyzer, file: String, lenient: Bool = false) throws(ScoringError) -> Score {
        let unit = try LoadedUnit.load(file, lenient: lenient)
        // A whole upload (folder or archive) is scored on the file of it the analyzer reads.
        let target = unit.inputs.contains { $0.path == file } ? file : unit.defaultTarget(for: analyzer) ?? file
        return try score(analyzer, unit, target: target)
    }

    /// Runs `analyzer` on `target` (a file of `unit`, or the unit itself for gait) with these
    /// parameters — the one dispatch `score` and `batch` share.
    public func score(_ analyzer: Analyzer, _ unit: LoadedUnit, target: String) throws(ScoringError) -> Score {
        func input() throws(ScoringError) -> LoadedInput {
            guard let input = unit.inputs.first(where: { $0.path == target }) else {
                throw ScoringError(.invalidInput, "\(target): not loaded with \(unit.path)")
            }
            return input
        }
        switch analyzer {
        case .gait: return .gait(try GaitScorer.score(unit, gait))
        case .balance: return .balance(try BalanceScorer.score(unit, balance))
        case .rangeOfMotion: return .rangeOfMotion(try RangeOfMotionScorer.score(unit, rangeOfMotion))
        case .walkTest: return .walkTest(try WalkTestScorer.score(unit, walkTest))
        case .tremor: return .tremor(try TremorScorer.score(unit, tremor))
        case .heartRate: return .heartRate(try HeartRateScorer.score(unit, heartRate))
        case .tapping: return .tapping(try TappingScorer.score(input(), tapping, context: unit.steps[target]))
        case .spl: return .spl(try SPLScorer.score(input(), spl))
        case .voice: return .voice(try VoiceScorer.score(input(), voice))
        case .audiometry: return .audiometry(try AudiometryScorer.score(input(), audiometry))
        case .loudness: return .loudness(try LoudnessScorer.score(input(), loudness))
        }
    }
}
