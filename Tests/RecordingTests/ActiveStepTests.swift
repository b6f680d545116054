import Foundation
import Testing
import TestSupport
@testable import Recording
@testable import SensorData

@Suite struct ActiveStepTests {
    static func configuration(_ text: String) throws -> ActiveStepConfiguration {
        try ActiveStepConfiguration(json: try JSONValue.parse(Array(text.utf8), file: "step.json"), file: "step.json")
    }

    @Test("a walking step ends when the pedometer counts 20 steps: at 120 steps/min after 10 s, every recorder at the same batch")
    func stopAfterSteps() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let step = try Self.configuration("""
            {"identifier": "walking.outbound", "duration": 30, "stopAfterSteps": 20, "realTime": false,
             "recorders": [{"kind": "accelerometer", "frequency": 100, "cadence": 120}, {"kind": "deviceMotion", "frequency": 50},
                           {"kind": "pedometer", "cadence": 120}, {"kind": "audio", "sampleRate": 8000}]}
            """)
        let result = try await ActiveStep.run(step, outputDirectory: folder.url.path)
        #expect(result.endReason == "steps")
        // 20 steps at 2 steps/s: the update at 10 s; 10 s of every stream.
        #expect(result.itemsWritten == ["accelerometer": 1000, "deviceMotion": 500, "pedometer": 10, "audio": 80_000])
        #expect(result.fileResults.map(\.identifier) == ["accelerometer", "deviceMotion", "pedometer", "audio"])
        let pedometer = try #require(try JSONContents.read(folder.path(result.fileResults[2].fileName)).series.first?.series)
        #expect(pedometer["numberOfSteps"] == [2, 4, 6, 8, 10, 12, 14, 16, 18, 20])
        // The step result is an ORKStepResult whose file results the reader finds under the step.
        let path = try folder.write("step.json", JSONWriter().string(result.researchKitJSON(utcOffsetSeconds: 3600)))
        let read = try JSONContents.read(path)
        #expect(read.fileResults.map(\.identifier) == ["accelerometer", "deviceMotion", "pedometer", "audio"])
        #expect(read.fileResults.allSatisfy { $0.stepIdentifier == "walking.outbound" })
        for file in result.fileResults where file.contentType == "application/json" {
            #expect(try JSONContents.read(folder.path(file.fileName)).allWarnings.isEmpty)
        }
    }

    @Test("a step without a condition runs for its duration; the stop signal ends it early")
    func durationAndStop() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let step = try Self.configuration(#"{"identifier": "rest", "duration": 2, "realTime": false, "recorders": [{"kind": "heartRate"}]}"#)
        let result = try await ActiveStep.run(step, outputDirectory: folder.url.path)
        #expect(result.endReason == "duration" && result.itemsWritten["heartRate"] == 2)
        let stop = StopSignal()
        stop.stop()
        let stopped = try await ActiveStep.run(step, outputDirectory: folder.url.path, stop: stop)
        #expect(stopped.endReason == "stopped" && stopped.fileResults.isEmpty)  // nothing recorded: no file (docs/formats.md §2.2)
    }

    @Test("configuration errors name the key", arguments: [
        (#"{"duration": 1, "recorders": [{"kind": "accelerometer"}]}"#, "identifier"),
        (#"{"identifier": "a", "duration": 0, "recorders": [{"kind": "accelerometer"}]}"#, "duration"),
        (#"{"identifier": "a", "duration": 1, "recorders": [{"kind": "gyro"}]}"#, "recorders[0].kind: unknown kind \"gyro\""),
        (#"{"identifier": "a", "duration": 1, "recorders": [{"kind": "audio", "encoding": "mp3"}]}"#, "recorders[0].encoding"),
        (#"{"identifier": "a", "duration": 1, "stopAfterSteps": 5, "recorders": [{"kind": "accelerometer"}]}"#, "stopAfterSteps needs a pedometer"),
        (#"{"identifier": "a", "duration": 1, "recorders": [{"kind": "audio", "source": "stdin"}]}"#, "recorders[0].source: simulate, replay:FILE"),
        (#"{"identifier": "a", "duration": 1, "recorders": [{"kind": "accelerometer", "source": "alsa:default"}]}"#, "recorders[0].source: alsa:default: cannot record accelerometer items"),
    ])
    func errors(text: String, expected: String) {
        do {
            _ = try Self.configuration(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(String(describing: error).contains(expected), "\(error)")
            #expect(String(describing: error).hasPrefix("step.json: "))
        }
    }

    /// Each bound of a recorder entry (RecorderSpec.Bounds) alone, one past its end: refused
    /// naming `recorders[0].KEY`, before any source is opened.
    @Test("every recorder key out of its bounds is refused naming it", arguments: [
        ("frequency", "0"), ("frequency", "10001"), ("sampleRate", "999"), ("sampleRate", "384001"), ("channels", "0"), ("channels", "9"),
        ("flushInterval", "-1"), ("flushInterval", "3601"), ("rollover", "-1"), ("rollover", "1.5"), ("bufferItems", "0"), ("bufferItems", "67108865"),
        ("cadence", "0.5"), ("cadence", "401"), ("tapsPerSecond", "0.001"), ("tapsPerSecond", "51"), ("noiseDBA", "-51"), ("noiseDBA", "201"),
        ("calibrationOffset", "-401"), ("calibrationOffset", "401"), ("reconnectSeconds", "-1"), ("reconnectSeconds", "86401"),
        ("openTimeoutSeconds", "0"), ("openTimeoutSeconds", "86401"), ("frequency", "\"100\""), ("format", "\"xml\""), ("overflow", "\"spill\""),
    ])
    func recorderBounds(key: String, value: String) {
        let text = #"{"identifier": "a", "duration": 1, "recorders": [{"kind": "audio", ""# + key + #"": "# + value + "}]}"
        do {
            _ = try Self.configuration(text)
            Issue.record("accepted \(key): \(value)")
        } catch {
            #expect(String(describing: error).hasPrefix("step.json: recorders[0].\(key): "), "\(error)")
        }
    }
}
