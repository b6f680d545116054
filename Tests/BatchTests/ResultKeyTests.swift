import Foundation
import Testing
import SensorData
import TestSupport
@testable import Batch
@testable import Scoring

/// Result keys hold exactly the parameters a scorer receives (issue 17, item 2): every field of
/// every analyzer's `Parameters` is in its canonical encoding, so changing any one of them, or
/// any default, gives a new key and a rerun recomputes that result.
@Suite struct ResultKeyTests {
    static let analyzers = Scoring.Analyzer.allCases

    /// The leaf paths of a JSON object (`analysis.rateHz`, `csv.oxford`).
    static func leaves(_ object: JSONObject, prefix: [String] = []) -> [[String]] {
        object.members.flatMap { key, value -> [[String]] in
            if let nested = value.object { return leaves(nested, prefix: prefix + [key]) }
            return [prefix + [key]]
        }
    }

    /// `object` with the member `key` replaced.
    static func replacing(_ object: JSONObject, _ key: String, with value: JSONValue) -> JSONObject {
        var copy = JSONObject()
        for (name, old) in object.members { copy.append(name, name == key ? value : old) }
        return copy
    }

    /// `object` with the leaf at `path` changed: numbers +1 (×2 when large), booleans negated,
    /// strings replaced by another value of their type that decodes, lists without their last item.
    static func perturbed(_ object: JSONObject, _ path: [String], alternatives: [String: String]) -> JSONObject {
        let key = path[0]
        if path.count > 1 {
            return replacing(object, key, with: .object(perturbed(object[key]?.object ?? JSONObject(), Array(path.dropFirst()), alternatives: alternatives)))
        }
        switch object[key] {
        case .bool(let flag)?: return replacing(object, key, with: .bool(!flag))
        case .number(let number)?: return replacing(object, key, with: .number(abs(number) > 1000 ? number * 2 : number + 1))
        case .string(let text)?: return replacing(object, key, with: .string(alternatives[key] ?? text + " (changed)"))
        case .array(let items)? where items.count > 1: return replacing(object, key, with: .array(Array(items.dropLast())))
        default:
            Issue.record("\(path): not a number, boolean, string or list of two or more")
            return object
        }
    }

    @Test("changing any parameter of any analyzer (every leaf of its Codable parameters) changes its result key and no other analyzer's; each key's parameter text is Foundation's JSONEncoder's")
    func everyParameterIsInTheKey() throws {
        // Optionals that are nil by default, given values so that they are encoded and perturbed too.
        var populated = AnalyzerParameters()
        populated.tapping.identifier = "tapping.right"
        populated.voice.calibrationOffsetDecibels = 100
        populated.audiometry.identifier = "dBHL"
        populated.gait.csv.timeColumn = "1"
        populated.gait.csv.xColumn = "2"
        populated.gait.csv.yColumn = "3"
        populated.gait.csv.zColumn = "4"
        populated.gait.csv.timeUnit = .seconds
        populated.gait.csv.accelerationUnit = .g
        let alternatives = ["convention": "little", "tables": "rk-2.x", "timeUnit": "ms", "accelerationUnit": "m/s2", "orientation": "landscape", "method": "psd"]

        let encoded = try #require(JSONValue.parse(Array(JSONEncoder().encode(populated)), file: "parameters").object)
        for analyzer in Self.analyzers {
            let section = try #require(encoded[analyzer.rawValue]?.object, "\(analyzer)")
            // Every stored property is encoded (a property left out of the Codable keys would not key results).
            let properties = Self.propertyCount(of: analyzer, populated)
            #expect(Self.leaves(section).count == properties, "\(analyzer): \(Self.leaves(section).count) encoded leaves, \(properties) stored properties")
            var plan = AnalysisPlan.plan(analyzer, "f")
            plan.settings = populated
            let baseKey = plan.parameters
            let otherKeys = Self.analyzers.filter { $0 != analyzer }.map { other -> String in
                var otherPlan = AnalysisPlan.plan(other, "f")
                otherPlan.settings = populated
                return otherPlan.parameters
            }
            for leaf in Self.leaves(section) where !(["identifier"].contains(leaf.last!)) {
                let changed = Self.replacing(encoded, analyzer.rawValue, with: .object(Self.perturbed(section, leaf, alternatives: alternatives)))
                let settings = try JSONDecoder().decode(AnalyzerParameters.self, from: Data(JSONWriter().string(.object(changed)).utf8))
                var changedPlan = AnalysisPlan.plan(analyzer, "f")
                changedPlan.settings = settings
                #expect(changedPlan.parameters != baseKey, "\(analyzer).\(leaf.joined(separator: ".")) is not in the key")
                #expect(changedPlan.parameters == (try Self.foundationText(changedPlan.effective[analyzer])), "\(analyzer).\(leaf.joined(separator: ".")): not Foundation's text")
                for (other, key) in zip(Self.analyzers.filter { $0 != analyzer }, otherKeys) {
                    var otherPlan = AnalysisPlan.plan(other, "f")
                    otherPlan.settings = settings
                    #expect(otherPlan.parameters == key, "changing \(analyzer).\(leaf.joined(separator: ".")) changed \(other)'s key")
                }
            }
        }
    }

