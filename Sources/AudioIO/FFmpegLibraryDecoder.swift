#if FFmpeg
import InputGuards
internal import CFFmpeg

/// Decodes `.m4a` (AAC, ALAC) and anything else FFmpeg 5.1 reads, in process, through
/// libavformat + libavcodec + libswresample, to interleaved Float. libavformat's MP4 demuxer
/// marks the samples outside the edit list (AAC encoder priming and padding) and libavcodec
/// drops them, the same path the `ffmpeg` tool takes (docs/formats.md §5.2).
///
/// Built only with the package trait `FFmpeg`. All handles have this one owner and are freed in
/// `deinit`, including after a failed `init`.
public final class FFmpegLibraryDecoder: AudioDecoder {
    public let path: String
    public private(set) var format = AudioFormat(sampleRateHz: 0, channels: 0, frames: nil, container: "?", encoding: "?")
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var streamIndex: Int32 = -1
    private var pending: [Float] = []
    private var pendingStart = 0
    private var draining = false
    private var finished = false
    private var framesRead: Int64 = 0
    public private(set) var nonFiniteSamples = 0
    /// The stream's duration from the container (its edit list), frames: decoding stops there,
    /// so AAC end padding is dropped as the start priming is.
    private var frameLimit: Int64?
    /// Set at the end of the stream when fewer frames were decoded than the container declares
    /// (a file cut short): what is missing and where the packets stopped.
    public private(set) var truncation: String?
    /// The byte offset of the last packet read from the stream (-1 when unknown), and whether
    /// it was cut short by the end of the file (libavformat's corrupt flag).
    private var packetPosition: Int64 = -1
    private var packetCut = false
    /// The bytes of a file decoded from memory, and libavformat's reader over them.
    private var memory: MemoryReader?
    private var memoryIO: UnsafeMutablePointer<AVIOContext>?
    /// FFmpeg's functions, loaded by the first decoder.
    private let ffmpeg: atk_ffmpeg

    /// Decodes the file at `path`.
    ///
    /// The corresponding C functions are `avformat_open_input`, `avformat_find_stream_info`,
    /// `av_find_best_stream`, `avcodec_open2` and `swr_init`.
    public convenience init(path: String) throws(AudioError) {
        try self.init(path: path, bytes: nil)
    }

    /// Decodes a file already read into memory (`path` names it in messages): libavformat reads
    /// the bytes through a custom I/O context instead of opening the file again.
    ///
    /// The corresponding C function is `avio_alloc_context`.
    public convenience init(bytes: [UInt8], path: String) throws(AudioError) {
        try self.init(path: path, bytes: bytes)
    }

