import Foundation
import Testing
import TestSupport
@testable import SensorData

/// Writer → reader for every recorder schema (docs/formats.md §12 "Writer must produce" 9).
@Suite struct RecorderRoundTripTests {
    /// A series of `kind` with random values that exercise every field: fractions with 17
    /// significant digits, integers, omitted optionals, whole-second dates.
    static func randomSeries(_ kind: RecorderKind, count: Int, seed: UInt64) -> SensorSeries {
        var random = SeededRandom(seed: seed)
        var series = SensorSeries(kind: kind, utcOffsetSeconds: -25_200)
        for item in 0..<count {
            var numbers: [Double] = []
            var strings: [String?] = []
            for (index, field) in kind.schema.fields.enumerated() {
                let omitted = !field.required && item % 3 == 1 && index % 2 == 0
                switch field.type {
                case .number:
                    numbers.append(omitted ? .nan : (field.name.hasPrefix("timestamp") ? 1000 + Double(item) / 100 + random.unit() * 1e-3 : random.unit() * 4 - 2))
                    strings.append(nil)
                case .integer:
                    numbers.append(omitted ? .nan : Double(random.below(7)) - 1)
                    strings.append(nil)
                case .date:
                    numbers.append(1_558_942_506 + Double(item))
                    strings.append(nil)
                case .string:
                    numbers.append(.nan)
                    strings.append(omitted ? nil : ["count/min", "Zürich \"quoted\"", "HKQuantityTypeIdentifierHeartRate"][random.below(3)])
                }
            }
            series.append(numbers: numbers, strings: strings)
        }
        if kind == .deviceMotion, let accuracy = kind.schema.index(of: "magneticField.accuracy") {
            // Accuracy −1 with a non-zero field stays a value; the all-zero placeholder would not.
            for item in 0..<count where !series.numeric[accuracy][item].isNaN {
                series.numeric[accuracy][item] = 2
            }
        }
        return series
    }

    @Test("encode → decode gives identical columns", arguments: RecorderKind.allCases)
    func roundTrip(kind: RecorderKind) throws {
        let series = Self.randomSeries(kind, count: 300, seed: 7)
        let bytes = try RecorderItemEncoder(kind: kind).document(series)
        #expect(bytes.starts(with: Array(#"{"items":[{"#.utf8)))
        #expect(bytes.suffix(2) == [UInt8(ascii: "]"), UInt8(ascii: "}")])
        let contents = try JSONContents.decode(bytes, file: "\(kind.recorderType)_X-20190527003506.json")
        #expect(contents.layout == .recorderLog(kind))
        let decoded = try #require(contents.series.first)
        #expect(decoded.warnings.isEmpty)
        #expect(decoded.series.count == 300)
        for (index, field) in kind.schema.fields.enumerated() {
            if field.type == .string {
                #expect(decoded.series.text[index] == series.text[index], "\(field.name)")
            } else {
                let same = zip(decoded.series.numeric[index], series.numeric[index]).allSatisfy {
                    $0.bitPattern == $1.bitPattern || ($0.isNaN && $1.isNaN)
                }
                #expect(same, "\(field.name)")
            }
        }
        // The same items as a bare array (Synapse downloads) decode to the same series.
        let bare = Array(bytes.dropFirst(9).dropLast(1))
        let fromArray = try JSONContents.decode(bare, file: "x.json")
        #expect(fromArray.layout == .bareItemArray(kind))
        #expect(fromArray.series.first?.series == decoded.series)
        // Foundation's parser agrees that the document is valid JSON with the same item count.
        let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        #expect((object?["items"] as? [Any])?.count == 300)
    }

    @Test("optional fields are omitted, never null; integral numbers have no fraction")
    func omission() throws {
        var series = SensorSeries(kind: .pedometer, utcOffsetSeconds: 3600)
        series.append(numbers: [1_767_265_200, 1_767_265_201, 12, .nan, .nan, .nan])
        let text = String(decoding: try RecorderItemEncoder(kind: .pedometer).document(series), as: UTF8.self)
        #expect(text == #"{"items":[{"startDate":"2026-01-01T12:00:00+0100","endDate":"2026-01-01T12:00:01+0100","numberOfSteps":12}]}"#)
    }

    @Test("NaN in a required field and fractions in integer fields are rejected")
    func rejects() {
        var series = SensorSeries(kind: .accelerometer)
        series.append(numbers: [1, .nan, .nan, 0, 0])
        #expect(throws: RecorderItemEncoder.EncodingError.self) { try RecorderItemEncoder(kind: .accelerometer).document(series) }
        var touch = SensorSeries(kind: .touch)
        touch.append(numbers: [1, 0.5, 0, 1, 1, 1, 1])
        #expect(throws: RecorderItemEncoder.EncodingError.self) { try RecorderItemEncoder(kind: .touch).document(touch) }
    }
}

