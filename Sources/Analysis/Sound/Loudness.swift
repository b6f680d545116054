import InputGuards
import Glibc
import SignalProcessing

/// ITU-R BS.1770-4 loudness and EBU Tech 3342 loudness range, streaming (docs/analyses.md §4.3):
/// K-weighted mean squares per channel in 100 ms steps; 400 ms momentary blocks (75 % overlap)
/// for integrated loudness with the −70 LUFS absolute and −10 LU relative gates; 3 s short-term
/// values every 100 ms for the range. Memory: one number per channel per 100 ms.
public struct LoudnessMeter: Sendable {
    public let sampleRateHz: Double
    public let channels: Int
    /// Channel weights G_i: 1.0 for L, R, C; 1.41 for surrounds (5.0 order L R C Ls Rs).
    public let weights: [Double]
    private var filters: [BiquadCascade]
    /// Σ x² of each channel's K-weighted samples per 100-ms step.
    private var energies: [IntervalEnergy]
    private let stepSamples: Int
    /// The block being processed, K-weighted, one contiguous run per channel.
    private var scratch: [Double] = []
    /// A Float block widened to Double.
    private var floatScratch: [Double] = []
    /// Weighted sums Σ G_i·(mean square of channel i) of each complete 100 ms step.
    private(set) var steps: [Double] = []

    public init(sampleRateHz: Double, channels: Int, weights: [Double]? = nil) {
        self.sampleRateHz = sampleRateHz
        self.channels = channels
        self.weights = weights ?? (0..<channels).map { channels == 5 && $0 >= 3 ? 1.41 : 1.0 }
        filters = Array(repeating: KWeighting.filter(sampleRateHz: sampleRateHz), count: channels)
        stepSamples = Int(clamping: 0.1 * sampleRateHz, rounding: .toNearestOrAwayFromZero, to: 1...Int.max)
        energies = Array(repeating: IntervalEnergy(length: stepSamples), count: channels)
    }

    /// Processes interleaved frames.
    public mutating func process(interleaved block: [Double]) {
        block.withUnsafeBufferPointer { process(interleaved: $0) }
    }

    /// Processes interleaved frames of Float samples (as decoders deliver them), widened to
    /// Double in one pass first.
    public mutating func process(interleaved block: UnsafeBufferPointer<Float>) {
        var widened: [Double] = []
        swap(&widened, &floatScratch)
        defer { swap(&widened, &floatScratch) }
        if widened.count < block.count { widened = [Double](repeating: 0, count: block.count) }
        widened.withUnsafeMutableBufferPointer { wide in
            for i in block.indices { wide[i] = Double(block[i]) }
            process(interleaved: UnsafeBufferPointer(rebasing: wide[0..<block.count]))
        }
    }

    /// Up to eight channels at once, K-weighted straight from the interleaved frames into one
    /// contiguous run per channel of `scratch` (``BiquadCascade/processLanes``: the vector lanes
    /// the channels leave free split each channel in time, so blocks of
    /// ``BiquadCascade/laneBlockFrames(channels:)`` or more run several times faster than sequentially);
    /// then each channel's squares summed per 100 ms step; a step's weighted sum is appended once
    /// every channel has it.
    public mutating func process(interleaved block: UnsafeBufferPointer<Double>) {
        let frames = block.count / channels
        guard frames > 0, let frame = block.baseAddress else { return }
        var work: [Double] = []
        swap(&work, &scratch)
        defer { swap(&work, &scratch) }
        if work.count < frames * channels { work = [Double](repeating: 0, count: frames * channels) }
        var completed: [Double] = []
        work.withUnsafeMutableBufferPointer { work in
            let out = work.baseAddress!
            if channels <= 8 {
                BiquadCascade.processLanes(&filters, inputs: { frame + $0 }, stride: channels, count: frames, outputs: { out + $0 * frames })
            } else {
                for group in stride(from: 0, to: channels, by: 8).map({ $0..<min(channels, $0 + 8) }) {
                    var lanes = Array(filters[group])
                    BiquadCascade.processLanes(&lanes, inputs: { frame + group.lowerBound + $0 }, stride: channels, count: frames,
                                               outputs: { out + (group.lowerBound + $0) * frames })
                    filters.replaceSubrange(group, with: lanes)
                }
            }
            for c in 0..<channels {
                var step = 0
                energies[c].add(UnsafeBufferPointer(start: out + c * frames, count: frames)) { sum in
                    let weighted = weights[c] * sum / Double(stepSamples)
                    if c == 0 { completed.append(weighted) } else { completed[step] += weighted }
                    step += 1
                }
            }
        }
        steps += completed
    }

