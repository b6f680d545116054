import Foundation
import InputGuards
import Glibc
import SignalProcessing

/// Sustained-phonation analysis (docs/analyses.md §4): levels and loudness of the whole recording,
/// ResearchKit's "too loud" rule, and F0, jitter, shimmer and HNR defined as Praat defines them
/// (Praat's own scope: pitch, pulses and harmonicity over the whole recording, statistics over
/// voiced frames and valid periods).
public enum VoiceAnalysis {
    public struct Options: Sendable {
        /// dB SPL at RMS 1.0, when the recording chain is calibrated (§3.5).
        public var calibrationOffsetDecibels: Double?
        /// Praat's pitch floor and ceiling, Hz ("To Pitch (ac)": 75 and 600 Hz by default).
        public var pitchFloorHz = PraatPitchAnalysis().floor
        public var pitchCeilingHz = PraatPitchAnalysis().ceiling
        /// Loudness of a stereo file whose channels are sample-identical as one channel (the
        /// "dual mono counted once" convention, −3.01 LU). Off by default: ITU-R BS.1770-4 sums
        /// every channel of every layout.
        public var countIdenticalChannelsOnce = false
        /// Praat's "To Formant (burg)" settings.
        public var formants = PraatFormantAnalysis()
        /// librosa's MFCC settings.
        public var mfcc = MFCCAnalysis()
        /// Praat's cepstrogram and CPPS settings.
        public var cepstral = PraatCepstralAnalysis()
        /// eGeMAPS spectral-balance and temporal settings.
        public var egemaps = EGeMAPSAnalysis()
        /// The sets computed besides the Praat measures and levels (all by default); a set left
        /// out is not computed and its features are null, without a warning.
        public var sets = Sets.all
        public init(calibrationOffsetDecibels: Double? = nil) {
            self.calibrationOffsetDecibels = calibrationOffsetDecibels
        }
    }

