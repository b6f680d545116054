import Foundation
import Testing
import TestSupport

@Suite struct ScoreTappingTests {
    @Test("JSON shape {kind, file, dialect, features{mhealthtools, atk}, warnings}; SampleData scores in both dialects alike")
    func sampleData() throws {
        let appCore = try Run(["score", "tapping", "--json", SharedData.sampleData.appendingPathComponent("tapping_results.json").path])
        let researchKit = try Run(["score", "tapping", "--json", SharedData.sampleData.appendingPathComponent("tapping_task_result.json").path])
        #expect(appCore.status == 0 && researchKit.status == 0)
        let a = try #require(appCore.json), r = try #require(researchKit.json)
        #expect(a["kind"] as? String == "tapping")
        #expect(a["dialect"] as? String == "AppCore")
        #expect(r["dialect"] as? String == "ResearchKit serializer")
        let aFeatures = try #require((a["features"] as? [String: Any])?["mhealthtools"] as? [String: Any])
        let rFeatures = try #require((r["features"] as? [String: Any])?["mhealthtools"] as? [String: Any])
        #expect(aFeatures.count == 43)
        // The same taps written in the two dialects give the same peer features.
        for (name, value) in aFeatures { #expect("\(value)" == "\(rFeatures[name] ?? "absent")", "\(name)") }
        let atk = try #require((r["features"] as? [String: Any])?["atk"] as? [String: Any])
        #expect(atk["dwellMeanSeconds"] is Double)  // durations exist only in the serializer dialect
    }

    @Test("too few taps: exit 1 with the peer's reason text")
    func tooFew() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let samples = (0..<4).map { #"{"TapTimeStamp":\#(Double($0) * 0.2),"TapCoordinate":"{\#($0 % 2 == 0 ? 96 : 224), 416}","TappedButtonId":"TappedButton\#($0 % 2 == 0 ? "Left" : "Right")"}"# }
        let path = try folder.write("four.json", "[" + samples.joined(separator: ",") + "]")
        let run = try Run(["score", "tapping", "--json", path])
        #expect(run.status == 1)
        #expect(run.stderr == "activetask: \(path): tapping data has less than 5 rows\n")
        let features = try #require((run.json?["features"] as? [String: Any])?["mhealthtools"] as? [String: Any])
        #expect(features as NSDictionary == ["error": "tapping data has less than 5 rows"] as NSDictionary)
    }

    @Test("files without a tapping result: exit 3; unknown conventions: exit 2")
    func wrongInput() throws {
        let run = try Run(["score", "tapping", SharedData.sampleData.appendingPathComponent("spl_meter_result.json").path])
        #expect(run.status == 3)
        #expect(run.stderr.contains("no tapping result in this file"))
        #expect(try Run(["score", "tapping", "--convention", "nope", "x.json"]).status == 2)
    }
}

@Suite(.enabled(if: SharedData.runs, SharedData.skipMessage))
struct ScoreTappingRealTests {
    @Test("every convention scores the real uploads", arguments: ["mhealthtools", "mpower-sdata", "little"])
    func conventions(convention: String) throws {
        for file in ["mpower/pdscores_tapping.json", "mpower/pdkit_mpower_finger_tapping.json"] {
            let run = try Run(["score", "tapping", "--json", "--convention", convention, SharedData.path(file)])
            #expect(run.status == 0, "\(file): \(run.stderr)")
            #expect(run.json?["features"] != nil)
        }
    }
}