    private init(path: String, bytes: [UInt8]?) throws(AudioError) {
        self.path = path
        var failure: UnsafePointer<CChar>?
        guard let table = atk_ffmpeg_load(&failure) else {
            throw AudioError(file: path, reason: .open(failure.map { String(cString: $0) } ?? "cannot load FFmpeg's libraries"))
        }
        ffmpeg = table.pointee
        ffmpeg.av_log_set_level!(AV_LOG_QUIET)  // errors reach the caller as AudioError, stderr stays one line
        var context: UnsafeMutablePointer<AVFormatContext>?
        if let bytes {
            let reader = MemoryReader(bytes)
            memory = reader
            let size = 1 << 16
            guard let buffer = ffmpeg.av_malloc!(size), let allocated = ffmpeg.avformat_alloc_context!(),
                let io = ffmpeg.avio_alloc_context!(buffer.assumingMemoryBound(to: UInt8.self), Int32(size), 0, Unmanaged.passUnretained(reader).toOpaque(),
                                            MemoryReader.read, nil, MemoryReader.seek)
            else { throw AudioError(file: path, reason: .open("out of memory")) }
            memoryIO = io
            allocated.pointee.pb = io
            context = allocated
        }
        /// FFmpeg's reason, with what the MPEG-4 boxes say (``MPEG4Index``) when the file is one.
        func unopenable(_ reason: String) -> AudioError {
            let header = bytes.map { Array($0.prefix(8)) } ?? AudioInput.leadingBytes(path, count: 8)
            let boxes = AudioInput.isMPEG4(header) ? MPEG4Index.problem(path: path, bytes: bytes) : nil
            return AudioError(file: path, reason: .open(reason + (boxes.map { "; " + $0 } ?? "")))
        }
        var status = FileName.withCString(path) { ffmpeg.avformat_open_input!(&context, bytes == nil ? $0 : nil, nil, nil) }
        guard status >= 0, let context else { throw unopenable(message(status)) }
        formatContext = context
        status = ffmpeg.avformat_find_stream_info!(context, nil)
        guard status >= 0 else { throw unopenable(message(status)) }
        var codec: UnsafePointer<AVCodec>?
        let index = ffmpeg.av_find_best_stream!(context, AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0)
        guard index >= 0, let codec, let stream = context.pointee.streams[Int(index)] else {
            throw unopenable("no decodable audio stream (\(message(index)))")
        }
        streamIndex = index
        guard let codecContext = ffmpeg.avcodec_alloc_context3!(codec) else {
            throw AudioError(file: path, reason: .open("cannot allocate a decoder"))
        }
        self.codecContext = codecContext
        status = ffmpeg.avcodec_parameters_to_context!(codecContext, stream.pointee.codecpar)
        if status >= 0 { status = ffmpeg.avcodec_open2!(codecContext, codec, nil) }
        guard status >= 0 else { throw AudioError(file: path, reason: .open(message(status))) }
        let channels = Int(codecContext.pointee.ch_layout.nb_channels)
        let rate = codecContext.pointee.sample_rate
        guard channels > 0, rate > 0 else {
            throw AudioError(file: path, reason: .open("the audio stream has no channels or no sample rate"))
        }
        var resampler: OpaquePointer?
        var outLayout = AVChannelLayout()
        ffmpeg.av_channel_layout_default!(&outLayout, Int32(channels))
        status = ffmpeg.swr_alloc_set_opts2!(
            &resampler, &outLayout, AV_SAMPLE_FMT_FLT, rate, &codecContext.pointee.ch_layout,
            codecContext.pointee.sample_fmt, rate, 0, nil)
        ffmpeg.av_channel_layout_uninit!(&outLayout)
        self.resampler = resampler
        if status >= 0 { status = ffmpeg.swr_init!(resampler) }
        guard status >= 0 else { throw AudioError(file: path, reason: .open(message(status))) }
        packet = ffmpeg.av_packet_alloc!()
        frame = ffmpeg.av_frame_alloc!()
        guard packet != nil, frame != nil else { throw AudioError(file: path, reason: .open("out of memory")) }
        let ticks = stream.pointee.duration, base = stream.pointee.time_base
        if ticks > 0, base.den > 0 {
            frameLimit = Int(checking: Double(ticks) * Double(base.num) / Double(base.den) * Double(rate), rounding: .toNearestOrAwayFromZero,
                             in: 0...Int.max / 1_024).map(Int64.init)
        }
        let formatName = context.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "?"
        format = try AudioFormat(
            sampleRateHz: Double(rate), channels: channels, frames: nil,
            container: formatName.contains("mp4") ? "MPEG-4" : formatName,
            encoding: (ffmpeg.avcodec_get_name!(codecContext.pointee.codec_id).map { String(cString: $0) } ?? "?").uppercased()
        ).validated(file: path)
    }

