import Glibc
import Analysis
import AudioIO
import InputGuards
import SensorData

/// Scores a voice recording (WAV, FLAC, Ogg, MP3, `.m4a`) with ``VoiceAnalysis``: loudness and
/// Praat-definition F0, jitter, shimmer and HNR on channel 0 (docs/analyses.md §4) in the set `atk`,
/// Praat's Burg formants of the voiced frames in `formants`, Praat's CPPS in `cepstral`, librosa's
/// MFCCs in `mfcc`, openSMILE's eGeMAPSv02 functionals under its names in `egemapsv02`, and when
/// named, eGeMAPS v02's spectral balance, loudness and temporal features by the paper's
/// definitions in `egemaps`.
///
/// Memory: the analysis holds the whole recording, about ``bytesPerSample`` bytes per sample in all
/// (docs/reliability.md, "Memory model"), so a file with more than ``Parameters/maximumSamples``
/// samples (all channels) is refused before it is read whole — from the header's frame count, or
/// while reading when the container does not state one — and so is a file whose analysis would
/// not fit under the process's memory limits (``MemoryBudget``; the bound when the container
/// states no frame count).
public enum VoiceScorer {
    /// Peak memory of a voice analysis per sample held: 52–60.5 bytes measured (peak resident set
    /// less the idle process's, `score voice` on 48-s and 60-s mono 44.1-kHz WAVs; the most when
    /// the resampling for the formants and the cepstrogram pads the recording to twice its length
    /// for Praat's FFT, whose two buffers are the peak), rounded up. A recording whose peak lies
    /// beyond 2^±128 holds 8 bytes a frame more, reserved once it is read
    /// (``VoiceAnalysis/correlationCopyBytes(interleaved:channels:)``: 67.7 bytes per sample
    /// measured at 2⁻⁶⁰⁰ full scale).
    public static let bytesPerSample = 64

    public struct Parameters: Sendable, Hashable, Codable {
        /// The feature sets computed and reported (``VoiceSet/defaults``: all but `egemaps`); a set
        /// left out costs nothing its features alone need (the pitch contour is always computed:
        /// every set reads it).
        public var sets = VoiceSet.defaults
        /// dB SPL at RMS 1.0 of the recording chain; adds splDecibels.
        public var calibrationOffsetDecibels: Double?
        /// Praat's pitch floor, Hz.
        public var pitchFloorHz = VoiceAnalysis.Options().pitchFloorHz
        /// Praat's pitch ceiling, Hz.
        public var pitchCeilingHz = VoiceAnalysis.Options().pitchCeilingHz
        /// The most samples (frames × channels) the analysis holds: 2^24, 6.3 min of mono 44.1 kHz.
        public var maximumSamples = Self.defaultMaximumSamples
        public static let defaultMaximumSamples = 1 << 24
        /// Bounds a caller may choose (2^34 samples ≈ 690 GB of analysis: beyond any machine).
        public static let maximumSamplesRange = 1...(1 << 34)
        /// Loudness of sample-identical stereo channels counted once (off: BS.1770-4 sums both).
        public var countIdenticalChannelsOnce = false
        /// Praat "To Formant (burg)": the top of the analysed band, Hz (5000 for a male, 5500 for a
        /// female voice in Praat's advice).
        public var maximumFormantHz = PraatFormantAnalysis().maximumFormantHz
        /// Formants sought per frame; the LPC order is twice this.
        public var maximumFormantCount = PraatFormantAnalysis().maximumFormantCount
        /// Formant analysis window length, s (the Gaussian window is twice as long).
        public var formantWindowLengthSeconds = PraatFormantAnalysis().windowLength
        /// Formant pre-emphasis from this frequency, Hz.
        public var formantPreEmphasisFromHz = PraatFormantAnalysis().preEmphasisFromHz
        /// librosa MFCCs: the coefficients kept (n_mfcc).
        public var mfccCount = MFCCAnalysis().coefficientCount
        /// MFCC frame length, samples (librosa's n_fft).
        public var mfccFftSize = MFCCAnalysis().fftSize
        /// Samples between MFCC frames (librosa's hop_length).
        public var mfccHop = MFCCAnalysis().hop
        /// Mel bands of the MFCC filter bank (librosa's n_mels).
        public var melBands = MFCCAnalysis().melBands
        /// Praat's cepstrogram pitch floor, Hz (frames of 2 × 3/floor s).
        public var cepstrogramPitchFloorHz = PraatCepstralAnalysis().pitchFloorHz
        /// Lower end of the CPP peak search, Hz.
        public var cppPeakSearchFloorHz = PraatCepstralAnalysis().peakSearchFloorHz
        /// Upper end of the CPP peak search, Hz.
        public var cppPeakSearchCeilingHz = PraatCepstralAnalysis().peakSearchCeilingHz
        /// eGeMAPS spectral frame length, s (Hamming window).
        public var spectralFrameLengthSeconds = EGeMAPSAnalysis().frameLengthSeconds
        /// eGeMAPS spectral frame step, s.
        public var spectralFrameStepSeconds = EGeMAPSAnalysis().frameStepSeconds
        /// eGeMAPS loudness peaks: the rise and fall a peak needs, as a fraction of the loudness range.
        public var loudnessPeakThreshold = EGeMAPSAnalysis().loudnessPeakThreshold
        public init() {}

