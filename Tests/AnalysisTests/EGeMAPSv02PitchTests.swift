import Foundation
import Testing
@testable import Analysis
import InputGuards

/// The eGeMAPSv02 pitch chain on signals whose answer is known without a peer, and on hostile input.
struct EGeMAPSv02PitchTests {
    static func tone(_ hz: Double, rateHz: Double, seconds: Double = 1) -> [Double] {
        (0..<Int(rateHz * seconds)).map { 0.3 * sin(2 * Double.pi * hz * Double($0) / rateHz) }
    }

    @Test("a 200-Hz tone is voiced at 200 Hz (the parabolic vertex within 0.5 %) at 8, 44.1 and 96 kHz", arguments: [8000.0, 44100, 96000])
    func toneIsItsOwnPitch(rateHz: Double) {
        let track = EGeMAPSv02Analysis().pitch(Self.tone(200, rateHz: rateHz), sampleRateHz: rateHz)
        // (1 s − 60 ms)/10 ms + 1 frames.
        #expect(track.frequencyHz.count == (Int(rateHz) - Int(0.06 * rateHz + 0.5)) / Int(0.01 * rateHz + 0.5) + 1)
        #expect(track.frequencyHz.allSatisfy { abs($0 - 200) <= 1 }, "\(track.frequencyHz.filter { abs($0 - 200) > 1 })")
        #expect(track.voicing.allSatisfy { $0 > OpenSmilePitchViterbi.cutoff && $0 <= 1 })
    }

