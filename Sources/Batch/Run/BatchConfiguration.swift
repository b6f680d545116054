import Crypto
import Foundation
import InputGuards
import SensorData
import Scoring
internal import TOMLKit

/// What `activetask batch --config FILE` sets (TOML 1.0): a `[batch]` section choosing the
/// analyzers and how stand-alone audio is scored, and one section per analyzer whose keys are the
/// fields of its `Parameters` (nested structs as subtables, e.g. `[gait.analysis]`):
///
/// ```toml
/// [batch]
/// analyzers = ["tapping", "gait", "voice"]   # default: every analyzer that applies
/// audio = "voice"                             # or "environmentNoise", "both"
///
/// [spl]
/// calibrationOffsetDecibels = 111.28          # or calibrationFile = "calibration.json"
/// thresholdDecibels = 40                      # default 35
///
/// [voice]
/// pitchFloorHz = 60
/// pitchCeilingHz = 500
///
/// [tapping]
/// convention = "little"
///
/// [gait.analysis]
/// minimumBoutSeconds = 4
/// ```
///
/// Keys not set keep the defaults of the scorers' `Parameters`. An unknown section or key, a
/// value of the wrong type and a value outside the analyzer's range are errors naming the file
/// and the key. Every value set enters the result keys of its analyzer only.
public struct BatchConfiguration: Sendable, Hashable {
    /// How a stand-alone audio file (no task around it that says otherwise) is scored.
    public enum AudioTask: String, Sendable, Hashable, Codable, CaseIterable {
        /// Sustained phonation (`voice`), as the ResearchKit voice task records (default).
        case voice
        /// A room-noise check (`spl`), as the environment SPL meter step records.
        case environmentNoise
        /// Both analyzers.
        case both

        var analyzers: [Analyzer] {
            switch self {
            case .voice: [.voice]
            case .environmentNoise: [.spl]
            case .both: [.voice, .spl]
            }
        }
    }

    public var parameters = AnalyzerParameters()
    /// The analyzers to run (nil: every one that applies).
    public var analyzers: Set<Analyzer>?
    public var audio = AudioTask.voice

    public init() {}

    /// The configuration in a TOML file; errors name the file and the key.
    public static func read(_ path: String) throws(ReadError) -> BatchConfiguration {
        let bytes = try FileBytes.read(path, maximumBytes: 1 << 20)
        return try parse(toml: String(decoding: bytes, as: UTF8.self), file: path, folder: (path as NSString).deletingLastPathComponent)
    }

    /// The configuration of TOML text (`file` names it in errors; relative paths are under `folder`).
    public static func parse(toml text: String, file: String, folder: String = ".") throws(ReadError) -> BatchConfiguration {
        try refuseHeadersTOMLKitAsserts(text, file: file)
        try refuseMismatchedBrackets(text, file: file)
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let error as TOMLParseError {
            throw ReadError(file: file, reason: .invalidValue("not TOML: \(error.description) at line \(error.source.begin.line), column \(error.source.begin.column)"))
        } catch {
            throw ReadError(file: file, reason: .invalidValue("not TOML: \(error)"))
        }
        return try parse(table, file: file, folder: folder)
    }