        /// Why these parameters cannot be used (nil: they can).
        public var problem: String? {
            if sets.isEmpty { return "sets is empty: name at least one of \(VoiceSet.names)" }
            // Each set once: the sets are part of a result's key, and a repeat computes nothing more.
            if let repeated = sets.indices.first(where: { sets[..<$0].contains(sets[$0]) }) { return "sets names \(sets[repeated].rawValue) twice" }
            if let offset = calibrationOffsetDecibels, !CalibratorLevel.plausibleOffsetDecibels.contains(offset) {
                return "calibration offset \(offset) dB is not a level (−400…400 dB)"
            }
            guard pitchFloorHz.isFinite, pitchCeilingHz.isFinite, pitchFloorHz >= 1, pitchCeilingHz <= 100_000, pitchFloorHz < pitchCeilingHz else {
                return "pitch range \(pitchFloorHz)–\(pitchCeilingHz) Hz is not a range within 1–100,000 Hz"
            }
            guard maximumFormantHz.isFinite, (500...100_000).contains(maximumFormantHz) else {
                return "maximum formant \(maximumFormantHz) Hz is outside 500–100,000 Hz"
            }
            guard maximumFormantCount.isFinite, (1...20).contains(maximumFormantCount) else {
                return "maximum formant count \(maximumFormantCount) is outside 1–20"
            }
            guard formantWindowLengthSeconds.isFinite, (0.001...1).contains(formantWindowLengthSeconds) else {
                return "formant window length \(formantWindowLengthSeconds) s is outside 0.001–1 s"
            }
            guard formantPreEmphasisFromHz.isFinite, (0...100_000).contains(formantPreEmphasisFromHz) else {
                return "formant pre-emphasis from \(formantPreEmphasisFromHz) Hz is outside 0–100,000 Hz"
            }
            // Bounds that keep the MFCC frames within the voice memory model (≤ 10 bytes per sample).
            guard (16...65_536).contains(mfccFftSize), (256...65_536).contains(mfccHop), (1...256).contains(melBands), (1...melBands).contains(mfccCount) else {
                return "MFCC settings (\(mfccCount) coefficients of \(melBands) mel bands, \(mfccFftSize)-sample frames every \(mfccHop)) are outside 1 ≤ coefficients ≤ mel bands ≤ 256, frames 16–65,536, hop 256–65,536"
            }
            guard cepstrogramPitchFloorHz.isFinite, (20...1000).contains(cepstrogramPitchFloorHz) else {
                return "cepstrogram pitch floor \(cepstrogramPitchFloorHz) Hz is outside 20–1000 Hz"
            }
            guard cppPeakSearchFloorHz.isFinite, cppPeakSearchCeilingHz.isFinite, cppPeakSearchFloorHz >= 20, cppPeakSearchCeilingHz <= 2000, cppPeakSearchFloorHz < cppPeakSearchCeilingHz else {
                return "CPP peak search range \(cppPeakSearchFloorHz)–\(cppPeakSearchCeilingHz) Hz is not a range within 20–2000 Hz"
            }
            // Frames of at least 5 ms every 1 ms or more: at most 1000 spectral frames a second.
            guard spectralFrameLengthSeconds.isFinite, spectralFrameStepSeconds.isFinite, (0.005...0.2).contains(spectralFrameLengthSeconds), (0.001...0.2).contains(spectralFrameStepSeconds) else {
                return "spectral frames of \(spectralFrameLengthSeconds) s every \(spectralFrameStepSeconds) s are outside 0.005–0.2 s every 0.001–0.2 s"
            }
            guard loudnessPeakThreshold.isFinite, loudnessPeakThreshold > 0, loudnessPeakThreshold < 1 else {
                return "loudness peak threshold \(loudnessPeakThreshold) is not a fraction of the range between 0 and 1"
            }
            guard Self.maximumSamplesRange.contains(maximumSamples) else {
                return "maximum samples \(maximumSamples) is outside \(Self.maximumSamplesRange.lowerBound)…\(Self.maximumSamplesRange.upperBound)"
            }
            return nil
        }
    }

