import Glibc
import InputGuards
import SignalProcessing

/// openSMILE 2.6.0's eGeMAPSv02 feature set (F. Eyben et al., "The Geneva Minimalistic Acoustic
/// Parameter Set (GeMAPS) for Voice Research and Affective Computing", IEEE Trans. Affective
/// Computing 7(2):190–202, 2016, as openSMILE's `eGeMAPSv02.conf` computes it), rebuilt from the
/// paper, the configuration's parameter values and black-box comparison with openSMILE's output
/// (`Benchmarks/peers/opensmile_reference.py`; openSMILE is a test peer only).
///
/// This part holds the descriptors every frame has, voiced or not: from 20-ms Hamming frames
/// (w[n] = 0.54 − 0.46·cos(2πn/(N − 1)), N = ⌊0.02·f_s + ½⌋ samples) every ⌊0.01·f_s + ½⌋
/// samples, the first starting at sample 0 and the last ending inside the recording, zero-padded
/// to a power of two — loudness, alpha ratio, Hammarberg index, the spectral slopes 0–500 and
/// 500–1500 Hz, spectral flux and MFCC 1–4 — and the frame energies behind the equivalent sound
/// level. Samples are taken as openSMILE takes them (``openSmileSamples(_:)``): 16-bit values
/// read as v/32767.
public struct EGeMAPSv02Analysis: Sendable, Hashable {
    public init() {}

    /// The functionals of `samples` (channel 0, full scale) at `sampleRateHz` (``EGeMAPSv02Features``);
    /// non-finite samples count as 0, as the audio readers decode them.
    public func features(_ samples: [Double], sampleRateHz: Double) -> EGeMAPSv02Features {
        analyze(samples, sampleRateHz: sampleRateHz).features
    }

    /// The functionals, the smoothed frame-level descriptors they are taken of
    /// (``EGeMAPSv02LowLevelDescriptors``) and, when any functional is null, a warning that counts
    /// them and says why (``nullWarning(_:descriptors:pitch:sampleRateHz:)``), of `samples` at
    /// `sampleRateHz`, as ``features(_:sampleRateHz:)``.
    public func analyze(_ samples: [Double], sampleRateHz: Double)
        -> (features: EGeMAPSv02Features, lowLevelDescriptors: EGeMAPSv02LowLevelDescriptors, warning: String?) {
        let samples = Self.openSmileSamples(samples)
        let descriptors = frameDescriptors(samples, sampleRateHz: sampleRateHz)
        let (track, harmonics) = pitch(samples, sampleRateHz: sampleRateHz, formantsHz: descriptors.formantFrequencyHz)
        let features: EGeMAPSv02Features, lowLevelDescriptors: EGeMAPSv02LowLevelDescriptors
        if let (length, step) = Self.pitchFraming(sampleRateHz: sampleRateHz) {
            let perturbation = OpenSmilePitchJitter(samples, sampleRateHz: sampleRateHz, f0Hz: track.frequencyHz, length: length, step: step)
            features = EGeMAPSv02Features(EGeMAPSv02FrameFunctionals(descriptors),
                                          EGeMAPSv02VoicingFunctionals(descriptors, pitch: track, harmonics: harmonics, perturbation: perturbation))
            lowLevelDescriptors = EGeMAPSv02LowLevelDescriptors(descriptors, pitch: track, harmonics: harmonics, perturbation: perturbation, step: step, sampleRateHz: sampleRateHz)
        } else {
            features = EGeMAPSv02Features(EGeMAPSv02FrameFunctionals(descriptors), EGeMAPSv02VoicingFunctionals(descriptors, pitch: track, harmonics: harmonics, perturbation: .init()))
            lowLevelDescriptors = EGeMAPSv02LowLevelDescriptors()
        }
        return (features, lowLevelDescriptors, Self.nullWarning(features, descriptors: descriptors, pitch: track, sampleRateHz: sampleRateHz))
    }

