import Foundation
import Testing
import SignalProcessing
@testable import Analysis

/// eGeMAPSv02's voiced and unvoiced segments and its LPC formants' bandwidths on inputs whose
/// answer is worked out by hand from the rules openSMILE documents (cFunctionalSegments' `nonX`
/// and `eqX` with their default minimum segment of 3 frames and pause of 2; cFormantLpc's roots
/// brought inside the unit circle); openSMILE's own output is `EGeMAPSv02PeerTests`.
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

    @Test("a root's formant: 1 kHz at radius 0.95 and at 1/0.95 give the same frequency and bandwidth −ln 0.95·11000/π; none below the real axis or outside 50–5450 Hz")
    func formantOfRoot() throws {
        let theta = 2 * Double.pi * 1000 / 11000, bandwidth = -log(0.95) * 11000 / Double.pi
        for radius in [0.95, 1 / 0.95] {
            let formant = try #require(OpenSmileFormants.formant(.init(re: radius * cos(theta), im: radius * sin(theta)), rateHz: 11000))
            #expect(abs(formant.frequencyHz - 1000) < 1e-9)
            #expect(abs(formant.bandwidthHz - bandwidth) < 1e-9, "radius \(radius): \(formant.bandwidthHz)")
        }
        #expect(OpenSmileFormants.formant(.init(re: 0.95 * cos(theta), im: -0.95 * sin(theta)), rateHz: 11000) == nil)
        #expect(OpenSmileFormants.formant(.init(re: 0.9, im: 0), rateHz: 11000) == nil)
        for hz in [40.0, 5460] {
            let angle = 2 * Double.pi * hz / 11000
            #expect(OpenSmileFormants.formant(.init(re: 0.9 * cos(angle), im: 0.9 * sin(angle)), rateHz: 11000) == nil, "\(hz) Hz")
        }
    }
}
