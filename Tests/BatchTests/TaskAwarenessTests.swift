import Foundation
import Testing
import TestSupport
@testable import Batch
@testable import Scoring
import SensorData

/// Audio is scored by its task (issue 17, item 6): a ResearchKit result naming it, an upload's
/// `item`, its file name, and only then the configuration's default.
@Suite struct TaskAwarenessTests {
    static let voice = SharedData.sampleData.appendingPathComponent("voice_aaah.wav").path

    @Test("the words of a task name: countdown, room noise, voice, or nothing")
    func names() {
        #expect(RecordingTask.named(["environmentSPLMeter"]) == .environmentNoise)
        #expect(RecordingTask.named([nil, "Voice Activity"]) == .voice)
        #expect(RecordingTask.named(["audio_countdown.m4a"]) == .countdown)
        #expect(RecordingTask.named(["Tapping Activity", "recording.wav"]) == nil)
        #expect(RecordingTask.named(["ambient", "audio"]) == .environmentNoise)  // the first name that says wins
    }

    @Test("an upload's item, a task result's file-result identifiers and a file name choose the analyzers; the configuration only for audio no task names")
    func chosenByTask() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fm = FileManager.default
        var variant: UInt8 = 0
        // A copy of the sample voice whose last sample differs: every file its own content (a
        // recording's identity is its content).
        func copyVoice(to name: String) throws {
            var bytes = try Data(contentsOf: URL(fileURLWithPath: Self.voice))
            variant += 1
            bytes[bytes.count - 1] ^= variant
            try bytes.write(to: URL(fileURLWithPath: folder.path(name)))
        }
        for sub in ["noise", "voicetask", "loose"] { try fm.createDirectory(atPath: folder.path(sub), withIntermediateDirectories: true) }
        // An upload whose item says room noise: its unnamed recording is metered, not analysed as a voice.
        _ = try folder.write("noise/info.json", #"{"taskRun":"1","item":"Environment noise check","files":[{"filename":"recording.wav"}]}"#)
        try copyVoice(to: "noise/recording.wav")
        // A task result naming a countdown and the phonation.
        _ = try folder.write("voicetask/taskResult.json", """
            {"_class":"ORKTaskResult","identifier":"voice","results":[
             {"_class":"ORKStepResult","identifier":"countdown","results":[{"_class":"ORKFileResult","identifier":"countdown","fileName":"a.wav"}]},
             {"_class":"ORKStepResult","identifier":"audio","results":[{"_class":"ORKFileResult","identifier":"audio","fileName":"b.wav"}]}]}
            """)
        try copyVoice(to: "voicetask/a.wav")
        try copyVoice(to: "voicetask/b.wav")
        // Loose files: one named as a countdown, one named by nothing.
        try copyVoice(to: "loose/audio_countdown.wav")
        try copyVoice(to: "loose/recording.wav")

        var options = BatchOptions(toolkitVersion: "test")
        options.configuration.audio = .environmentNoise  // the default for audio no task names
        let store = try ResultStore(path: folder.path("r.sqlite"))
        _ = try await BatchRunner.run([folder.path("noise"), folder.path("voicetask"), folder.path("loose")], store: store, options: options)
        let analyses = try store.resultRows().map { "\($0.recording.dropFirst(folder.url.path.count + 1)) \($0.key.analyzer)" }.sorted()
        #expect(analyses == ["loose/recording.wav spl", "noise spl", "voicetask/taskResult.json voice"], "\(analyses)")
        let unknown = try store.unknownFiles().map { "\($0.path.dropFirst(folder.url.path.count + 1)) \($0.kind)" }
        #expect(unknown == ["loose/audio_countdown.wav countdown recording"], "\(unknown)")
        // The one voice row is the phonation's (b.wav, named in its key), not the countdown's.
        let voice = try #require(try store.resultRows().first { $0.key.analyzer == "voice" })
        #expect(voice.status == .ok && voice.key.parameters.hasPrefix(#"{"member":"b.wav","#))
    }

    @Test("tapping's hand: the two-handed task's steps tapping.left/tapping.right, a manifest column, a file name; none when nothing says")
    func tappingHand() async throws {
        #expect(TappingScorer.hand(of: ["tapping.left"]) == .left)
        #expect(TappingScorer.hand(of: [nil, "tapping_right.json.TappingSamples"]) == .right)
        #expect(TappingScorer.hand(of: ["TappingLeft"]) == .left)
        #expect(TappingScorer.hand(of: ["tapping_results.json", "twoFingerTappingIntervalTask"]) == nil)
        #expect(TappingScorer.hand(of: ["copyright.json"]) == nil, "whole words only")

        // The sample task result (one step, tapping.right) made two-handed: its step copied as tapping.left.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sample = SharedData.sampleData.appendingPathComponent("tapping_task_result.json")
        var task = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: sample)) as? [String: Any])
        var right = try #require((task["results"] as? [[String: Any]])?.first)
        right["results"] = (right["results"] as? [[String: Any]])?.filter { $0["_class"] as? String == "ORKTappingIntervalResult" }
        var left = right
        left["identifier"] = "tapping.left"
        left["results"] = (right["results"] as? [[String: Any]])?.map { result in
            var copy = result
            copy["identifier"] = "tapping.left"
            return copy
        }
        task["results"] = [right, left]
        let path = folder.path("both_hands.json")
        try JSONSerialization.data(withJSONObject: task).write(to: URL(fileURLWithPath: path))
        let store = try ResultStore(path: folder.path("r.sqlite"))
        _ = try await BatchRunner.run([path], store: store, options: BatchOptions(toolkitVersion: "test"))
        let hands = try store.resultRows().map { row in
            (try? JSONSerialization.jsonObject(with: Data(row.featuresJSON.utf8)) as? [String: [String: Any]])?["atk"]?["hand"] as? String
        }
        #expect(hands.compactMap { $0 }.sorted() == ["left", "right"], "\(hands)")
        // An AppCore result whose item says tapping.right.
        let appCore = try AnalyzerParameters().score(.tapping, file: SharedData.sampleData.appendingPathComponent("tapping_results.json").path)
        #expect(appCore.report.featuresJSON.object?["atk"]?.object?["hand"] == .string("right"))
        // A bare TappingSamples array that names no hand: the field is there, null.
        let taps = (0..<20).map { i in #"{"TapTimeStamp":\#(Double(i) * 0.2),"TapCoordinate":"{\#(i % 2 == 0 ? 80 : 240), 400}","TappedButtonId":"\#(i % 2 == 0 ? "TappedButtonLeft" : "TappedButtonRight")"}"# }
        let bare = try folder.write("taps.json", "[" + taps.joined(separator: ",") + "]")
        let plain = try AnalyzerParameters().score(.tapping, file: bare)
        #expect(plain.report.featuresJSON.object?["atk"]?.object?["hand"] == .null)
    }
}