    /// "egemapsv02: k of 88 functionals null: …" with each reason the recording gives for it — no
    /// 20-ms frame, no 60-ms pitch frame, no voiced frame among those the functionals see, no
    /// unvoiced frame, bands without a spectrum bin below the Nyquist frequency — or "contours
    /// without a non-zero value" when none of those holds (the shimmer of a clipped vowel); nil
    /// when every functional is a number.
    static func nullWarning(_ features: EGeMAPSv02Features, descriptors: FrameDescriptors, pitch: PitchTrack, sampleRateHz: Double) -> String? {
        let values = FeatureSet(name: "egemapsv02", features: features).values
        let null = values.filter { $0.number.map { !$0.isFinite } ?? true }.count
        guard null > 0 else { return nil }
        var reasons: [String] = []
        let seen = pitch.frequencyHz.prefix(min(descriptors.loudness.count, pitch.decidedFrames))
        if descriptors.loudness.isEmpty {
            reasons.append("the recording is shorter than one 20-ms frame")
        } else if pitch.frequencyHz.isEmpty {
            reasons.append("no 60-ms pitch frame fits the recording")
        } else if !seen.contains(where: { $0 > 0 }) {
            reasons.append("no frame voiced (the subharmonic-summation pitch found no F0 of \(Int(OpenSmileSubharmonicSummation.lowestHz))–\(Int(OpenSmileSubharmonicSummation.highestHz)) Hz)")
        } else if seen.allSatisfy({ $0 > 0 }) {
            reasons.append("no unvoiced frame (the unvoiced means and segments)")
        }
        let bands = [(descriptors.alphaRatio, "1–5 kHz (alphaRatio)"), (descriptors.hammarbergIndex, "2–5 kHz (hammarbergIndex)"),
                     (descriptors.slope0To500, "0–500 Hz (slope0-500)"), (descriptors.slope500To1500, "500–1500 Hz (slope500-1500)")]
            .filter { contour, _ in !contour.isEmpty && contour.allSatisfy(\.isNaN) }.map(\.1)
        if !bands.isEmpty {
            reasons.append("at \(sampleRateHz) Hz no spectrum bin lies in \(bands.joined(separator: ", "))")
        }
        if reasons.isEmpty { reasons.append("contours without a non-zero value") }
        return "egemapsv02: \(null) of \(values.count) functionals null: " + reasons.joined(separator: "; ")
    }

    /// `samples` (full scale) as openSMILE 2.6.0 is given them through its Python package: each
    /// truncated toward zero to a 16-bit value k = ⌊32768·x⌋ that wraps around beyond the 16-bit
    /// range (a sample of exactly +1 becomes −32768, as openSMILE's conversion does), returned as
    /// k/32768; the values of a 16-bit recording are unchanged, non-finite samples and those whose
    /// 16-bit value is not finite count as 0. (Its output on a full-scale sample depends on that
    /// wrap: 7–17 % more loudness in the frames around one.)
    static func openSmileSamples(_ samples: [Double]) -> [Double] {
        samples.map { x in
            let k = (32768 * x).rounded(.towardZero)
            guard k.isFinite else { return 0 }
            guard k < 32768, k >= -32768 else {
                let wrapped = fmod(fmod(k + 32768, 65536) + 65536, 65536) - 32768
                return wrapped / 32768
            }
            return k / 32768
        }
    }

    /// F0 in semitones above 27.5 Hz, 12·log₂(F0/27.5), at least 1 (a voiced frame is never 0, the
    /// mark of an unvoiced one); 0 when unvoiced (F0 ≤ 0).
    static func semitones(_ f0Hz: Double) -> Double { f0Hz > 0 ? max(1, 12 * log2(f0Hz / 27.5)) : 0 }

    /// openSMILE's sample scale relative to full scale: 16-bit values v read as v/32767.
    static let sampleScale = 32768.0 / 32767.0

    /// The low-level descriptors of every 10-ms frame, before smoothing.
    struct FrameDescriptors: Sendable, Hashable {
        /// Auditory-spectrum loudness (``OpenSmileMelBands/loudness(_:)``), openSMILE's units.
        var loudness: [Double] = []
        /// dB (``OpenSmileSpectralBalance/alphaRatio(_:)``).
        var alphaRatio: [Double] = []
        /// dB.
        var hammarbergIndex: [Double] = []
        /// dB/Hz.
        var slope0To500: [Double] = []
        var slope500To1500: [Double] = []
        /// Spectral flux of the magnitude spectrum (openSMILE's units).
        var spectralFlux: [Double] = []
        /// MFCC 1–4, one array per coefficient.
        var mfcc: [[Double]] = Array(repeating: [], count: 4)
        /// Mean square of each frame's samples (no window).
        var energy: [Double] = []
        /// LPC formants F1–F5 and their bandwidths, Hz, one array per formant (``OpenSmileFormants``;
        /// 0 where a frame has fewer).
        var formantFrequencyHz: [[Double]] = Array(repeating: [], count: OpenSmileFormants.count)
        var formantBandwidthHz: [[Double]] = Array(repeating: [], count: OpenSmileFormants.count)
    }

