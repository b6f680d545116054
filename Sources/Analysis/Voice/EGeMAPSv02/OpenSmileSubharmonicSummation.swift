import Glibc

/// The pitch candidates of one frame as openSMILE 2.6.0's eGeMAPSv02 finds them (cPitchShs with
/// `nHarmonics = 15`, `compressionFactor = 0.85`, `minPitch = 55`, `maxPitch = 1000`,
/// `nCandidates = 6`): Hermes' subharmonic summation (J. Acoust. Soc. Am. 83(1):257–264, 1988)
/// over the octave-scale spectrum H of ``OpenSmileOctaveSpectrum``, as openSMILE's output shows it:
///
///     S[j] = (1/15)·Σₙ₌₁¹⁵ 0.85ⁿ⁻¹·H[j + ⌊log₂(n)·N/L⌋]   (H = 0 beyond the last point)
///
/// (the shift of harmonic n rounds down on a grid of L/N octaves per point, not the spectrum's
/// L/(N − 1)). Candidates, as openSMILE's cPitchShs and cPitchBase list them: the six strict local
/// maxima of S (S[j−1] < S[j] > S[j+1]) with the largest S[j], highest first (an equal one after
/// those found before it); each with its parabolic vertex's frequency and height (its score) and a
/// voicing of 1 − mean(S)/score (0 unless the score exceeds the mean and 0); then those outside
/// 55…1000 Hz are dropped (the list keeps fewer, not the next maxima), and the one with the
/// highest score trades places with the first.
struct OpenSmileSubharmonicSummation: Sendable {
    struct Candidate: Sendable, Hashable {
        var frequencyHz: Double
        var score: Double
        var voicing: Double
    }

    static let harmonics = 15, compression = 0.85, lowestHz = 55.0, highestHz = 1000.0, candidates = 6

    let spectrum: OpenSmileOctaveSpectrum
    /// Point shift of each harmonic, and its weight 0.85ⁿ⁻¹/15.
    private let shift: [Int], gain: [Double]

    init(spectrum: OpenSmileOctaveSpectrum) {
        self.spectrum = spectrum
        // log₂(n)·N/L in this order: at 50 kHz log₂(10)·N/L is 683 − 1e-13, which openSMILE
        // rounds down to 682 too.
        // (A shift of the whole spectrum or more adds nothing: clamped there, also for a spectrum
        // spanning a sliver of an octave just above 25 Hz.)
        shift = (1...Self.harmonics).map {
            Int(clamping: log2(Double($0)) * Double(spectrum.count) / spectrum.octaves, rounding: .down, to: 0...spectrum.count)
        }
        gain = (0..<Self.harmonics).map { pow(Self.compression, Double($0)) / Double(Self.harmonics) }
    }

    /// The summed spectrum of the octave-scale spectrum `h` into `s` (`spectrum.count` values each):
    /// each S[j] summed from 0 over the harmonics in order, four points at a time in vector lanes
    /// (one pass over `s` instead of one per harmonic). The harmonics whose four values all lie
    /// in `h` are a prefix that shrinks as j grows (the shifts ascend); each lane then adds the
    /// ones after it that still reach into `h`, in order: the same sums as one point at a time.
    func sum(_ h: UnsafeBufferPointer<Double>, into s: UnsafeMutableBufferPointer<Double>) {
        let n = spectrum.count
        precondition(h.count >= n && s.count >= n, "subharmonic summation: \(h.count) and \(s.count) points for \(n)")
        shift.withUnsafeBufferPointer { shift in
            gain.withUnsafeBufferPointer { gain in
                func rest(_ point: Int, from first: Int, _ start: Double) -> Double {
                    var value = start, k = first
                    while k < shift.count, point + shift[k] < n {
                        value += gain[k] * h[point + shift[k]]
                        k += 1
                    }
                    return value
                }
                var full = shift.count, j = 0
                while j + 4 <= n {
                    while full > 0, j + 4 + shift[full - 1] > n { full -= 1 }
                    var sum = SIMD4<Double>.zero
                    for k in 0..<full {
                        sum += gain[k] * UnsafeRawPointer(h.baseAddress! + j + shift[k]).loadUnaligned(as: SIMD4<Double>.self)
                    }
                    for lane in 0..<4 { s[j + lane] = rest(j + lane, from: full, sum[lane]) }
                    j += 4
                }
                while j < n {
                    s[j] = rest(j, from: 0, 0)
                    j += 1
                }
            }
        }
    }

    /// The candidates of the summed spectrum `s` in openSMILE's order. The mean sums the points
    /// in eight lanes (point j in lane j mod 8, the lanes then added in order, then the last 0–7
    /// points); the maxima are found four points at a time, in ascending order.
    func candidates(_ s: UnsafeBufferPointer<Double>) -> [Candidate] {
        let n = spectrum.count
        precondition(s.count >= n, "subharmonic summation: \(s.count) points for \(n)")
        let base = UnsafeRawPointer(s.baseAddress!)
        func four(_ j: Int) -> SIMD4<Double> { base.loadUnaligned(fromByteOffset: j * 8, as: SIMD4<Double>.self) }
        var lanes = SIMD8<Double>.zero, j = 0
        while j + 8 <= n {
            lanes += base.loadUnaligned(fromByteOffset: j * 8, as: SIMD8<Double>.self)
            j += 8
        }
        var mean = lanes.sum()
        while j < n {
            mean += s[j]
            j += 1
        }
        mean /= Double(n)
        // The six highest strict maxima by S[j], highest first.
        var peaks: [Int] = []
        peaks.reserveCapacity(Self.candidates + 1)
        func consider(_ j: Int) {
            guard peaks.count < Self.candidates || s[j] > s[peaks[peaks.count - 1]] else { return }
            let position = peaks.firstIndex { s[$0] < s[j] } ?? peaks.count
            peaks.insert(j, at: position)
            if peaks.count > Self.candidates { peaks.removeLast() }
        }
        j = 1
        while j + 5 <= n {
            // Points j…j + 3, each with both neighbours inside.
            let here = four(j), maximum = (four(j - 1) .< here) .& (here .> four(j + 1))
            if any(maximum) {
                for lane in 0..<4 where maximum[lane] { consider(j + lane) }
            }
            j += 4
        }
        while j < n - 1 {
            if s[j - 1] < s[j] && s[j] > s[j + 1] { consider(j) }
            j += 1
        }
        var kept: [Candidate] = peaks.compactMap { j in
            let (offset, score) = parabolicPeak(s[j - 1], s[j], s[j + 1])
            let frequency = spectrum.frequency(atPoint: Double(j) + offset)
            guard frequency >= Self.lowestHz, frequency <= Self.highestHz else { return nil }
            return Candidate(frequencyHz: frequency, score: score, voicing: score > 0 && score > mean ? 1 - mean / score : 0)
        }
        if let best = kept.indices.max(by: { kept[$0].score < kept[$1].score }) { kept.swapAt(0, best) }
        return kept
    }
}
