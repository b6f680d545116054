import Analysis
import ArgumentParser
import Batch
import InputGuards
import Scoring
import SensorData

/// Command-line options that override analyzer parameters. Each option is named after its
/// configuration key (`rateHz` → `--rate-hz`), is optional, and has no default of its own: an
/// option not given leaves the parameter as `--config` or the `Parameters` type set it, so a
/// default exists once. The options of a group are read by reflection into the same document a
/// configuration file gives (``BatchConfiguration/overriding(_:file:)``), with the same checks.
protocol ParameterOptions: ParsableArguments {
    /// Where the group's keys sit in its analyzer's section: `[]`, or `["analysis"]` for
    /// `[gait.analysis]`.
    static var path: [String] { get }
}

extension ParameterOptions {
    /// The options given, as the section's nested object.
    var overrides: JSONObject {
        var object = JSONObject()
        for child in Mirror(reflecting: self).children {
            guard let label = child.label, label.hasPrefix("_"), let option = child.value as? any ParameterOverride, let value = option.override else { continue }
            object.append(String(label.dropFirst()), value)
        }
        return Self.path.reversed().reduce(object) { inner, key in
            var outer = JSONObject()
            outer.append(key, .object(inner))
            return outer
        }
    }
}

/// An option or flag holding a parameter value when given.
protocol ParameterOverride {
    var override: JSONValue? { get }
}

extension Option: ParameterOverride where Value: OptionalParameter {
    var override: JSONValue? { wrappedValue.parameter?.parameterJSON }
}

extension Flag: ParameterOverride where Value: OptionalParameter {
    var override: JSONValue? { wrappedValue.parameter?.parameterJSON }
}

/// `T?` for a parameter type `T`.
protocol OptionalParameter {
    var parameter: (any ParameterValue)? { get }
}

extension Optional: OptionalParameter where Wrapped: ParameterValue {
    var parameter: (any ParameterValue)? { self }
}

/// The defaults a help text quotes, read from the one place they are defined.
private let defaults = AnalyzerParameters()

struct TappingParameterOptions: ParameterOptions {
    static let path: [String] = []

    @Option(help: "Peer convention of the main feature set: \(TappingAnalysis.Convention.allCases.map(\.rawValue).joined(separator: ", ")) (default \(defaults.tapping.convention.rawValue)).") var convention: TappingAnalysis.Convention?
    @Option(help: "Minimum |Δx| between kept taps, points (default \(defaults.tapping.depressThreshold)).") var depressThreshold: Double?
    @Option(help: "Which tapping result to score when the file holds several (its step identifier, e.g. tapping.left).") var identifier: String?
}

struct MotionCSVOptions: ParameterOptions {
    static let path = ["csv"]

    @Flag(inversion: .prefixedNo, help: "CSV: the Oxford step-counter layout (ns, accuracy, x, y, z in m/s², no header) regardless of the header.") var oxford: Bool?
    @Option(help: "CSV: the time column, by header name or 1-based number.") var timeColumn: String?
    @Option(help: "CSV: the x acceleration column, by header name or 1-based number.") var xColumn: String?
    @Option(help: "CSV: the y acceleration column, by header name or 1-based number.") var yColumn: String?
    @Option(help: "CSV: the z acceleration column, by header name or 1-based number.") var zColumn: String?
    @Option(help: "CSV: unit of the time column (\(MotionCSVLayout.TimeUnit.allCases.map(\.rawValue).joined(separator: ", "))); default: from the header, else from the sampling interval.") var timeUnit: MotionCSVLayout.TimeUnit?
    @Option(help: "CSV: unit of the acceleration columns (g, m/s2); default: from the header, else from the magnitude.") var accelerationUnit: MotionCSVLayout.AccelerationUnit?
}

/// The motion analysis's parameters (docs/analyses.md §2), shared by gait and balance.
struct MotionAnalysisOptions: ParameterOptions {
    static let path = ["analysis"]
    private static var p: GaitAnalysis.Parameters { defaults.gait.analysis }