    @Test("peak enhancement keeps two bins on either side of each maximum and zeroes the rest between maxima; bin 0 and the last bin count as maxima", arguments: [
        ([1, 2, 5, 3, 2, 1, 1, 2, 3, 6, 4, 3], [1, 2, 5, 3, 2, 0, 0, 2, 3, 6, 4, 3]),  // maxima 2 and 9
        ([5, 3, 2, 1, 1, 1, 1, 2, 3], [5, 3, 2, 0, 0, 0, 1, 2, 3]),  // maxima 0 and 8
        ([1, 1, 1, 1, 1, 1, 9, 1, 1], [1, 1, 1, 1, 1, 1, 9, 1, 1]),  // one maximum: all kept
    ] as [([Double], [Double])])
    func peakEnhancement(m: [Double], expected: [Double]) {
        // The spectrum in every lane, and reversed in lane 1 (its maxima move, and so its zeros).
        let reversed = [Double](m.reversed())
        let e = Self.enhanced([m, reversed, m, m])
        for lane in [0, 2, 3] { #expect(e[lane] == expected) }
        #expect(e[1] == Self.enhanced([reversed, reversed, reversed, reversed])[0])
    }

    /// ``OpenSmileOctaveSpectrum/enhancePeaks(lanes:into:)`` of four spectra of one length, one per lane.
    static func enhanced(_ spectra: [[Double]]) -> [[Double]] {
        let n = spectra[0].count
        let m = (0..<n).map { k in SIMD4((0..<4).map { spectra[$0][k] }) }
        var e = [SIMD4<Double>](repeating: SIMD4(repeating: -1), count: n)
        m.withUnsafeBufferPointer { m in e.withUnsafeMutableBufferPointer { OpenSmileOctaveSpectrum.enhancePeaks(lanes: m, into: $0) } }
        return (0..<4).map { lane in e.map { $0[lane] } }
    }

    /// The rule as stated (a bin zeroed when the maxima before and after it are both three bins
    /// or more away) against the implementation's lane-wise passes, on random spectra with ties,
    /// plateaus and NaN, four different ones side by side.
    @Test("peak enhancement zeroes exactly the bins three or more from the maxima on both sides, on 3,000 random spectra with ties, plateaus and NaN, four at a time in lanes")
    func peakEnhancementRule() {
        var random = SplitMix64(seed: 2_026)
        for trial in 0..<750 {
            let n = 2 + Int(random.next() % 60)
            let spectra = (0..<4).map { lane in
                (0..<n).map { _ -> Double in
                    let r = random.next() % 100
                    return r < 3 ? .nan : Double(r % ((trial + lane) % 2 == 0 ? 4 : 50))
                }
            }
            let e = Self.enhanced(spectra)
            for (lane, m) in spectra.enumerated() {
                func isMaximum(_ k: Int) -> Bool { k == 0 ? m[0] > m[1] : k == n - 1 ? m[k] > m[k - 1] : m[k] > m[k - 1] && m[k] >= m[k + 1] }
                let maxima = (0..<n).filter(isMaximum)
                let expected = (0..<n).map { i -> Double in
                    guard let before = maxima.last(where: { $0 <= i }), let after = maxima.first(where: { $0 >= i }) else { return m[i] }
                    return i - before >= 3 && after - i >= 3 ? 0 : m[i]
                }
                #expect(e[lane].map(\.bitPattern) == expected.map(\.bitPattern), "lane \(lane): \(m)")
            }
        }
    }

    @Test("silence, DC, one sample and a stretch of NaN give unvoiced frames or no frames, never NaN")
    func hostileInput() {
        let analysis = EGeMAPSv02Analysis()
        let silence = analysis.pitch([Double](repeating: 0, count: 16000), sampleRateHz: 16000)
        #expect(!silence.frequencyHz.isEmpty && silence.frequencyHz.allSatisfy { $0 == 0 } && silence.candidates.allSatisfy(\.isEmpty))
        let dc = analysis.pitch([Double](repeating: 0.5, count: 16000), sampleRateHz: 16000)
        #expect(dc.frequencyHz.allSatisfy { $0.isFinite } && dc.voicing.allSatisfy { $0.isFinite })
        #expect(analysis.pitch([0.1], sampleRateHz: 16000).frequencyHz.isEmpty)
        for rate in [Double.nan, .infinity, -16000, 0, 1e300, 10] {
            #expect(analysis.pitch(Self.tone(200, rateHz: 16000), sampleRateHz: rate).frequencyHz.isEmpty, "\(rate) Hz")
        }
        var holed = Self.tone(200, rateHz: 16000)
        for n in 4000..<6000 { holed[n] = .nan }
        let track = analysis.pitch(holed, sampleRateHz: 16000)
        #expect(track.frequencyHz.allSatisfy { $0.isFinite && $0 >= 0 } && track.voicing.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 })
        #expect(track.frequencyHz.filter { abs($0 - 200) <= 1 }.count >= 60, "the tone outside the NaN stretch is still found")
    }
}

extension EGeMAPSv02PitchTests {
    @Test("no octave-scale spectrum of fewer than 3 bins, bins not finite or not above 0 Hz apart, a Nyquist frequency at or below 25 Hz, or a first bin's half at or above 25 Hz; one just inside each bound")
    func octaveSpectrumBounds() {
        for (count, binHz) in [(2, 10.0), (0, 10), (Int.min, 10), (1025, .nan), (1025, .infinity), (1025, 0), (1025, -10), (3, 12.5), (1025, 50), (1025, 1e308)] {
            #expect(OpenSmileOctaveSpectrum(count: count, binHz: binHz) == nil, "\(count) bins \(binHz) Hz apart")
        }
        for (count, binHz) in [(3, 12.5.nextUp), (1025, 50.0.nextDown), (1025, 8000.0 / 1024)] {
            #expect(OpenSmileOctaveSpectrum(count: count, binHz: binHz) != nil, "\(count) bins \(binHz) Hz apart")
        }
    }

