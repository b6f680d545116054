import InputGuards

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

    /// Sample rates the toolkit reads: 1 Hz to 768 kHz, the highest rate of audio converters. A
    /// header outside (0 Hz, 1 GHz, NaN from a tool) is invalid input: every per-second size the
    /// analyzers derive from the rate would be meaningless or enormous.
    public static let validSampleRatesHz: ClosedRange<Double> = 1...768_000
    /// Channels the toolkit reads (libsndfile's own limit is 1,024).
    public static let validChannels: ClosedRange<Int> = 1...1_024

    /// This format if its rate and channel count are valid, else an error naming `file` and the value.
    /// A frame count that is negative or libsndfile's "unknown" (`SF_COUNT_MAX`, e.g. a truncated
    /// Ogg stream) becomes nil (unknown) instead of a length of 9.2e18 samples.
    func validated(file: String) throws(AudioError) -> AudioFormat {
        guard Self.validSampleRatesHz.contains(sampleRateHz) else {
            throw AudioError(file: file, reason: .invalidFormat(
                "sample rate \(sampleRateHz) Hz is outside \(Self.validSampleRatesHz.lowerBound.compactDescription)–\(Self.validSampleRatesHz.upperBound.compactDescription) Hz"))
        }
        guard Self.validChannels.contains(channels) else {
            throw AudioError(file: file, reason: .invalidFormat("\(channels) channels is outside 1–\(Self.validChannels.upperBound)"))
        }
        var checked = self
        if let frames, frames < 0 || frames >= Int64.max / 1_024 { checked.frames = nil }
        return checked
    }
}

/// What the decoders do with samples that are not numbers: a float WAV can hold NaN or ±∞, and a
/// single one would poison every recursive filter after it (IIR state never recovers from NaN).
/// Policy: each non-finite sample is read as 0 (silence) and counted in the decoder's
/// `nonFiniteSamples`; the scorers turn a non-zero count into a `nonFiniteSamples(n)` warning.
/// Finite samples beyond ±1 (legal in float files) are kept as they are; the sound scorers refuse
/// a file with one beyond ±1e100 (Scoring's `AudioScoring.largestMagnitude`).
public enum NonFiniteSamples {
    /// Replaces NaN and ±∞ in `buffer[0..<count]` by 0; returns how many there were.
    ///
    /// The common case (every sample finite) costs one vectorisable pass: the largest exponent
    /// field in the block is all ones only when a NaN or ±∞ is present.
    @inlinable
    public static func zero(_ buffer: UnsafeMutableBufferPointer<Float>, count: Int) -> Int {
        let n = min(count, buffer.count)
        guard let base = buffer.baseAddress, n > 0 else { return 0 }
        let raw = UnsafeRawPointer(base), mask: UInt32 = 0x7F80_0000
        var largest = SIMD16<UInt32>(repeating: 0)
        var i = 0
        while i + 16 <= n {
            largest = largest | (raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<UInt32>.self) & mask &+ 0x0080_0000)
            i &+= 16
        }
        var found = (largest & 0x8000_0000) != .zero
        while i < n { found = found || !base[i].isFinite; i &+= 1 }
        return found ? replace(buffer, count: n) : 0
    }

    /// The same for Double blocks.
    @inlinable
    public static func zero(_ buffer: UnsafeMutableBufferPointer<Double>, count: Int) -> Int {
        let n = min(count, buffer.count)
        guard let base = buffer.baseAddress, n > 0 else { return 0 }
        let raw = UnsafeRawPointer(base), mask: UInt64 = 0x7FF0_0000_0000_0000
        var largest = SIMD8<UInt64>(repeating: 0)
        var i = 0
        while i + 8 <= n {
            largest = largest | (raw.loadUnaligned(fromByteOffset: i &* 8, as: SIMD8<UInt64>.self) & mask &+ 0x0010_0000_0000_0000)
            i &+= 8
        }
        var found = (largest & 0x8000_0000_0000_0000) != .zero
        while i < n { found = found || !base[i].isFinite; i &+= 1 }
        return found ? replace(buffer, count: n) : 0
    }

    @usableFromInline
    static func replace<T: BinaryFloatingPoint>(_ buffer: UnsafeMutableBufferPointer<T>, count: Int) -> Int {
        var found = 0
        for i in 0..<count where !buffer[i].isFinite {
            buffer[i] = 0
            found += 1
        }
        return found
    }
}

/// A source of interleaved audio frames, read block by block (audio streams in blocks, so
/// memory does not grow with the file's length: docs/reliability.md, "Memory model").
public protocol AudioDecoder: AnyObject {
    /// The file being read, for messages.
    var path: String { get }
    var format: AudioFormat { get }
    /// Samples read so far that were NaN or ±∞ and were delivered as 0 (``NonFiniteSamples``).
    var nonFiniteSamples: Int { get }
    /// Set when a WAV's data size was never finished and the whole frames present are read.
    var unfinishedHeader: UnfinishedHeader? { get }
    /// Set at the end of a compressed stream cut short: the container declares more frames than
    /// its packets hold (the warning's text).
    var truncation: String? { get }
    /// Fills `buffer` with up to `buffer.count / channels` interleaved frames as Float in
    /// [−1, 1] and returns the number of frames read; 0 at the end.
    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int
    /// The same as Double (libsndfile converts natively; other decoders widen their Float output).
    func read(into buffer: UnsafeMutableBufferPointer<Double>) throws(AudioError) -> Int
}