    deinit {
        ffmpeg.av_frame_free!(&frame)
        ffmpeg.av_packet_free!(&packet)
        ffmpeg.swr_free!(&resampler)
        ffmpeg.avcodec_free_context!(&codecContext)
        ffmpeg.avformat_close_input!(&formatContext)
        if memoryIO != nil {
            ffmpeg.av_freep!(&memoryIO!.pointee.buffer)
            ffmpeg.avio_context_free!(&memoryIO)
        }
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int {
        let channels = format.channels
        var wanted = buffer.count / channels * channels
        if let frameLimit { wanted = Int(min(Int64(wanted / channels), max(0, frameLimit - framesRead))) * channels }
        var written = 0
        while written < wanted {
            if pendingStart == pending.count {
                pending.removeAll(keepingCapacity: true)
                pendingStart = 0
                if finished { break }
                if try !decodeNextFrame() { break }
                continue
            }
            let count = min(wanted - written, pending.count - pendingStart)
            for k in 0..<count { buffer[written + k] = pending[pendingStart + k] }
            pendingStart += count
            written += count
        }
        let frames = written / channels
        nonFiniteSamples += NonFiniteSamples.zero(buffer, count: written)
        framesRead += Int64(frames)
        if frames == 0 {
            format.frames = framesRead
            if let frameLimit, framesRead < frameLimit, truncation == nil {
                truncation = truncationWarning(declared: frameLimit, decoded: framesRead,
                                               cut: packetCut ? "the last cut off by the end of the file at byte \(packetPosition)" : nil)
            }
        }
        return frames
    }

    /// Decodes the next frame into `pending`; false at the end of the stream.
    ///
    /// The corresponding C functions are `av_read_frame`, `avcodec_send_packet`,
    /// `avcodec_receive_frame` and `swr_convert`.
    private func decodeNextFrame() throws(AudioError) -> Bool {
        guard let codecContext, let frame, let packet else { return false }
        while true {
            let received = ffmpeg.avcodec_receive_frame!(codecContext, frame)
            if received == 0 {
                try convert(frame)
                ffmpeg.av_frame_unref!(frame)
                return true
            }
            if received == atk_averror_eof() {
                finished = true
                return false
            }
            guard received == atk_averror_eagain() else {
                throw AudioError(file: path, reason: .decode(message(received) + location))
            }
            if draining {
                finished = true
                return false
            }
            let status = ffmpeg.av_read_frame!(formatContext, packet)
            if status < 0 {
                draining = true
                _ = ffmpeg.avcodec_send_packet!(codecContext, nil)
                continue
            }
            defer { ffmpeg.av_packet_unref!(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            packetPosition = packet.pointee.pos
            if packet.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 {
                // The file ends inside this packet: the stream ends before it (``truncation``).
                packetCut = true
                draining = true
                _ = ffmpeg.avcodec_send_packet!(codecContext, nil)
                continue
            }
            let sent = ffmpeg.avcodec_send_packet!(codecContext, packet)
            if sent < 0, sent != atk_averror_eagain() {
                throw AudioError(file: path, reason: .decode(message(sent) + location))
            }
        }
    }

    private func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(AudioError) {
        let channels = format.channels
        let capacity = Int(ffmpeg.swr_get_out_samples!(resampler, frame.pointee.nb_samples))
        guard capacity > 0 else { return }
        pending = [Float](repeating: 0, count: capacity * channels)
        let converted = pending.withUnsafeMutableBytes { raw -> Int32 in
            var output: UnsafeMutablePointer<UInt8>? = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return frame.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: channels) { input in
                ffmpeg.swr_convert!(resampler, &output, Int32(capacity), input, frame.pointee.nb_samples)
            }
        }
        guard converted >= 0 else { throw AudioError(file: path, reason: .decode(message(converted))) }
        pending.removeSubrange(Int(converted) * channels..<pending.count)
        pendingStart = 0
    }

    /// Where decoding stands, for an error: the last packet's byte offset and the frames decoded.
    private var location: String {
        (packetPosition >= 0 ? " in the packet at byte \(packetPosition)" : "") + " after \(framesRead) frames (\(seconds(framesRead)) s)"
    }

    /// FFmpeg's text for an error code.
    ///
    /// The corresponding C function is `av_strerror`.
    private func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        _ = ffmpeg.av_strerror!(code, &buffer, buffer.count)
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
/// A file's bytes for libavformat's custom I/O: the read and seek callbacks over them.
private final class MemoryReader {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, buffer, size in
        let reader = Unmanaged<MemoryReader>.fromOpaque(opaque!).takeUnretainedValue()
        let count = min(Int(max(0, size)), reader.bytes.count - reader.position)
        guard count > 0, let buffer else { return atk_averror_eof() }
        reader.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + reader.position, count: count) }
        reader.position += count
        return Int32(count)
    }

    static let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
        let reader = Unmanaged<MemoryReader>.fromOpaque(opaque!).takeUnretainedValue()
        let size = Int64(reader.bytes.count)
        if whence & AVSEEK_SIZE != 0 { return size }
        // libavformat's offsets come from the container: any Int64, so the sums are checked.
        let (target, overflow): (Int64, Bool)
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: (target, overflow) = (offset, false)
        case SEEK_CUR: (target, overflow) = Int64(reader.position).addingReportingOverflow(offset)
        case SEEK_END: (target, overflow) = size.addingReportingOverflow(offset)
        default: return -1
        }
        guard !overflow, target >= 0, target <= size else { return -1 }
        reader.position = Int(target)
        return target
    }
}
#endif