    public static func score(_ input: LoadedInput, _ parameters: Parameters = .init()) throws(ScoringError) -> VoiceScore {
        let file = input.path
        if let problem = parameters.problem { throw ScoringError(.badInvocation, "\(FileName.display(file)): \(problem)") }
        guard case .audio(let audio) = input.kind else {
            throw .input(ReadError(file: file, reason: .notFound("a voice recording is audio; this file is \(input.kind.summary)")))
        }
        let decoder = try audio.open()
        let format = decoder.format
        let stated = format.frames.flatMap { Int(exactly: $0) }.map { $0.multipliedReportingOverflow(by: format.channels) }
        let expected = stated.map { $0.overflow ? parameters.maximumSamples : min($0.partialValue, parameters.maximumSamples) } ?? parameters.maximumSamples
        do {
            return try MemoryBudget.reserve(expected.multipliedReportingOverflow(by: bytesPerSample).partialValue + MemoryBudget.threadStacksBytes,
                                            for: "\(FileName.display(file)): the voice analysis of \(expected) samples (~\(bytesPerSample) bytes each)") { () throws(ScoringError) in
                try analyse(decoder, file: file, parameters)
            }
        } catch {
            throw .reserving(error)
        }
    }

    /// ``score(_:_:)`` once its memory is reserved.
    private static func analyse(_ decoder: any AudioDecoder, file: String, _ parameters: Parameters) throws(ScoringError) -> VoiceScore {
        let format = decoder.format
        let samples = try readBounded(decoder, file: file, maximumSamples: parameters.maximumSamples)
        if let problem = samples.withUnsafeBufferPointer({ AudioScoring.magnitudeProblem($0, file: file, firstFrame: 0, channels: format.channels) }) {
            throw problem
        }
        var options = VoiceAnalysis.Options(calibrationOffsetDecibels: parameters.calibrationOffsetDecibels)
        options.pitchFloorHz = parameters.pitchFloorHz
        options.pitchCeilingHz = parameters.pitchCeilingHz
        options.countIdenticalChannelsOnce = parameters.countIdenticalChannelsOnce
        options.formants.maximumFormantHz = parameters.maximumFormantHz
        options.formants.maximumFormantCount = parameters.maximumFormantCount
        options.formants.windowLength = parameters.formantWindowLengthSeconds
        options.formants.preEmphasisFromHz = parameters.formantPreEmphasisFromHz
        options.mfcc.coefficientCount = parameters.mfccCount
        options.mfcc.fftSize = parameters.mfccFftSize
        options.mfcc.hop = parameters.mfccHop
        options.mfcc.melBands = parameters.melBands
        options.cepstral.pitchFloorHz = parameters.cepstrogramPitchFloorHz
        options.cepstral.peakSearchFloorHz = parameters.cppPeakSearchFloorHz
        options.cepstral.peakSearchCeilingHz = parameters.cppPeakSearchCeilingHz
        options.egemaps.frameLengthSeconds = parameters.spectralFrameLengthSeconds
        options.egemaps.frameStepSeconds = parameters.spectralFrameStepSeconds
        options.egemaps.loudnessPeakThreshold = parameters.loudnessPeakThreshold
        options.sets = parameters.sets.reduce(into: [.spectrogram]) { $0.insert($1.analysisSets) }
        // Far below or above full scale, channel 0's scaled copy for the correlations on top.
        func analyze() -> VoiceAnalysis.Result {
            VoiceAnalysis.analyze(interleaved: samples, channels: format.channels, sampleRateHz: format.sampleRateHz, options: options)
        }
        let copy = VoiceAnalysis.correlationCopyBytes(interleaved: samples, channels: format.channels)
        var analysis: VoiceAnalysis.Result
        do {
            analysis = copy == 0 ? analyze() : try MemoryBudget.reserve(copy, for: "\(FileName.display(file)): channel 0 scaled for its correlations (its peak is beyond 2^±128)", analyze)
        } catch {
            throw .reserving(error)
        }
        analysis.warnings += AudioScoring.warnings(decoder)
        let report = ScoreReport(kind: "voice", file: file, dialect: "\(format.container) \(format.encoding), \(format.sampleRateHz.compactDescription) Hz, \(format.channels) ch",
                                 sets: parameters.sets.map { set in
                                     switch set {
                                     case .atk: FeatureSet(name: set.rawValue, features: analysis.features)
                                     case .formants: FeatureSet(name: set.rawValue, features: analysis.formants)
                                     case .cepstral: FeatureSet(name: set.rawValue, features: analysis.cepstral)
                                     case .mfcc: FeatureSet(name: set.rawValue, features: analysis.mfcc)
                                     case .egemaps: FeatureSet(name: set.rawValue, features: analysis.egemaps)
                                     case .egemapsv02: FeatureSet(name: set.rawValue, features: analysis.egemapsv02)
                                     }
                                 }, warnings: analysis.warnings,
                                 unusable: analysis.pitchF0Hz.allSatisfy(\.isNaN) ? "no voiced signal found" : nil)
        let (levelTime, level) = levels(samples, channels: format.channels, sampleRateHz: format.sampleRateHz)
        return VoiceScore(report: report, format: format, analysis: analysis, levelTimeSeconds: levelTime, levelDbfs: level)
    }

