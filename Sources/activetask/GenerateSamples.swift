import ArgumentParser
import Recording

/// `activetask generate-samples`: writes the deterministic recordings of `SampleData/`, one per
/// kind, through the toolkit's own writers. Same arguments → byte-identical files; a file of
/// other content under one of their names refuses the whole set (exit 3), nothing written.
struct GenerateSamples: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "generate-samples",
        abstract: "Write small deterministic sample recordings (one per kind) into a folder.",
        discussion: "Every file or none is written. A file already there with the same bytes is left as it is; one with other content under a sample's name refuses the set (exit 3) and nothing is written."
    ).leaf()

    @Option(name: .long, help: "Output folder (created if missing).") var out: String = "SampleData"
    @Option(name: .long, help: "Seed of the pseudo-random parts.") var seed: UInt64 = 2015

    func run() throws {
        try CommandFailure.generating { try SampleGenerator.writeSampleData(to: out, seed: seed) }
    }
}
