import ArgumentParser
import Scoring
import InputGuards
import SensorData

/// `activetask calibrate`: the offset of a calibrator recording (``CalibratorRecording``).
struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "calibrate",
        abstract: "Derive the calibration offset (dB SPL at RMS 1.0) from a calibrator recording.",
        discussion: "Measures the RMS of one channel, skipping 0.5 s at both ends when the file is at least 2 s long: offset = reference − 20·lg(RMS)."
    ).leaf()

    @Argument(help: "A recording of an acoustic calibrator.") var file: String
    @Option(name: .long, help: "The calibrator's level, dB SPL (94 = 1 Pa).") var reference: Double = 94
    @Option(name: .long, help: "Channel of the measurement microphone.") var channel: Int = 0
    @Flag(name: .long, help: "Print one JSON object.") var json = false

    func validate() throws {
        try OptionCheck.require(reference, "--reference", in: 0...400, "dB SPL")
        try OptionCheck.require(channel, "--channel", in: 0...1_023)
    }

    func run() throws {
        let measured: CalibratorRecording?
        do { measured = try CalibratorRecording(file: file, channel: channel, referenceDecibels: reference) } catch { throw CommandFailure(error) }
        guard let measured else { throw CommandFailure(.unusable, "\(FileName.display(file)): silent or empty channel \(channel)") }
        if let problem = measured.problem { throw CommandFailure(.unusable, "\(FileName.display(file)): \(problem); no offset written") }
        try print(json ? JSONWriter(indent: 2).string(measured.json) : measured.text)
    }
}
