import Glibc
import AudioIO
import InputGuards

/// Interleaved PCM from a descriptor (stdin, a socket): raw little-endian samples (e.g.
/// `arecord -f S16_LE -t raw`), or a WAV stream (`arecord -t wav`, `sox … -t wav -`), whose
/// header is read and checked against the recorder's rate and channels before any sample is
/// taken: a stream at another rate is refused rather than recorded under a wrong header.
public final class PCMStreamReader {
    public enum SampleFormat: String, Sendable, CaseIterable {
        case s16le, f32le
        var bytes: Int { self == .s16le ? 2 : 4 }
    }

    public let name: String
    public let sampleRateHz: Int
    public let channels: Int
    /// The samples' encoding: as asked for raw PCM; from the header for a WAV stream.
    public private(set) var format: SampleFormat
    /// Whether the stream began with a RIFF/WAVE header.
    public private(set) var isWAV = false
    private let descriptor: Int32
    private var pending: [UInt8] = []
    private var ended = false

    /// Reads up to the first sample: a WAV header is parsed and checked; raw PCM is taken as is.
    public init(descriptor: Int32, name: String, sampleRateHz: Int, channels: Int, format: SampleFormat) throws(RecordingError) {
        self.descriptor = descriptor
        self.name = name
        self.sampleRateHz = sampleRateHz
        self.channels = channels
        self.format = format
        while pending.count < 12, try fill() {}
        guard pending.starts(with: Array("RIFF".utf8)) else { return }
        guard pending.count >= 12, pending[8..<12].elementsEqual("WAVE".utf8) else { throw fail("a RIFF stream that is not WAVE") }
        var offset = 12
        var wavFormat: (tag: Int, channels: Int, rate: Int, bits: Int)?
        while true {
            while pending.count < offset + 8, try fill() {}
            guard pending.count >= offset + 8 else { throw fail("the WAV header ends at byte \(pending.count) before its data chunk") }
            let size = Int(word(offset + 4, 4))
            let id = String(decoding: pending[offset..<offset + 4], as: UTF8.self)
            if id == "data" {
                offset += 8
                break
            }
            guard size < 1 << 20 else { throw fail("WAV header chunk \"\(id)\" at byte \(offset) declares \(size) bytes") }
            while pending.count < offset + 8 + size, try fill() {}
            guard pending.count >= offset + 8 + size else { throw fail("the WAV header ends inside chunk \"\(id)\" at byte \(offset)") }
            if id == "fmt ", size >= 16 {
                var tag = Int(word(offset + 8, 2))
                if tag == 0xFFFE, size >= 26 { tag = Int(word(offset + 32, 2)) }  // WAVE_FORMAT_EXTENSIBLE: the sub-format's tag
                wavFormat = (tag, Int(word(offset + 10, 2)), Int(word(offset + 12, 4)), Int(word(offset + 22, 2)))
            }
            offset += 8 + size + (size & 1)
        }
        guard let wavFormat else { throw fail("the WAV stream has no fmt chunk before its data") }
        switch (wavFormat.tag, wavFormat.bits) {
        case (1, 16): self.format = .s16le
        case (3, 32): self.format = .f32le
        default: throw fail("WAV format tag \(wavFormat.tag), \(wavFormat.bits) bits: only 16-bit PCM and 32-bit float streams are read")
        }
        guard wavFormat.rate == sampleRateHz, wavFormat.channels == channels else {
            throw fail("the WAV stream is \(wavFormat.rate) Hz, \(wavFormat.channels) channel(s); the recorder is set to \(sampleRateHz) Hz, "
                + "\(channels) channel(s) (its sampleRateHz, channels); nothing was recorded")
        }
        isWAV = true
        pending.removeFirst(offset)
    }

    /// The next whole frames read (at most about `maximumFrames`), as interleaved floats in
    /// [−1, 1); nil at end of input. Bytes that do not make a whole frame stay pending.
    public func nextSamples(maximumFrames: Int) throws(RecordingError) -> [Float]? {
        let frameBytes = channels * format.bytes
        while pending.count < frameBytes, !ended { _ = try fill(upTo: maximumFrames * frameBytes) }
        if pending.count < frameBytes, ended { return nil }
        let usable = min(pending.count, maximumFrames * frameBytes) / frameBytes * frameBytes
        let samples = pending.withUnsafeBytes { PCMSamples.samples($0, count: usable / format.bytes, format: format == .s16le ? .s16 : .float) }
        pending.removeFirst(usable)
        return samples
    }

    /// Bytes left over at the end that do not make a whole frame.
    public var trailingBytes: Int { ended ? pending.count : 0 }

    /// Reads once more; false at end of input.
    @discardableResult
    private func fill(upTo size: Int = 65_536) throws(RecordingError) -> Bool {
        guard !ended else { return false }
        var chunk = [UInt8](repeating: 0, count: max(size, 4_096))
        while true {
            let count: Int
            do { count = try FileSystem.read(descriptor, path: name, into: &chunk) } catch { throw .system(error) }
            if count == 0 {
                ended = true
                return false
            }
            pending += chunk[0..<count]
            return true
        }
    }

    private func word(_ offset: Int, _ bytes: Int) -> UInt32 {
        (0..<bytes).reduce(0) { $0 | UInt32(pending[offset + $1]) << (8 * $1) }
    }

    private func fail(_ message: String) -> RecordingError { RecordingError(file: name, reason: .sample(message)) }
}