    /// Samples per frame and between frames at `sampleRateHz`; nil when no 20-ms frame has two
    /// samples or the rate is not a finite positive number.
    static func framing(sampleRateHz: Double) -> (length: Int, step: Int)? {
        guard sampleRateHz.isFinite, sampleRateHz > 0,
              let length = Int(checking: 0.020 * sampleRateHz + 0.5, rounding: .down, in: 2...(1 << 30)),
              let step = Int(checking: 0.010 * sampleRateHz + 0.5, rounding: .down, in: 1...(1 << 30)) else { return nil }
        return (length, step)
    }

    /// The rate openSMILE's spectra of frames of `length` samples, configured to last `seconds`,
    /// take for their frequency axis: it keeps the configured duration as the frame's (cFramer's
    /// frameSizeSec, scaled by the zero-padding), so its bins lie length/(seconds·size) apart, not
    /// f_s/size. The two agree where seconds·f_s is the whole `length` (8, 16, 22.05, 44.1,
    /// 48 kHz…); at 11.025 kHz the 20-ms frame of 221 samples puts every frequency 221/220.5 too
    /// high (0.23 %), the 60-ms frame of 662 samples 662/661.5.
    static func spectrumRate(length: Int, seconds: Double, sampleRateHz: Double) -> Double {
        sampleRateHz * (Double(length) / (seconds * sampleRateHz))
    }

    /// The frame descriptors of `samples` (full scale) at `sampleRateHz`: one frame per step
    /// whose 20 ms lie within the recording; none for a recording shorter than a frame.
    func frameDescriptors(_ samples: [Double], sampleRateHz: Double) -> FrameDescriptors {
        var result = FrameDescriptors()
        guard let (length, step) = Self.framing(sampleRateHz: sampleRateHz), samples.count >= length else { return result }
        let spectrumRate = Self.spectrumRate(length: length, seconds: 0.020, sampleRateHz: sampleRateHz)
        guard var spectrum = FramePowerSpectrum(length: length, window: Window.hamming.values(count: length, periodic: false).map { $0 * Self.sampleScale },
                                                sampleRateHz: spectrumRate)
        else { return result }
        let frames = (samples.count - length) / step + 1
        let balance = OpenSmileSpectralBalance(binHz: spectrum.binHz, bins: spectrum.bins)
        let bands = OpenSmileMelBands(binHz: spectrum.binHz, bins: spectrum.bins, sampleRateHz: spectrumRate)
        let formants = OpenSmileFormants(length: length, window: spectrum.window, sampleRateHz: spectrumRate)
        var formantScratch = OpenSmileFormants.Scratch()
        var power = [Double](repeating: 0, count: spectrum.bins), magnitude = power, previous = power
        var bandPower = [Double](repeating: 0, count: OpenSmileMelBands.count)
        result.loudness.reserveCapacity(frames)
        for frame in 0..<frames {
            let start = frame * step
            spectrum.power(samples, from: start, into: &power)
            for k in power.indices { magnitude[k] = power[k] }
            VectorMath.squareRoot(&magnitude)
            power.withUnsafeBufferPointer { p in
                result.alphaRatio.append(balance.alphaRatio(p))
                result.hammarbergIndex.append(balance.hammarbergIndex(p))
                result.slope0To500.append(balance.logSlope(p, from: 0, to: 500))
                result.slope500To1500.append(balance.logSlope(p, from: 500, to: 1500))
                bands.bandPowers(p, into: &bandPower)
            }
            result.spectralFlux.append(frame == 0 ? 0 : magnitude.withUnsafeBufferPointer { m in
                previous.withUnsafeBufferPointer { balance.flux(m, previous: $0) }
            })
            swap(&magnitude, &previous)
            result.loudness.append(bands.loudness(bandPower))
            bands.appendCepstrum(bandPower, to: &result.mfcc)
            var energy = 0.0
            for n in start..<(start + length) { energy += samples[n] * samples[n] }
            result.energy.append(energy * Self.sampleScale * Self.sampleScale / Double(length))
            if let formants {
                formants.append(samples, from: start, frequencies: &result.formantFrequencyHz, bandwidths: &result.formantBandwidthHz, scratch: &formantScratch)
            } else {
                for k in 0..<OpenSmileFormants.count { result.formantFrequencyHz[k].append(0); result.formantBandwidthHz[k].append(0) }
            }
        }
        return result
    }
    /// The pitch of every 60-ms frame: candidates, the chosen path and its voicing.
    struct PitchTrack: Sendable, Hashable {
        /// Each frame's candidates (``OpenSmileSubharmonicSummation``).
        var candidates: [[OpenSmileSubharmonicSummation.Candidate]] = []
        /// F0, Hz, 0 in unvoiced frames and in frames whose windowed RMS is below 0.001
        /// (openSMILE's "F0final" after the energy gate).
        var frequencyHz: [Double] = []
        /// The voicing of the chosen candidate (the first candidate's when unvoiced), 0 in gated
        /// frames ("voicingFinalUnclipped").
        var voicing: [Double] = []
        /// The frames the smoother had decided when the recording ended (the rest it decides at
        /// the end, from the cheapest path).
        var decidedFrames = 0
    }