    /// Channel 0's RMS level per 50-ms frame: frame centres, s, and dBFS (NaN for digital silence).
    static func levels(_ interleaved: [Double], channels: Int, sampleRateHz: Double) -> ([Double], [Double]) {
        let frame = Int(clamping: 0.05 * sampleRateHz, to: 1...Int.max)
        let count = interleaved.count / max(1, channels)
        var time: [Double] = [], level: [Double] = []
        var start = 0
        while start + frame <= count {
            var sum = 0.0
            for i in start..<start + frame { sum += interleaved[i * channels] * interleaved[i * channels] }
            time.append((Double(start) + Double(frame) / 2) / sampleRateHz)
            level.append(sum > 0 ? 10 * log10(sum / Double(frame)) : .nan)
            start += frame
        }
        return (time, level)
    }

    /// Every sample of `decoder` as Double, or an error naming the limit (the parameter
    /// ``Parameters/maximumSamples``).
    static func readBounded(_ decoder: any AudioDecoder, file: String, maximumSamples: Int) throws(ScoringError) -> [Double] {
        do { return try decoder.readAllDouble(maximumSamples: maximumSamples) } catch {
            guard case .tooLong = error.reason else { throw .input(error) }
            throw ScoringError(.invalidInput, error.description + " (voice analysis holds ~\(bytesPerSample) bytes per sample; the limit is the voice parameter maximumSamples)")
        }
    }
}

/// The feature sets of a voice analysis (docs/analyses.md §4), as a configuration's `sets` and
/// `--sets` name them.
public enum VoiceSet: String, Sendable, Hashable, Codable, CaseIterable, NamedChoice {
    /// Levels, loudness and Praat-definition F0, jitter, shimmer and HNR.
    case atk
    /// Praat's Burg formants of the voiced frames.
    case formants
    /// Praat's CPPS.
    case cepstral
    /// librosa's MFCCs.
    case mfcc
    /// eGeMAPS v02's spectral balance, loudness and temporal features by the paper's definitions
    /// on Praat's voicing: not openSMILE's values (``egemapsv02`` is), computed only when named.
    case egemaps
    /// openSMILE's eGeMAPSv02 functionals under openSMILE's names (all 88).
    case egemapsv02

    /// The sets computed when none are named: every set but ``egemaps``, which ``egemapsv02``
    /// replaces (a study compares openSMILE's values; stored `egemaps` results stay readable).
    public static let defaults: [VoiceSet] = allCases.filter { $0 != .egemaps }

    /// Why `name` is no set, naming the sets, as the command line says it.
    public static func unknown(_ name: String) -> String { "\"\(name)\" is not a voice set; the sets are \(names)" }

    /// What the analysis computes for the set.
    var analysisSets: VoiceAnalysis.Sets {
        switch self {
        case .atk: .harmonicity
        case .formants: .formants
        case .cepstral: .cepstral
        case .mfcc: .mfcc
        case .egemaps: [.egemaps, .formants]   // H1–A3 reads the third formant
        case .egemapsv02: .egemapsv02
        }
    }
}
