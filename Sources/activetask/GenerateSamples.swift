import ArgumentParser
import Recording

/// `activetask generate-samples`: writes the deterministic recordings of `SampleData/`, one per
/// kind, through the toolkit's own writers. Same arguments → byte-identical files.
struct GenerateSamples: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "generate-samples",
        abstract: "Write small deterministic sample recordings (one per kind) into a folder."
    ).leaf()

    @Option(name: .long, help: "Output folder (created if missing).") var out: String = "SampleData"
    @Option(name: .long, help: "Seed of the pseudo-random parts.") var seed: UInt64 = 2015

    func run() throws { try SampleGenerator.writeSampleData(to: out, seed: seed) }
}
