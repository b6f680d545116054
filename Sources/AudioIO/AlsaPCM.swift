import Glibc
import InputGuards
internal import CAlsa

/// A PCM device through libasound (ALSA): capture or playback of interleaved frames, in the
/// format, rate and channels asked for where the device has them, else the nearest it gives
/// (``Negotiated`` says what it gave). Capture overruns and playback underruns (xruns) are
/// recovered with `snd_pcm_recover`, counted, and the time they lost estimated from the
/// monotonic clock (``xruns``, ``lostSeconds``).
///
/// Samples cross this type as Float in [−1, 1]; the device's integers are scaled by 2⁻¹⁵ or 2⁻³¹
/// (and back, clipped and rounded to nearest).
public final class AlsaPCM {
    public enum Direction: Sendable {
        case capture, playback
    }

    /// The device's samples: what a frame holds in its buffer.
    public typealias SampleFormat = PCMSamples.Format

    /// What the device agreed to.
    public struct Negotiated: Sendable, Equatable {
        public var format: SampleFormat
        public var sampleRateHz: Int
        public var channels: Int
        public var periodFrames: Int
        public var bufferFrames: Int
    }

    public let device: String
    public let direction: Direction
    public let negotiated: Negotiated
    /// Overruns (capture) or underruns (playback) recovered so far.
    public private(set) var xruns = 0
    /// The time those xruns lost, s: the monotonic clock's time since the first transfer less
    /// the frames transferred, measured at each recovery (an estimate: ALSA does not count the
    /// frames an xrun drops).
    public private(set) var lostSeconds = 0.0
    /// libasound's functions (loaded by the first device opened or listed).
    private let api: atk_alsa
    private var pcm: OpaquePointer?
    private var bytes: [UInt8] = []
    private var framesTransferred = 0
    private var started: Double?

