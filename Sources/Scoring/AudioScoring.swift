import InputGuards
import AudioIO
import SignalProcessing

/// Audio access shared by the sound scorers, errors as `ScoringError`s.
public enum AudioScoring {
    /// Streams one channel of `decoder` through `body`, block by block (memory independent of
    /// the file's length: one block of ``BiquadCascade/laneBlockFrames(channels:)`` frames, reused).
    public static func stream(_ decoder: any AudioDecoder, file: String, channel: Int, _ body: ([Double]) -> Void) throws(ScoringError) {
        let channels = decoder.format.channels
        guard channel >= 0, channel < channels else { throw ScoringError(.badInvocation, "\(FileName.display(file)): no channel \(channel); the file has \(channels)") }
        do {
            // One buffer for every block (a new array per block cost an allocation and its page faults each time).
            var samples: [Double] = []
            var first = 0
            // The error is looked for only past the bound.
            func check(_ peak: Double) throws(ScoringError) {
                if peak > largestMagnitude,
                   let problem = samples.withUnsafeBufferPointer({ magnitudeProblem($0, file: file, firstFrame: first, channels: 1, channelOffset: channel) }) {
                    throw problem
                }
            }
            // A short file gets a block its own size (with room for a container's count that is
            // a little short, as AAC priming makes it): the same blocks as the full-size buffer
            // would give, without zeroing and faulting in 2^18 frames for 1 s of sound.
            let lane = BiquadCascade.laneBlockFrames(channels: channels)
            let blockFrames = decoder.format.frames.map { (0..<Int64(lane)).contains($0) ? min(lane, Int($0) + 8_192) : lane } ?? lane
            if channels == 1 {
                // Decoded straight into the buffer, block by block as forEachDoubleBlock reads
                // (the same blocks, so the same filter lanes): no copy of the channel.
                while true {
                    // Not zeroed: the decoder writes the frames it returns, and only those are kept.
                    if samples.count != blockFrames { samples = [Double](unsafeUninitializedCapacity: blockFrames) { $1 = blockFrames } }
                    let frames = try samples.withUnsafeMutableBufferPointer { buffer throws(AudioError) in try decoder.read(into: buffer) }
                    if frames == 0 { return }
                    if frames < blockFrames { samples.removeLast(blockFrames - frames) }
                    try check(samples.withUnsafeBufferPointer { Statistics.peakDeviation($0) })
                    first += frames
                    body(samples)
                }
            }
            try decoder.forEachDoubleBlock(frames: blockFrames) { block, frames in
                if samples.count != frames { samples = [Double](repeating: 0, count: frames) }
                // The channel and its peak in one pass.
                try check(samples.withUnsafeMutableBufferPointer { Statistics.copyChannel(channel, of: block, channels: channels, into: $0) })
                first += frames
                body(samples)
            }
        } catch {
            throw error as? ScoringError ?? ScoringError(.invalidInput, String(describing: error))
        }
    }

    /// The largest sample magnitude analysed, in units of full scale. A float file may exceed
    /// full scale (1), but beyond 10¹⁰⁰ (2,000 dB above it) the sums of squares behind every
    /// level, loudness and spectrum could overflow: 2³⁴ squares of 10²⁰⁰ (the most samples any
    /// scorer holds, at this bound) sum to 1.7·10²¹⁰; one square of 10³⁰⁰ is already ∞.
    public static let largestMagnitude = 1e100

    /// The error for a block that holds a sample beyond ±``largestMagnitude`` (nil when none
    /// does), naming the file, the frame, the channel and the value. `block` is `channels`
    /// interleaved channels from frame `firstFrame`; `channelOffset` numbers a single extracted channel.
    public static func magnitudeProblem(_ block: UnsafeBufferPointer<Double>, file: String, firstFrame: Int, channels: Int,
                                        channelOffset: Int = 0) -> ScoringError? {
        guard Statistics.peakDeviation(block) > largestMagnitude,
              let index = block.firstIndex(where: { abs($0) > largestMagnitude }) else { return nil }
        let channels = max(channels, 1)
        return ScoringError(.invalidInput, "\(FileName.display(file)): frame \(firstFrame + index / channels), channel \(channelOffset + index % channels) "
            + "holds \(block[index].compactDescription) × full scale, beyond ±1e100: its square would overflow the sums every level is made of")
    }

    /// What reading `decoder` had to repair, as score warnings (``NonFiniteSamples``'s policy).
    public static func warnings(_ decoder: any AudioDecoder) -> [String] {
        var warnings = decoder.unfinishedHeader.map { [$0.warning] } ?? []
        if let truncation = decoder.truncation { warnings.append(truncation) }
        if decoder.nonFiniteSamples > 0 {
            warnings.append("nonFiniteSamples(\(decoder.nonFiniteSamples)): \(decoder.nonFiniteSamples) sample(s) were NaN or ±infinity and were read as 0 (silence)")
        }
        return warnings
    }
}
