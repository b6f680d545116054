import Foundation
import Testing
@testable import Analysis

/// eGeMAPSv02's voiced and unvoiced segments on voicings whose answer is worked out by hand from
/// cFunctionalSegments' `nonX` and `eqX` rules with their default minimum segment of 3 frames and
/// pause of 2; openSMILE's own output is `EGeMAPSv02PeerTests` and `EGeMAPSv02SpeechTests`.
struct EGeMAPSv02SegmentTests {
    /// "1" a frame inside, "0" one outside.
    static func frames(_ pattern: String) -> [Bool] { pattern.map { $0 == "1" } }

    @Test("segments as cFunctionalSegments finds them: last frame inside less the first, a segment from 3 frames inside, ended by 2 outside in a row", arguments: [
        ("", []),
        ("1", []), ("11", []),  // fewer than 3 frames inside: no segment
        ("111", [2]), ("0011100", [2]),
        ("11011", [4]),  // one frame outside within: bridged, first to last inside
        ("1101", [3]),  // confirmed by its third frame inside after a one-frame gap
        ("110011", []),  // two outside end a candidate of two
        ("1110011", [2]),  // a segment of three ends before the pause; "11" after it is too short
        ("11100111", [2, 2]),
        ("1110", [2]), ("11101", [4]),  // at the end: up to the last frame inside
        ("0000", []), ("11111111", [7]),
    ] as [(String, [Int])])
    func segmentLengths(pattern: String, expected: [Int]) {
        #expect(EGeMAPSv02VoicingFunctionals.segmentLengths(Self.frames(pattern)) == expected)
    }

    /// A pitch track of `voiced` (F0 200 Hz where true), every frame descriptor 1, jitter 0.5 and
    /// shimmer `shimmerDb` in the voiced frames.
    static func track(_ voiced: [Bool], shimmerDb: Double = 1)
        -> (pitch: EGeMAPSv02Analysis.PitchTrack, descriptors: EGeMAPSv02Analysis.FrameDescriptors, perturbation: OpenSmilePitchJitter) {
        var pitch = EGeMAPSv02Analysis.PitchTrack()
        pitch.frequencyHz = voiced.map { $0 ? 200 : 0 }
        pitch.decidedFrames = voiced.count
        let ones = [Double](repeating: 1, count: voiced.count)
        var descriptors = EGeMAPSv02Analysis.FrameDescriptors()
        (descriptors.loudness, descriptors.alphaRatio, descriptors.hammarbergIndex, descriptors.energy) = (ones, ones, ones, ones)
        (descriptors.slope0To500, descriptors.slope500To1500, descriptors.spectralFlux) = (ones, ones, ones)
        descriptors.mfcc = [[Double]](repeating: ones, count: 4)
        descriptors.formantFrequencyHz = [[Double]](repeating: ones, count: OpenSmileFormants.count)
        descriptors.formantBandwidthHz = descriptors.formantFrequencyHz
        var perturbation = OpenSmilePitchJitter()
        perturbation.jitterLocal = voiced.map { $0 ? 0.5 : 0 }
        perturbation.shimmerLocalDb = voiced.map { $0 ? shimmerDb : 0 }
        return (pitch, descriptors, perturbation)
    }

    /// The voicing functionals of ``track(_:shimmerDb:)`` without harmonic measures.
    static func functionals(_ voiced: [Bool], shimmerDb: Double = 1) -> EGeMAPSv02VoicingFunctionals {
        let (pitch, descriptors, perturbation) = track(voiced, shimmerDb: shimmerDb)
        return EGeMAPSv02VoicingFunctionals(descriptors, pitch: pitch, harmonics: .init(), perturbation: perturbation)
    }

    @Test("a functional of no values is null where openSMILE writes 0: the unvoiced means and unvoiced segments of an all-voiced recording, the voiced ones of an all-unvoiced one, a voiced contour whose every value is 0")
    func functionalsOfNoValues() {
        let voiced = Self.functionals(Self.frames("1111111111"))
        #expect(voiced.unvoicedMean.count == 5 && voiced.unvoicedMean.allSatisfy { $0 == nil }, "\(voiced.unvoicedMean)")
        #expect(voiced.meanUnvoicedSegmentSeconds == nil && voiced.stddevUnvoicedSegmentSeconds == nil)
        #expect(voiced.voicedMean.count == 9 && voiced.voicedMean.allSatisfy { $0 == 1 })
        #expect(abs((voiced.meanVoicedSegmentSeconds ?? 0) - 0.09) < 1e-12 && voiced.stddevVoicedSegmentSeconds == 0)
        #expect(voiced.perturbationMean == [0.5, 1])

        let unvoiced = Self.functionals(Self.frames("0000000000"))
        #expect(unvoiced.unvoicedMean.count == 5 && unvoiced.unvoicedMean.allSatisfy { $0 == 1 }, "\(unvoiced.unvoicedMean)")
        #expect(unvoiced.voicedMean.allSatisfy { $0 == nil } && unvoiced.f0Semitone.mean == nil)
        #expect(unvoiced.meanVoicedSegmentSeconds == nil && unvoiced.stddevVoicedSegmentSeconds == nil)
        #expect(unvoiced.voicedSegmentsPerSecond == 0)
        #expect(abs((unvoiced.meanUnvoicedSegmentSeconds ?? 0) - 0.09) < 1e-12)

        // A clipped vowel: every voiced frame's shimmer 0 dB, so its non-zero functionals have no values.
        let clipped = Self.functionals(Self.frames("1111111111"), shimmerDb: 0)
        #expect(clipped.perturbationMean.count == 2 && clipped.perturbationMean[1] == nil && clipped.perturbationStddevNorm[1] == nil)
    }