    /// Foundation's JSONEncoder with the options result keys were first written with: the text
    /// ``AnalyzerParameters/canonical(_:)`` must keep giving (stored keys hold it).
    static func foundationText(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Every kind of value a parameter can hold, nested, with keys whose UTF-8 order differs
    /// from a case-insensitive or numeric one.
    struct Hostile: Encodable {
        var text = "a/b \"q\" \\ \u{8}\u{C}\n\r\t\u{1}\u{1F}\u{7F}\u{85} é \u{2028} 😀"
        var numbers: [Double] = [0, -0.0, 1, -1, 0.1, 1e-5, 1.5e-7, 123456789012345, 9_007_199_254_740_991, 1e15 + 0.5, 4503599627370495.5,
                                 .leastNonzeroMagnitude, .leastNormalMagnitude, .infinity, -.infinity, .nan, 48000, 0.30000000000000004, -2.5e-300]
        var integers = [0, -1, 48_000, 9_007_199_254_740_991, -9_007_199_254_740_991]
        var flag = true
        var absent: Double?
        var present: String? = "x"
        var order = ["b": 1, "B": 2, "a10": 3, "a2": 4, "é": 5, "z": 6, "": 7]
        var nested = [["k": [1.25]], [:]]
    }

    @Test("the canonical parameter text equals Foundation's JSONEncoder's: every analyzer's defaults and a set with hostile strings and numbers, hostile strings, numbers and key orders; integers of 2^53 and more through the encoder itself")
    func canonicalTextIsFoundations() throws {
        let defaults = AnalyzerParameters()
        for analyzer in Self.analyzers {
            #expect(defaults.canonical(analyzer) == (try Self.foundationText(defaults[analyzer])), "\(analyzer)")
        }
        #expect(AnalyzerParameters.canonical(Hostile()) == (try Self.foundationText(Hostile())))
        #expect(CanonicalJSON.text(try JSONValueEncoder().encode(Hostile())) != nil)
        // Integral numbers of 2^53 and more, Int or Double: the tree holds both as Doubles, so
        // their text is the encoder's.
        var large: [Hostile] = [9_007_199_254_740_992, 10_000_000_000_000_001, Int.max, Int.min].map { value in
            var hostile = Hostile()
            hostile.integers.append(value)
            return hostile
        }
        large += [9_007_199_254_740_992.0, 1e16, -1e300, .greatestFiniteMagnitude].map { value in
            var hostile = Hostile()
            hostile.numbers.append(value)
            return hostile
        }
        for hostile in large {
            #expect(CanonicalJSON.text(try JSONValueEncoder().encode(hostile)) == nil)
            #expect(AnalyzerParameters.canonical(hostile) == (try Self.foundationText(hostile)))
        }
        var perturbed = AnalyzerParameters()
        perturbed.tapping.identifier = "tapping/right \"1\""
        perturbed.spl.calibrationSource = "é\u{1}\t/"
        perturbed.spl.calibrationOffsetDecibels = -0.0
        perturbed.voice.calibrationOffsetDecibels = 1e-300
        perturbed.gait.csv.timeColumn = "Zeit (s)"
        for analyzer in Self.analyzers {
            #expect(perturbed.canonical(analyzer) == (try Self.foundationText(perturbed[analyzer])), "\(analyzer)")
        }
    }

    /// Stored properties of the analyzer's parameters, nested structs counted by their leaves.
    static func propertyCount(of analyzer: Scoring.Analyzer, _ parameters: AnalyzerParameters) -> Int {
        func count(_ value: Any) -> Int {
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .struct, !mirror.children.isEmpty else { return 1 }
            return mirror.children.reduce(0) { $0 + count($1.value) }
        }
        switch analyzer {
        case .tapping: return count(parameters.tapping)
        case .gait: return count(parameters.gait)
        case .spl: return count(parameters.spl)
        case .voice: return count(parameters.voice)
        case .audiometry: return count(parameters.audiometry)
        case .loudness: return count(parameters.loudness)
        case .balance: return count(parameters.balance)
        case .rangeOfMotion: return count(parameters.rangeOfMotion)
        case .walkTest: return count(parameters.walkTest)
        case .tremor: return count(parameters.tremor)
        case .heartRate: return count(parameters.heartRate)
        }
    }

    @Test("the key of one file's tapping result names its step identifier; an AUXU row its row")
    func perUnitFieldsInTheKey() {
        let right = AnalysisPlan.plan(.tapping, "f", identifier: "tapping.right").parameters
        let left = AnalysisPlan.plan(.tapping, "f", identifier: "tapping.left").parameters
        #expect(right != left && right.contains(#""identifier":"tapping.right""#))
        #expect(AnalysisPlan.plan(.audiometry, "f", row: 2).parameters.contains(#""row":2"#))
    }
}