    private static func parse(_ table: TOMLTable, file: String, folder: String) throws(ReadError) -> BatchConfiguration {
        func invalid(_ message: String) -> ReadError { ReadError(file: file, reason: .invalidValue(message)) }
        var configuration = BatchConfiguration()
        var document = try json(table, path: [], file: file)
        let sections = ["batch"] + AnalyzerParameters.sections
        for key in document.keys where !sections.contains(key) {
            throw invalid("unknown section [\(key)]; known: " + sections.map { "[\($0)]" }.joined(separator: ", "))
        }
        if let batch = document["batch"]?.object {
            for (key, value) in batch.members {
                switch key {
                case "analyzers":
                    guard let names = value.array?.map(\.string), names.allSatisfy({ $0 != nil }) else {
                        throw invalid("[batch] analyzers must be a list of names")
                    }
                    var chosen = Set<Analyzer>()
                    for name in names.compactMap({ $0 }) {
                        guard let analyzer = Analyzer(rawValue: name) else {
                            throw invalid("[batch] analyzers: unknown analyzer \"\(name)\"; known: \(Analyzer.allCases.map(\.rawValue).joined(separator: ", "))")
                        }
                        chosen.insert(analyzer)
                    }
                    configuration.analyzers = chosen
                case "audio":
                    guard let name = value.string, let task = AudioTask(rawValue: name) else {
                        throw invalid("[batch] audio must be one of \(AudioTask.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
                    }
                    configuration.audio = task
                default:
                    throw invalid("unknown key \"\(key)\" in [batch]; known: analyzers, audio")
                }
            }
        }
        // `calibrationFile` stands for the offset a calibration (`activetask calibrate --json`) measured.
        if var spl = document["spl"]?.object, let name = spl["calibrationFile"] {
            guard spl["calibrationOffsetDecibels"] == nil else { throw invalid("[spl] sets both calibrationFile and calibrationOffsetDecibels; keep one") }
            guard let relative = name.string else { throw invalid("[spl] calibrationFile must be a path") }
            let path = relative.hasPrefix("/") ? relative : (folder as NSString).appendingPathComponent(relative)
            let bytes = try FileBytes.read(path, maximumBytes: 1 << 20)
            let calibration = try JSONValue.parse(bytes, file: path)
            guard let offset = calibration.object?["calibrationOffsetDecibels"]?.number else {
                throw ReadError(file: path, reason: .invalidValue("no number \"calibrationOffsetDecibels\" (the JSON object `activetask calibrate` prints)"))
            }
            var rest = JSONObject()
            for (key, value) in spl.members where key != "calibrationFile" { rest.append(key, value) }
            rest.append("calibrationOffsetDecibels", .number(offset))
            // By content, never by path: the source is part of every SPL result's key, and the same
            // calibration reached as `./c.json` or `c.json` must key the same results.
            let digest = SHA256.hash(data: bytes).hexadecimal
            rest.append("calibrationSource", .string("calibration file sha256:\(digest)"))
            spl = rest
            document = document.replacing("spl", with: .object(spl))
        } else if let spl = document["spl"]?.object, spl["calibrationOffsetDecibels"] != nil, spl["calibrationSource"] == nil {
            // The offset itself is in the key; the file's path is not.
            document = document.replacing("spl", with: .object(spl.replacing("calibrationSource", with: .string("configuration file"))))
        }
        return try configuration.overriding(document, file: file)
    }

    /// This configuration with `document`'s analyzer sections (section → key → value, nested
    /// objects for nested parameters) laid over its parameters: what `--config` and each
    /// command-line parameter option do, in that order. Errors name `file` (the configuration,
    /// or the command line) and the key.
    public func overriding(_ document: JSONObject, file: String) throws(ReadError) -> BatchConfiguration {
        func invalid(_ message: String) -> ReadError { ReadError(file: file, reason: .invalidValue(message)) }
        var configuration = self
        // Each analyzer's section over the current parameters: decoded, re-encoded, and every key
        // set must be there (a key the type does not have would otherwise be dropped silently).
        let current = AnalyzerParameters.encoded(parameters)
        var merged = JSONObject()
        for section in AnalyzerParameters.sections {
            let base = current[section]?.object ?? JSONObject()
            merged.append(section, .object(document[section]?.object.map { base.merging($0) } ?? base))
        }
        do {
            configuration.parameters = try JSONDecoder().decode(AnalyzerParameters.self, from: Data(JSONWriter().string(.object(merged)).utf8))
        } catch let DecodingError.typeMismatch(type, context), let DecodingError.valueNotFound(type, context) {
            throw invalid("[\(context.codingPath.map(\.stringValue).dropLast().joined(separator: "."))] \(context.codingPath.last?.stringValue ?? "?") must be \(Self.typeName(type))")
        } catch let DecodingError.dataCorrupted(context) {
            throw invalid("[\(context.codingPath.map(\.stringValue).dropLast().joined(separator: "."))] \(context.codingPath.last?.stringValue ?? "?"): \(context.debugDescription)")
        } catch {
            throw invalid("\(error)")
        }
        let used = AnalyzerParameters.encoded(configuration.parameters)
        for section in AnalyzerParameters.sections {
            for path in document[section]?.object.map({ Self.leaves($0) }) ?? [] where used[section]?.object?.value(at: path) == nil {
                throw invalid("unknown key \"\(path.joined(separator: "."))\" in [\(section)]; known: \(Self.leaves(current[section]?.object ?? JSONObject()).map { $0.joined(separator: ".") }.joined(separator: ", "))")
            }
        }
        if let problem = configuration.parameters.problem { throw invalid(problem) }
        return configuration
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type, is Optional<Double>.Type: "a number"
        case is Bool.Type: "true or false"
        case is String.Type, is Optional<String>.Type: "a string"
        default: "one of its documented values"
        }
    }

