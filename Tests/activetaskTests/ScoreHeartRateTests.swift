import Foundation
import Testing
import TestSupport

/// `score heartRate` and the batch rows of camera recordings on SampleData's heart snapshot,
/// whose pulse is 75 beats/min by construction (SampleGenerator.cameraHeartRate; docs/analyses.md §7.5).
@Suite struct ScoreHeartRateTests {
    static let file = SharedData.sampleData.appendingPathComponent("heartRate_before_recorder.json").path

    @Test("SampleData's recording: every channel's windows within mhealthtools' lag resolution of 75 beats/min (60·fs/47 … 60·fs/48 at its 59.28 frames/s), the atk rate that of the most confident channel; --method psd and peak, --window-seconds change the windows")
    func sample() throws {
        let run = try Run(["score", "heartRate", "--json", Self.file])
        #expect(run.status == 0, "\(run.stderr)")
        let sets = try #require(run.json?["features"] as? [String: [String: Any]])
        #expect(Set(sets.keys) == ["mhealthtools", "atk"])
        let mhealthtools = try #require(sets["mhealthtools"]), atk = try #require(sets["atk"])
        let rate = try #require(mhealthtools["sampling_rate"] as? Double)
        // 1,801 items (the step marker counted, as mhealthtools counts it) over 30.383333 s (times written to 6 decimals).
        #expect(abs(rate - 1801 / 30.383333) < 1e-9, "\(rate)")
        for channel in ["red", "green", "blue"] {
            let hr = try #require(mhealthtools["\(channel).hr"] as? [Double])
            #expect(hr.count == 4 && hr.allSatisfy { $0 >= 60 * rate / 48 - 1e-9 && $0 <= 60 * rate / 47 + 1e-9 }, "\(channel): \(hr)")
        }
        let confidences = try ["red", "green", "blue"].map { channel in try #require(mhealthtools["\(channel).confidence"] as? [Double]).sorted() }
        let medians = confidences.map { ($0[1] + $0[2]) / 2 }
        let best = ["red", "green", "blue"][medians.firstIndex(of: medians.max()!)!]
        #expect(atk["channel"] as? String == best && abs((atk["confidence"] as? Double ?? 0) - medians.max()!) < 1e-12, "\(atk)")
        #expect(abs((atk["heartRateBeatsPerMinute"] as? Double ?? 0) - 75) < 1.6 && atk["windowCount"] as? Int == 4, "\(atk)")
        #expect(mhealthtools["error"] as? String == "none")

        let peak = try #require(try Run(["score", "heartRate", "--json", "--method", "peak", "--window-seconds", "5", Self.file]).json?["features"] as? [String: [String: Any]])
        let peakRates = try #require(peak["mhealthtools"]?["red.hr"] as? [Double])
        // 1,800 frames less 179 and 64 by the filters; windows of round(5·fs) = 296 frames every 148.
        #expect(peakRates.count == (1800 - 179 - 64 - 296) / 148 + 1 && peak["mhealthtools"]?["red.confidence"] as? [NSNull] != nil, "\(peakRates)")
        let psd = try Run(["score", "heartRate", "--json", "--method", "psd", Self.file])
        #expect(psd.status == 0 && (psd.json?["key"] as? [String: Any])?["parameters"] as? String != (run.json?["key"] as? [String: Any])?["parameters"] as? String)
    }

    /// A camera recording renamed (as a download keyed by its record is) was refused: its first
    /// element is the step marker, and only the file name said what followed.
    @Test("the heart snapshot under another name (12345.json): the camera items after its step marker say what it is, the same features; a marker followed by nothing, or by an item of no recorder, is still refused")
    func renamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let renamed = try folder.write("12345.json", Array(try Data(contentsOf: URL(fileURLWithPath: Self.file))))
        let original = try Run(["score", "heartRate", "--json", Self.file]), run = try Run(["score", "heartRate", "--json", renamed])
        #expect(run.status == 0, "\(run.stderr)")
        let features = try #require(run.json?["features"] as? [String: [String: Any]])
        let expected = try #require(original.json?["features"] as? [String: [String: Any]])
        #expect(NSDictionary(dictionary: features) == NSDictionary(dictionary: expected))
        let marker = #"{"timestamp":0,"uptime":86400,"stepPath":"Heart Rate Measurement/heartRate_before"}"#
        for (name, text) in [("alone.json", "[\(marker)]"), ("other.json", #"[\#(marker),{"timestamp":0.4,"speed":1}]"#)] {
            let refused = try Run(["score", "heartRate", "--json", try folder.write(name, text)])
            #expect(refused.status != 0 && refused.stderr.contains("unrecognised layout"), "\(name): \(refused.status) \(refused.stderr)")
        }
    }

    @Test("an upload with the heart snapshot's before and after recordings: sets per recording; a file without a camera recording is refused; an overlap above ½ is refused naming its option")
    func upload() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.file))
        try bytes.write(to: URL(fileURLWithPath: folder.path("heartRate_before_recorder.json")))
        // The after recording: the same frames, one more newline (other content).
        try (bytes + Data("\n".utf8)).write(to: URL(fileURLWithPath: folder.path("heartRate_after_recorder.json")))
        let sets = try #require(try Run(["score", "heartRate", "--json", folder.url.path]).json?["features"] as? [String: Any])
        #expect(Set(sets.keys) == ["mhealthtools.heartRate_after_recorder", "atk.heartRate_after_recorder", "mhealthtools.heartRate_before_recorder", "atk.heartRate_before_recorder"], "\(sets.keys)")
        let none = try Run(["score", "heartRate", SharedData.sampleData.appendingPathComponent("spl_meter_result.json").path])
        #expect(none.status == 3 && none.stderr.contains("no camera heart-rate recording"), "\(none.stderr)")
        let overlap = try Run(["score", "heartRate", "--window-overlap", "0.7", Self.file])
        #expect(overlap.status == 2 && overlap.stderr.contains("windowOverlap"), "\(overlap.stderr)")
        let info = try Run(["info", Self.file])
        #expect(info.status == 0 && info.stdout.contains("camera colour"), "\(info.stdout)")
    }
}
