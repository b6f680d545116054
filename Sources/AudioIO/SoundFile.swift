internal import CSndFile
import Glibc
import InputGuards

/// An audio file opened through libsndfile: every format Debian's libsndfile 1.2 reads (WAV,
/// WAVE_FORMAT_EXTENSIBLE, RF64, W64, AIFF, AU, CAF, FLAC, Ogg Vorbis/Opus, MP3, …). Reads are
/// normalised to [−1, 1] (libsndfile's default float conversion).
///
/// One owner of the `SNDFILE*`: the handle is closed in `deinit`, including on error paths.
public final class SoundFile: AudioDecoder {
    public let path: String
    public let format: AudioFormat
    public private(set) var nonFiniteSamples = 0
    /// Set when the WAV's data size was never finished and the frames present were read.
    public let unfinishedHeader: UnfinishedHeader?
    private let handle: OpaquePointer
    /// libsndfile's functions (loaded by the first file opened).
    private let api: atk_sndfile
    /// The file behind a corrected header; kept alive (and closed) with the handle.
    private let patchedFile: PatchedFile?
    /// Integer encodings (PCM, A-law, µ-law) decode to finite values by construction (an integer
    /// times libsndfile's normalisation): their blocks need no NaN/∞ scan.
    private let decodesFinite: Bool
    /// 16-bit PCM in a container whose samples libsndfile converts in pcm.c (WAV, WAVEX, RF64,
    /// W64, AIFF): read as shorts (a copy) and scaled here, which gives libsndfile's own Float and
    /// Double values (its `les2d_array`/`bes2f_array` family: sample × 2^−15, exact in both) without
    /// its per-sample conversion through a small buffer.
    private let readsShorts: Bool
    /// The shorts of one chunk of frames.
    private var shorts: [Int16] = []

    private static let virtualIO = SF_VIRTUAL_IO(
        get_filelen: { user in Unmanaged<PatchedFile>.fromOpaque(user!).takeUnretainedValue().length },
        seek: { offset, whence, user in Unmanaged<PatchedFile>.fromOpaque(user!).takeUnretainedValue().seek(offset, whence: whence) },
        read: { pointer, count, user in
            guard let pointer else { return 0 }
            return Unmanaged<PatchedFile>.fromOpaque(user!).takeUnretainedValue().read(into: pointer, count: count)
        },
        write: { _, _, _ in 0 },
        tell: { user in Unmanaged<PatchedFile>.fromOpaque(user!).takeUnretainedValue().position })

    /// Opens `path` for reading, through ``RegularFile`` (a FIFO or a device is refused, never
    /// waited on). A RIFF/WAVE file whose data size was never finished is read through a corrected
    /// header (``unfinishedHeader``); one without a single whole frame is an error.
    ///
    /// The corresponding C functions are `sf_open_fd` and, for a corrected header, `sf_open_virtual`.
    public convenience init(reading path: String) throws(AudioError) {
        let api = try LoadedLibraries.sndfile(path)
        let descriptor: Int32
        do { descriptor = try RegularFile.openForReading(path) } catch { throw AudioError(file: path, reason: .open(error.description)) }
        let unfinished: UnfinishedHeader?
        do { unfinished = try RIFFHeader.inspect(path, descriptor: descriptor) } catch {
            FileSystem.close(descriptor)
            throw error
        }
        if let unfinished {
            // libsndfile reads the file through the corrected header (virtual I/O).
            try self.init(path: path, virtual: PatchedFile(.descriptor(descriptor, path: path), patches: unfinished.patches), unfinished: unfinished)
        } else {
            var info = SF_INFO()
            guard let handle = api.sf_open_fd!(descriptor, Int32(SFM_READ), &info, 1) else {  // 1: sf_close closes the descriptor
                FileSystem.close(descriptor)
                throw AudioError(file: path, reason: .open(api.message(nil)))
            }
            try self.init(path: path, api: api, handle: handle, info: info, patchedFile: nil, unfinished: nil)
        }
    }

    /// Decodes a file already read into memory (`path` names it in messages), with the same
    /// header checks as ``init(reading:)``.
    ///
    /// The corresponding C function is `sf_open_virtual`.
    public convenience init(bytes: [UInt8], path: String) throws(AudioError) {
        let unfinished = try RIFFHeader.inspect(path, bytes: bytes)
        try self.init(path: path, virtual: PatchedFile(.bytes(bytes), patches: unfinished?.patches ?? []), unfinished: unfinished)
    }

    private convenience init(path: String, virtual file: PatchedFile, unfinished: UnfinishedHeader?) throws(AudioError) {
        let api = try LoadedLibraries.sndfile(path)
        var info = SF_INFO()
        var io = Self.virtualIO
        guard let handle = api.sf_open_virtual!(&io, Int32(SFM_READ), &info, Unmanaged.passUnretained(file).toOpaque()) else {
            throw AudioError(file: path, reason: .open(api.message(nil)))
        }
        try self.init(path: path, api: api, handle: handle, info: info, patchedFile: file, unfinished: unfinished)
    }