    @Option(help: "Analysis rate after resampling, Hz (default \(p.rateHz)).") var rateHz: Double?
    @Option(help: "Gravity low-pass cutoff, Hz (default \(p.gravityCutoffHz)).") var gravityCutoffHz: Double?
    @Option(help: "Step band low edge, Hz (default \(p.bandLowHz)).") var bandLowHz: Double?
    @Option(help: "Step band high edge, Hz (default \(p.bandHighHz)).") var bandHighHz: Double?
    @Option(help: "Minimum step peak prominence, × the band signal's SD in the bout (default \(p.prominenceFactor)).") var prominenceFactor: Double?
    @Option(help: "Minimum step spacing, × the step period (default \(p.spacingFactor)).") var spacingFactor: Double?
    @Option(help: "Minimum step spacing, s (default \(p.minimumSpacingSeconds)).") var minimumSpacingSeconds: Double?
    @Option(help: "Walking windows: minimum SD of the dynamic acceleration, g (default \(p.walkingSdG)).") var walkingSdG: Double?
    @Option(help: "Walking windows: minimum share of 0.3–15 Hz power in the step band (default \(p.walkingBandFraction)).") var walkingBandFraction: Double?
    @Option(help: "Bouts: minimum autocorrelation at the stride lag (default \(p.minimumStrideRegularity)).") var minimumStrideRegularity: Double?
    @Option(help: "Bouts: periodicity judged on chunks of this length, s (default \(p.chunkSeconds)).") var chunkSeconds: Double?
    @Option(help: "Below this R(step)/R(stride) steps are placed per stride and half-way (default \(p.strideModeRatio)).") var strideModeRatio: Double?
    @Option(help: "Bouts: merge walking windows up to this far apart, s (default \(p.mergeGapSeconds)).") var mergeGapSeconds: Double?
    @Option(help: "Bouts: drop shorter ones, s (default \(p.minimumBoutSeconds)).") var minimumBoutSeconds: Double?
    @Option(help: "Trimmed at both ends of a bout for regularity, symmetry and harmonic ratio, s (default \(p.trimSeconds)).") var trimSeconds: Double?
    @Option(help: "Per-window cadence: window, s (default \(p.cadenceWindowSeconds)).") var cadenceWindowSeconds: Double?
    @Option(help: "Per-window cadence: hop, s (default \(p.cadenceHopSeconds)).") var cadenceHopSeconds: Double?
}

/// Whether gait and balance add mhealthtools' kinematic features (docs/analyses.md §7.3).
struct KinematicOptions: ParameterOptions {
    static let path: [String] = []

    @Flag(inversion: .prefixedNo, help: "Add mhealthtools' walk (gait) or balance features as the set mhealthtools (docs/analyses.md §7.3; default \(defaults.gait.mhealthtools ? "on" : "off")).") var mhealthtools: Bool?
}

struct SPLParameterOptions: ParameterOptions {
    static let path: [String] = []

    @Option(help: "dB SPL that an RMS of 1.0 reads (default \(defaults.spl.calibrationOffsetDecibels.compactDescription): \(defaults.spl.calibrationSource)).") var calibrationOffsetDecibels: Double?
    @Option(help: "Where the offset came from, as the output names it (default: the option or device that set it).") var calibrationSource: String?
    @Option(help: "Decision threshold, dB(A) (default \(defaults.spl.thresholdDecibels.compactDescription)).") var thresholdDecibels: Double?
    @Option(help: "Length of each reading, s (default \(defaults.spl.intervalSeconds.compactDescription)).") var intervalSeconds: Double?
    @Option(help: "Consecutive readings below the threshold needed to pass (default \(defaults.spl.requiredIntervals)).") var requiredIntervals: Int?
    @Option(help: "Audio channel to measure, 0-based (default \(defaults.spl.channel)).") var channel: Int?
    @Option(help: "Run the weighting filters at 1, 2 or 4 × the file's rate (half-band FIR upsampling; default \(defaults.spl.oversampling)).") var oversampling: Int?
}

