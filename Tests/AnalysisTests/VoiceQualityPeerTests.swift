import Foundation
import Testing
import TestSupport
@testable import Analysis

/// Voice quality per frame against the peers it follows, on the Praat corpus (espeak-ng speech at
/// 8–50 kHz, glottal-pulse vowels with jitter, breaks and creak; `Benchmarks/peers/praat_corpus.py`)
/// and the real voice recordings of `../shared/data`: `Benchmarks/peers/voice_reference.py` writes
/// each file's channel 0 as the float64 samples both sides analyse and the peers' values for them.
@Suite(.serialized) struct VoiceQualityPeerTests {
    /// One file's reference values (voice_reference.py's JSON line).
    struct Reference: Decodable {
        struct Formants: Decodable {
            var firstTime: Double
            var timeStep: Double
            var frames: [[[Double]]]
            /// Praat's frame intensity: the peak square of the frame's samples.
            var intensities: [Double]
        }
        struct MFCC: Decodable {
            var coefficients: [[Double]]
            var delta: [[Double]]?
            var delta2: [[Double]]?
        }
        struct Cepstral: Decodable {
            var cpps: Double
            var time: [Double]
            var quefrency: [Double]
            var cpp: [Double]
        }
        var file: String
        var samples: String
        var rateHz: Double
        /// Praat's sampling period, s (1/rateHz need not give it back to the bit).
        var dx: Double
        /// The end of Praat's time domain, s (n/rate, not n·dx).
        var xmax: Double
        var formants: Formants
        var cepstral: Cepstral
        var mfcc: MFCC
    }

