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
                    // A field with a plausible range (counts from 0) takes values from its lower end.
                    let value = random.unit() * 4 - 2
                    numbers.append(omitted ? .nan : (field.name.hasPrefix("timestamp") ? 1000 + Double(item) / 100 + random.unit() * 1e-3
                                                                                         : field.plausible.map { $0.lowerBound + abs(value) } ?? value))
                    strings.append(nil)
                case .integer:
                    numbers.append(omitted ? .nan : Double(random.below(7)) + (field.plausible?.lowerBound ?? -1))
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


/// The item decoder's guess of each key from the previous item (``ItemColumnsDecoder``): keys in
/// another order, with whitespace, escaped, unknown, nested in another order, and more keys in
/// one object than it remembers places for, all land in their own columns.
@Suite struct ItemKeyGuessTests {
    @Test("reordered, spaced, escaped and unknown keys, and items of 150 keys, each value in its own column")
    func keysOutOfStep() throws {
        let unknown = (0..<150).map { "\"extra\($0)\":[\($0),{\"x\":\($0)}]" }.joined(separator: ",")
        let items = [
            #"{"x":1,"y":2,"z":3,"timestamp":0}"#,
            #"{"timestamp":1,"z":6,"y":5,"x":4}"#,
            #"{ "x" : 7 ,"y":8,"z":9, "timestamp":2}"#,
            #"{"\u0078":10,"y":11,"z":12,"timestamp":3}"#,
            "{\(unknown),\"x\":13,\"y\":14,\"z\":15,\"timestamp\":4}",
            "{\(unknown),\"x\":16,\"y\":17,\"z\":18,\"timestamp\":5}",
            #"{"x":19,"y":20,"z":21,"timestamp":6}"#,
        ]
        let contents = try JSONContents.decode(Array(("{\"items\":[" + items.joined(separator: ",") + "]}").utf8), file: "accel_walking.outbound.json")
        let series = try #require(contents.series.first?.series)
        #expect(series["timestamp"] == (0...6).map(Double.init))
        #expect(series["x"] == [1, 4, 7, 10, 13, 16, 19])
        #expect(series["y"] == [2, 5, 8, 11, 14, 17, 20])
        #expect(series["z"] == [3, 6, 9, 12, 15, 18, 21])
    }

    @Test("device motion with its groups in another order each item: every x, y, z in its group's column")
    func nestedGroupsOutOfStep() throws {
        func item(_ t: Int, _ groups: [String]) -> String {
            let values = ["gravity": 100, "userAcceleration": 200, "rotationRate": 300, "attitude": 400]
            let parts = groups.map { group in
                let base = values[group]! + 10 * t
                let w = group == "attitude" ? ",\"w\":\(base + 3)" : ""
                return "\"\(group)\":{\"x\":\(base),\"y\":\(base + 1),\"z\":\(base + 2)\(w)}"
            }
            return "{\"timestamp\":\(t)," + parts.joined(separator: ",") + "}"
        }
        let orders = [["gravity", "userAcceleration", "rotationRate", "attitude"], ["userAcceleration", "gravity", "attitude", "rotationRate"],
                      ["attitude", "rotationRate", "userAcceleration", "gravity"], ["gravity", "userAcceleration", "rotationRate", "attitude"]]
        let text = "{\"items\":[" + orders.indices.map { item($0, orders[$0]) }.joined(separator: ",") + "]}"
        let contents = try JSONContents.decode(Array(text.utf8), file: "deviceMotion_walking.rest.json")
        let series = try #require(contents.series.first?.series)
        for (group, base) in [("gravity", 100.0), ("userAcceleration", 200), ("rotationRate", 300), ("attitude", 400)] {
            for (axis, offset) in [("x", 0.0), ("y", 1), ("z", 2)] {
                #expect(series["\(group).\(axis)"] == (0..<4).map { base + 10 * Double($0) + offset }, "\(group).\(axis)")
            }
        }
    }
}