    /// The harmonic measures of every 60-ms frame (``OpenSmileHarmonics``), dB, as openSMILE
    /// writes them: HNR, H1–H2 and H1–A3 are 0 where unvoiced or without a value; the formant
    /// amplitudes relative to F0 are openSMILE's floor −201 where unvoiced and 0 where no
    /// harmonic lies in range.
    struct HarmonicTrack: Sendable, Hashable {
        var harmonicsToNoiseDb: [Double] = []
        var h1MinusH2Db: [Double] = []
        var h1MinusA3Db: [Double] = []
        /// F1–F3, one array per formant.
        var formantAmplitudeDb: [[Double]] = Array(repeating: [], count: 3)
    }

    /// Samples per 60-ms pitch frame, ⌊0.06·f_s + ½⌋, and between frames; nil for an unusable rate.
    static func pitchFraming(sampleRateHz: Double) -> (length: Int, step: Int)? {
        guard let (_, step) = framing(sampleRateHz: sampleRateHz),
              let length = Int(checking: 0.060 * sampleRateHz + 0.5, rounding: .down, in: 3...(1 << 30)) else { return nil }
        return (length, step)
    }

    /// The power spectra of the 60-ms pitch frames of `length` samples: the Gaussian window, the
    /// frequency axis of ``spectrumRate(length:seconds:sampleRateHz:)``.
    static func pitchSpectrum(length: Int, sampleRateHz: Double) -> FramePowerSpectrum? {
        FramePowerSpectrum(length: length, window: gaussianWindow(length), sampleRateHz: spectrumRate(length: length, seconds: 0.060, sampleRateHz: sampleRateHz))
    }

    /// openSMILE's symmetric Gaussian window, σ = 0.4: exp(−½((n − (N−1)/2)/(0.4·(N−1)/2))²),
    /// times openSMILE's sample scale (so that full-scale samples go in unchanged).
    static func gaussianWindow(_ length: Int) -> [Double] {
        let half = Double(length - 1) / 2
        return (0..<length).map { n in sampleScale * exp(-0.5 * pow((Double(n) - half) / (0.4 * half), 2)) }
    }

    /// The pitch of `samples` (full scale) at `sampleRateHz` as eGeMAPSv02 tracks it: 60-ms frames
    /// (N = ⌊0.06·f_s + ½⌋ samples) every ⌊0.01·f_s + ½⌋ samples through the symmetric Gaussian
    /// window w[n] = exp(−½((n − (N−1)/2)/(0.4·(N−1)/2))²), |FFT| zero-padded to a power of two,
    /// ``OpenSmileOctaveSpectrum``, ``OpenSmileSubharmonicSummation``, ``OpenSmilePitchViterbi``;
    /// a frame whose windowed samples have an RMS below 0.001 is unvoiced (cValbasedSelector).
    func pitch(_ samples: [Double], sampleRateHz: Double) -> PitchTrack {
        pitch(samples, sampleRateHz: sampleRateHz, formantsHz: nil).pitch
    }