struct VoiceParameterOptions: ParameterOptions {
    static let path: [String] = []

    @Option(help: "The feature sets to compute and report, comma-separated: \(VoiceSet.allCases.map(\.rawValue).joined(separator: ", ")) (default \(VoiceSet.defaults.map(\.rawValue).joined(separator: ",")): every set but egemaps, the paper's definitions, which egemapsv02 replaces).", transform: VoiceSetList.init(parsing:)) var sets: VoiceSetList?
    @Option(help: "dB SPL at RMS 1.0 of the recording chain; adds splDecibels (default: none).") var calibrationOffsetDecibels: Double?
    @Option(help: "Praat's pitch floor, Hz (default \(defaults.voice.pitchFloorHz.compactDescription)).") var pitchFloorHz: Double?
    @Option(help: "Praat's pitch ceiling, Hz (default \(defaults.voice.pitchCeilingHz.compactDescription)).") var pitchCeilingHz: Double?
    @Option(help: "The most samples (frames × channels) the analysis holds in memory, ~\(VoiceScorer.bytesPerSample) bytes each; longer recordings are refused (default \(defaults.voice.maximumSamples)).") var maximumSamples: Int?
    @Flag(inversion: .prefixedNo, help: "Loudness: count a stereo file whose two channels are sample-identical once (−3.01 LU) instead of summing both as BS.1770-4 does (default \(defaults.voice.countIdenticalChannelsOnce ? "on" : "off")).") var countIdenticalChannelsOnce: Bool?
    @Option(help: "Formants (Praat's Burg method): the top of the analysed band, Hz (default \(defaults.voice.maximumFormantHz.compactDescription); Praat advises 5000 for a male, 5500 for a female voice).") var maximumFormantHz: Double?
    @Option(help: "Formants sought per frame; the LPC order is twice this (default \(defaults.voice.maximumFormantCount.compactDescription)).") var maximumFormantCount: Double?
    @Option(help: "Formant analysis window length, s; the Gaussian window is twice as long (default \(defaults.voice.formantWindowLengthSeconds.compactDescription)).") var formantWindowLengthSeconds: Double?
    @Option(help: "Formant pre-emphasis from this frequency, Hz (default \(defaults.voice.formantPreEmphasisFromHz.compactDescription)).") var formantPreEmphasisFromHz: Double?
    @Option(help: "MFCCs kept (librosa's n_mfcc; default \(defaults.voice.mfccCount)).") var mfccCount: Int?
    @Option(help: "MFCC frame length, samples (n_fft; default \(defaults.voice.mfccFftSize)).") var mfccFftSize: Int?
    @Option(help: "Samples between MFCC frames (hop_length; default \(defaults.voice.mfccHop)).") var mfccHop: Int?
    @Option(help: "Mel bands of the MFCC filter bank (n_mels; default \(defaults.voice.melBands)).") var melBands: Int?
    @Option(help: "Praat's cepstrogram pitch floor, Hz: frames of 2 × 3/floor s (default \(defaults.voice.cepstrogramPitchFloorHz.compactDescription)).") var cepstrogramPitchFloorHz: Double?
    @Option(help: "CPP peak search range, lower end, Hz (default \(defaults.voice.cppPeakSearchFloorHz.compactDescription)).") var cppPeakSearchFloorHz: Double?
    @Option(help: "CPP peak search range, upper end, Hz (default \(defaults.voice.cppPeakSearchCeilingHz.compactDescription)).") var cppPeakSearchCeilingHz: Double?
    @Option(help: "eGeMAPS spectral frame length, s (Hamming window; default \(defaults.voice.spectralFrameLengthSeconds.compactDescription)).") var spectralFrameLengthSeconds: Double?
    @Option(help: "eGeMAPS spectral frame step, s (default \(defaults.voice.spectralFrameStepSeconds.compactDescription)).") var spectralFrameStepSeconds: Double?
    @Option(help: "eGeMAPS loudness peaks: the rise and fall a peak needs, as a fraction of the loudness range (default \(defaults.voice.loudnessPeakThreshold.compactDescription)).") var loudnessPeakThreshold: Double?
}