    @Test("the warning of null functionals counts them and says why: no unvoiced frame (an all-voiced track), contours without a non-zero value (no harmonic measures), none when every functional is a number")
    func nullWarningOfTracks() {
        func warning(_ pattern: String, harmonics: Bool) -> String? {
            let (pitch, descriptors, perturbation) = Self.track(Self.frames(pattern))
            let ones = [Double](repeating: 1, count: pattern.count)
            // Harmonic measures 2 dB and formant amplitudes −3 dB in every frame, or none at all.
            let levels = harmonics ? EGeMAPSv02Analysis.HarmonicTrack(harmonicsToNoiseDb: ones.map { 2 * $0 }, h1MinusH2Db: ones.map { 2 * $0 }, h1MinusA3Db: ones.map { 2 * $0 },
                                                                      formantAmplitudeDb: [[Double]](repeating: ones.map { -3 * $0 }, count: 3)) : .init()
            let features = EGeMAPSv02Features(EGeMAPSv02FrameFunctionals(descriptors), EGeMAPSv02VoicingFunctionals(descriptors, pitch: pitch, harmonics: levels, perturbation: perturbation))
            return EGeMAPSv02Analysis.nullWarning(features, descriptors: descriptors, pitch: pitch, sampleRateHz: 16000)
        }
        // Voiced throughout: the five unvoiced means and the two unvoiced segment lengths.
        #expect(warning("1111111111", harmonics: true) == "egemapsv02: 7 of 88 functionals null: no unvoiced frame (the unvoiced means and segments)")
        // Without harmonic measures: HNR, H1–H2 and H1–A3 (mean and stddevNorm) have no non-zero
        // value, the formant amplitudes' means and stddevNorms (six) none at all.
        #expect(warning("11111000001111100000", harmonics: false) == "egemapsv02: 12 of 88 functionals null: contours without a non-zero value")
        // Both kinds of frame and every measure: no warning. The constant contours' stddevNorm
        // is 0 (openSMILE's value), not null.
        #expect(warning("11111000001111100000", harmonics: true) == nil)
    }

    @Test("the warning of null functionals on recordings: shorter than a 20-ms frame (all 88), than a 60-ms pitch frame, a 150-Hz tone at rates whose spectrum lacks the alpha ratio's, the Hammarberg index's and the slopes' bands", arguments: [
        (8000.0, 100, "egemapsv02: 88 of 88 functionals null: the recording is shorter than one 20-ms frame"),
        (8000.0, 300, "no 60-ms pitch frame fits the recording"),
        (1000.0, 2000, "at 1000.0 Hz no spectrum bin lies in 1–5 kHz (alphaRatio), 2–5 kHz (hammarbergIndex), 500–1500 Hz (slope500-1500)"),
        (500.0, 1000, "at 500.0 Hz no spectrum bin lies in 1–5 kHz (alphaRatio), 2–5 kHz (hammarbergIndex), 0–500 Hz (slope0-500), 500–1500 Hz (slope500-1500)"),
        (3000.0, 6000, "no unvoiced frame (the unvoiced means and segments); at 3000.0 Hz no spectrum bin lies in 2–5 kHz (hammarbergIndex)"),
    ] as [(Double, Int, String)])
    func nullWarningOfRecordings(rateHz: Double, samples: Int, expected: String) throws {
        let tone = (0..<samples).map { 0.3 * sin(2 * Double.pi * 150 * Double($0) / rateHz) }
        let warning = try #require(EGeMAPSv02Analysis().analyze(tone, sampleRateHz: rateHz).warning)
        #expect(warning.hasPrefix("egemapsv02: ") && warning.hasSuffix(expected), "\(warning)")
    }

    @Test("the voiced and unvoiced segment functionals of a hand-made voicing: two voiced segments (one bridging a single unvoiced frame), one unvoiced pause; a one-frame voiced blip within the pause belongs to it")
    func segmentFunctionals() {
        // 20 frames: 6 voiced, 1 unvoiced, 3 voiced | 2 unvoiced, 1 voiced, 2 unvoiced | 5 voiced.
        let f = Self.functionals(Self.frames("11111101110010011111"))
        // Voiced: frames 0–9 (the gap at 6 bridged; the blip at 12 is no segment) and 15–19:
        // lengths 9 and 4 frames. Unvoiced: frames 10–14 (the blip bridged): 4 frames.
        #expect(abs((f.voicedSegmentsPerSecond ?? 0) - 2 / 0.2) < 1e-12)
        #expect(abs((f.meanVoicedSegmentSeconds ?? 0) - 0.065) < 1e-12)
        #expect(abs((f.stddevVoicedSegmentSeconds ?? 0) - 0.025) < 1e-12)
        #expect(abs((f.meanUnvoicedSegmentSeconds ?? 0) - 0.04) < 1e-12)
        #expect(f.stddevUnvoicedSegmentSeconds == 0)
    }
}
