import ArgumentParser
import AudioIO
import Recording
import Foundation
import InputGuards
import SensorData

/// `activetask generate-samples`: writes the deterministic recordings of `SampleData/`, one per
/// kind, through the toolkit's own writers. Same arguments → byte-identical files.
struct GenerateSamples: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-samples",
        abstract: "Write small deterministic sample recordings (one per kind) into a folder."
    )

    @Option(name: .long, help: "Output folder (created if missing).") var out: String = "SampleData"
    @Option(name: .long, help: "Seed of the pseudo-random parts.") var seed: UInt64 = 2015

    func run() throws {
        try FileSystem.makeDirectories(out)
        var generator = SampleGenerator(seed: seed)
        for (name, bytes) in try generator.jsonFiles() {
            let file = try OutputFile((out as NSString).appendingPathComponent(name), inputs: [])
            try file.write(bytes)
            try file.commit()
        }
        try generator.writeVoice(to: (out as NSString).appendingPathComponent("voice_aaah.wav"))
    }
}