    /// Runs the reference script once per test process.
    static let references: Result<[Reference], ReferenceError> = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("voice-reference-\(getpid())").path
        let real = SharedData.runs ? SharedData.files(in: "voice") + [SharedData.path("mpower/pdscores_phonation.m4a")] : []
        return PeerScript.lines("voice_reference.py", [folder, "--corpus"] + real).mapError { ReferenceError(message: $0.description) }.flatMap { lines in
            Result { try lines.map { try JSONDecoder().decode(Reference.self, from: $0) } }.mapError { ReferenceError(message: "\($0)") }
        }
    }()

    struct ReferenceError: Error { var message: String }

    static func samples(_ reference: Reference) throws -> [Double] {
        let data = try Data(contentsOf: URL(fileURLWithPath: reference.samples))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
    }

    /// |a/b − 1|, 0 when equal.
    static func relative(_ a: Double, _ b: Double) -> Double { a == b ? 0 : abs(a / b - 1) }

    @Test("formants F1–F5 and bandwidths of every frame equal Praat's To Formant (burg) to 1e-6 relative (bandwidths 1e-5 more than 60 dB down)", .enabled(if: Peer.praat.runs, Peer.praat.skipMessage))
    func formantsEqualPraat() throws {
        let references = try Self.references.get()
        #expect(references.count >= 13)
        var worstFrequency = 0.0, worstBandwidth = 0.0, worstQuietBandwidth = 0.0, frames = 0, quietFrames = 0
        for reference in references {
            let name = URL(fileURLWithPath: reference.file).lastPathComponent
            let track = try PraatFormantAnalysis().analyze(PraatSound(samples: try Self.samples(reference), dx: reference.dx, endTime: reference.xmax))
            try #require(track.frames.count == reference.formants.frames.count, "\(name): \(track.frames.count) frames, Praat \(reference.formants.frames.count)")
            #expect(Self.relative(track.firstTime, reference.formants.firstTime) < 1e-12, "\(name)")
            #expect(Self.relative(track.timeStep, reference.formants.timeStep) < 1e-12, "\(name)")
            let loudest = reference.formants.intensities.max() ?? 0
            for (index, (ours, praat)) in zip(track.frames, reference.formants.frames).enumerated() {
                frames += 1
                // More than 60 dB below the loudest frame (the resampler's ringing after a sound
                // stops), near-double roots close to the unit circle: Praat's bandwidths there are
                // conditioned to a few 1e-6 (its eigenvalue solver and this root finder polish to
                // the same noise floor), so 1e-5.
                let quiet = reference.formants.intensities[index] < 1e-6 * loudest
                quietFrames += quiet ? 1 : 0
                guard ours.frequencyHz.count == praat.count else {
                    Issue.record("\(name) frame \(index): \(ours.frequencyHz) against Praat's \(praat.map { $0[0] })")
                    continue
                }
                for (k, pair) in praat.enumerated() {
                    worstFrequency = max(worstFrequency, Self.relative(ours.frequencyHz[k], pair[0]))
                    let bandwidth = Self.relative(ours.bandwidthHz[k], pair[1])
                    if quiet { worstQuietBandwidth = max(worstQuietBandwidth, bandwidth) } else { worstBandwidth = max(worstBandwidth, bandwidth) }
                    #expect(Self.relative(ours.frequencyHz[k], pair[0]) <= 1e-6, "\(name) frame \(index) F\(k + 1): \(ours.frequencyHz[k]) against \(pair[0])")
                    #expect(bandwidth <= (quiet ? 1e-5 : 1e-6), "\(name) frame \(index) B\(k + 1): \(ours.bandwidthHz[k]) against \(pair[1])")
                }
            }
        }
        print("formants: \(references.count) files, \(frames) frames (\(quietFrames) more than 60 dB below the loudest); worst relative difference F \(worstFrequency), B \(worstBandwidth), B in the quiet frames \(worstQuietBandwidth)")
    }

    @Test("MFCCs, Δ and ΔΔ of every frame equal librosa 1.0.0's to 1e-6 dB at 8–50 kHz", .enabled(if: Peer.praat.runs, Peer.praat.skipMessage))
    func mfccEqualLibrosa() throws {
        let references = try Self.references.get()
        var worst = [0.0, 0.0, 0.0], frames = 0
        var rates = Set<Double>()
        for reference in references {
            let name = URL(fileURLWithPath: reference.file).lastPathComponent
            let result = MFCCAnalysis().analyze(try Self.samples(reference), sampleRateHz: reference.rateHz)
            rates.insert(reference.rateHz)
            try #require(result.frameCount == reference.mfcc.coefficients.count, "\(name): \(result.frameCount) frames, librosa \(reference.mfcc.coefficients.count)")
            #expect((result.delta == nil) == (reference.mfcc.delta == nil), "\(name)")
            // Ours one series per coefficient, librosa's one row per frame.
            func byFrame(_ series: [[Double]]?) -> [[Double]] { (0..<result.frameCount).map { t in (series ?? []).map { $0[t] } } }
            let pairs = [(byFrame(result.coefficients), reference.mfcc.coefficients), (byFrame(result.delta), reference.mfcc.delta ?? []), (byFrame(result.deltaDelta), reference.mfcc.delta2 ?? [])]
            for (series, (ours, theirs)) in pairs.enumerated() {
                for (frame, (a, b)) in zip(ours, theirs).enumerated() {
                    for (k, (x, y)) in zip(a, b).enumerated() {
                        worst[series] = max(worst[series], abs(x - y))
                        #expect(abs(x - y) <= 1e-6, "\(name) \(["c", "Δ", "ΔΔ"][series])\(k) frame \(frame): \(x) against \(y)")
                    }
                }
            }
            frames += result.frameCount
        }
        #expect(rates.isSuperset(of: [8000, 16000, 22050, 44100, 48000]))
        print("MFCC: \(references.count) files, \(frames) frames, rates \(rates.sorted()); worst absolute difference c \(worst[0]), Δ \(worst[1]), ΔΔ \(worst[2]) dB")
    }

    @Test("CPP of every frame, its peak quefrency and CPPS equal Praat's To PowerCepstrogram and Get CPPS (defaults) to 1e-6 relative", .enabled(if: Peer.praat.runs, Peer.praat.skipMessage))
    func cppEqualsPraat() throws {
        let references = try Self.references.get()
        var worstFrame = 0.0, worstQuefrency = 0.0, worstCPPS = 0.0, frames = 0
        for reference in references {
            let name = URL(fileURLWithPath: reference.file).lastPathComponent
            let result = try #require(PraatCepstralAnalysis().analyze(PraatSound(samples: try Self.samples(reference), dx: reference.dx, endTime: reference.xmax)), "\(name)")
            try #require(result.cppDb.count == reference.cepstral.cpp.count, "\(name): \(result.cppDb.count) frames, Praat \(reference.cepstral.cpp.count)")
            #expect(Self.relative(result.firstTime, reference.cepstral.time[0]) < 1e-12, "\(name)")
            for (index, (ours, praat)) in zip(result.cppDb, reference.cepstral.cpp).enumerated() {
                worstFrame = max(worstFrame, Self.relative(ours, praat))
                #expect(Self.relative(ours, praat) <= 1e-6, "\(name) frame \(index): CPP \(ours) against \(praat)")
                let q = Self.relative(result.peakQuefrencySeconds[index], reference.cepstral.quefrency[index])
                worstQuefrency = max(worstQuefrency, q)
                #expect(q <= 1e-6, "\(name) frame \(index): peak at \(result.peakQuefrencySeconds[index]) s against \(reference.cepstral.quefrency[index])")
            }
            // The chart's slice: the median-CPP frame made again holds Praat's CPP and peak for that
            // frame, and its trend line and peak give that CPP.
            let slice = try #require(result.slice, "\(name)")
            let f = Int(((slice.timeSeconds - result.firstTime) / result.timeStep).rounded())
            let finite = result.cppDb.filter(\.isFinite).sorted()
            #expect(Self.relative(slice.cppDb, reference.cepstral.cpp[f]) <= 1e-6 && slice.cppDb == finite[(finite.count - 1) / 2], "\(name): slice CPP \(slice.cppDb)")
            #expect(Self.relative(slice.peakQuefrencySeconds, reference.cepstral.quefrency[f]) <= 1e-6, "\(name)")
            #expect(abs(slice.peakDb - slice.trendDb(slice.peakQuefrencySeconds) - slice.cppDb) < 1e-9, "\(name)")
            let cpps = try #require(result.cppsDb, "\(name)")
            worstCPPS = max(worstCPPS, Self.relative(cpps, reference.cepstral.cpps))
            #expect(Self.relative(cpps, reference.cepstral.cpps) <= 1e-6, "\(name): CPPS \(cpps) against \(reference.cepstral.cpps)")
            frames += result.cppDb.count
        }
        print("CPP: \(references.count) files, \(frames) frames; worst relative difference per frame \(worstFrame), peak quefrency \(worstQuefrency), CPPS \(worstCPPS)")
    }
}