    /// The pitch track and, given the formants F1–F3 of the 20-ms frame starting with each pitch
    /// frame (`formantsHz`, one array per formant, 0 for none), the harmonic measures of each
    /// frame whose F0 is positive (``HarmonicTrack``; empty without `formantsHz`). The measures
    /// read the frame's power spectrum the pitch read, kept until the smoother decides the frame
    /// (at most ``OpenSmilePitchViterbi/bufferLength`` frames later: a ring of that many spectra
    /// and a few).
    func pitch(_ samples: [Double], sampleRateHz: Double, formantsHz: [[Double]]?) -> (pitch: PitchTrack, harmonics: HarmonicTrack) {
        var track = PitchTrack(), measures = HarmonicTrack()
        guard let (length, step) = Self.pitchFraming(sampleRateHz: sampleRateHz), samples.count >= length,
              var frame = Self.pitchSpectrum(length: length, sampleRateHz: sampleRateHz),
              let octave = OpenSmileOctaveSpectrum(count: frame.bins, binHz: frame.binHz) else { return (track, measures) }
        let shs = OpenSmileSubharmonicSummation(spectrum: octave)
        let harmonics = OpenSmileHarmonics(fft: frame.fft, binHz: frame.binHz)
        let bins = frame.bins, frames = (samples.count - length) / step + 1
        if formantsHz != nil {
            let zeros = [Double](repeating: 0, count: frames)
            measures = HarmonicTrack(harmonicsToNoiseDb: zeros, h1MinusH2Db: zeros, h1MinusA3Db: zeros,
                                     formantAmplitudeDb: Array(repeating: [Double](repeating: OpenSmileHarmonics.floorDb, count: frames), count: 3))
        }
        // Four frames at a time (``OpenSmileOctaveSpectrum/transform(lanes:into:scratch:)``); the
        // last group's empty lanes repeat its last frame.
        var magnitude = [Double](repeating: 0, count: 4 * bins), octaveScale = magnitude, summed = [Double](repeating: 0, count: bins)
        var scratch = [SIMD4<Double>](repeating: .zero, count: 2 * bins)
        let ringSlots = OpenSmilePitchViterbi.bufferLength + 8
        var ring = [Double](repeating: 0, count: formantsHz == nil ? 0 : ringSlots * bins)
        var power = [Double](repeating: 0, count: bins), buffers = HarmonicBuffers(bins: bins)
        var loud = [Bool](), smoother = OpenSmilePitchViterbi.Smoother()
        track.frequencyHz.reserveCapacity(frames)
        track.voicing.reserveCapacity(frames)
        // The decided frames in order: F0 and voicing (0 where not loud), then the measures.
        func decide(_ states: [Int]) {
            for state in states {
                let index = track.frequencyHz.count
                var (f0, voicing) = OpenSmilePitchViterbi.choice(track.candidates[index], state: state)
                if !loud[index] { (f0, voicing) = (0, 0) }
                track.frequencyHz.append(f0)
                track.voicing.append(voicing)
                guard f0 > 0, let formantsHz else { continue }
                let slot = index % ringSlots
                for k in 0..<bins { power[k] = ring[slot * bins + k] }
                Self.measure(index, power: power, f0Hz: f0, formantsHz: formantsHz, harmonics: harmonics, into: &measures, buffers: &buffers)
            }
        }
        for first in stride(from: 0, to: frames, by: 4) {
            let lanes = min(4, frames - first)
            magnitude.withUnsafeMutableBufferPointer { m in
                for lane in 0..<4 { frame.power(samples, from: (first + min(lane, lanes - 1)) * step, into: m.baseAddress! + lane, stride: 4) }
                if formantsHz != nil {
                    ring.withUnsafeMutableBufferPointer { ring in
                        for lane in 0..<lanes {
                            let slot = (first + lane) % ringSlots
                            for k in 0..<bins { ring[slot * bins + k] = m[4 * k + lane] }
                        }
                    }
                }
            }
            VectorMath.squareRoot(&magnitude)
            magnitude.withUnsafeBufferPointer { m in
                octaveScale.withUnsafeMutableBufferPointer { h in
                    scratch.withUnsafeMutableBufferPointer { octave.transform(lanes: m, into: h, scratch: $0) }
                }
            }
            for lane in 0..<lanes {
                octaveScale.withUnsafeBufferPointer { h in
                    summed.withUnsafeMutableBufferPointer { shs.sum(UnsafeBufferPointer(rebasing: h[lane * bins..<(lane + 1) * bins]), into: $0) }
                }
                track.candidates.append(summed.withUnsafeBufferPointer(shs.candidates))
                let start = (first + lane) * step
                var energy = 0.0
                samples.withUnsafeBufferPointer { x in
                    frame.window.withUnsafeBufferPointer { w in
                        for n in 0..<length { energy += (x[start + n] * w[n]) * (x[start + n] * w[n]) }
                    }
                }
                loud.append((energy / Double(length)).squareRoot() >= 0.001)
                decide(smoother.push(track.candidates[first + lane]))
            }
        }
        track.decidedFrames = track.frequencyHz.count
        decide(smoother.finish())
        return (track, measures)
    }

