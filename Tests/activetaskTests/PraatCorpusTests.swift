import Foundation
import Testing
import TestSupport

/// Praat parity on a corpus assembled from public tools (issue 16, point 4), by
/// `Benchmarks/peers/praat_corpus.py`: espeak-ng speech at 22.05 kHz and resampled by sox to 8,
/// 16, 44.1, 48 and 50 kHz, a sustained espeak-ng vowel, glottal-pulse vowels with jitter and
/// shimmer, with voice breaks and with creak (period doubling) at 8–48 kHz, a stereo copy, and the
/// real voice recordings of `../shared/data`; every file through `score voice` and through Praat
/// 6.1.38 (praat-parselmouth 0.4.7, in `.build/peers-venv`, made by `scripts/setup.sh`).
/// Every measure (F0, jitter, shimmer, HNR): 1e-6 relative (largest seen: F0 1.5e-8, HNR 3.3e-9).
@Suite struct PraatCorpusTests {
    @Test("every F0, jitter, shimmer, HNR, formant and CPPS measure equals Praat's to 1e-6 relative on the corpus, every MFCC statistic librosa's to 1e-6 dB", .enabled(if: Peer.praat.runs, Peer.praat.skipMessage))
    func corpus() throws {
        guard let python = Peer.praat.require() else { return }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let real = SharedData.isAvailable ? SharedData.files(in: "voice") + [SharedData.path("mpower/pdscores_phonation.m4a")] : []
        let script = SharedData.packageRoot.appendingPathComponent("Benchmarks/peers/praat_corpus.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, Run.executable.path, folder.path("corpus")] + real
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let summary = try #require(stdout.split(separator: "\n").last.flatMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }, "\(stdout.suffix(800))\(stderr.suffix(800))")
        #expect((summary["files"] as? Int ?? 0) >= 13 + real.count)
        let worst = try #require(summary["worstRelative"] as? [String: Double])
        // 13 Praat voice measures, 27 formant statistics, 5 cepstral, 120 MFCC statistics.
        #expect(worst.count == 13 + 27 + 5 + 120)
        for (measure, relative) in worst {
            #expect(relative <= 1e-6, "\(measure): \(relative) relative")
        }
    }
}