    /// Refuses a line that opens a table header (`[` or `[[` at its start) whose key does not
    /// start on that line with a bare-key character (A–Z, a–z, 0–9, `_`, `-`) or a quote, and
    /// does not close at once. toml++ (inside TOMLKit) asserts that it never sees one and aborts
    /// the process (`[;gait.analysis]`, found by fuzz-config; `[` alone on a line, `[ #`, `[=a]`);
    /// such a header is invalid TOML anyway. A line inside a multi-line array that starts with
    /// `[+1]`, `[{…}]` or a lone `[` is refused too: no parameter is such a list.
    static func refuseHeadersTOMLKitAsserts(_ text: String, file: String) throws(ReadError) {
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = line.drop { $0 == " " || $0 == "\t" }
            guard rest.first == "[" else { continue }
            rest = rest.dropFirst()
            if rest.first == "[" { rest = rest.dropFirst() }
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let first = rest.unicodeScalars.first
            let allowed = first.map { ("0"..."9").contains($0) || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ["_", "-", "\"", "'", "]"].contains($0) }
            guard allowed == true else {
                throw ReadError(file: file, reason: .invalidValue("not TOML: a table header at line \(number + 1) needs a key on its line, "
                    + "starting with a letter, digit, _, - or a quote\(first.map { ", not \(ReadError.quote(String($0)))" } ?? "")"))
            }
        }
    }

    /// A `}` that closes an array or a `]` that closes an inline table (outside strings and
    /// comments) is refused here: toml++ inside TOMLKit asserts on `x = [}` and aborts the
    /// process (found by Fuzz/ fuzz-config).
    static func refuseMismatchedBrackets(_ text: String, file: String) throws(ReadError) {
        var open: [Unicode.Scalar] = []
        var line = 1
        var quote: Unicode.Scalar?
        var escaped = false
        var comment = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                line += 1
                comment = false
                if quote == "\"" || quote == "'" { quote = nil }
                continue
            }
            if comment { continue }
            if let current = quote {
                if escaped { escaped = false } else if current == "\"", scalar == "\\" { escaped = true } else if scalar == current { quote = nil }
                continue
            }
            switch scalar {
            case "#": comment = true
            case "\"", "'": quote = scalar
            case "[", "{": open.append(scalar)
            case "]", "}":
                let expected: Unicode.Scalar = scalar == "]" ? "[" : "{"
                if let last = open.last, last != expected {
                    throw ReadError(file: file, reason: .invalidValue("not TOML: line \(line) closes \(last == "[" ? "an array" : "an inline table") with \(ReadError.quote(String(scalar)))"))
                }
                if !open.isEmpty { open.removeLast() }
            default: break
            }
        }
    }

    /// The deepest nesting of tables and arrays a configuration may have. Parameters are at most
    /// three levels deep (`[gait.analysis]` and a list in it); the conversion below recurses once
    /// per level, so a deeper file (a header of 10,000 dotted keys) is refused, not followed.
    static let maximumDepth = 8

    /// A TOML table as JSON (integers and floats both numbers; dates refused).
    private static func json(_ table: TOMLTable, path: [String], file: String) throws(ReadError) -> JSONObject {
        var object = JSONObject()
        for (key, value) in table {
            object.append(key, try json(value, path: path + [key], file: file))
        }
        return object
    }

    private static func json(_ value: any TOMLValueConvertible, path: [String], file: String) throws(ReadError) -> JSONValue {
        guard path.count <= maximumDepth else {
            let shown = path.prefix(maximumDepth).joined(separator: ".")
            throw ReadError(file: file, reason: .invalidValue("\(shown)…: tables or arrays nested deeper than \(maximumDepth) levels; no parameter is that deep"))
        }
        switch value.type {
        case .table: return .object(try json(value.table ?? TOMLTable(), path: path, file: file))
        case .array:
            var items: [JSONValue] = []
            for item in value.array.map(Array.init) ?? [] {
                items.append(try json(item, path: path + ["\(items.count)"], file: file))
            }
            return .array(items)
        case .string: return .string(value.string ?? "")
        case .int: return .number(Double(value.int ?? 0))
        case .double: return .number(value.double ?? .nan)
        case .bool: return .bool(value.bool ?? false)
        case .date, .time, .dateTime:
            throw ReadError(file: file, reason: .invalidValue("\(path.joined(separator: ".")): dates and times are not parameters"))
        }
    }

    /// The paths of `object`'s non-object values (`analysis.rateHz`).
    public static func leaves(_ object: JSONObject, prefix: [String] = []) -> [[String]] {
        object.members.flatMap { key, value -> [[String]] in
            if let nested = value.object { return leaves(nested, prefix: prefix + [key]) }
            return [prefix + [key]]
        }
    }
}

