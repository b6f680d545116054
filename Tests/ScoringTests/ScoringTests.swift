import AudioIO
import Foundation
import Testing
import TestSupport
@testable import Analysis
@testable import Scoring
@testable import SensorData

/// The scoring layer: one dispatch for every analyzer, typed scores whose report rows are
/// derived from their fields.
@Suite struct ScoringTests {
    static func sample(_ name: String) -> String { SharedData.sampleData.appendingPathComponent(name).path }

    @Test("each analyzer's score on its SampleData file: the typed fields are the report's rows (read back by name only here)")
    func typedScoresAreTheRows() throws {
        let parameters = AnalyzerParameters()
        guard case .tapping(let tapping) = try parameters.score(.tapping, file: Self.sample("tapping_results.json")),
            case .mhealthtools(let peer) = tapping.analysis.peer
        else { Issue.record("not a tapping score"); return }
        #expect(tapping.report.sets.map(\.name) == ["mhealthtools", "atk"])
        #expect(tapping.report.sets[0]["meanTapInter"] == .number(peer.intervals.tapInter.mean))
        #expect(tapping.report.sets[1]["buttonTapCount"] == .number(Double(tapping.analysis.atk.buttonTapCount)))

        guard case .gait(let gait) = try parameters.score(.gait, file: Self.sample("walk_accelerometer.csv")) else { Issue.record("not gait"); return }
        let walk = try #require(gait.recordings.first?.analysis.features)
        #expect(gait.report.sets[0]["cadenceStepsPerMinute"] == walk.cadenceStepsPerMinute.map(FeatureValue.number) ?? .missing)
        #expect(gait.report.sets[0]["cadenceSource"] == .text(walk.cadenceSource.rawValue))

        guard case .voice(let voice) = try parameters.score(.voice, file: Self.sample("voice_aaah.wav")) else { Issue.record("not voice"); return }
        #expect(voice.report.sets[0]["jitterLocal"] == voice.analysis.features.contour.perturbation.jitterLocal.map(FeatureValue.number) ?? .missing)

        guard case .spl(let spl) = try parameters.score(.spl, file: Self.sample("spl_meter_result.json")) else { Issue.record("not spl"); return }
        #expect(spl.report.sets[0]["researchKitDecision"] == .text(spl.passIndex == nil ? "fail" : "pass"))
        #expect(spl.thresholdDecibels == 35)

        guard case .loudness(let loudness) = try parameters.score(.loudness, file: Self.sample("voice_aaah.wav")) else { Issue.record("not loudness"); return }
        #expect(loudness.report.sets[0]["integratedLufs"] == loudness.features.integratedLufs.map(FeatureValue.number) ?? .missing)
        #expect(loudness.features.channelsCounted == 1 && loudness.features.oversamplingFactor == 4)

        guard case .audiometry(let audiogram) = try parameters.score(.audiometry, file: Self.sample("dbhl_tone_audiometry_result.json")) else { Issue.record("not audiometry"); return }
        // The sample tests one ear: no frequency to compare, so asymmetry is unknown (null).
        #expect(audiogram.report.sets[0]["asymmetric"] == audiogram.audiogram.features.features.asymmetric.map(FeatureValue.boolean) ?? .missing)
        #expect(audiogram.report.sets[0]["asymmetric"] == .missing)
    }

    @Test("a path's file name is its last component, trailing slashes ignored, as splitting at every slash gives it")
    func fileName() {
        let paths = ["a/b.json", "/x/y/z.wav", "b", "a/b/", "a//b//", "/", "//", "", "é/ü.wav", "/lead"]
        for path in paths {
            #expect(TaskFiles.name(of: path) == (path.split(separator: "/").last.map(String.init) ?? path), "\(path)")
        }
        #expect(TaskFiles.name(of: "a/b/") == "b" && TaskFiles.name(of: "/") == "/" && TaskFiles.name(of: "") == "")
    }

    @Test("a name includes a part where its bytes occur: at the start, the end, overlapping near-misses, not for an empty or longer part")
    func literalText() {
        #expect("walking.rest.json".includes("rest") && "rest".includes("rest") && "a_rest".includes("rest") && "rerest".includes("rest"))
        #expect(!"walking.res".includes("rest") && !"re".includes("rest") && !"rest".includes("") && !"".includes("a") && !"REST".includes("rest"))
        #expect("Stimme_é.wav".includes("é.w") && !"Stimme_e\u{301}.wav".includes("é"))
    }

