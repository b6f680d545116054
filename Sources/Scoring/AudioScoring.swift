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
            try decoder.forEachDoubleBlock(frames: BiquadCascade.laneBlockFrames(channels: channels)) { block, frames in
                if samples.count != frames { samples = [Double](repeating: 0, count: frames) }
                samples.withUnsafeMutableBufferPointer { out in
                    for i in 0..<frames { out[i] = block[i * channels + channel] }
                }
                body(samples)
            }
        } catch {
            throw ScoringError(.invalidInput, String(describing: error))
        }
    }

    /// What reading `decoder` had to repair, as score warnings (``NonFiniteSamples``'s policy).
    public static func warnings(_ decoder: any AudioDecoder) -> [String] {
        var warnings = decoder.unfinishedHeader.map { [$0.warning] } ?? []
        if decoder.nonFiniteSamples > 0 {
            warnings.append("nonFiniteSamples(\(decoder.nonFiniteSamples)): \(decoder.nonFiniteSamples) sample(s) were NaN or ±infinity and were read as 0 (silence)")
        }
        return warnings
    }
}
