import AudioIO
import Foundation
import Testing
import TestSupport
@testable import Recording
@testable import SensorData

/// Files written by the recorders read back identically through the foundation readers.
@Suite struct RecorderTests {
    /// `count` items of `kind` with every field present: times increasing, dates on whole seconds
    /// (date strings carry seconds), integers integral, text fields the values ResearchKit writes.
    static func series(_ kind: RecorderKind, count: Int) -> SensorSeries {
        var series = SensorSeries(kind: kind)
        let schema = kind.schema
        for i in 0..<count {
            var numbers: [Double] = []
            var strings: [String?] = []
            for (index, field) in schema.fields.enumerated() {
                strings.append(nil)
                switch field.type {
                case .string:
                    numbers.append(.nan)
                    strings[index] = field.name == "type" ? "HKQuantityTypeIdentifierHeartRate" : field.name == "unit" ? "count/min" : "Watch"
                case .date: numbers.append(1_700_000_000 + Double(i) + (field.name == "endDate" ? 1 : 0))
                case .integer: numbers.append(field.name == "magneticField.accuracy" ? 2 : Double((i + index) % 3))
                case .number:
                    if field.name == "timestamp" {
                        numbers.append(100 + Double(i) * 0.01)
                    } else if field.name == "timestampSince1970" {
                        numbers.append(1_700_000_000.5 + Double(i) * 0.01)
                    } else {
                        let value = 0.1 * Double(i) + 0.37 * Double(index) - 1.3
                        numbers.append(field.plausible.map { $0.lowerBound + abs(value) } ?? value)
                    }
                }
            }
            series.append(numbers: numbers, strings: strings)
        }
        return series
    }

    @Test("every sensor kind: recorder → finished file → reader gives the identical series", arguments: RecorderKind.allCases)
    func roundTrip(kind: RecorderKind) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = Self.series(kind, count: 250)
        let configuration = RecorderConfiguration(identifier: kind.rawValue, kind: .sensor(kind), frequencyHz: 100, flushIntervalSeconds: 0)
        let recorder = try SensorRecorder(configuration, outputDirectory: folder.url.path, uuid: "9F2C1A4E-0B7D-4C1E-9B1A-2F3D4E5F6A7B")
        try recorder.record(input)
        let results = try recorder.stop()
        #expect(results.count == 1)
        let result = try #require(results.first)
        #expect(result.fileName.hasPrefix("recorder-9F2C1A4E-0B7D-4C1E-9B1A-2F3D4E5F6A7B/\(kind.recorderType)_9F2C1A4E_0B7D_4C1E_9B1A_2F3D4E5F6A7B-"))
        #expect(result.contentType == "application/json" && result.identifier == kind.rawValue)
        #expect(result.userInfo == (kind == .accelerometer ? ["frequency": 100] : [:]))
        let contents = try JSONContents.read(folder.path(result.fileName))
        #expect(contents.series.count == 1)
        let read = try #require(contents.series.first?.series)
        #expect(read == input, "\(kind)")
        #expect(contents.allWarnings.isEmpty, "\(contents.allWarnings)")
    }

    @Test("items that cannot be written are counted, not written; the recording goes on")
    func rejected() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var input = Self.series(.accelerometer, count: 3)
        input.numeric[input.schema.index(of: "x")!][1] = .nan
        let recorder = try SensorRecorder(RecorderConfiguration(identifier: "accelerometer", kind: .sensor(.accelerometer)),
                                          outputDirectory: folder.url.path)
        try recorder.record(input)
        #expect(recorder.rejectedItems == 1 && recorder.firstRejection?.contains("x") == true)
        let file = try #require(try recorder.stop().first)
        #expect(try JSONContents.read(folder.path(file.fileName)).series.first?.series.count == 2)
        #expect(throws: RecordingError.self) { try recorder.record(input) }  // stopped
    }

    @Test("file result JSON is an ORKFileResult the reader finds", arguments: [0, -28_800])
    func fileResultJSON(offset: Int) throws {
        let result = FileResult(identifier: "accelerometer", contentType: "application/json", fileName: "recorder-X/accel_X-20250101000000.json",
                                startSeconds: 1_700_000_000, endSeconds: 1_700_000_010, userInfo: ["frequency": 100])
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("result.json", JSONWriter().string(result.researchKitJSON(utcOffsetSeconds: offset)))
        let read = try JSONContents.read(path)
        #expect(read.fileResults == [FileResultReference(identifier: "accelerometer", stepIdentifier: nil, contentType: "application/json",
                                                         fileName: "recorder-X/accel_X-20250101000000.json")])
    }

    @Test("audio: a streaming WAV reads back sample for sample (16-bit within one LSB), with the meter's levels")
    func audio() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for encoding in [WAVWriter.Encoding.float32, .pcm16] {
            let configuration = RecorderConfiguration(identifier: "streamingAudio", kind: .audio(sampleRateHz: 48_000, channels: 2, encoding: encoding))
            let recorder = try AudioRecorder(configuration, outputDirectory: folder.url.path)
            // 0.5-amplitude 1 kHz sine on both channels: peak −6.02 dBFS, RMS −9.03 dBFS.
            let block = (0..<4800).flatMap { i -> [Float] in
                let x = Float(0.5 * sin(2 * Double.pi * 1000 * Double(i) / 48_000))
                return [x, x]
            }
            for _ in 0..<10 { try recorder.write(block) }
            #expect(abs(recorder.lastBlockPeakDbfs - 20 * log10(0.5)) < 0.01)
            #expect(abs(recorder.rmsDbfs - 20 * log10(0.5 / 2.0.squareRoot())) < 0.001)
            let result = try recorder.stop()
            let file = try SoundFile(reading: folder.path(result.fileName))
            #expect(file.format.sampleRateHz == 48_000 && file.format.channels == 2 && file.format.frames == 48_000)
            let samples = try file.readAll()
            let tolerance: Float = encoding == .pcm16 ? 1.0 / 32_768 : 0
            #expect(zip(samples, Array(repeating: block, count: 10).joined()).allSatisfy { abs($0 - $1) <= tolerance })
        }
    }
}
