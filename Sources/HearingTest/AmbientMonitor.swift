import Analysis
import InputGuards
import AudioIO
import Foundation
import Glibc
import SignalProcessing

/// The room's noise in the one-third-octave bands of ISO 8253-1 (31.5 Hz – 8 kHz, IEC 61260-1
/// filters, ``FractionalOctaveBands``) from a microphone, against the maximum permissible ambient
/// levels (``AmbientNoiseLimits``): once before the test (``measure(seconds:)``), then second by
/// second while it runs (``start()``, ``latest``). Levels are dB SPL through the microphone's
/// calibration offset (dB SPL at an RMS of 1.0).
///
/// A device that delivers faster than real time (a file) is read at real time: the monitor is
/// at most 0.25 s ahead of the clock.
public final class AmbientMonitor: @unchecked Sendable {
    /// One measurement: band levels (dB SPL by nominal band, Hz) and the bands over their limits.
    public struct Reading: Sendable {
        public var levels: [Double: Double]
        public var exceedances: [AmbientNoiseLimits.Exceedance]
        public var seconds: Double
    }

    public let device: String
    public let offsetDecibels: Double
    public let limits: [Double]
    private let pcm: AlsaPCM
    private let rate: Double
    private let channels: Int
    private var bands: FractionalOctaveBands
    private let state = Locked<(reading: Reading?, count: Int, failure: String?, stop: Bool, lastSeconds: Double)>((nil, 0, nil, false, 0))
    private let finished = DispatchSemaphore(value: 0)
    private var running = false
    private var framesRead = 0
    private var startTime = 0.0

    /// Opens capture device `device` (mono float at `sampleRateHz`, or what it gives).
    public init(device: String, sampleRateHz: Int, offsetDecibels: Double, limits: [Double]) throws(AudioError) {
        pcm = try AlsaPCM(device: device, direction: .capture, format: .float, sampleRateHz: sampleRateHz, channels: 1)
        rate = Double(pcm.negotiated.sampleRateHz)
        channels = pcm.negotiated.channels
        guard let bank = FractionalOctaveBands(bandsPerOctave: 3, nominalRangeHz: 31.5...8_000, sampleRateHz: rate),
              bank.bands.count == AmbientNoiseLimits.bandsHz.count else {
            throw AudioError(file: "alsa:" + device, reason: .device("\(pcm.negotiated.sampleRateHz) Hz cannot hold the 8-kHz band (at least 17.8 kHz is needed)"))
        }
        bands = bank
        self.device = device
        self.offsetDecibels = offsetDecibels
        self.limits = limits
    }

    /// Reads `seconds` (after 0.5 s that settles the filters) and judges them.
    public func measure(seconds: Double) throws(AudioError) -> Reading {
        if startTime == 0 { startTime = SystemClock.monotonic() }
        _ = try read(seconds: 0.5)
        return try read(seconds: seconds)
    }

    /// How long the running monitor may go without a whole second's reading before its
    /// microphone is taken as failed (a device that stopped delivering), s.
    public static let staleSeconds = 3.0

    /// Starts measuring second after second on a thread of its own.
    public func start() {
        guard !running else { return }
        running = true
        state.withLock { $0.lastSeconds = SystemClock.monotonic() }
        let thread = Thread { [self] in
            defer { finished.signal() }
            while !state.withLock({ $0.stop }) {
                do throws(AudioError) {
                    let reading = try read(seconds: 1)
                    state.withLock {
                        $0.reading = reading
                        $0.count += 1
                        $0.lastSeconds = SystemClock.monotonic()
                    }
                } catch {
                    state.withLock { $0.failure = error.description }
                    return
                }
            }
        }
        thread.name = "ambient noise"
        thread.start()
    }

    /// The last whole second's reading and how many there have been; the failure that ended the
    /// monitor, if one did, or a microphone silent for more than ``staleSeconds``.
    public var latest: (reading: Reading?, count: Int, failure: String?) {
        let now = SystemClock.monotonic()
        return state.withLock { state in
            let silent = now - state.lastSeconds
            let stale = running && state.failure == nil && silent > Self.staleSeconds
            return (state.reading, state.count,
                    stale ? "no whole second of sound for \(String(format: "%.1f", silent)) s (the device stopped delivering)" : state.failure)
        }
    }

    /// Stops the thread (within one second's read); a read that blocks for good is left to the
    /// process's end after two seconds.
    public func stop() {
        guard running else { return }
        state.withLock { $0.stop = true }
        _ = finished.wait(timeout: .now() + 2)
        running = false
    }

    /// Mean squares per band over the next `seconds`, as a reading.
    private func read(seconds: Double) throws(AudioError) -> Reading {
        // seconds: 0.5–600 from the options or 1; rate: the device's, an Int.
        let wanted = Int(clamping: seconds * rate, to: 1...Int(Int32.max))
        let block = Int(clamping: rate / 20, to: 1...Int(Int32.max))
        var sums = [Double](repeating: 0, count: bands.bands.count)
        var got = 0
        var silent = true
        while got < wanted {
            let ahead = Double(framesRead) / rate - (SystemClock.monotonic() - startTime)
            if ahead > 0.25 { usleep(useconds_t(min(ahead - 0.2, 1) * 1e6)) }
            let samples = try pcm.read(maximumFrames: min(block, wanted - got))
            let frames = samples.count / channels
            guard frames > 0 else {
                throw AudioError(file: "alsa:" + device, reason: .device("the microphone delivered no more sound (its end) after \(framesRead) frames"))
            }
            let mono = (0..<frames).map { Double(samples[$0 * channels]) }
            silent = silent && mono.allSatisfy { $0 == 0 }
            for (i, ms) in bands.meanSquares(mono).enumerated() { sums[i] += ms * Double(frames) }
            got += frames
            framesRead += frames
        }
        // No microphone delivers exact zeros for a reading: it is muted, unplugged or at its end
        // (a file PCM pads with silence), and a room read as -∞ dB would pass any limit.
        guard !silent else {
            throw AudioError(file: "alsa:" + device, reason: .device(
                "the microphone delivered only zeros for \(String(format: "%.1f", Double(got) / rate)) s: muted, unplugged or at its end; the room cannot be checked"))
        }
        var levels: [Double: Double] = [:]
        for (band, sum) in zip(bands.bands, sums) { levels[band.nominalHz] = 10 * log10(sum / Double(got)) + offsetDecibels }
        return Reading(levels: levels, exceedances: AmbientNoiseLimits.exceedances(levels: levels, limits: limits), seconds: Double(got) / rate)
    }
}

extension AmbientNoiseLimits.Exceedance {
    /// "250 Hz band 37.0 dB SPL > 19 dB".
    public var description: String {
        "\(bandHz.compactDescription) Hz band \((levelDecibels * 10).rounded() / 10) dB SPL > \(limitDecibels.compactDescription) dB"
    }
}