    /// The optional feature sets of a voice analysis.
    public struct Sets: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Praat's Burg formants (and the eGeMAPS measures that read F3).
        public static let formants = Sets(rawValue: 1)
        /// Praat's cepstrogram, CPP and CPPS.
        public static let cepstral = Sets(rawValue: 2)
        /// librosa's MFCCs with Δ and ΔΔ.
        public static let mfcc = Sets(rawValue: 4)
        /// eGeMAPS v02 spectral balance, loudness and temporal features.
        public static let egemaps = Sets(rawValue: 8)
        /// The spectrogram behind the charts.
        public static let spectrogram = Sets(rawValue: 16)
        /// Praat's harmonicity (HNR) of the set `atk` (F0, jitter and shimmer come with the pitch
        /// contour every set needs).
        public static let harmonicity = Sets(rawValue: 32)
        /// openSMILE's eGeMAPSv02 functionals (``EGeMAPSv02Analysis``).
        public static let egemapsv02 = Sets(rawValue: 64)
        public static let all: Sets = [.formants, .cepstral, .mfcc, .egemaps, .spectrogram, .harmonicity, .egemapsv02]
    }

    /// What ``analyze(interleaved:channels:sampleRateHz:options:)`` found: the features, the
    /// warnings, and the F0 contour the features were computed from (for plotting).
    public struct Result: Sendable {
        /// Level, loudness, F0, jitter, shimmer and HNR (docs/analyses.md §4.2–4.7).
        public var features: VoiceFeatures
        /// Formants of the voiced frames (Praat's Burg method).
        public var formants: FormantFeatures
        /// librosa MFCCs of the whole recording.
        public var mfcc: MFCCFeatures
        /// Praat's CPPS and the per-frame CPP.
        public var cepstral: CepstralFeatures
        /// eGeMAPS v02 spectral balance, loudness and temporal features.
        public var egemaps: EGeMAPSFeatures
        /// openSMILE's eGeMAPSv02 functionals under openSMILE's names.
        public var egemapsv02 = EGeMAPSv02Features()
        /// The smoothed 10-ms descriptors behind ``egemapsv02`` (empty when the set was left out).
        public var egemapsv02LowLevelDescriptors = EGeMAPSv02LowLevelDescriptors()
        /// What the analysis noticed (clipping, little voiced material, …).
        public var warnings: [String]
        /// Pitch frame centres, s: Praat's "To Pitch (ac)" contour.
        public var pitchTimeSeconds: [Double]
        /// F0 of each pitch frame, Hz (NaN where unvoiced).
        public var pitchF0Hz: [Double]
        /// Formant frame centres, s.
        public var formantTimeSeconds: [Double]
        /// F1…F4 of each formant frame, Hz (NaN at unvoiced times, the frames the formant features
        /// leave out, and where a frame has fewer formants).
        public var formantFrequenciesHz: [[Double]]
        /// Channel 0's coarse spectrogram up to the maximum formant, for the formant chart (nil
        /// when ``Sets/spectrogram`` was left out).
        public var spectrogram: VoiceSpectrogram?
        /// The cepstrogram frame of median CPP, for the cepstral chart (nil: no CPP).
        public var cepstrumSlice: PraatCepstralAnalysis.Slice?
    }

    /// The F0 contour of `samples` (one channel) by Praat's "To Pitch (ac)" with the options'
    /// floor and ceiling: frame centres, s, and F0, Hz (NaN where unvoiced) — for plotting.
    public static func pitchContour(_ samples: [Double], sampleRateHz: Double, options: Options = Options()) -> (timeSeconds: [Double], f0Hz: [Double]) {
        var analysis = PraatPitchAnalysis()
        analysis.floor = options.pitchFloorHz
        analysis.ceiling = options.pitchCeilingHz
        guard let contour = analysis.analyze(PraatSound(samples: samples, sampleRateHz: sampleRateHz).scaledForCorrelation()) else { return ([], []) }
        let frames = contour.frequency.indices
        return (frames.map(contour.time), frames.map { contour.isVoiced($0) ? contour.frequency[$0] : .nan })
    }

    /// The bytes ``analyze(interleaved:channels:sampleRateHz:options:)`` holds beyond its usual
    /// bound for `interleaved`: channel 0's copy scaled for the correlations (8 bytes a frame) where
    /// its peak lies outside their range (``PraatSound/scaledForCorrelation()``), else 0.
    public static func correlationCopyBytes(interleaved: [Double], channels: Int) -> Int {
        let channels = max(1, channels), frames = interleaved.count / channels
        let peak = channels == 1 ? interleaved.withUnsafeBufferPointer { Statistics.peakDeviation($0) }
                                 : stride(from: 0, to: frames * channels, by: channels).reduce(0.0) { max($0, abs(interleaved[$1])) }
        return PraatSound.needsScaling(peak: peak) ? frames * MemoryLayout<Double>.stride : 0
    }

    /// ResearchKit's per-sample level m = max(dB/60, −1) + 1 of an Int16 sample a ≠ 0, dB =
    /// 20·log10(|a|/32767), at index |a| (1…32768): a table, since m depends on |a| only (index 0,
    /// which the rule skips, holds max(−∞, −1) + 1 = 0).
    static let tooLoudLevels: [Double] = (0...32768).map { (a: Int) -> Double in
        let decibels: Double = 20 * log10(Double(a) / 32767)
        return max(decibels / 60, -1) + 1
    }

    /// x·32767 rounded half away from zero and clamped to −32768…32767 (NaN: −32768), as
    /// `Int(clamping:rounding:to:)` gives it, without a rounding call per sample: the fraction
    /// x·32767 − trunc(x·32767) is exact below 2¹⁵.
    @inline(__always)
    static func int16(_ x: Double) -> Int {
        let y = x * 32767
        guard y > -32767.5 else { return -32768 }
        guard y < 32766.5 else { return 32767 }
        let whole = Int(y), fraction = y - Double(whole)
        return fraction >= 0.5 ? whole + 1 : fraction <= -0.5 ? whole - 1 : whole
    }

    /// `interleaved` frames of `channels` channels at `sampleRateHz`, in [−1, 1], in two rounds
    /// of independent jobs over the machine's cores: the sounds the formant and cepstrogram
    /// analyses resample (one after the other), the recording's levels and the pitch frames; then the pitch contour's
    /// features (F0 statistics, voiced levels, pulses, jitter, shimmer) and MFCCs, the formant
    /// and cepstrogram frames in chunks and the harmonicity frames; then eGeMAPS, which needs
    /// the contour and the formants.
    public static func analyze(interleaved: [Double], channels: Int, sampleRateHz: Double, options: Options = Options()) -> Result {
        let frames = interleaved.count / max(1, channels)
        let channel0 = channels == 1 ? interleaved : (0..<frames).map { interleaved[$0 * channels] }
        // Praat-compatible F0, pulses, perturbation and harmonicity on channel 0.
        // The correlations (pitch, harmonicity, pulses, shimmer) on the sound brought into their
        // range by a power of two, where it lies outside (PraatSound.scaledForCorrelation).
        let sound = PraatSound(samples: channel0, sampleRateHz: sampleRateHz), periodic = sound.scaledForCorrelation()
        var pitchAnalysis = PraatPitchAnalysis()
        pitchAnalysis.floor = options.pitchFloorHz
        pitchAnalysis.ceiling = options.pitchCeilingHz
        let pitch = pitchAnalysis.plan(periodic)
        let harmonicityPitch = harmonicityAnalysis(floor: options.pitchFloorHz, sampleRateHz: 1 / sound.dx)
        let harmonicity = options.sets.contains(.harmonicity) ? harmonicityPitch.plan(periodic) : nil

        enum First: Sendable {
            case resampled(Swift.Result<PraatFormantAnalysis.Plan, PraatFormantAnalysis.Failure>?, PraatCepstralAnalysis.Plan?)
            case levels((features: VoiceLevelFeatures, warnings: [String]))
            case pitch([PraatPitchAnalysis.Frame])
        }
        let first = Parallel.map(2 + (pitch?.runCount ?? 0), parallel: true) { job -> First in
            switch job {
            case 0:
                // One resampling after the other: each holds a padded FFT buffer of twice the
                // recording (the memory bound, bytesPerSample, counts one).
                .resampled(options.sets.contains(.formants) ? Swift.Result { () throws(PraatFormantAnalysis.Failure) in try options.formants.plan(sound) } : nil,
                           // Praat's cepstrogram resamples to 10 kHz: refused beyond four times the recording's rate (memory).
                           options.sets.contains(.cepstral) && 2 * options.cepstral.maximumFrequencyHz <= 4 * sampleRateHz ? options.cepstral.plan(sound) : nil)
            case 1:
                .levels(levels(interleaved: interleaved, channels: channels, channel0: channel0, sampleRateHz: sampleRateHz, options: options))
            default:
                .pitch(pitch?.frames(run: job - 2) ?? [])
            }
        }
        guard case .resampled(let formantPlan, let cepstrogram) = first[0], case .levels(let recording) = first[1] else {
            preconditionFailure("voice jobs out of order")
        }
        let contour = pitch?.contour(first.dropFirst(2).map { job in
            guard case .pitch(let frames) = job else { preconditionFailure("voice jobs out of order") }
            return frames
        })

        enum Second: Sendable {
            case voice((features: VoiceContourFeatures, warnings: [String]), MFCCAnalysis.Result)
            case cepstral([PraatCepstralAnalysis.Plan.Peak])
            case formants([PraatFormantAnalysis.Frame])
            case harmonicity([PraatPitchAnalysis.Frame])
            case egemapsv02(EGeMAPSv02Features, EGeMAPSv02LowLevelDescriptors, String?)
        }
        let cepstralChunks = cepstrogram?.chunkCount ?? 0
        let formantChunks = (try? formantPlan?.get())?.chunkCount ?? 0
        let harmonicityCount = harmonicity?.runCount ?? 0
        let second = Parallel.map(1 + cepstralChunks + formantChunks + harmonicityCount + (options.sets.contains(.egemapsv02) ? 1 : 0), parallel: true) { job -> Second in
            if job == 1 + cepstralChunks + formantChunks + harmonicityCount {
                let (features, descriptors, warning) = EGeMAPSv02Analysis().analyze(channel0, sampleRateHz: sampleRateHz)
                return .egemapsv02(features, descriptors, warning)
            }
            if job == 0 {
                return .voice(contourFeatures(sound, periodic: periodic, sampleRateHz: sampleRateHz, contour: contour),
                              options.sets.contains(.mfcc) ? options.mfcc.analyze(channel0, sampleRateHz: sampleRateHz) : MFCCAnalysis.Result(frameCount: 0, coefficients: []))
            }
            let cepstralJob = job - 1, formantJob = job - 1 - cepstralChunks, harmonicityJob = job - 1 - cepstralChunks - formantChunks
            if cepstralJob < cepstralChunks { return .cepstral(cepstrogram?.peaks(chunk: cepstralJob) ?? []) }
            if formantJob < formantChunks { return .formants((try? formantPlan?.get())?.frames(chunk: formantJob) ?? []) }
            return .harmonicity(harmonicity?.frames(run: harmonicityJob) ?? [])
        }
        guard case .voice(let voice, let mfcc) = second[0] else { preconditionFailure("voice jobs out of order") }
        let cepstral = cepstrogram?.result(second[1..<1 + cepstralChunks].map { job in
            guard case .cepstral(let peaks) = job else { preconditionFailure("voice jobs out of order") }
            return peaks
        })
        let formantTrack = formantPlan?.map { plan in
            plan.track(second[1 + cepstralChunks..<1 + cepstralChunks + formantChunks].map { job in
                guard case .formants(let frames) = job else { preconditionFailure("voice jobs out of order") }
                return frames
            })
        }
        let harmonicityRuns = second.dropFirst(1 + cepstralChunks + formantChunks).prefix(harmonicityCount).map { job -> [PraatPitchAnalysis.Frame] in
            guard case .harmonicity(let frames) = job else { preconditionFailure("voice jobs out of order") }
            return frames
        }
        var egemapsv02 = (features: EGeMAPSv02Features(), descriptors: EGeMAPSv02LowLevelDescriptors(), warning: String?.none)
        if case .egemapsv02(let features, let descriptors, let warning)? = second.last { egemapsv02 = (features, descriptors, warning) }
        let spectralFrames = !options.sets.contains(.egemaps) ? EGeMAPSAnalysis.Frames() : options.egemaps.frames(channel0, sampleRateHz: sampleRateHz, f0: { contour?.value(at: $0) }) { t in
            guard case .success(let track)? = formantTrack, track.timeStep > 0, !track.frames.isEmpty else { return nil }
            let nearest = track.frames[Int(clamping: (t - track.firstTime) / track.timeStep, rounding: .toNearestOrEven, to: 0...(track.frames.count - 1))]
            return nearest.frequencyHz.count >= 3 ? (nearest.frequencyHz[2], nearest.bandwidthHz[2]) : nil
        }
        let egemaps = EGeMAPSFeatures(spectralFrames, voicedPitchFrames: contour.map { c in c.frequency.indices.map(c.isVoiced) } ?? [],
                                      pitchTimeStep: contour?.dx ?? 0, durationSeconds: Double(frames) / sampleRateHz,
                                      peakThreshold: options.egemaps.loudnessPeakThreshold)
        let harmonicityContour = harmonicity.map { $0.contour(harmonicityRuns) }
        let features = VoiceFeatures(levels: recording.features, contour: voice.features, hnrDb: harmonicityContour.flatMap(meanHarmonicity))
        var warnings = recording.warnings + voice.warnings
        // No frame fits (the pitch floor's window longer than the recording): said, not left to
        // the voiced-signal warning.
        if pitch == nil, sound.count > 0 { warnings.append("pitch: no frame: \(pitchAnalysis.noFrame(periodic)); F0, pulses, jitter and shimmer null") }
        if options.sets.contains(.harmonicity), harmonicity == nil, sound.count > 0 {
            warnings.append("HNR: no frame: \(harmonicityPitch.noFrame(periodic)); HNR null")
        }
        if let harmonicityContour, let warning = roundingHarmonicityWarning(harmonicityContour) { warnings.append(warning) }
        var track = PraatFormantAnalysis.Track(firstTime: 0, timeStep: 0, frames: [])
        switch formantTrack {
        case nil: break
        case .success(let found): track = found
        case .failure(.windowTooShort(let samples, let order)):
            warnings.append("formants: the \(samples)-sample window is shorter than the LPC order \(order) + 1")
        case .failure(.rateTooHigh(let maximum, let rate)):
            warnings.append("formants: a maximum formant of \(maximum) Hz needs a rate over 4 times the recording's \(rate) Hz; not analysed")
        }
        if mfcc.delta == nil, options.sets.contains(.mfcc) {
            warnings.append("mfcc: Δ and ΔΔ need 9 frames (\(8 * options.mfcc.hop) samples); this recording has \(mfcc.frameCount)")
        }
        if let warning = egemapsv02.warning { warnings.append(warning) }
        if cepstral == nil, options.sets.contains(.cepstral) { warnings.append("cepstral: no cepstrogram frame fits (frames of \(2 * 3 / options.cepstral.pitchFloorHz) s at 10 kHz) or the rate is below 2500 Hz") }
        let formants = FormantFeatures(track) { contour?.value(at: $0) != nil }
        let frameIndices = contour?.frequency.indices ?? 0..<0
        return Result(features: features, formants: formants, mfcc: MFCCFeatures(mfcc, coefficientCount: options.mfcc.coefficientCount),
                      cepstral: CepstralFeatures(cepstral) { contour?.value(at: $0) != nil }, egemaps: egemaps, egemapsv02: egemapsv02.features, egemapsv02LowLevelDescriptors: egemapsv02.descriptors,
                      warnings: warnings, pitchTimeSeconds: frameIndices.map { contour!.time($0) },
                      pitchF0Hz: frameIndices.map { contour!.isVoiced($0) ? contour!.frequency[$0] : .nan },
                      formantTimeSeconds: track.frames.indices.map(track.time),
                      formantFrequenciesHz: track.frames.indices.map { i in
                          (0..<FormantFeatures.reported).map { k in
                              k < track.frames[i].frequencyHz.count && contour?.value(at: track.time(i)) != nil ? track.frames[i].frequencyHz[k] : .nan
                          }
                      },
                      spectrogram: options.sets.contains(.spectrogram) ? VoiceSpectrogram(channel0, sampleRateHz: sampleRateHz, topHz: options.formants.maximumFormantHz) : nil,
                      cepstrumSlice: cepstral?.slice)
    }

    /// A warning when channel 0, the one every voice measure but loudness analyses, is silent or
    /// more than 20 dB below another channel (a voice recorded on the right channel only); nil
    /// otherwise.
    static func weakChannel0(interleaved: [Double], channels: Int, meanSquare0: Double) -> String? {
        guard channels > 1 else { return nil }
        let frames = interleaved.count / channels
        var strongest = (channel: 0, meanSquare: meanSquare0)
        for channel in 1..<channels {
            let meanSquare = stride(from: channel, to: frames * channels, by: channels).reduce(0) { $0 + interleaved[$1] * interleaved[$1] } / Double(max(1, frames))
            if meanSquare > strongest.meanSquare { strongest = (channel, meanSquare) }
        }
        guard strongest.channel != 0, !(100 * meanSquare0 >= strongest.meanSquare) else { return nil }
        func decibels(_ ratio: Double) -> Double { (100 * log10(ratio)).rounded() / 10 }
        let level = meanSquare0 > 0 ? "\(decibels(strongest.meanSquare / meanSquare0)) dB below" : "silent while"
        return "channel 0, which F0, perturbation, HNR, formants, cepstra, MFCCs and eGeMAPS analyse, is \(level) channel \(strongest.channel) "
            + "(\(decibels(strongest.meanSquare)) dBFS RMS): the voice may be on channel \(strongest.channel)"
    }

    /// Channel layout, duration, levels and loudness of the whole recording, and ResearchKit's
    /// too-loud rule.
    static func levels(interleaved: [Double], channels: Int, channel0: [Double], sampleRateHz: Double, options: Options) -> (features: VoiceLevelFeatures, warnings: [String]) {
        var warnings: [String] = []
        let frames = channel0.count
        let dualMono = channels == 2 && (0..<frames).allSatisfy { (i: Int) -> Bool in interleaved[2 * i] == interleaved[2 * i + 1] }
        let loudnessChannels = channels == 1 || (dualMono && options.countIdenticalChannelsOnce) ? 1 : channels

        // Levels of the whole recording (channel 0).
        let meanSquare = channel0.reduce(0) { $0 + $1 * $1 } / Double(max(1, frames))
        let rmsDbfs = 10 * log10(meanSquare)
        if let weak = weakChannel0(interleaved: interleaved, channels: channels, meanSquare0: meanSquare) { warnings.append(weak) }

        // ITU-R BS.1770-4 over all channels (identical channels counted once only on request).
        var meter = LoudnessMeter(sampleRateHz: sampleRateHz, channels: loudnessChannels)
        meter.process(interleaved: loudnessChannels == channels ? interleaved : channel0)
        if let reason = meter.integratedUndefinedReason { warnings.append(reason) }

        // ResearchKit's too-loud rule (ORKAudioLevelNavigationRule.m): non-zero Int16 samples of
        // all channels, m = max(dB/60, −1) + 1, too loud if mean m > 0.45.
        var sumM = 0.0, countM = 0
        Self.tooLoudLevels.withUnsafeBufferPointer { levels in
            for value in interleaved {
                let a = Self.int16(value)
                guard a != 0 else { continue }
                sumM += levels[abs(a)]
                countM += 1
            }
        }
        let tooLoudMean = countM > 0 ? sumM / Double(countM) : 0
        let clipped = channel0.filter { abs($0) >= 0.999 }.count
        if clipped > 0 { warnings.append("clipping: \(clipped) sample(s) at |x| ≥ 0.999") }
        let features = VoiceLevelFeatures(
            channelMode: channels == 1 ? .mono : dualMono ? .dualMono : .multichannel, durationSeconds: Double(frames) / sampleRateHz,
            rmsDbfs: rmsDbfs.isFinite ? rmsDbfs : nil,
            // Praat "Sound: Get intensity (dB)": samples as pascals re 2·10⁻⁵ Pa — not SPL.
            intensityDb: rmsDbfs.isFinite ? rmsDbfs + 20 * log10(1 / 2e-5) : nil,
            splDecibels: options.calibrationOffsetDecibels.flatMap { rmsDbfs.isFinite ? rmsDbfs + $0 : nil },
            loudnessLufs: meter.integratedLUFS, loudnessRangeLu: meter.loudnessRangeLU,
            researchKitTooLoudMeanLevel: tooLoudMean, researchKitTooLoud: tooLoudMean > 0.45)
        return (features, warnings)
    }

    /// F0 statistics, voiced material and its levels, pulses, jitter and shimmer of `sound` (one
    /// channel) and its pitch contour; the pulses and their perturbation of `periodic`, the sound
    /// as its correlations need it (``PraatSound/scaledForCorrelation()``).
    static func contourFeatures(_ sound: PraatSound, periodic: PraatSound, sampleRateHz: Double, contour: PraatPitchAnalysis.Contour?) -> (features: VoiceContourFeatures, warnings: [String]) {
        var warnings: [String] = []
        let channel0 = sound.samples, frames = sound.count
        let voicedF0 = contour.map { c in c.frequency.indices.filter(c.isVoiced).map { c.frequency[$0] } } ?? []
        let sorted = voicedF0.sorted()
        // Voiced material (docs/analyses.md §4.5, `atk`): 40 ms frames, 10 ms hop, voiced if the frame
        // RMS is at least max(P95 of frame levels − 30 dB, −60 dBFS) and the pitch tracker calls
        // its centre voiced; gaps < 0.2 s bridged, segments < 0.3 s dropped.
        let segments = voicedSegments(channel0, sampleRateHz: sampleRateHz, contour: contour)
        let voicedSamples = segments.reduce(0) { $0 + $1.count }
        let voicedSeconds = Double(voicedSamples) / sampleRateHz
        // F0 and perturbation read every frame the pitch tracker calls voiced; the voiced levels
        // only the voiced material, which a voice below −60 dBFS leaves empty.
        let trackedSeconds = Double(voicedF0.count) * (contour?.dx ?? 0)
        if trackedSeconds < 1 {
            warnings.append("less than 1 s of voiced signal: F0 and perturbation are unreliable")
        } else if voicedSeconds < 1 {
            warnings.append(String(format: "less than 1 s of voiced material (%.3g s of 40-ms frames at or above max(P95 − 30 dB, −60 dBFS) whose centre is voiced): the voiced levels are null or unreliable; F0 and perturbation read the pitch tracker's %.3g s of voiced frames", voicedSeconds, trackedSeconds))
        }
        var voicedSquares = 0.0
        var frameLevels: [Double] = []
        let frameLength = Int(clamping: 0.04 * sampleRateHz, to: 1...Int.max), hop = Int(clamping: 0.01 * sampleRateHz, to: 1...Int.max)
        for segment in segments {
            for i in segment { voicedSquares += channel0[i] * channel0[i] }
            frameLevels += Self.frameLevels(channel0, in: segment, length: frameLength, hop: hop)
        }
        let voicedDbfs = voicedSamples > 0 ? 10 * log10(voicedSquares / Double(voicedSamples)) : .nan
        let sortedLevels = frameLevels.sorted()
        var voicedLoudness: Double?
        if Double(voicedSamples) >= 0.4 * sampleRateHz {
            var voicedMeter = LoudnessMeter(sampleRateHz: sampleRateHz, channels: 1)
            voicedMeter.process(interleaved: segments.flatMap { channel0[$0] })
            voicedLoudness = voicedMeter.integratedLUFS
        }
        let pulses = contour.map { Perturbation.pulses(periodic, pitch: $0) } ?? []
        let features = VoiceContourFeatures(
            voicedFrameCount: voicedF0.count,
            f0MedianHz: sorted.isEmpty ? nil : Statistics.quantileOfSorted(sorted, 0.5),
            f0MeanHz: sorted.isEmpty ? nil : voicedF0.statistic(Statistics.mean),
            f0SdHz: sorted.count < 2 ? nil : voicedF0.statistic(Statistics.standardDeviation),
            f0SdSemitones: sorted.count < 2 ? nil : voicedF0.map { 12 * log2($0 / 100) }.statistic(Statistics.standardDeviation),
            f0P5Hz: sorted.isEmpty ? nil : Statistics.quantileOfSorted(sorted, 0.05),
            f0P95Hz: sorted.isEmpty ? nil : Statistics.quantileOfSorted(sorted, 0.95),
            f0RangeHz: sorted.isEmpty ? nil : sorted.last! - sorted.first!,
            voicedDurationSeconds: voicedSeconds, voicedFraction: frames > 0 ? voicedSeconds / (Double(frames) / sampleRateHz) : 0,
            rmsVoicedDbfs: voicedDbfs.isFinite ? voicedDbfs : nil,
            intensityVoicedDb: voicedDbfs.isFinite ? voicedDbfs + 20 * log10(1 / 2e-5) : nil,
            // Energy mean of the frame levels: 10·lg mean 10^(L/10).
            frameRmsDbfsMean: frameLevels.isEmpty ? nil : 10 * log10(frameLevels.reduce(0) { $0 + pow(10, $1 / 10) } / Double(frameLevels.count)),
            frameRmsDbfsMedian: sortedLevels.isEmpty ? nil : Statistics.quantileOfSorted(sortedLevels, 0.5),
            frameRmsDbfsP10: sortedLevels.isEmpty ? nil : Statistics.quantileOfSorted(sortedLevels, 0.1),
            frameRmsDbfsP90: sortedLevels.isEmpty ? nil : Statistics.quantileOfSorted(sortedLevels, 0.9),
            loudnessVoicedLufs: voicedLoudness, pulseCount: pulses.count, perturbation: Perturbation.measures(pulses, sound: periodic))
        return (features, warnings)
    }

    /// Praat "Sound: To Harmonicity (cc)" (time step 0.01 s, minimum pitch 75 Hz, silence
    /// threshold 0.1, 1 period per window) and its mean over voiced frames: per frame
    /// 10·lg(r/(1 − r)) of the best cross-correlation r (Boersma 1993).
    static func meanHarmonicity(_ contour: PraatPitchAnalysis.Contour) -> Double? {
        var values: [Double] = []
        for f in contour.frequency.indices where contour.frequency[f] > 0 {
            let r = contour.strength[f]
            values.append(r <= 1e-15 ? -150 : r > 1 - 1e-15 ? 150 : 10 * log10(r / (1 - r)))
        }
        return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    /// Above this HNR (1 − r below 3e-6) a frame's value is set by the last bits of its
    /// correlation: 10·lg(r/(1 − r)) moves by 4.3·Δr/(1 − r) dB, in Praat as here
    /// (docs/accuracy.md). Only an exactly periodic signal reaches it.
    static let roundingHarmonicityDb = 55.0

    /// A warning when voiced frames of `contour` exceed ``roundingHarmonicityDb``; nil otherwise.
    static func roundingHarmonicityWarning(_ contour: PraatPitchAnalysis.Contour) -> String? {
        let voiced = contour.frequency.indices.filter { contour.frequency[$0] > 0 }
        let rounding = voiced.filter { f in
            let r = contour.strength[f]
            return 10 * log10(r / (1 - r)) > roundingHarmonicityDb
        }.count
        guard rounding > 0 else { return nil }
        return "HNR: \(rounding) of \(voiced.count) voiced frames above \(roundingHarmonicityDb.compactDescription) dB (an exactly periodic signal): their values are set by rounding, in Praat as here, so the mean HNR may differ from Praat's from its fourth significant digit"
    }

    /// The pitch analysis behind ``meanHarmonicity(_:)``: Praat's "To Harmonicity (cc)" settings.
    static func harmonicityAnalysis(floor: Double, sampleRateHz: Double) -> PraatPitchAnalysis {
        var analysis = PraatPitchAnalysis()
        analysis.method = .crossCorrelation
        analysis.timeStep = 0.01
        analysis.floor = floor
        analysis.ceiling = 0.5 * sampleRateHz
        analysis.periodsPerWindow = 1
        analysis.silenceThreshold = 0.1
        analysis.voicingThreshold = 0
        analysis.octaveCost = 0
        analysis.octaveJumpCost = 0
        analysis.voicedUnvoicedCost = 0
        return analysis
    }

    /// Frame levels, dB re full scale (floored at −3000 dB), of the frames of `length` every `hop`
    /// samples that fit in `range`.
    static func frameLevels(_ x: [Double], in range: Range<Int>, length: Int, hop: Int) -> [Double] {
        x.withUnsafeBufferPointer { x in
            Statistics.frameSums(UnsafeBufferPointer(rebasing: x[range]), length: length, hop: hop, squared: true)
                .map { 10 * log10(max($0 / Double(length), 1e-300)) }
        }
    }

    /// Sample ranges of voiced material (docs/analyses.md §4.5).
    static func voicedSegments(_ x: [Double], sampleRateHz: Double, contour: PraatPitchAnalysis.Contour?) -> [Range<Int>] {
        guard let contour else { return [] }
        let frameLength = Int(clamping: 0.04 * sampleRateHz, to: 1...Int.max), hop = Int(clamping: 0.01 * sampleRateHz, to: 1...Int.max)
        guard x.count >= frameLength, hop > 0 else { return [] }
        let levels = frameLevels(x, in: x.indices, length: frameLength, hop: hop)
        let threshold = max(Statistics.quantileOfSorted(levels.sorted(), 0.95) - 30, -60)
        var voiced = levels.indices.map { f -> Bool in
            let centre = (Double(f * hop) + 0.5 * Double(frameLength)) / sampleRateHz
            return levels[f] >= threshold && contour.value(at: centre) != nil
        }
        // Bridge unvoiced gaps shorter than 0.2 s, then drop voiced runs shorter than 0.3 s.
        func runs(_ flags: [Bool], _ value: Bool) -> [Range<Int>] {
            var result: [Range<Int>] = []
            var i = 0
            while i < flags.count {
                guard flags[i] == value else { i += 1; continue }
                let begin = i
                while i < flags.count, flags[i] == value { i += 1 }
                result.append(begin..<i)
            }
            return result
        }
        for gap in runs(voiced, false) where gap.lowerBound > 0 && gap.upperBound < voiced.count && Double(gap.count) * 0.01 < 0.2 {
            for f in gap { voiced[f] = true }
        }
        return runs(voiced, true).filter { Double($0.count) * 0.01 >= 0.3 }.map { run in
            (run.lowerBound * hop)..<min(x.count, (run.upperBound - 1) * hop + frameLength)
        }
    }
}