extension AudioDecoder {
    /// Decoders other than libsndfile's read containers without this defect.
    public var unfinishedHeader: UnfinishedHeader? { nil }
    /// Decoders other than FFmpeg's read no container that declares a length apart from its data.
    public var truncation: String? { nil }

    /// ``truncation``'s text for a stream whose container declares `declared` frames (if it
    /// says) and whose packets ended after `decoded`, with where they were cut (`cut`, if known).
    func truncationWarning(declared: Int64?, decoded: Int64, cut: String?) -> String {
        "truncated: " + (declared.map { "the container declares \($0) frames (\(seconds($0)) s); " } ?? "")
            + "its packets end after \(decoded) (\(seconds(decoded)) s)" + (cut.map { ", \($0)" } ?? "") + "; the frames present are analysed"
    }

    /// `frames` in seconds to the millisecond, for messages.
    func seconds(_ frames: Int64) -> Double { (Double(frames) / format.sampleRateHz * 1000).rounded() / 1000 }

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
        try forEachBlock(frames: frames, read: { (buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) in try read(into: buffer) }, body)
    }

    /// The same as Double (libsndfile's native conversion: no Float rounding of 32-bit PCM, no
    /// widening pass).
    public func forEachDoubleBlock(
        frames: Int = 65_536, _ body: (UnsafeBufferPointer<Double>, _ frameCount: Int) throws -> Void
    ) throws {
        try forEachBlock(frames: frames, read: { (buffer: UnsafeMutableBufferPointer<Double>) throws(AudioError) in try read(into: buffer) }, body)
    }

    @inline(__always)  // specialised in each caller: unspecialised, the block's element loops cost twice the read
    private func forEachBlock<T: BinaryFloatingPoint>(
        frames: Int, read: (UnsafeMutableBufferPointer<T>) throws(AudioError) -> Int, _ body: (UnsafeBufferPointer<T>, Int) throws -> Void
    ) throws {
        let channels = max(1, format.channels)
        var block = [T](repeating: 0, count: frames * channels)
        while true {
            let count = try block.withUnsafeMutableBufferPointer { buffer throws(AudioError) in try read(buffer) }
            if count == 0 { return }
            try block.withUnsafeBufferPointer { buffer in
                try body(UnsafeBufferPointer(rebasing: buffer[0..<count * channels]), count)
            }
        }
    }

    /// Reads everything that remains, interleaved; throws ``AudioError/Reason/tooLong(frames:channels:limit:)``
    /// before reading when the header's frame count says there are more than `maximumSamples`
    /// (frames × channels), and as soon as there are when it does not say.
    public func readAll(maximumSamples: Int = .max) throws(AudioError) -> [Float] {
        try readEverything(path: path, format: format, maximumSamples) { (buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) in try read(into: buffer) }
    }

    /// The same as Double.
    public func readAllDouble(maximumSamples: Int = .max) throws(AudioError) -> [Double] {
        try readEverything(path: path, format: format, maximumSamples) { (buffer: UnsafeMutableBufferPointer<Double>) throws(AudioError) in try read(into: buffer) }
    }
}

/// Everything `read` gives of the file at `path`, interleaved (``AudioDecoder/readAll(maximumSamples:)``), in
/// blocks of 65,536 frames: the stated length (up to 2^28 samples) and one block more are read
/// straight into the result; what a header that says too little leaves comes through a block
/// buffer. The same blocks either way, so the same samples.
@_specialize(where T == Float)
@_specialize(where T == Double)
private func readEverything<T: BinaryFloatingPoint>(
    path: String, format: AudioFormat, _ maximumSamples: Int, _ read: (UnsafeMutableBufferPointer<T>) throws(AudioError) -> Int
) throws(AudioError) -> [T] {
    let channels = max(1, format.channels)
    let blockSamples = 65_536 * channels
    var stated = 0
    if let frames = format.frames {
        guard Double(frames) * Double(channels) <= Double(maximumSamples) else {
            throw AudioError(file: path, reason: .tooLong(frames: frames, channels: channels, limit: maximumSamples))
        }
        let total = frames.multipliedReportingOverflow(by: Int64(channels))
        if !total.overflow, (0...(1 << 28)).contains(total.partialValue) { stated = Int(total.partialValue) }
    }
    var failure: AudioError?, ended = false
    var samples = [T](unsafeUninitializedCapacity: stated + blockSamples) { buffer, initialized in
        while !ended, failure == nil, initialized + blockSamples <= buffer.count {
            do throws(AudioError) {
                let count = try read(UnsafeMutableBufferPointer(rebasing: buffer[initialized..<initialized + blockSamples]))
                if count == 0 {
                    ended = true
                } else if count * channels > maximumSamples - initialized {
                    failure = AudioError(file: path, reason: .tooLong(frames: nil, channels: channels, limit: maximumSamples))
                } else {
                    initialized += count * channels
                }
            } catch {
                failure = error
            }
        }
    }
    if let failure { throw failure }
    if ended { return samples }
    var block = [T](repeating: 0, count: blockSamples)
    while true {
        let count = try block.withUnsafeMutableBufferPointer { buffer throws(AudioError) in try read(buffer) }
        if count == 0 { return samples }
        guard count * channels <= maximumSamples - samples.count else {
            throw AudioError(file: path, reason: .tooLong(frames: nil, channels: channels, limit: maximumSamples))
        }
        samples.append(contentsOf: block[0..<count * channels])
    }
}