    static func loudness(_ weightedMeanSquare: Double) -> Double { -0.691 + 10 * log10(weightedMeanSquare) }

    /// Mean of `count` consecutive steps ending at `end` (exclusive).
    private func block(endingAt end: Int, steps count: Int) -> Double {
        var sum = 0.0
        for k in (end - count)..<end { sum += steps[k] }
        return sum / Double(count)
    }

    /// Loudness of each 400 ms block (every 100 ms), LUFS.
    public var momentaryLUFS: [Double] {
        steps.count < 4 || rateProblem != nil ? [] : (4...steps.count).map { Self.loudness(block(endingAt: $0, steps: 4)) }
    }

    /// Loudness of each 3 s window (every 100 ms), LUFS.
    public var shortTermLUFS: [Double] {
        steps.count < 30 || rateProblem != nil ? [] : (30...steps.count).map { Self.loudness(block(endingAt: $0, steps: 30)) }
    }

    /// Gated integrated loudness L_I, LUFS; nil (−∞) when no block passes the gates.
    public var integratedLUFS: Double? {
        guard steps.count >= 4, rateProblem == nil else { return nil }
        let blocks = (4...steps.count).map { block(endingAt: $0, steps: 4) }
        let absolute = blocks.filter { Self.loudness($0) > -70 }
        guard !absolute.isEmpty else { return nil }
        let relativeGate = Self.loudness(absolute.reduce(0, +) / Double(absolute.count)) - 10
        let gated = absolute.filter { Self.loudness($0) > relativeGate }
        guard !gated.isEmpty else { return nil }
        return Self.loudness(gated.reduce(0, +) / Double(gated.count))
    }

    /// Loudness range (EBU Tech 3342): short-term values above −70 LUFS and above the power mean
    /// of those minus 20 LU; P95 − P10 (type 7), LU. Nil when nothing passes.
    public var loudnessRangeLU: Double? {
        guard steps.count >= 30, rateProblem == nil else { return nil }
        let energies = (30...steps.count).map { block(endingAt: $0, steps: 30) }.filter { Self.loudness($0) > -70 }
        guard !energies.isEmpty else { return nil }
        let gate = Self.loudness(energies.reduce(0, +) / Double(energies.count)) - 20
        let levels = energies.map(Self.loudness).filter { $0 > gate }.sorted()
        guard !levels.isEmpty else { return nil }
        return Statistics.quantileOfSorted(levels, 0.95) - Statistics.quantileOfSorted(levels, 0.10)
    }

    /// Why the recording's rate cannot carry K-weighting (``KWeighting/rateProblem(_:)``): then
    /// every loudness is undefined.
    public var rateProblem: String? { KWeighting.rateProblem(sampleRateHz) }

    /// Why ``integratedLUFS`` is nil (a warning's text); nil when it has a value.
    public var integratedUndefinedReason: String? {
        guard integratedLUFS == nil else { return nil }
        if let rateProblem { return "integrated loudness is undefined: \(rateProblem)" }
        return steps.count < 4 ? "integrated loudness is undefined: the recording is shorter than one 400-ms block"
                               : "integrated loudness is −∞: every 400-ms block is below −70 LUFS"
    }

    /// Why ``loudnessRangeLU`` (and, for a recording shorter than 3 s, the short-term loudness)
    /// is nil (a warning's text); nil when it has a value.
    public var rangeUndefinedReason: String? {
        guard loudnessRangeLU == nil else { return nil }
        if let rateProblem { return "loudness range and short-term loudness are undefined: \(rateProblem)" }
        return steps.count < 30 ? "loudness range and short-term loudness are undefined: the recording is shorter than one 3-s short-term window"
                                : "loudness range is undefined: every 3-s short-term block is below −70 LUFS"
    }
}
