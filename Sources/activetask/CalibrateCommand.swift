import Analysis
import ArgumentParser
import AudioIO
import Batch
import Scoring
import InputGuards
import Foundation
import SensorData

/// Opens an audio file for a command: errors become exit status 3 with the one-line message.
func openAudio(_ file: String) throws -> any AudioDecoder {
    do { return try AudioInput.open(file) } catch { throw failure(.input(error)) }
}

/// Streams one channel of `decoder` through `body`, block by block.
func streamChannel(_ decoder: any AudioDecoder, file: String, channel: Int, _ body: ([Double]) -> Void) throws {
    do { try AudioScoring.stream(decoder, file: file, channel: channel, body) } catch { throw failure(error) }
}

struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Derive the calibration offset (dB SPL at RMS 1.0) from a calibrator recording.",
        discussion: "Measures the RMS of one channel, skipping 0.5 s at both ends when the file is at least 2 s long: offset = reference − 20·lg(RMS)."
    )

    @Argument(help: "A recording of an acoustic calibrator.")
    var file: String

    @Option(name: .long, help: "The calibrator's level, dB SPL (94 = 1 Pa).")
    var reference: Double = 94

    @Option(name: .long, help: "Channel of the measurement microphone.")
    var channel: Int = 0

    @Flag(name: .long, help: "Print one JSON object.")
    var json = false

    func validate() throws {
        try OptionCheck.require(reference, "--reference", in: 0...400, "dB SPL")
        try OptionCheck.require(channel, "--channel", in: 0...1_023)
    }

    func run() throws {
        let decoder = try openAudio(file)
        var meter = CalibratorLevel(sampleRateHz: decoder.format.sampleRateHz)
        try streamChannel(decoder, file: file, channel: channel) { meter.process($0) }
        guard let levelDbfs = meter.levelDbfs, let offset = meter.offsetDecibels(reference: reference) else {
            throw CommandFailure(.unusable, "\(FileName.display(file)): silent or empty channel \(channel)")
        }
        if json {
            try print(JSONWriter(indent: 2).string(.object(JSONObject([
                "kind": .string("calibration"), "file": .string(file), "referenceDecibels": .number(reference),
                "levelDbfs": .number(levelDbfs), "calibrationOffsetDecibels": .number(offset),
            ]))))
        } else {
            try print(String(format: "%@\n  level      %.3f dBFS (RMS, channel %d)\n  reference  %.2f dB SPL\n  offset     %.3f dB SPL at RMS 1.0", file as NSString, levelDbfs, channel, reference, offset))
        }
    }
}

