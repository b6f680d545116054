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

    @Test("the voiced and unvoiced segment functionals of a hand-made voicing: two voiced segments (one bridging a single unvoiced frame), one unvoiced pause; a one-frame voiced blip within the pause belongs to it")
    func segmentFunctionals() {
        // 20 frames: 6 voiced, 1 unvoiced, 3 voiced | 2 unvoiced, 1 voiced, 2 unvoiced | 5 voiced.
        let voiced = Self.frames("11111101110010011111")
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
        let f = EGeMAPSv02VoicingFunctionals(descriptors, pitch: pitch, harmonics: .init(), perturbation: OpenSmilePitchJitter())
        // Voiced: frames 0–9 (the gap at 6 bridged; the blip at 12 is no segment) and 15–19:
        // lengths 9 and 4 frames. Unvoiced: frames 10–14 (the blip bridged): 4 frames.
        #expect(abs((f.voicedSegmentsPerSecond ?? 0) - 2 / 0.2) < 1e-12)
        #expect(abs(f.meanVoicedSegmentSeconds - 0.065) < 1e-12)
        #expect(abs(f.stddevVoicedSegmentSeconds - 0.025) < 1e-12)
        #expect(abs(f.meanUnvoicedSegmentSeconds - 0.04) < 1e-12)
        #expect(f.stddevUnvoicedSegmentSeconds == 0)
    }
}