    /// Opens `device` (an ALSA PCM name: `default`, `hw:1,0`, `plughw:CARD=USB`, a name from an
    /// asoundrc) for `direction` and negotiates `format`, `sampleRateHz` and `channels`: the
    /// format falls back to the others the device takes (FLOAT_LE, S32_LE, S16_LE), the rate and
    /// channels to the nearest. Periods of about 25 ms, a buffer of about 200 ms.
    ///
    /// The corresponding C functions are `snd_pcm_open`, `snd_pcm_hw_params_set_format`,
    /// `snd_pcm_hw_params_set_rate_near`, `snd_pcm_hw_params_set_channels_near`,
    /// `snd_pcm_hw_params_set_period_time_near` and `snd_pcm_hw_params_set_buffer_time_near`.
    public init(device: String, direction: Direction, format: SampleFormat, sampleRateHz: Int, channels: Int) throws(AudioError) {
        self.device = device
        self.direction = direction
        let name = "alsa:" + device
        guard (1...384_000).contains(sampleRateHz), (1...64).contains(channels) else {
            throw AudioError(file: name, reason: .unsupported("\(sampleRateHz) Hz, \(channels) channel(s): rates 1–384000 Hz and 1–64 channels"))
        }
        let api = try LoadedLibraries.alsa(name)
        self.api = api
        var handle: OpaquePointer?
        var status = api.snd_pcm_open!(&handle, device, direction == .capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK, 0)
        guard status >= 0, let handle else { throw AudioError(file: name, reason: .open(Self.message(api, status))) }
        pcm = handle
        var hw: OpaquePointer?
        guard api.snd_pcm_hw_params_malloc!(&hw) >= 0, let hw else { throw AudioError(file: name, reason: .open("out of memory")) }
        defer { api.snd_pcm_hw_params_free!(hw) }
        func check(_ status: Int32, _ what: String) throws(AudioError) {
            guard status >= 0 else { throw AudioError(file: name, reason: .open("\(what): \(Self.message(api, status))")) }
        }
        try check(api.snd_pcm_hw_params_any!(handle, hw), "no configuration")
        try check(api.snd_pcm_hw_params_set_access!(handle, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "interleaved access")
        let formats = [format] + SampleFormat.allCases.reversed().filter { $0 != format }
        guard let chosen = formats.first(where: { api.snd_pcm_hw_params_test_format!(handle, hw, Self.alsa($0)) == 0 }) else {
            throw AudioError(file: name, reason: .unsupported("the device takes none of \(formats.map(\.rawValue).joined(separator: ", "))"))
        }
        try check(api.snd_pcm_hw_params_set_format!(handle, hw, Self.alsa(chosen)), "format \(chosen.rawValue)")
        var channelCount = UInt32(channels)
        try check(api.snd_pcm_hw_params_set_channels_near!(handle, hw, &channelCount), "\(channels) channel(s)")
        var rate = UInt32(sampleRateHz)
        var direction: Int32 = 0
        try check(api.snd_pcm_hw_params_set_rate_near!(handle, hw, &rate, &direction), "\(sampleRateHz) Hz")
        var periodMicroseconds: UInt32 = 25_000, bufferMicroseconds: UInt32 = 200_000
        direction = 0
        try check(api.snd_pcm_hw_params_set_buffer_time_near!(handle, hw, &bufferMicroseconds, &direction), "a buffer of 200 ms")
        direction = 0
        try check(api.snd_pcm_hw_params_set_period_time_near!(handle, hw, &periodMicroseconds, &direction), "periods of 25 ms")
        try check(api.snd_pcm_hw_params!(handle, hw), "the hardware parameters")
        var period = snd_pcm_uframes_t(0), buffer = snd_pcm_uframes_t(0)
        direction = 0
        try check(api.snd_pcm_hw_params_get_period_size!(hw, &period, &direction), "the period size")
        try check(api.snd_pcm_hw_params_get_buffer_size!(hw, &buffer), "the buffer size")
        negotiated = Negotiated(format: chosen, sampleRateHz: Int(rate), channels: Int(channelCount),
                                periodFrames: Int(clamping: period), bufferFrames: Int(clamping: buffer))
        status = api.snd_pcm_prepare!(handle)
        try check(status, "prepare")
    }

    deinit {
        if let pcm { _ = api.snd_pcm_close!(pcm) }
    }

    /// What differs from what was asked, one phrase per setting ("48000 Hz instead of 44100 Hz");
    /// empty when the device gave everything.
    public func differences(format: SampleFormat, sampleRateHz: Int, channels: Int) -> [String] {
        var said: [String] = []
        if negotiated.format != format { said.append("\(negotiated.format.rawValue) instead of \(format.rawValue)") }
        if negotiated.sampleRateHz != sampleRateHz { said.append("\(negotiated.sampleRateHz) Hz instead of \(sampleRateHz) Hz") }
        if negotiated.channels != channels { said.append("\(negotiated.channels) channel(s) instead of \(channels)") }
        return said
    }

    /// Up to `maximumFrames` captured frames, interleaved (waiting for them as the device
    /// delivers); empty when the device returns no frame.
    ///
    /// The corresponding C functions are `snd_pcm_readi` and `snd_pcm_recover`.
    public func read(maximumFrames: Int) throws(AudioError) -> [Float] {
        precondition(direction == .capture, "read on a playback PCM")
        let frames = min(max(maximumFrames, 1), negotiated.bufferFrames)
        let frameBytes = negotiated.channels * negotiated.format.bytes
        if bytes.count < frames * frameBytes { bytes = [UInt8](repeating: 0, count: frames * frameBytes) }
        if started == nil { started = SystemClock.monotonic() }
        // A device that fails again at once after every recovery would hold this loop forever.
        for _ in 0..<Self.recoveriesPerTransfer {
            let got = bytes.withUnsafeMutableBytes { api.snd_pcm_readi!(pcm, $0.baseAddress, snd_pcm_uframes_t(frames)) }
            if got >= 0 {
                framesTransferred += got
                return bytes.withUnsafeBytes { PCMSamples.samples($0, count: got * negotiated.channels, format: negotiated.format) }
            }
            try recover(Int32(clamping: got))
        }
        throw AudioError(file: "alsa:" + device, reason: .device("capture stopped: the device failed \(Self.recoveriesPerTransfer) times in a row, each recovery in vain"))
    }

    /// Plays interleaved frames in [−1, 1] (clipped), waiting while the buffer is full.
    ///
    /// The corresponding C functions are `snd_pcm_writei` and `snd_pcm_recover`.
    public func write(_ samples: [Float]) throws(AudioError) {
        precondition(direction == .playback, "write on a capture PCM")
        let channels = negotiated.channels
        guard samples.count % channels == 0 else {
            throw AudioError(file: "alsa:" + device, reason: .write("\(samples.count) samples are not whole frames of \(channels) channels"))
        }
        let data = PCMSamples.bytes(samples, format: negotiated.format)
        let frameBytes = channels * negotiated.format.bytes
        if started == nil { started = SystemClock.monotonic() }
        var offset = 0
        var failures = 0
        while offset < data.count {
            let left = (data.count - offset) / frameBytes
            let put = data.withUnsafeBytes { api.snd_pcm_writei!(pcm, $0.baseAddress! + offset, snd_pcm_uframes_t(left)) }
            if put > 0 {
                offset += put * frameBytes
                framesTransferred += put
                failures = 0
                continue
            }
            failures += 1
            guard failures <= Self.recoveriesPerTransfer else {
                throw AudioError(file: "alsa:" + device, reason: .device("playback stopped: the device took nothing \(Self.recoveriesPerTransfer) times in a row"))
            }
            if put < 0 { try recover(Int32(clamping: put)) }
        }
    }

    /// Plays what is buffered to its end (playback), then stops the device.
    ///
    /// The corresponding C function is `snd_pcm_drain`.
    public func drain() throws(AudioError) {
        let status = api.snd_pcm_drain!(pcm)
        guard status >= 0 else { throw AudioError(file: "alsa:" + device, reason: .write(Self.message(api, status))) }
    }

    /// Ends a burst of playback and readies the device for the next: what is buffered plays to its
    /// end (a device that already ran dry has nothing left), then the stream is prepared again.
    ///
    /// The corresponding C functions are `snd_pcm_drain` and `snd_pcm_prepare`.
    public func finishBurst() throws(AudioError) {
        let drained = api.snd_pcm_drain!(pcm)
        guard drained >= 0 || drained == -EPIPE || drained == -EBADFD else {
            throw AudioError(file: "alsa:" + device, reason: .write(Self.message(api, drained)))
        }
        let prepared = api.snd_pcm_prepare!(pcm)
        guard prepared >= 0 else { throw AudioError(file: "alsa:" + device, reason: .device("cannot prepare the device again: \(Self.message(api, prepared))")) }
    }

    /// An xrun or a suspend recovered (counted, its lost time added), or the error thrown.
    /// Recoveries one read or write may make before the device is taken as broken.
    static let recoveriesPerTransfer = 64

    private func recover(_ error: Int32) throws(AudioError) {
        let recovered = api.snd_pcm_recover!(pcm, error, 1)
        guard recovered >= 0 else {
            throw AudioError(file: "alsa:" + device, reason: .device(
                "\(direction == .capture ? "capture" : "playback") stopped: \(Self.message(api, error)) (recovery: \(Self.message(api, recovered)))"))
        }
        guard error == -EPIPE else { return }
        xruns += 1
        if let started {
            let expected = (SystemClock.monotonic() - started) * Double(negotiated.sampleRateHz)
            lostSeconds = max(lostSeconds, (expected - Double(framesTransferred)) / Double(negotiated.sampleRateHz))
        }
    }

    /// The PCM devices libasound knows for `direction` (its name hints): name and description;
    /// throws when libasound cannot be loaded.
    ///
    /// The corresponding C functions are `snd_device_name_hint` and `snd_device_name_get_hint`.
    public static func devices(_ direction: Direction) throws(AudioError) -> [(name: String, description: String)] {
        let api = try LoadedLibraries.alsa("alsa:")
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard api.snd_device_name_hint!(-1, "pcm", &hints) >= 0, let hints else { return [] }
        defer { _ = api.snd_device_name_free_hint!(hints) }
        func text(_ hint: UnsafeMutableRawPointer, _ id: String) -> String? {
            guard let value = api.snd_device_name_get_hint!(hint, id) else { return nil }
            defer { free(value) }
            return String(cString: value)
        }
        var found: [(String, String)] = []
        var index = 0
        // The list ends with a null pointer; 65,536 entries bound a corrupt one.
        while index < 65_536, let hint = hints[index] {
            index += 1
            guard let name = text(hint, "NAME") else { continue }
            // IOID absent: both directions.
            if let io = text(hint, "IOID"), io != (direction == .capture ? "Input" : "Output") { continue }
            found.append((name, (text(hint, "DESC") ?? "").split(separator: "\n").joined(separator: " — ")))
        }
        return found
    }

    private static func alsa(_ format: SampleFormat) -> snd_pcm_format_t {
        switch format {
        case .s16: SND_PCM_FORMAT_S16_LE
        case .s32: SND_PCM_FORMAT_S32_LE
        case .float: SND_PCM_FORMAT_FLOAT_LE
        }
    }

    private static func message(_ api: atk_alsa, _ status: some BinaryInteger) -> String {
        api.snd_strerror!(Int32(clamping: status)).map { String(cString: $0) } ?? "error \(status)"
    }
}