    private init(path: String, api: atk_sndfile, handle: OpaquePointer, info: SF_INFO, patchedFile: PatchedFile?, unfinished: UnfinishedHeader?) throws(AudioError) {
        self.path = path
        self.api = api
        self.handle = handle
        self.patchedFile = patchedFile
        self.unfinishedHeader = unfinished
        let major = Int(info.format) & Int(SF_FORMAT_TYPEMASK)
        let minor = Int(info.format) & Int(SF_FORMAT_SUBMASK)
        let integerEncodings = [SF_FORMAT_PCM_S8, SF_FORMAT_PCM_U8, SF_FORMAT_PCM_16, SF_FORMAT_PCM_24, SF_FORMAT_PCM_32, SF_FORMAT_ULAW, SF_FORMAT_ALAW]
        decodesFinite = integerEncodings.map { Int($0) }.contains(minor)
        let pcmContainers = [SF_FORMAT_WAV, SF_FORMAT_WAVEX, SF_FORMAT_RF64, SF_FORMAT_W64, SF_FORMAT_AIFF]
        readsShorts = minor == Int(SF_FORMAT_PCM_16) && pcmContainers.map { Int($0) }.contains(major)
        do {
            format = try AudioFormat(
                sampleRateHz: Double(info.samplerate), channels: Int(info.channels), frames: Int64(info.frames),
                container: Self.formatName(api, major, command: SFC_GET_FORMAT_MAJOR_COUNT, SFC_GET_FORMAT_MAJOR),
                encoding: Self.formatName(api, minor, command: SFC_GET_FORMAT_SUBTYPE_COUNT, SFC_GET_FORMAT_SUBTYPE)
            ).validated(file: path)
        } catch {
            _ = api.sf_close!(handle)
            throw error
        }
    }

    deinit {
        _ = api.sf_close!(handle)
    }

    /// The corresponding C function is `sf_readf_float`.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int {
        if readsShorts { return try readScaledShorts(into: buffer) }
        return try read(into: buffer, { api.sf_readf_float!(handle, $0, $1) }, zeroingNonFinite: NonFiniteSamples.zero)
    }

    /// Reads interleaved Double frames; returns the number of frames read.
    ///
    /// The corresponding C function is `sf_readf_double`.
    public func read(into buffer: UnsafeMutableBufferPointer<Double>) throws(AudioError) -> Int {
        if readsShorts { return try readScaledShorts(into: buffer) }
        return try read(into: buffer, { api.sf_readf_double!(handle, $0, $1) }, zeroingNonFinite: NonFiniteSamples.zero)
    }

    /// One read of as many whole frames as `buffer` holds through `readFrames` (libsndfile's
    /// Float or Double conversion), non-finite samples of float encodings zeroed and counted.
    private func read<T: BinaryFloatingPoint>(into buffer: UnsafeMutableBufferPointer<T>,
                                              _ readFrames: (UnsafeMutablePointer<T>, sf_count_t) -> sf_count_t,
                                              zeroingNonFinite: (UnsafeMutableBufferPointer<T>, Int) -> Int) throws(AudioError) -> Int {
        let frames = buffer.count / format.channels
        guard frames > 0, let base = buffer.baseAddress else { return 0 }
        let count = try framesRead(readFrames(base, sf_count_t(frames)), asked: frames)
        if !decodesFinite { nonFiniteSamples += zeroingNonFinite(buffer, count * format.channels) }
        return count
    }

    /// The frame count an `sf_readf_…` call asked for `asked` frames returned: an error when
    /// libsndfile reports one, else at most `asked` (what libsndfile promises, so that no count
    /// it returns can reach past the buffer).
    private func framesRead(_ count: sf_count_t, asked: Int) throws(AudioError) -> Int {
        if count < 0 || (count == 0 && api.sf_error!(handle) != 0) {
            throw AudioError(file: path, reason: .decode(api.message(handle)))
        }
        return Int(min(count, sf_count_t(asked)))
    }

    /// 16-bit PCM through `sf_readf_short`, in chunks of at most 128 KB of shorts, each scaled by
    /// 2^−15 into `buffer` (finite by construction: no NaN scan).
    private func readScaledShorts<T: BinaryFloatingPoint>(into buffer: UnsafeMutableBufferPointer<T>) throws(AudioError) -> Int {
        let channels = format.channels, frames = buffer.count / channels
        guard frames > 0, let base = buffer.baseAddress else { return 0 }
        let chunk = max(1, 65_536 / channels)
        // Not zeroed: only the frames libsndfile returns are read back.
        if shorts.count < chunk * channels { shorts = [Int16](unsafeUninitializedCapacity: chunk * channels) { $1 = chunk * channels } }
        let scale = 1 / T(32_768)
        var done = 0
        while done < frames {
            let wanted = min(frames - done, chunk)
            let count = shorts.withUnsafeMutableBufferPointer { api.sf_readf_short!(handle, $0.baseAddress, sf_count_t(wanted)) }
            let got = try framesRead(count, asked: wanted)
            let out = base + done * channels
            shorts.withUnsafeBufferPointer { samples in
                for i in 0..<(got * channels) { out[i] = T(samples[i]) * scale }
            }
            done += got
            if got < wanted { break }
        }
        return done
    }

    /// Moves to `frame` from the start.
    ///
    /// The corresponding C function is `sf_seek`.
    public func seek(toFrame frame: Int64) throws(AudioError) {
        if api.sf_seek!(handle, sf_count_t(frame), SEEK_SET) < 0 {
            throw AudioError(file: path, reason: .decode(api.message(handle)))
        }
    }

    /// libsndfile's name of a major or minor format code, e.g. "WAV (Microsoft)" → "WAV".
    private static func formatName(_ api: atk_sndfile, _ code: Int, command countCommand: Int, _ infoCommand: Int) -> String {
        var count: Int32 = 0
        _ = api.sf_command!(nil, Int32(countCommand), &count, Int32(MemoryLayout<Int32>.size))
        for index in 0..<count {
            var info = SF_FORMAT_INFO()
            info.format = index
            _ = api.sf_command!(nil, Int32(infoCommand), &info, Int32(MemoryLayout<SF_FORMAT_INFO>.size))
            if Int(info.format) == code, let name = info.name {
                return String(cString: name)
            }
        }
        return String(code, radix: 16)
    }
}
