import AudioIO
import Foundation
import SensorData
import Testing
import TestSupport
@testable import Batch
@testable import Scoring

/// `info` on every real file (acceptance of the foundation issue).
@Suite(.enabled(if: SharedData.runs, SharedData.skipMessage))
struct SharedDataDescriptionTests {
    static func allFiles() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: SharedData.root.path)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            let path = SharedData.path(relative)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue { files.append(relative) }
        }
        return files.sorted()
    }

    @Test("every file in ../shared/data is described without error, and recordings as recordings")
    func everyFile() throws {
        let files = Self.allFiles()
        #expect(files.count >= 180)
        var fullWalks = 0
        for file in files {
            let name = (file as NSString).lastPathComponent
            if name == "accelerometer.csv" {
                // 110 MB in all: read three walks completely (debug builds are slow); for the
                // rest, the layout detection on the first 200 rows.
                fullWalks += 1
                if fullWalks > 3 {
                    let bytes = AudioInput.leadingBytes(SharedData.path(file), count: 12_000)
                    let head = Array(bytes[...(bytes.lastIndex(of: UInt8(ascii: "\n")) ?? 0)])
                    #expect(InputSniffer.sniff(prefix: Array(bytes.prefix(4096))) == .csv, "\(file)")
                    #expect(MotionCSVLayout.detect(try CSVTable.parse(head, file: file)) == .oxfordStepCounter, "\(file)")
                    continue
                }
            }
            let description = try FileDescription.describe(SharedData.path(file))
            switch true {
            case name.hasSuffix(".md"), name.hasSuffix(".txt"): #expect(description.kind == "text document", "\(file)")
            case name == "accelerometer.csv": #expect(description.kind == "accelerometer" && (description.samples ?? 0) > 1000, "\(file)")
            case name == "stepcounter.csv": #expect(description.kind == "step ground truth", "\(file)")
            case file.hasPrefix("voice/"), file.hasPrefix("spl/"), name.hasSuffix(".m4a"): #expect(description.kind == "audio", "\(file)")
            case file.hasPrefix("researchkit/fixtures/"):
                #expect(description.dialect?.hasPrefix("ResearchKit serializer result (") == true, "\(file)")
            default: #expect(!description.kind.isEmpty)
            }
        }
    }

    @Test("the flattened tapping upload: a 210-tap AppCore result and a 2,006-item accelerometer file")
    func archive() throws {
        let description = try FileDescription.describe(SharedData.path("mpower/pdscores_tapping.json"))
        #expect(description.kind == "flattened archive")
        #expect(description.parts.map(\.kind) == ["archive manifest", "tapping result", "accelerometer"])
        #expect(description.parts[1].samples == 210)
        #expect(description.parts[1].dialect == "AppCore tapping result")
        #expect(description.parts[2].samples == 2006)
        let rate = try #require(description.parts[2].samplingRateHz)
        #expect(rate > 100 && rate < 103)
    }

    @Test("the ALAC voice upload: 10.054 s at 44.1 kHz, mono")
    func m4a() throws {
        let description = try FileDescription.describe(SharedData.path("mpower/pdscores_phonation.m4a"))
        #expect(description.samples == 443_392)
        #expect(description.samplingRateHz == 44_100)
        #expect(description.channels == 1)
        #expect(abs((description.durationSeconds ?? 0) - 10.054240) < 1e-6)
        #expect(description.dialect == "MPEG-4 ALAC")
    }

    /// The dataset's own `stats.csv` lists the ground-truth steps of each walk; counting the 0→1
    /// transitions of `stepcounter.csv` must give the same numbers.
    @Test("Oxford ground truth: step counts equal stats.csv for every walk")
    func oxfordGroundTruth() throws {
        let stats = try CSVTable.parse(FileBytes.read(SharedData.path("gait-oxford/stats.csv")), file: "stats.csv")
        guard case .text(let walks)? = stats.columns.first, let steps = stats.columns.last?.numbers else {
            Issue.record("unexpected stats.csv layout")
            return
        }
        var checked = 0
        for (walk, expected) in zip(walks, steps) {
            let path = SharedData.path("gait-oxford/data/\(walk)/stepcounter.csv")
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let truth = try #require(StepGroundTruth(try CSVTable.parse(FileBytes.read(path), file: path)))
            #expect(Double(truth.stepCount) == expected, "\(walk)")
            checked += 1
        }
        #expect(checked >= 48)
    }
}
