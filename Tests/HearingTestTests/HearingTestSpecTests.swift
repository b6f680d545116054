import Analysis
import Foundation
import HearingTest
import Testing

/// The hearing test's settings (`HearingTestSpec`): ResearchKit's defaults (docs/audiometry.md
/// §1–2), a JSON document over them field by field, and every value guard naming its field.
@Suite struct HearingTestSpecTests {
    static func decode(_ json: String) throws(HearingTestError) -> HearingTestSpec {
        try HearingTestSpec(json: Array(json.utf8), file: "spec.json")
    }

    @Test("the defaults are ResearchKit's trial (tone 1 s, pre-stimulus 1.0–1.9 s, response window 1 s), both ears right first, the procedure ResearchKit's")
    func defaults() {
        let spec = HearingTestSpec()
        #expect(spec.toneSeconds == 1 && spec.preStimulusMinSeconds == 1 && spec.preStimulusMaxSeconds == 1.9 && spec.postStimulusSeconds == 1)
        #expect(spec.ears == [.right, .left] && spec.procedure == .researchkit && spec.volume == 1 && spec.tables == .researchKit3_2)
        #expect(spec.problems == ["give headphone or calibration, not both"])
    }

    @Test("a document sets the fields it has and keeps every other default; encoding and decoding give the same settings")
    func overrides() throws {
        let spec = try Self.decode(#"{"headphone": "AIRPODSV1", "frequenciesHz": [500, 4000], "ears": ["left"], "procedure": "asha", "toneSeconds": 1.5, "earphone": "ER-3A", "seed": 7}"#)
        var expected = HearingTestSpec()
        expected.headphone = "AIRPODSV1"
        expected.frequenciesHz = [500, 4000]
        expected.ears = [.left]
        expected.procedure = .asha
        expected.toneSeconds = 1.5
        expected.earphone = .insert
        expected.seed = 7
        #expect(spec == expected)
        let again = try JSONDecoder().decode(HearingTestSpec.self, from: JSONEncoder().encode(spec))
        #expect(again == spec)
    }

    /// Each guard alone: one field out of its bounds, the message naming the field.
    @Test("each value out of its bounds is refused, naming its field", arguments: [
        (#""volume": 1.5"#, "volume"),
        (#""volume": 1e999"#, "volume"),
        (#""sampleRateHz": 7999"#, "sampleRateHz"),
        (#""microphoneSampleRateHz": 400000"#, "microphoneSampleRateHz"),
        (#""toneSeconds": 0.01"#, "toneSeconds"),
        (#""preStimulusMinSeconds": -1"#, "preStimulusMinSeconds"),
        (#""preStimulusMinSeconds": 2, "preStimulusMaxSeconds": 1.5"#, "preStimulusMaxSeconds"),
        (#""postStimulusSeconds": 0"#, "postStimulusSeconds"),
        (#""lowestLevelDecibelsHL": 81"#, "lowestLevelDecibelsHL"),
        (#""ambientSeconds": 0.4"#, "ambientSeconds"),
        (#""device": "hw:0""#, "device takes alsa:DEVICE"),
        (#""microphone": "alsa:""#, "microphone takes alsa:DEVICE"),
        (#""microphoneCalibration": "3""#, "microphoneCalibration needs a microphone"),
        (#""ears": ["left", "left"]"#, "ears names each ear at most once"),
        (#""ears": []"#, "ears names each ear at most once"),
        (#""frequenciesHz": []"#, "frequenciesHz"),
        (#""frequenciesHz": [19.5]"#, "frequenciesHz"),
        (#""calibration": "c.csv""#, "give headphone or calibration"),
        (#""ears": ["up"]"#, "left or right, got \"up\""),
        (#""procedure": "hughson""#, "researchkit or asha"),
        (#""earphone": "TDH-39""#, "supra-aural, ER-3A or HDA-200"),
        (#""toneSeconds": "long""#, "toneSeconds"),
    ] as [(String, String)])
    func refused(field: String, message: String) {
        do {
            _ = try Self.decode(#"{"headphone": "AIRPODSV1", "# + field + "}")
            Issue.record("accepted \(field)")
        } catch {
            #expect(error.status == .invalidInput && error.description.hasPrefix("spec.json") && error.description.contains(message), "\(error.description)")
        }
    }

    @Test("a measured table with volume below 1 is refused: it holds at the volume it was measured at")
    func measuredTableVolume() {
        var spec = HearingTestSpec()
        spec.calibration = "c.csv"
        #expect(spec.problems.isEmpty)
        spec.volume = 0.5
        #expect(spec.problems == ["volume is for headphone tables; a measured table holds at the volume it was measured at"])
    }

    @Test("a tone's level through ResearchKit's tables: AirPods (1st generation) at 1 kHz, 30 dB HL, full volume is −76.89 dB (RETSPL 7 + 30 − (83.89 + 0 + 30), docs/audiometry.md §7.1); a level that would clip is refused as unusable")
    func toneAmplitude() throws {
        let request = ToneRequest(frequencyHz: 1000, level: .hearingLevel(30, headphone: "AIRPODSV1", tables: .researchKit3_2, volume: 1))
        #expect(abs(20 * log10(try request.amplitude()) - (-76.89)) < 1e-9)
        let loud = ToneRequest(frequencyHz: 1000, level: .hearingLevel(106, headphone: "AIRPODSV1", tables: .researchKit3_2, volume: 1))
        #expect(throws: HearingTestError.self) { try loud.amplitude() }
        do { _ = try loud.amplitude() } catch { #expect(error.status == .unusable && error.description.contains("would clip")) }
        let unknown = ToneRequest(frequencyHz: 1000, level: .hearingLevel(30, headphone: "TDH39", tables: .researchKit3_2, volume: 1))
        do { _ = try unknown.amplitude() } catch { #expect(error.status == .badRequest && error.description.contains("unknown headphone \"TDH39\"")) }
        #expect(try ToneRequest(frequencyHz: 1000, level: .dbfs(-20)).amplitude() == 0.1)
    }
}
