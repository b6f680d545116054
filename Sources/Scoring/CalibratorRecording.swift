import Analysis
import AudioIO
import Foundation
import InputGuards
import SensorData

/// `activetask calibrate`: the calibration offset (dB SPL at RMS 1.0) from a recording of an
/// acoustic calibrator (docs/analyses.md §3.5), as ``CalibrationFile`` reads it back.
public struct CalibratorRecording: Sendable {
    /// The recording, as given.
    public var file: String
    /// The channel measured, 0-based.
    public var channel: Int
    /// The calibrator's level, dB SPL.
    public var referenceDecibels: Double
    /// The channel's RMS level, dBFS (0.5 s skipped at both ends of recordings of 2 s or more).
    public var levelDbfs: Double
    /// reference − level: dB SPL at an RMS of 1.0.
    public var calibrationOffsetDecibels: Double

    /// Why the recording is no calibrator's tone (``CalibratorLevel/problem(reference:)``): its
    /// offset is then no measurement (nil: it is one).
    public var problem: String?

    /// Measures `channel` of `file` streamed block by block; nil when it is silent or empty.
    public init?(file: String, channel: Int, referenceDecibels: Double) throws(ScoringError) {
        let decoder: any AudioDecoder
        do { decoder = try AudioInput.open(file) } catch { throw .input(error) }
        var meter = CalibratorLevel(sampleRateHz: decoder.format.sampleRateHz)
        try AudioScoring.stream(decoder, file: file, channel: channel) { meter.process($0) }
        guard let level = meter.levelDbfs, let offset = meter.offsetDecibels(reference: referenceDecibels) else { return nil }
        problem = meter.problem(reference: referenceDecibels)
        (self.file, self.channel, self.referenceDecibels, levelDbfs, calibrationOffsetDecibels) = (file, channel, referenceDecibels, level, offset)
    }

    /// As `calibrate --json` prints it (the file ``CalibrationFile`` reads).
    public var json: JSONValue {
        .object(JSONObject([
            "kind": .string("calibration"), "file": .string(file), "referenceDecibels": .number(referenceDecibels),
            "levelDbfs": .number(levelDbfs), "calibrationOffsetDecibels": .number(calibrationOffsetDecibels),
        ]))
    }

    /// As `calibrate` prints it.
    public var text: String {
        String(format: "%@\n  level      %.3f dBFS (RMS, channel %d)\n  reference  %.2f dB SPL\n  offset     %.3f dB SPL at RMS 1.0", file as NSString, levelDbfs, channel,
               referenceDecibels, calibrationOffsetDecibels)
    }
}
