/// What an audio stream holds.
public struct AudioFormat: Sendable, Hashable {
    /// Frames per second, Hz.
    public var sampleRateHz: Double
    public var channels: Int
    /// Total frames, when the container says (nil for a stream decoded by an external tool
    /// until it has been read to the end).
    public var frames: Int64?
    /// Container name (`WAV`, `WAVEX`, `FLAC`, `MPEG-4`, …).
    public var container: String
    /// Sample encoding (`PCM_16`, `FLOAT`, `ALAC`, `AAC`, …).
    public var encoding: String

    public init(sampleRateHz: Double, channels: Int, frames: Int64?, container: String, encoding: String) {
        self.sampleRateHz = sampleRateHz
        self.channels = channels
        self.frames = frames
        self.container = container
        self.encoding = encoding
    }

    /// Duration, s (nil while `frames` is unknown).
    public var durationSeconds: Double? {
        frames.map { Double($0) / sampleRateHz }
    }
}

/// A source of interleaved audio frames, read block by block (architecture.md: audio streams
/// in blocks, so memory does not grow with the file's length).
public protocol AudioDecoder: AnyObject {
    var format: AudioFormat { get }
    /// Fills `buffer` with up to `buffer.count / channels` interleaved frames as Float in
    /// [−1, 1] and returns the number of frames read; 0 at the end.
    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int
    /// The same as Double (libsndfile converts natively; other decoders widen their Float output).
    func read(into buffer: UnsafeMutableBufferPointer<Double>) throws(AudioError) -> Int
}

extension AudioDecoder {
    /// Widens a Float block; decoders with a native Double path replace this.
    public func read(into buffer: UnsafeMutableBufferPointer<Double>) throws(AudioError) -> Int {
        var block = [Float](repeating: 0, count: buffer.count)
        let frames = try block.withUnsafeMutableBufferPointer { floats throws(AudioError) in try read(into: floats) }
        for i in 0..<(frames * format.channels) { buffer[i] = Double(block[i]) }
        return frames
    }

    /// Calls `body` with successive blocks of up to `frames` interleaved frames.
    public func forEachBlock(
        frames: Int = 65_536, _ body: (UnsafeBufferPointer<Float>, _ frameCount: Int) throws -> Void
    ) throws {
        let channels = max(1, format.channels)
        var block = [Float](repeating: 0, count: frames * channels)
        while true {
            let count = try block.withUnsafeMutableBufferPointer { buffer throws(AudioError) in
                try read(into: buffer)
            }
            if count == 0 { return }
            try block.withUnsafeBufferPointer { buffer in
                try body(UnsafeBufferPointer(rebasing: buffer[0..<count * channels]), count)
            }
        }
    }

    /// Reads everything that remains, interleaved.
    public func readAll() throws(AudioError) -> [Float] {
        let channels = max(1, format.channels)
        var samples: [Float] = []
        if let frames = format.frames { samples.reserveCapacity(Int(frames) * channels) }
        var block = [Float](repeating: 0, count: 65_536 * channels)
        while true {
            let count = try block.withUnsafeMutableBufferPointer { buffer throws(AudioError) in
                try read(into: buffer)
            }
            if count == 0 { return samples }
            samples.append(contentsOf: block[0..<count * channels])
        }
    }
}
