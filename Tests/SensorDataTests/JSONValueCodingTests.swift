import Foundation
import Testing
@testable import SensorData

/// ``JSONValueDecoder`` and ``JSONValueEncoder`` against Foundation's JSON coders on the same
/// documents (the decoder on the text ``JSONWriter`` writes of the same value, the encoder's tree
/// against Foundation's text parsed back).
@Suite struct JSONValueCodingTests {
    struct Nested: Codable, Equatable {
        var rate: Double
        var labels: [String]
    }

    enum Mode: String, Codable { case fast, exact }

    struct Record: Codable, Equatable {
        var count: Int
        var small: Int8
        var unsigned: UInt
        var ratio: Double
        var single: Float
        var flag: Bool
        var name: String
        var mode: Mode
        var optional: Double?
        var nested: Nested
        var matrix: [[Int]]
    }

    /// How a decode ended: the value, or the kind of error and its coding path.
    enum Outcome: Equatable {
        case value(String)
        case typeMismatch([String])
        case valueNotFound([String])
        case keyNotFound([String])
        case dataCorrupted([String])
        case other
    }

    static func outcome(_ body: () throws -> Any) -> Outcome {
        func path(_ context: DecodingError.Context) -> [String] { context.codingPath.map { $0.intValue.map { "\($0)" } ?? $0.stringValue } }
        do { return .value("\(try body())") } catch let error as DecodingError {
            switch error {
            case .typeMismatch(_, let context): return .typeMismatch(path(context))
            case .valueNotFound(_, let context): return .valueNotFound(path(context))
            case .keyNotFound(let key, let context): return .keyNotFound(path(context) + [key.stringValue])
            case .dataCorrupted(let context): return .dataCorrupted(path(context))
            @unknown default: return .other
            }
        } catch { return .other }
    }

    static func replacing(_ object: JSONObject, _ key: String, _ value: JSONValue) -> JSONObject {
        var result = JSONObject()
        for (name, old) in object.members where name != key { result.append(name, old) }
        result.append(key, value)
        return result
    }

    /// Every scalar member given numbers, strings, booleans and null in turn: the same value or
    /// the same kind of error at the same path as Foundation's decoder reading JSONWriter's text.
    @Test("decoding decides as Foundation's JSONDecoder does on JSONWriter's text: every member given 24 kinds of value")
    func decodingAgreesWithFoundation() throws {
        let base = try #require(try JSONValueEncoder().encode(Record(count: 3, small: 1, unsigned: 2, ratio: 0.5, single: 0.25, flag: true, name: "a", mode: .fast,
                                                                    optional: nil, nested: Nested(rate: 100, labels: ["x"]), matrix: [[1, 2], [3]])).object)
        let values: [JSONValue] = [
            .number(5), .number(5.5), .number(-0.0), .number(-1), .number(127), .number(128), .number(255), .number(1e300), .number(-1e300),
            .number(9_007_199_254_740_992), .number(9_007_199_254_740_994), .number(-9_223_372_036_854_775_808), .number(.nan),
            .number(.infinity), .number(-.infinity), .number(3.5e38), .number(4e38), .number(.leastNonzeroMagnitude),
            .string("5"), .string("fast"), .string("NaN"), .bool(true), .null, .array([.number(1)]),
        ]
        var checked = 0
        for key in ["count", "small", "unsigned", "ratio", "single", "flag", "name", "mode", "optional"] {
            for value in values {
                let document = JSONValue.object(Self.replacing(base, key, value))
                let ours = Self.outcome { try JSONValueDecoder().decode(Record.self, from: document) }
                var foundation = Self.outcome { try JSONDecoder().decode(Record.self, from: Data(JSONWriter().string(document).utf8)) }
                // Foundation finds a number that does not fit while it reads the text, before any
                // key (path []); this decoder names the key. An integer member beyond ±2^53 (a
                // Double's exact integers) is refused even where the type would hold it.
                if case .dataCorrupted([]) = foundation { foundation = .dataCorrupted([key]) }
                if ["count", "unsigned"].contains(key), let number = value.number, number.isFinite, abs(number) > 9_007_199_254_740_992 {
                    foundation = .dataCorrupted([key])
                }
                // A NaN or an infinity is a mismatch wherever it is given (JSONWriter's text holds
                // it as a string, which Foundation reads into a string member).
                if let number = value.number, !number.isFinite { foundation = .typeMismatch([key]) }
                // Foundation calls a null Bool a type mismatch, any other null a missing value;
                // a configuration's message is the same for both (BatchConfiguration.overriding).
                if case .valueNotFound(let path) = ours, case .typeMismatch(path) = foundation { foundation = ours }
                #expect(ours == foundation, "\(key) = \(value)")
                checked += 1
            }
        }
        #expect(checked == 216)
    }

    @Test("a missing member, a nested array's wrong item and a non-object are the errors Foundation names, with their paths")
    func structuralErrors() throws {
        let record = Record(count: 3, small: 1, unsigned: 2, ratio: 0.5, single: 0.25, flag: false, name: "b", mode: .exact, optional: 2,
                            nested: Nested(rate: 1, labels: []), matrix: [[1], [2, 3]])
        let tree = try JSONValueEncoder().encode(record)
        #expect(try JSONValueDecoder().decode(Record.self, from: tree) == record)
        let object = try #require(tree.object)
        var missing = JSONObject()
        for (key, value) in object.members where key != "ratio" { missing.append(key, value) }
        let badItem = Self.replacing(object, "matrix", .array([.array([.number(1)]), .array([.number(2), .string("3")])]))
        for document in [JSONValue.object(missing), .object(badItem), .array([]), .number(1), .null] {
            let ours = Self.outcome { try JSONValueDecoder().decode(Record.self, from: document) }
            let foundation = Self.outcome { try JSONDecoder().decode(Record.self, from: Data(JSONWriter().string(document).utf8)) }
            #expect(ours == foundation && ours != .other, "\(JSONWriter().string(document))")
        }
        #expect(Self.outcome { try JSONValueDecoder().decode(Record.self, from: .object(badItem)) } == .typeMismatch(["matrix", "1", "1"]))
    }

    /// The encoder's tree is what Foundation's text of the same value parses to, with sorted keys
    /// at every level as Foundation's `.sortedKeys` writes them; nil optionals left out.
    @Test("encoding gives the tree of Foundation's sorted-key text, nil members left out")
    func encodingAgreesWithFoundation() throws {
        let records = [
            Record(count: -7, small: -128, unsigned: 0, ratio: 1e-5, single: 3.5, flag: true, name: "é\u{1}", mode: .exact, optional: nil,
                   nested: Nested(rate: 0.1, labels: ["b", "a"]), matrix: []),
            Record(count: 9_007_199_254_740_992, small: 127, unsigned: 42, ratio: -0.0, single: -1e-3, flag: false, name: "", mode: .fast,
                   optional: 123.456, nested: Nested(rate: 1e300, labels: []), matrix: [[], [1, -2]]),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for record in records {
            let foundation = try JSONValue.parse(Array(try encoder.encode(record)), file: "foundation")
            let ours = try JSONValueEncoder(sortedKeys: true).encode(record)
            #expect(ours == foundation)
            #expect(JSONWriter().string(ours) == JSONWriter().string(foundation))
            #expect(try JSONValueEncoder().encode(record).object?.keys.first == "count")
        }
    }
}
