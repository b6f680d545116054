import AudioIO
import InputGuards
import Foundation
import Glibc

/// Records audio blocks into a streaming WAV file (docs/formats.md §5.3) through libsndfile with the
/// header rewritten on every write, so a killed process leaves a playable file with every block
/// written. Keeps a live level meter (peak and RMS of the last block and of the whole recording).
public final class AudioRecorder {
    public let configuration: RecorderConfiguration
    public let sampleRateHz: Int
    public let channels: Int
    public private(set) var frames = 0
    /// Last block: peak |x| and RMS in dBFS (sine peak = 0 dBFS for the peak; RMS re full scale).
    public private(set) var lastBlockPeakDbfs = -Double.infinity
    public private(set) var lastBlockRMSDbfs = -Double.infinity
    /// Whole recording so far.
    public private(set) var peakDbfs = -Double.infinity
    public var rmsDbfs: Double { frames == 0 ? -.infinity : 10 * log10(sumOfSquares / Double(frames * channels)) }

    private let writer: WAVWriter
    private let location: RecorderLocation
    private let fileName: String
    private let clock: @Sendable () -> Double
    private let start: Double
    private var sumOfSquares = 0.0

    public init(_ configuration: RecorderConfiguration, outputDirectory: String, uuid: String = UUID().uuidString,
                clock: @escaping @Sendable () -> Double = SystemClock.wall) throws(RecordingError) {
        guard case .audio(let rate, let channels, let encoding) = configuration.kind else {
            throw RecordingError(file: outputDirectory, reason: .sample("\(configuration.identifier) is not an audio recorder"))
        }
        self.configuration = configuration
        self.sampleRateHz = rate
        self.channels = channels
        self.clock = clock
        location = try RecorderLocation(outputDirectory: outputDirectory, uuid: uuid)
        fileName = "streamingAudio_\(uuid).wav"
        do {
            writer = try WAVWriter(path: location.folder + "/" + fileName, sampleRateHz: rate, channels: channels, encoding: encoding,
                                   updateHeaderOnWrite: true)
        } catch {
            throw RecordingError(file: location.folder + "/" + fileName, reason: .sample(error.description))
        }
        start = clock()
    }

    public var path: String { writer.path }

    /// Appends interleaved frames in [−1, 1] and updates the meter.
    public func write(_ samples: [Float]) throws(RecordingError) {
        guard samples.count % channels == 0 else {
            throw RecordingError(file: path, reason: .sample("\(samples.count) samples are not whole frames of \(channels) channels"))
        }
        guard !samples.isEmpty else { return }
        var peak: Float = 0
        var squares = 0.0
        for x in samples {
            peak = max(peak, abs(x))
            squares += Double(x) * Double(x)
        }
        do { try writer.write(samples) } catch { throw RecordingError(file: path, reason: .sample(error.description)) }
        frames += samples.count / channels
        sumOfSquares += squares
        lastBlockPeakDbfs = 20 * log10(Double(peak))
        lastBlockRMSDbfs = 10 * log10(squares / Double(samples.count))
        peakDbfs = max(peakDbfs, lastBlockPeakDbfs)
    }

    /// Closes the file; the file result has no content type, as ResearchKit's streaming audio.
    public func stop() throws(RecordingError) -> FileResult {
        do { try writer.close() } catch { throw RecordingError(file: path, reason: .sample(error.description)) }
        return FileResult(identifier: configuration.identifier, contentType: "audio/wav", fileName: location.relativeFolder + "/" + fileName,
                          startSeconds: start, endSeconds: clock(), userInfo: [:])
    }
}