    @Test("the analyzer a file does not fit is refused with the file named and the reason, status invalid input")
    func mismatch() {
        #expect { try AnalyzerParameters().score(.voice, file: Self.sample("tapping_results.json")) } throws: { error in
            guard let error = error as? ScoringError else { return false }
            return error.status == .invalidInput && error.description.contains("tapping_results.json")
        }
    }

    @Test("AUXU thresholds for a simulation: both ears of the first rows that have any, ascending per row (left ear first at one frequency), no-response and untested left out")
    func auxuThresholds() throws {
        let csv = "SEQN,AUXU1K1R,AUXU500R,AUXU1K1L,AUXU500L\n1,20,10,666,888\n2,,,,\n3,5,15,25,35\n"
        let table = try #require(AUXUTable(try CSVTable.parse(Array(csv.utf8), file: "a.csv"), file: "a.csv"))
        let truths = try table.thresholds(rows: 2)
        #expect(truths.map(\.frequencyHz) == [500, 1000, 500, 500, 1000, 1000])
        #expect(truths.map(\.threshold) == [10, 20, 35, 15, 25, 5])  // at one frequency the left ear first
        #expect(try table.thresholds(rows: 1).count == 2)
    }

    /// A cell that is no hearing level made a frequency "not tested" (text) or a threshold of
    /// 1e300 dB HL, with a PTA of 3.3e299 dB HL graded "complete".
    @Test("AUXU cells: text and numbers outside −20…140 dB HL (but 666 and 888) are refused naming the data row and column, by the audiogram and the simulation alike; empty, NA, the codes and the range's ends are read",
          arguments: ["abc", "1e300", "-1e300", "inf", "140.5", "-20.5", "1e-320x"])
    func auxuCellsThatAreNoThreshold(cell: String) throws {
        let csv = "SEQN,AUXU1K1R,AUXU500R,AUXU1K1L,AUXU500L\n1,20,10,666,888\n2,NA,,-20,140\n3,5,\(cell),25,35\n"
        let table = try #require(AUXUTable(try CSVTable.parse(Array(csv.utf8), file: "a.csv"), file: "a.csv"))
        let first = try table.audiogram(row: 1), second = try table.audiogram(row: 2)
        #expect(first.thresholds[.right]?[500] == .some(10) && first.thresholds[.left]?[1000] == .some(nil) && first.thresholds[.left]?[500] == nil)
        #expect(second.thresholds[.right]?[1000] == nil && second.thresholds[.left]?[1000] == .some(-20) && second.thresholds[.left]?[500] == .some(140))
        for attempt in [{ _ = try table.audiogram(row: 3) }, { _ = try table.thresholds(rows: 3) }] {
            #expect { try attempt() } throws: { error in
                guard let error = error as? ScoringError else { return false }
                return error.status == .invalidInput && error.description.contains("a.csv: data row 3, column AUXU500R")
            }
        }
        #expect(try table.thresholds(rows: 2).count == 4)  // the rows before it are read
    }
}

/// `AudioScoring.stream` sizes its block by the container's frame count when that is short, and
/// never trusts the count: absurd, negative or absent counts give the same samples, in order.
@Suite struct AudioStreamBlockTests {
    /// A mono decoder of `samples` whose container claims `frames`.
    final class Claiming: AudioDecoder {
        let path = "claiming.wav"
        let format: AudioFormat
        let nonFiniteSamples = 0
        private let samples: [Float]
        private var position = 0

        init(_ samples: [Float], frames: Int64?) {
            self.samples = samples
            format = AudioFormat(sampleRateHz: 48_000, channels: 1, frames: frames, container: "WAV", encoding: "FLOAT")
        }

        func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int {
            let count = min(buffer.count, samples.count - position)
            for i in 0..<count { buffer[i] = samples[position + i] }
            position += count
            return count
        }
    }

    @Test("readAll of 200,000 samples (three blocks and a part) whatever the container claims — the count, none, too few, too many, negative, Int64.min or .max: every sample once, in order; beyond the limit an error naming it", arguments: [Int64(200_000), nil, 10, 150_000, 300_000, -5, .min, .max] as [Int64?])
    func readAllWhateverClaimed(frames: Int64?) throws {
        let samples = (0..<200_000).map { Float($0 % 1_000) / 1_000 }
        #expect(try Claiming(samples, frames: frames).readAllDouble() == samples.map(Double.init))
        #expect(try Claiming(samples, frames: frames).readAll() == samples)
        #expect(throws: AudioError.self) { try Claiming(samples, frames: frames).readAllDouble(maximumSamples: 199_999) }
    }

    @Test("a claimed frame count of 1,000, Int64.max, −5, nil or 10: every sample once, in order, in one block", arguments: [Int64(1_000), .max, -5, nil, 10] as [Int64?])
    func claimedCounts(frames: Int64?) throws {
        let samples = (0..<1_000).map { Float($0) / 1_000 }
        var seen: [Double] = [], blocks = 0
        try AudioScoring.stream(Claiming(samples, frames: frames), file: "claiming.wav", channel: 0) { block in
            seen += block
            blocks += 1
        }
        #expect(seen == samples.map(Double.init) && blocks == 1)
    }
}