    @Test("spectral flux by hand: the RMS change over the bins below 5 kHz (bins 0–2 of 2-kHz bins: √((1 + 4 + 9)/3)); a spectrum of no bins has flux 0, not NaN")
    func flux() {
        let balance = OpenSmileSpectralBalance(binHz: 2000, bins: 4)
        let magnitude: [Double] = [1, 2, 3, 40], previous: [Double] = [0, 0, 0, 0]
        let value = magnitude.withUnsafeBufferPointer { m in previous.withUnsafeBufferPointer { balance.flux(m, previous: $0) } }
        #expect(abs(value - (14.0 / 3).squareRoot()) < 1e-15)
        let empty: [Double] = []
        #expect(empty.withUnsafeBufferPointer { OpenSmileSpectralBalance(binHz: 2000, bins: 0).flux($0, previous: $0) } == 0)
    }

    @Test("a spectrum whose Nyquist frequency lies a few ulps above 25 Hz: the harmonics' shifts are clamped, not an integer overflow")
    func slimOctaveSpectrum() throws {
        // 1,000 points over ~1e-15 octaves: log₂(15)·1000/L would be ~1e19, beyond Int.
        let spectra = (1...8).compactMap { ulps -> OpenSmileOctaveSpectrum? in
            var nyquist = 25.0
            for _ in 0..<ulps { nyquist = nyquist.nextUp }
            return OpenSmileOctaveSpectrum(count: 1000, binHz: nyquist / 999)
        }
        let spectrum = try #require(spectra.first { $0.octaves < 1e-14 }, "no spectrum that slim could be made")
        let shs = OpenSmileSubharmonicSummation(spectrum: spectrum)
        let h = [Double](repeating: 1, count: spectrum.count)
        var s = [Double](repeating: 0, count: spectrum.count)
        h.withUnsafeBufferPointer { h in s.withUnsafeMutableBufferPointer { shs.sum(h, into: $0) } }
        // Only the first harmonic (shift 0) lands inside: S = 1/15 everywhere.
        #expect(s.allSatisfy { abs($0 - 1.0 / 15) < 1e-15 })
    }
}

extension EGeMAPSv02PitchTests {
    /// The summed spectrum in vector lanes against S[j] = Σₙ gainₙ·H[j + shiftₙ] added one harmonic
    /// at a time over the whole spectrum, as the definition reads: bit for bit, for spectra of
    /// every length from 3 to 40 points and the sizes 8 to 96 kHz give.
    @Test("the subharmonic sum four points at a time equals the sum one harmonic at a time, bit for bit")
    func summedSpectrumLanes() throws {
        var random = SplitMix64(seed: 58)
        var spectra = (3...40).compactMap { OpenSmileOctaveSpectrum(count: $0, binHz: 40) }
        for rate in [8000.0, 16000, 44100, 96000] {
            spectra += [OpenSmileOctaveSpectrum(count: 1000, binHz: rate / 2 / 999)].compactMap { $0 }
        }
        #expect(spectra.count == 42)
        for spectrum in spectra {
            let shs = OpenSmileSubharmonicSummation(spectrum: spectrum)
            let n = spectrum.count
            let h = (0..<n).map { _ in Double(random.next() % 1_000_000) / 7_919 }
            var s = [Double](repeating: .nan, count: n)
            h.withUnsafeBufferPointer { h in s.withUnsafeMutableBufferPointer { shs.sum(h, into: $0) } }
            var expected = [Double](repeating: 0, count: n)
            for harmonic in 1...OpenSmileSubharmonicSummation.harmonics {
                let shift = Int(clamping: log2(Double(harmonic)) * Double(n) / spectrum.octaves, rounding: .down, to: 0...n)
                let gain = pow(OpenSmileSubharmonicSummation.compression, Double(harmonic - 1)) / Double(OpenSmileSubharmonicSummation.harmonics)
                for j in 0..<max(0, n - shift) { expected[j] += gain * h[j + shift] }
            }
            #expect(s.map(\.bitPattern) == expected.map(\.bitPattern), "\(n) points")
        }
    }
}

extension EGeMAPSv02PitchTests {
    @Test("every functional of hostile input (silence, DC, a clipped tone, a NaN stretch, 8 and 96 kHz) is a finite number or null")
    func hostileFunctionals() {
        var holed = Self.tone(200, rateHz: 16000)
        for n in 4000..<6000 { holed[n] = .nan }
        let clipped = Self.tone(200, rateHz: 16000).map { max(-0.3, min(0.3, 4 * $0)) }
        let inputs: [(String, [Double], Double)] = [
            ("silence", [Double](repeating: 0, count: 16000), 16000), ("DC", [Double](repeating: 0.5, count: 16000), 16000),
            ("NaN stretch", holed, 16000), ("clipped", clipped, 16000), ("8 kHz", Self.tone(200, rateHz: 8000), 8000),
            ("96 kHz", Self.tone(200, rateHz: 96000), 96000), ("one sample", [0.1], 16000),
        ]
        for (name, samples, rate) in inputs {
            let set = FeatureSet(name: "egemapsv02", features: EGeMAPSv02Analysis().features(samples, sampleRateHz: rate))
            #expect(set.names.count == 88)
            for (feature, value) in zip(set.names, set.values) {
                #expect(value.number.map(\.isFinite) ?? true, "\(name) \(feature): \(String(describing: value.number))")
            }
        }
    }
}

extension EGeMAPSv02PitchTests {
    @Test("samples as openSMILE is given them: truncated to 16 bits, wrapping beyond (+1 → −1, 1.5 → −0.5, −1.5 → 0.5); 16-bit values unchanged; non-finite or beyond a finite 16-bit value 0")
    func openSmileSamples() {
        let x: [Double] = [1, -1, 0.5 + 1e-9, -0.5 - 1e-9, 1.5, -1.5, 1234.0 / 32768, -1234.0 / 32768, .nan, .infinity, -.infinity, 1e308, -1e308, 3e300, 0x1p-20]
        let y = EGeMAPSv02Analysis.openSmileSamples(x)
        let expected: [Double] = [-1, -1, 0.5, -0.5, -0.5, 0.5, 1234.0 / 32768, -1234.0 / 32768]
        #expect(Array(y[0..<8]) == expected)
        #expect(Array(y[8..<13]) == [0, 0, 0, 0, 0])
        let wrapped = y[13] * 32768
        #expect(wrapped >= -32768 && wrapped < 32768 && wrapped.rounded() == wrapped, "\(y[13])")
        #expect(y[14] == 0)
    }
}

extension EGeMAPSv02PitchTests {
    /// The octave-scale spectrum against its definition computed here the textbook way (peak
    /// enhancement by the stated rule, the ¼–½–¼ smoothing, a natural cubic spline by the
    /// tridiagonal algorithm of Press et al., Numerical Recipes §3.3, read at the output points,
    /// negative values to 0, times the auditory weight), and each spectrum's values the same bits
    /// whichever lane it takes and whatever its neighbours are.
    @Test("the octave-scale spectrum of four spectra in lanes equals a textbook natural spline of the enhanced, smoothed bins within 1e-9, and a spectrum's bits do not depend on its lane")
    func octaveSpectrumLanes() throws {
        var random = SplitMix64(seed: 61)
        let n = 200, binHz = 40.0
        let octave = try #require(OpenSmileOctaveSpectrum(count: n, binHz: binHz))
        let spectra = (0..<4).map { _ in (0..<n).map { _ in Double(random.next() % 10_000) / 997 } }
        func transform(_ spectra: [[Double]]) -> [[Double]] {
            let m = (0..<n).flatMap { k in (0..<4).map { spectra[$0][k] } }
            var out = [Double](repeating: .nan, count: 4 * n)
            var scratch = [SIMD4<Double>](repeating: .zero, count: 2 * n)
            m.withUnsafeBufferPointer { m in
                out.withUnsafeMutableBufferPointer { o in scratch.withUnsafeMutableBufferPointer { octave.transform(lanes: m, into: o, scratch: $0) } }
            }
            return (0..<4).map { Array(out[$0 * n..<($0 + 1) * n]) }
        }
        let lanes = transform(spectra), turned = transform([spectra[2], spectra[0], spectra[3], spectra[1]])
        for (lane, from) in [2, 0, 3, 1].enumerated() { #expect(turned[lane].map(\.bitPattern) == lanes[from].map(\.bitPattern)) }
        let enhanced = Self.enhanced(spectra)
        for (lane, e) in enhanced.enumerated() {
            var y = e
            for k in 0..<(n - 1) { y[k] = 0.25 * (k > 0 ? e[k - 1] : 0) + 0.5 * e[k] + 0.25 * e[k + 1] }
            let x = (0..<n).map { $0 == 0 ? log2(binHz / 2) : log2(Double($0) * binHz) }
            // Numerical Recipes' `spline` with natural ends, then `splint`.
            var y2 = [Double](repeating: 0, count: n), u = y2
            for i in 1..<(n - 1) {
                let sig = (x[i] - x[i - 1]) / (x[i + 1] - x[i - 1]), p = sig * y2[i - 1] + 2
                y2[i] = (sig - 1) / p
                u[i] = (y[i + 1] - y[i]) / (x[i + 1] - x[i]) - (y[i] - y[i - 1]) / (x[i] - x[i - 1])
                u[i] = (6 * u[i] / (x[i + 1] - x[i - 1]) - sig * u[i - 1]) / p
            }
            y2[n - 1] = 0
            for k in stride(from: n - 2, through: 0, by: -1) { y2[k] = y2[k] * y2[k + 1] + u[k] }
            let octaves = log2(binHz * Double(n - 1) / 25)
            for j in 0..<n {
                let point = log2(25) + Double(j) * octaves / Double(n - 1)
                let k = min(n - 2, max(0, (x.lastIndex { $0 < point } ?? 0)))
                let h = x[k + 1] - x[k], a = (x[k + 1] - point) / h, b = (point - x[k]) / h
                let spline = a * y[k] + b * y[k + 1] + ((a * a * a - a) * y2[k] + (b * b * b - b) * y2[k + 1]) * h * h / 6
                let weight = 0.5 + atan(3 * (log2(25) + Double(j + 2) * octaves / Double(n) - log2(32.5))) / Double.pi
                let expected = max(0, spline) * weight
                #expect(abs(lanes[lane][j] - expected) <= 1e-9 * max(1, abs(expected)), "lane \(lane), point \(j): \(lanes[lane][j]) against \(expected)")
            }
        }
    }
}

extension EGeMAPSv02PitchTests {
    /// The harmonic measures the pitch pass computes as the smoother decides each frame (from a
    /// ring of the last frames' power spectra) against the measures computed afterwards on the
    /// same F0 track, each frame's spectrum made again: the same bits, over 400 frames (the ring
    /// wraps around eight times) of a voice whose pitch glides, with vibrato, noise and pauses.
    @Test("the harmonic measures taken while the smoother decides equal those computed afterwards on the same F0, bit for bit, over 400 frames")
    func harmonicsWhileDeciding() {
        let rate = 16000.0
        var random = SplitMix64(seed: 58)
        var phase = 0.0
        let samples = (0..<Int(4 * rate)).map { n -> Double in
            let t = Double(n) / rate
            phase += 2 * Double.pi * (140 + 60 * t + 8 * sin(2 * Double.pi * 5 * t)) / rate
            let voiced = Int(t * 3) % 4 != 3
            let noise = Double(random.next() % 2001) / 1000 - 1
            let harmonics: Double = voiced ? (1...6).reduce(0) { (sum: Double, k: Int) -> Double in sum + 0.3 / Double(k) * sin(Double(k) * phase) } : 0
            return harmonics + 0.01 * noise
        }
        let analysis = EGeMAPSv02Analysis()
        let descriptors = analysis.frameDescriptors(samples, sampleRateHz: rate)
        let (track, harmonics) = analysis.pitch(samples, sampleRateHz: rate, formantsHz: descriptors.formantFrequencyHz)
        let after = analysis.harmonicMeasures(samples, sampleRateHz: rate, f0Hz: track.frequencyHz, formantsHz: descriptors.formantFrequencyHz)
        #expect(track.frequencyHz.count == 395 && track.frequencyHz.filter { $0 > 0 }.count > 200, "\(track.frequencyHz.filter { $0 > 0 }.count) voiced")
        #expect(harmonics.harmonicsToNoiseDb.map(\.bitPattern) == after.harmonicsToNoiseDb.map(\.bitPattern))
        #expect(harmonics.h1MinusH2Db.map(\.bitPattern) == after.h1MinusH2Db.map(\.bitPattern))
        #expect(harmonics.h1MinusA3Db.map(\.bitPattern) == after.h1MinusA3Db.map(\.bitPattern))
        #expect(harmonics.formantAmplitudeDb.map { $0.map(\.bitPattern) } == after.formantAmplitudeDb.map { $0.map(\.bitPattern) })
    }

