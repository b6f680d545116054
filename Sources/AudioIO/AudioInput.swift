import Glibc
import InputGuards

/// Opens any supported audio file with the right decoder.
public enum AudioInput {
    /// Which decoder reads a file.
    public enum Backend: String, Sendable, CaseIterable {
        /// libsndfile (WAV, FLAC, Ogg, MP3, AIFF, CAF, …).
        case libsndfile
        /// The FFmpeg libraries in process (package trait `FFmpeg`).
        case ffmpegLibrary
        /// The `ffmpeg` command-line tool.
        case ffmpegTool
    }

    /// Backends available in this build and on this machine.
    public static var availableBackends: [Backend] {
        var backends: [Backend] = [.libsndfile]
        #if FFmpeg
        backends.append(.ffmpegLibrary)
        #endif
        if FFmpegToolDecoder.tools != nil { backends.append(.ffmpegTool) }
        return backends
    }

    static let noDecoderMessage = """
        cannot decode MPEG-4 audio (.m4a, AAC/ALAC): libsndfile has no MP4 support; install the `ffmpeg` tool \
        (Debian: apt-get install ffmpeg) or build with the FFmpeg trait (swift build --traits FFmpeg, \
        needs libavformat-dev libavcodec-dev libswresample-dev libavutil-dev)
        """

    /// True if the first bytes are an ISO base-media (MP4/M4A/MOV) file: `ftyp` at byte 4.
    public static func isMPEG4(_ header: some Collection<UInt8>) -> Bool {
        Array(header.dropFirst(4).prefix(4)) == Array("ftyp".utf8)
    }

    /// Opens `path`: MPEG-4 files with FFmpeg (library if built with the trait, else the tool),
    /// everything else with libsndfile, falling back to FFmpeg when libsndfile cannot open it.
    ///
    /// - Parameter backend: force one decoder (tests, comparisons); nil chooses as above.
    public static func open(_ path: String, backend: Backend? = nil) throws(AudioError) -> any AudioDecoder {
        if let backend { return try open(path, with: backend) }
        if isMPEG4(leadingBytes(path, count: 12)) {
            return try openWithFFmpeg(path)
        }
        do {
            return try SoundFile(reading: path)
        } catch {
            guard case .open = error.reason, availableBackends.count > 1,
                let decoder = try? openWithFFmpeg(path)
            else { throw error }
            return decoder
        }
    }

    /// Opens a file already read into memory (`path` names it in messages, and is what the
    /// `ffmpeg` tool reads when the FFmpeg libraries are not built in): the same choice of
    /// decoder as ``open(_:backend:)``, without reading the file again.
    public static func open(bytes: [UInt8], path: String) throws(AudioError) -> any AudioDecoder {
        if isMPEG4(bytes.prefix(12)) { return try openWithFFmpeg(bytes: bytes, path: path) }
        do {
            return try SoundFile(bytes: bytes, path: path)
        } catch {
            guard case .open = error.reason, availableBackends.count > 1,
                let decoder = try? openWithFFmpeg(bytes: bytes, path: path)
            else { throw error }
            return decoder
        }
    }

    private static func openWithFFmpeg(bytes: [UInt8], path: String) throws(AudioError) -> any AudioDecoder {
        #if FFmpeg
        return try FFmpegLibraryDecoder(bytes: bytes, path: path)
        #else
        return try openWithFFmpeg(path)
        #endif
    }

    /// FFmpeg opens by name: a FIFO or a device is refused before it can block or stream forever
    /// (libsndfile's path opens the descriptor itself, ``SoundFile/init(reading:)``).
    private static func requireRegularFile(_ path: String) throws(AudioError) {
        do { try RegularFile.check(path) } catch { throw AudioError(file: path, reason: .open(error.description)) }
    }

    private static func openWithFFmpeg(_ path: String) throws(AudioError) -> any AudioDecoder {
        try requireRegularFile(path)
        #if FFmpeg
        return try FFmpegLibraryDecoder(path: path)
        #else
        return try FFmpegToolDecoder(path: path)
        #endif
    }

    private static func open(_ path: String, with backend: Backend) throws(AudioError) -> any AudioDecoder {
        switch backend {
        case .libsndfile:
            return try SoundFile(reading: path)
        case .ffmpegTool:
            try requireRegularFile(path)
            return try FFmpegToolDecoder(path: path)
        case .ffmpegLibrary:
            #if FFmpeg
            try requireRegularFile(path)
            return try FFmpegLibraryDecoder(path: path)
            #else
            throw AudioError(file: path, reason: .decoderUnavailable("this build has no FFmpeg library decoder (build with --traits FFmpeg)"))
            #endif
        }
    }

    /// Up to `count` bytes from the start of the file (empty if unreadable or not a regular file).
    public static func leadingBytes(_ path: String, count: Int) -> [UInt8] {
        guard let descriptor = try? RegularFile.openForReading(path) else { return [] }
        defer { FileSystem.close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        let read = (try? FileSystem.read(descriptor, path: path, into: &bytes, at: 0)) ?? 0
        return Array(bytes.prefix(read))
    }
}