extension AnalyzerParameters {
    /// The configuration sections, one per analyzer (the `CodingKeys` of this type).
    static let sections = Analyzer.allCases.map(\.rawValue)

    /// The parameters as JSON, section → key → value.
    public static func encoded(_ parameters: AnalyzerParameters) -> JSONObject {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(parameters)) ?? Data("{}".utf8)
        return (try? JSONValue.parse(Array(data), file: "parameters"))?.object ?? JSONObject()
    }

    /// Why these parameters cannot be used (nil: they can), naming the section.
    public var problem: String? {
        if let problem = spl.problem { return "[spl] " + problem }
        if let problem = voice.problem { return "[voice] " + problem }
        if let problem = gait.analysis.problem { return "[gait.analysis] " + problem }
        if let problem = tapping.problem { return "[tapping] " + problem }
        return nil
    }
}

extension JSONObject {
    /// This object with `other`'s members laid over it (objects merged member by member).
    func merging(_ other: JSONObject) -> JSONObject {
        var result = self
        for (key, value) in other.members {
            if let mine = result[key]?.object, let theirs = value.object {
                result = result.replacing(key, with: .object(mine.merging(theirs)))
            } else {
                result = result.replacing(key, with: value)
            }
        }
        return result
    }

    /// This object with member `key` set to `value` (appended when absent).
    func replacing(_ key: String, with value: JSONValue) -> JSONObject {
        var copy = JSONObject()
        var found = false
        for (name, old) in members {
            if name == key {
                if !found { copy.append(name, value) }
                found = true
            } else {
                copy.append(name, old)
            }
        }
        if !found { copy.append(key, value) }
        return copy
    }

    /// The value at `path` (keys of nested objects), or nil.
    public func value(at path: [String]) -> JSONValue? {
        guard let first = path.first, let value = self[first] else { return nil }
        return path.count == 1 ? value : value.object?.value(at: Array(path.dropFirst()))
    }
}