    @Test("the LLD table's pitch-rate rows by hand: the decided frames smoothed on their own, the last decided value again, the rest in the whole contour, the last value again; every frame decided; none decided; no frames")
    func pitchRateRows() {
        let x: [Double] = [3, 6, 9, 12, 15, 0, 30]
        // Decided 4: [3,6,9,12] smoothed with its ends repeated: (3+3+6)/3, (3+6+9)/3, (6+9+12)/3, (9+12+12)/3;
        // then 12; then frames 5 and 6 in the whole contour (a 0 stays 0; 30 with its non-zero
        // neighbours 30 and — its right end repeated — 30); then 30.
        #expect(EGeMAPSv02LowLevelDescriptors.pitchRateRows(x, decided: 4) == [4, 6, 9, 11, 12, 0, 30, 30])
        // Decided 6 of 7: the frame after the last undecided one is beyond the end.
        #expect(EGeMAPSv02LowLevelDescriptors.pitchRateRows(x, decided: 6) == [4, 6, 9, 12, 13.5, 0, 0, 30])
        // Every frame decided: the contour smoothed, its last value again.
        #expect(EGeMAPSv02LowLevelDescriptors.pitchRateRows(x, decided: 7) == [4, 6, 9, 12, 13.5, 0, 30, 30])
        // None decided before the end: the whole contour smoothed, its last value again.
        #expect(EGeMAPSv02LowLevelDescriptors.pitchRateRows(x, decided: 0) == [4, 6, 9, 12, 13.5, 0, 30, 30])
        #expect(EGeMAPSv02LowLevelDescriptors.pitchRateRows([], decided: 0).isEmpty)
    }
}

extension EGeMAPSv02PitchTests {
    @Test("the LLD table of a recording shorter than one 60-ms pitch frame has no row (openSMILE writes none); at and past one frame every column has the rows of the time columns: lengths around 480 samples at 8 kHz and 2,646 at 44.1 kHz")
    func lowLevelDescriptorsOfShortRecordings() {
        for (rate, frame) in [(8000.0, 480), (44100.0, 2646)] {
            for n in [frame / 3, frame / 2, frame - 1, frame, frame + 1, frame + Int(rate / 100)] {
                let table = EGeMAPSv02Analysis().analyze((0..<n).map { 0.3 * sin(2 * Double.pi * 200 * Double($0) / rate) }, sampleRateHz: rate).lowLevelDescriptors
                let rows = table.startSeconds.count
                #expect(n >= frame ? rows == (n - frame) / Int(rate / 100) + 2 : rows == 0, "\(n) samples at \(rate) Hz: \(rows) rows")
                #expect(table.endSeconds.count == rows && table.columns.count == 25 && table.columns.allSatisfy { $0.values.count == rows },
                        "\(n) samples at \(rate) Hz: \(table.columns.map(\.values.count)) against \(rows)")
                #expect(table.csv.split(separator: "\n").count == 1 + rows)
            }
        }
    }
}