    /// The harmonic measures (``HarmonicTrack``) of each 60-ms frame whose F0 in `f0Hz` is
    /// positive, with the formants F1–F3 of the 20-ms frame starting with it (`formantsHz`, one
    /// array per formant, 0 for none): for an F0 track from elsewhere (openSMILE's, in the tests).
    func harmonicMeasures(_ samples: [Double], sampleRateHz: Double, f0Hz: [Double], formantsHz: [[Double]]) -> HarmonicTrack {
        let zeros = [Double](repeating: 0, count: f0Hz.count)
        var track = HarmonicTrack(harmonicsToNoiseDb: zeros, h1MinusH2Db: zeros, h1MinusA3Db: zeros,
                                  formantAmplitudeDb: Array(repeating: f0Hz.map { $0 > 0 ? 0 : OpenSmileHarmonics.floorDb }, count: 3))
        guard let (length, step) = Self.pitchFraming(sampleRateHz: sampleRateHz),
              var frame = Self.pitchSpectrum(length: length, sampleRateHz: sampleRateHz) else { return track }
        let harmonics = OpenSmileHarmonics(fft: frame.fft, binHz: frame.binHz)
        var power = [Double](repeating: 0, count: frame.bins), buffers = HarmonicBuffers(bins: frame.bins)
        for (index, f0) in f0Hz.enumerated() where f0 > 0 && index * step + length <= samples.count {
            frame.power(samples, from: index * step, into: &power)
            Self.measure(index, power: power, f0Hz: f0, formantsHz: formantsHz, harmonics: harmonics, into: &track, buffers: &buffers)
        }
        return track
    }

    /// Working space of ``measure(_:power:f0Hz:formantsHz:harmonics:into:buffers:)``.
    struct HarmonicBuffers {
        var magnitude: [Double]
        var formants = [Double](repeating: 0, count: 3)
        var scratch = OpenSmileHarmonics.Scratch()
        init(bins: Int) { magnitude = [Double](repeating: 0, count: bins) }
    }

    /// The harmonic measures of frame `index`, whose power spectrum is `power` and F0 `f0Hz` (> 0),
    /// into `track`.
    static func measure(_ index: Int, power: [Double], f0Hz: Double, formantsHz: [[Double]], harmonics: OpenSmileHarmonics,
                        into track: inout HarmonicTrack, buffers: inout HarmonicBuffers) {
        for k in power.indices { buffers.magnitude[k] = power[k] }
        VectorMath.squareRoot(&buffers.magnitude)
        track.harmonicsToNoiseDb[index] = harmonics.harmonicsToNoise(power: power, f0Hz: f0Hz, scratch: &buffers.scratch) ?? 0
        for k in 0..<3 { buffers.formants[k] = k < formantsHz.count && index < formantsHz[k].count ? formantsHz[k][index] : 0 }
        let differences = harmonics.harmonicDifferences(buffers.magnitude, f0Hz: f0Hz, formantsHz: buffers.formants, scratch: &buffers.scratch)
        track.h1MinusH2Db[index] = differences.h1MinusH2Db
        for k in 0..<3 { track.formantAmplitudeDb[k][index] = differences.amplitudesDb[k] }
        track.h1MinusA3Db[index] = differences.h1MinusA3Db
    }
}
