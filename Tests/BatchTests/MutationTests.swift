import AudioIO
import Foundation
import SensorData
import Testing
import TestSupport
@testable import Batch
@testable import Scoring

/// Every real file of `mpower`, `voice`, `spl` and `researchkit/fixtures`, mutated 1,000 ways
/// (truncations, byte flips, inserted and deleted bytes) and described as `activetask info`
/// would: each mutant must give a description or a typed error with a one-line message — any
/// crash kills the test process.
@Suite(.enabled(if: SharedData.runs, SharedData.skipMessage))
struct MutationTests {
    static let mutationsPerFile = 1000

    static var files: [String] {
        ["mpower", "voice", "spl", "researchkit/fixtures"].flatMap { SharedData.files(in: $0) }
    }

    @Test("1,000 mutants of each real file: a description or a clear error, never a crash", arguments: files)
    func mutants(file: String) throws {
        let original = try FileBytes.read(file)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let name = (file as NSString).lastPathComponent
        var random = SeededRandom(seed: name.utf8.reduce(17) { $0 &* 31 &+ UInt64($1) })
        var errors = 0
        for index in 0..<Self.mutationsPerFile {
            let mutant = random.mutate(original, index: index)
            let path = try folder.write(name, mutant)
            do {
                _ = try FileDescription.describe(path)
            } catch {
                errors += 1
                let message = String(describing: error)
                #expect(message.hasPrefix(path), "\(message)")
                #expect(!message.contains("\n"), "\(message)")
            }
        }
        // Every fifth mutant is a truncation: most of those must fail, so the readers do check.
        #expect(errors > 0, "\(name): no mutant was rejected")
    }
}
