import Foundation
import InputGuards
import SensorData

/// A generated batch corpus (`activetask generate-corpus`, the batch benchmark): mPower-like
/// task runs. Run i goes to OUT/run-NNNNN/ as unpacked AppCore uploads — tapping/, walking/ and
/// voice/ with an info.json manifest (docs/formats.md §8.1) — plus an ORKEnvironmentSPLMeterResult
/// and an ORKdBHLToneAudiometryResult. Each run has its own seed, cadence (90–130 steps/min) and
/// voice F0 (100–220 Hz), so every file's content differs.
public enum Corpus {
    /// Writes runs `0..<runs` into `out` (created if missing); run i uses seed `seed + i`. Each
    /// run's files are placed all or none, none replacing a file of other content
    /// (``OutputFile/commitAll(_:)``): a corpus written before with the same seed is left as it is.
    public static func write(runs: Int, to out: String, seed: UInt64 = 1) throws {
        for index in 0..<runs {
            let folder = (out as NSString).appendingPathComponent(String(format: "run-%05d", index))
            var generator = SampleGenerator(seed: seed &+ UInt64(index))
            let cadence = 90 + 40 * generator.random.unit()
            let tapping = generator.tappingResult()
            let walk = generator.walkSeries(seconds: 20, cadenceStepsPerMinute: cadence)
            var files: [OutputFile] = []
            try add(folder, "tapping", manifest: generator.manifest(item: "Tapping Activity", files: ["tapping_results.json"]),
                    files: [("tapping_results.json", JSONWriter(indent: 2).bytes(tapping.appCoreJSON))], to: &files)
            try add(folder, "walking", manifest: generator.manifest(item: "Walking Activity", files: [
                "accel_walking.outbound.json", "deviceMotion_walking.rest.json", "pedometer_walking.outbound.json",
            ]), files: [
                ("accel_walking.outbound.json", try RecorderItemEncoder(kind: .accelerometer).document(walk)),
                ("deviceMotion_walking.rest.json", try RecorderItemEncoder(kind: .deviceMotion).document(generator.standingMotion(seconds: 10))),
                ("pedometer_walking.outbound.json", try RecorderItemEncoder(kind: .pedometer).document(generator.pedometer(seconds: 20, cadence: cadence))),
            ], to: &files)
            try add(folder, "voice", manifest: generator.manifest(item: "Voice Activity", files: ["audio_audio.wav"]), files: [], to: &files)
            files.append(try generator.voiceFile((folder as NSString).appendingPathComponent("voice/audio_audio.wav"), seconds: 10,
                                                 f0Hz: 100 + 120 * generator.random.unit()))
            try add(folder, nil, manifest: nil, files: [
                ("spl_meter_result.json", JSONWriter().bytes(generator.splResult().researchKitJSON)),
                ("dbhl_tone_audiometry_result.json",
                 JSONWriter().bytes(generator.dBHLResult(shiftsDecibels: (0..<8).map { _ in 5 * (generator.random.unit() * 5).rounded(.down) }).researchKitJSON)),
            ], to: &files)
            try OutputFile.commitAll(files)
        }
    }

    /// `files` (and `info.json`) of `folder/sub` written to temporaries, appended to `written`.
    private static func add(_ folder: String, _ sub: String?, manifest: JSONValue?, files: [(String, [UInt8])], to written: inout [OutputFile]) throws {
        let directory = sub.map { (folder as NSString).appendingPathComponent($0) } ?? folder
        try FileSystem.makeDirectories(directory)
        for (name, bytes) in (manifest.map { [("info.json", JSONWriter(indent: 2).bytes($0))] } ?? []) + files {
            let file = try OutputFile((directory as NSString).appendingPathComponent(name), inputs: [])
            written.append(file)
            try file.write(bytes)
        }
    }
}

extension SampleGenerator {
    /// An AppCore `info.json`: taskRun UUID, item, and the files with their timestamps (docs/formats.md §8.1).
    mutating func manifest(item: String, files: [String]) -> JSONValue {
        let stamp = JSONValue.string(DateString(secondsSince1970: start.secondsSince1970, utcOffsetSeconds: 0).researchKitText)
        return .object(JSONObject([
            "taskRun": .string(uuid()), "item": .string(item), "appName": .string("ActiveTaskKit corpus"),
            "files": .array(files.map { name in
                .object(JSONObject(["filename": .string(name), "timestamp": stamp,
                                    "contentType": .string(name.hasSuffix(".wav") ? "audio/wav" : "application/json")]))
            }),
        ]))
    }
}
