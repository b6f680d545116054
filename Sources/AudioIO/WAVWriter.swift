internal import CSndFile

/// Writes RIFF WAV through libsndfile: 16- or 24-bit PCM or 32-bit IEEE float, any channel
/// count and rate (docs/formats.md §5.3). With `updateHeaderOnWrite` the header is rewritten after
/// every write, so a process killed between writes leaves a valid file.
public final class WAVWriter {
    /// Sample encoding of the file.
    public enum Encoding: String, Sendable, CaseIterable {
        case pcm16, pcm24, float32

        var subtype: Int32 {
            switch self {
            case .pcm16: Int32(SF_FORMAT_PCM_16)
            case .pcm24: Int32(SF_FORMAT_PCM_24)
            case .float32: Int32(SF_FORMAT_FLOAT)
            }
        }
    }

    public let path: String
    public let channels: Int
    private var handle: OpaquePointer?
    /// libsndfile's functions (loaded by the first file opened).
    private let api: atk_sndfile

    /// Creates (or truncates) `path`.
    ///
    /// The corresponding C function is `sf_open`.
    public init(
        path: String, sampleRateHz: Int, channels: Int, encoding: Encoding, updateHeaderOnWrite: Bool = false
    ) throws(AudioError) {
        let api = try LoadedLibraries.sndfile(path)
        var info = SF_INFO()
        info.samplerate = Int32(clamping: sampleRateHz)
        info.channels = Int32(clamping: channels)
        info.format = Int32(SF_FORMAT_WAV) | encoding.subtype
        guard channels > 0, sampleRateHz > 0, api.sf_format_check!(&info) != 0 else {
            throw AudioError(file: path, reason: .unsupported("cannot write WAV with \(channels) channel(s) at \(sampleRateHz) Hz as \(encoding.rawValue)"))
        }
        guard let handle = api.sf_open!(path, Int32(SFM_WRITE), &info) else {
            throw AudioError(file: path, reason: .write(api.message(nil)))
        }
        self.api = api
        self.path = path
        self.channels = channels
        self.handle = handle
        // Values outside [-1, 1] clip instead of wrapping around in PCM files.
        _ = api.sf_command!(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        if updateHeaderOnWrite {
            _ = api.sf_command!(handle, Int32(SFC_SET_UPDATE_HEADER_AUTO), nil, Int32(SF_TRUE))
        }
    }

    deinit {
        if let handle { _ = api.sf_close!(handle) }
    }

    /// Appends interleaved frames in [−1, 1].
    ///
    /// The corresponding C function is `sf_writef_float`.
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioError) {
        guard let handle else { throw AudioError(file: path, reason: .write("the file is closed")) }
        let frames = samples.count / channels
        guard frames > 0, let base = samples.baseAddress else { return }
        if api.sf_writef_float!(handle, base, sf_count_t(frames)) != sf_count_t(frames) {
            throw AudioError(file: path, reason: .write(api.message(handle)))
        }
    }

    /// Appends interleaved Double frames in [−1, 1].
    ///
    /// The corresponding C function is `sf_writef_double`.
    public func write(_ samples: UnsafeBufferPointer<Double>) throws(AudioError) {
        guard let handle else { throw AudioError(file: path, reason: .write("the file is closed")) }
        let frames = samples.count / channels
        guard frames > 0, let base = samples.baseAddress else { return }
        if api.sf_writef_double!(handle, base, sf_count_t(frames)) != sf_count_t(frames) {
            throw AudioError(file: path, reason: .write(api.message(handle)))
        }
    }

    public func write(_ samples: [Float]) throws(AudioError) {
        try samples.withUnsafeBufferPointer { buffer throws(AudioError) in try write(buffer) }
    }

    public func write(_ samples: [Double]) throws(AudioError) {
        try samples.withUnsafeBufferPointer { buffer throws(AudioError) in try write(buffer) }
    }

    /// Rewrites the header for the frames written so far and flushes.
    ///
    /// The corresponding C function is `sf_write_sync` (after `SFC_UPDATE_HEADER_NOW`).
    public func sync() {
        guard let handle else { return }
        _ = api.sf_command!(handle, Int32(SFC_UPDATE_HEADER_NOW), nil, 0)
        api.sf_write_sync!(handle)
    }

    /// Finishes the header and closes the file.
    ///
    /// The corresponding C function is `sf_close`.
    public func close() throws(AudioError) {
        guard let handle else { return }
        self.handle = nil
        if api.sf_close!(handle) != 0 {
            throw AudioError(file: path, reason: .write(api.message(nil)))
        }
    }
}