struct LoudnessParameterOptions: ParameterOptions {
    static let path: [String] = []

    @Flag(inversion: .prefixedNo, help: "Count a stereo file whose two channels are sample-identical once (−3.01 LU) instead of summing both as BS.1770-4 does (default \(defaults.loudness.countIdenticalChannelsOnce ? "on" : "off")).") var countIdenticalChannelsOnce: Bool?
}

struct AudiometryParameterOptions: ParameterOptions {
    static let path: [String] = []

    @Option(help: "Data row of a CSV, first = 1 (default \(defaults.audiometry.row)).") var row: Int?
    @Option(help: "Which dB HL result to score when the file holds several (its step identifier).") var identifier: String?
    @Option(help: "Headphone table version for the volume correction: \(HeadphoneCalibration.TableVersion.allCases.map(\.rawValue).joined(separator: ", ")) (default \(defaults.audiometry.tables.rawValue)).") var tables: HeadphoneCalibration.TableVersion?
}

struct RangeOfMotionParameterOptions: ParameterOptions {
    static let path: [String] = []

    @Option(help: "The interface orientation the step ran in: \(RangeOfMotion.Orientation.allCases.map(\.rawValue).joined(separator: ", ")) (portrait reads the pitch, landscape the roll; default \(defaults.rangeOfMotion.orientation.rawValue)).") var orientation: RangeOfMotion.Orientation?
}

struct WalkTestParameterOptions: ParameterOptions {
    static let path: [String] = []

    @Option(help: "Location fixes less accurate than this (horizontal accuracy, 68 % radius) are left out of the path, m (default \(defaults.walkTest.maximumHorizontalAccuracyMeters.compactDescription)).") var maximumHorizontalAccuracyMeters: Double?
}

struct HeartRateParameterOptions: ParameterOptions {
    static let path = ["analysis"]

    @Option(help: "Window length, s (default \(defaults.heartRate.analysis.windowSeconds.compactDescription)).") var windowSeconds: Double?
    @Option(help: "Fraction of a window shared with the next, 0…0.5 (default \(defaults.heartRate.analysis.windowOverlap.compactDescription)).") var windowOverlap: Double?
    @Option(help: "The estimator: \(CameraHeartRate.Method.allCases.map(\.rawValue).joined(separator: ", ")) (autocorrelation, AR spectrum, peaks; default \(defaults.heartRate.analysis.method.rawValue)).") var method: CameraHeartRate.Method?
}

extension TappingAnalysis.Convention: ExpressibleByArgument {}
extension RangeOfMotion.Orientation: ExpressibleByArgument {}
extension CameraHeartRate.Method: ExpressibleByArgument {}

/// `--sets atk,mfcc`: voice sets, comma-separated (each named once: the parameters' rule).
struct VoiceSetList: ParameterValue {
    var sets: [VoiceSet]
    init(parsing argument: String) throws(ValidationError) {
        var sets: [VoiceSet] = []
        for name in argument.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let set = VoiceSet(rawValue: name) else { throw ValidationError("--sets: " + VoiceSet.unknown(name)) }
            sets.append(set)
        }
        self.sets = sets
    }
    var parameterJSON: JSONValue { sets.parameterJSON }
}
extension MotionCSVLayout.TimeUnit: ExpressibleByArgument {}
extension MotionCSVLayout.AccelerationUnit: ExpressibleByArgument {}
extension HeadphoneCalibration.TableVersion: ExpressibleByArgument {}
