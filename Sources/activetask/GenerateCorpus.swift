import ArgumentParser
import Foundation
import Recording

/// `activetask generate-corpus`: N mPower-like task runs for batch benchmarks and tests.
struct GenerateCorpus: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "generate-corpus",
        abstract: "Write N deterministic mPower-like task runs: tapping, walking (accelerometer, device motion, pedometer), 10-s voice, SPL and dB HL audiometry.",
        discussion: """
            Run i goes to OUT/run-NNNNN/ as unpacked AppCore uploads — tapping/ and walking/ and voice/ with an info.json \
            manifest (docs/formats.md §8.1) — plus an ORKEnvironmentSPLMeterResult and an ORKdBHLToneAudiometryResult. Each run has \
            its own seed, cadence (90–130 steps/min) and voice F0 (100–220 Hz), so every file's content differs. The voice \
            is a 44.1-kHz 16-bit WAV (mPower uploaded ALAC .m4a, which no Debian encoder writes). Each run's files are \
            written all or none; a file already there with the same bytes is left as it is, one with other content refuses \
            its run (exit 3), the runs before it written.
            """
    ).leaf()

    @Option(name: .long, help: "Number of task runs.") var runs: Int
    @Option(name: .long, help: "Output folder (created if missing).") var out: String
    @Option(name: .long, help: "Seed of the first run.") var seed: UInt64 = 1

    func validate() throws {
        try OptionCheck.require(runs, "--runs", in: 1...1_000_000)
    }

    func run() throws {
        try CommandFailure.generating { try Corpus.write(runs: runs, to: out, seed: seed) }
    }
}
