import InputGuards
import Foundation

/// Decodes any audio FFmpeg reads (`.m4a` AAC/ALAC above all) by running the `ffmpeg` tool and
/// reading 32-bit float PCM from its standard output, block by block. FFmpeg's MP4 demuxer applies
/// the edit list, so AAC encoder priming is trimmed (docs/formats.md §5.2).
///
/// Used when the package is built without the `FFmpeg` trait and the tool is installed
/// (Debian: `ffmpeg`).
public final class FFmpegToolDecoder: AudioDecoder {
    public let path: String
    public private(set) var format: AudioFormat
    private let process: Process
    private let output: FileHandle
    private let errors: Pipe
    private var framesRead: Int64 = 0
    public private(set) var nonFiniteSamples = 0
    private var pending: [UInt8] = []
    private var finished = false
    /// The stream's duration from the container (its edit list), frames: decoding stops there,
    /// so AAC end padding is dropped as the start priming is.
    private var frameLimit: Int64?
    public private(set) var truncation: String?

    /// The `ffmpeg` and `ffprobe` executables on `PATH`, if both exist.
    public static var tools: (ffmpeg: String, ffprobe: String)? {
        guard let ffmpeg = which("ffmpeg"), let ffprobe = which("ffprobe") else { return nil }
        return (ffmpeg, ffprobe)
    }

    public init(path: String) throws(AudioError) {
        guard let tools = Self.tools else {
            throw AudioError(file: path, reason: .decoderUnavailable(AudioInput.noDecoderMessage))
        }
        guard !FileName.hasEscapedBytes(path) else {
            throw AudioError(file: path, reason: .decoderUnavailable(
                "the name is not UTF-8 and cannot be passed to the ffmpeg program; build with the FFmpeg trait (libavformat opens it by its bytes) or rename the file"))
        }
        self.path = path
        let probe = try Self.probe(path, ffprobe: tools.ffprobe)
        format = probe.format
        frameLimit = probe.frames
        process = Process()
        process.executableURL = URL(fileURLWithPath: tools.ffmpeg)
        process.arguments = ["-nostdin", "-v", "error", "-i", path, "-map", "0:a:0", "-f", "f32le", "-acodec", "pcm_f32le", "pipe:1"]
        let stdout = Pipe()
        errors = Pipe()
        process.standardOutput = stdout
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        output = stdout.fileHandleForReading
        do {
            try process.run()
        } catch {
            throw AudioError(file: path, reason: .open("cannot run ffmpeg: \(error)"))
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? output.close()
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int {
        let channels = format.channels
        let frameBytes = 4 * channels
        var wanted = (buffer.count / channels) * frameBytes
        if let frameLimit { wanted = Int(min(Int64(wanted / frameBytes), max(0, frameLimit - framesRead))) * frameBytes }
        guard !finished else { return 0 }
        guard wanted > 0 else {
            if frameLimit != nil, buffer.count >= channels {
                try? output.close()  // the rest is padding; ffmpeg stops on the closed pipe
                process.terminate()
                finished = true
                format.frames = framesRead
            }
            return 0
        }
        while pending.count < wanted {
            let chunk: Data
            do {
                chunk = try output.read(upToCount: max(65_536, wanted - pending.count)) ?? Data()
            } catch {
                throw AudioError(file: path, reason: .decode("reading ffmpeg's output: \(error)"))
            }
            if chunk.isEmpty { break }
            pending.append(contentsOf: chunk)
        }
        let usable = min(pending.count, wanted) / frameBytes * frameBytes
        if usable == 0 {
            try finish()
            return 0
        }
        pending.withUnsafeBytes { raw in
            for i in 0..<(usable / 4) {
                buffer[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
            }
        }
        pending.removeFirst(usable)
        nonFiniteSamples += NonFiniteSamples.zero(buffer, count: usable / 4)
        framesRead += Int64(usable / frameBytes)
        return usable / frameBytes
    }

    /// At the end of ffmpeg's output: its error, unless the packets stopped at the end of a file
    /// cut short (ffmpeg says "partial file", and stops with status 0 after the frames it decoded,
    /// or with an error when it decoded none), then ``truncation`` as FFmpeg's library says it.
    private func finish() throws(AudioError) {
        finished = true
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = message.split(separator: "\n")
        let cut = lines.first { $0.hasSuffix(": partial file") }
        if process.terminationStatus != 0, cut == nil {
            throw AudioError(file: path, reason: .decode("ffmpeg: \(lines.first.map(String.init) ?? "exit status \(process.terminationStatus)")"))
        }
        format.frames = framesRead
        if frameLimit.map({ framesRead < $0 }) ?? (cut != nil) {
            truncation = truncationWarning(declared: frameLimit, decoded: framesRead, cut: cut.map { "ffmpeg: \($0.split(separator: "] ", maxSplits: 1).last ?? $0)" })
        }
    }

    /// Rate, channels, codec and length (frames, when the container states it) of the first
    /// audio stream, from `ffprobe`.
    private static func probe(_ path: String, ffprobe: String) throws(AudioError) -> (format: AudioFormat, frames: Int64?) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffprobe)
        process.arguments = ["-v", "error", "-select_streams", "a:0", "-show_entries",
                             "stream=codec_name,sample_rate,channels,duration_ts,time_base:format=format_name", "-of", "default=noprint_wrappers=1", path]
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw AudioError(file: path, reason: .open("cannot run ffprobe: \(error)")) }
        let text = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problem = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard process.terminationStatus == 0, let rate = fields["sample_rate"].flatMap(Double.init), rate > 0,
            let channels = fields["channels"].flatMap(Int.init), channels > 0
        else {
            let line = problem.split(separator: "\n").first.map(String.init) ?? "no audio stream"
            throw AudioError(file: path, reason: .open("ffprobe: \(line)"))
        }
        let container = fields["format_name"]?.contains("mp4") == true ? "MPEG-4" : (fields["format_name"] ?? "?")
        var frames: Int64?
        let base = (fields["time_base"] ?? "").split(separator: "/").compactMap { Double($0) }
        if let ticks = fields["duration_ts"].flatMap(Double.init), base.count == 2, base[1] > 0 {
            frames = Int(checking: ticks * base[0] / base[1] * rate, rounding: .toNearestOrAwayFromZero, in: 0...Int.max / 1_024).map(Int64.init)
        }
        let format = try AudioFormat(sampleRateHz: rate, channels: channels, frames: nil, container: container,
                                     encoding: (fields["codec_name"] ?? "?").uppercased()).validated(file: path)
        return (format, frames)
    }

    private static func which(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(tool)"
            if FileSystem.isExecutable(candidate) { return candidate }
        }
        return nil
    }
}
