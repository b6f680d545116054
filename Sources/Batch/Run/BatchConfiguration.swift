import Foundation
import InputGuards
import SensorData
import Scoring

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
    public enum AudioTask: String, Sendable, Hashable, Codable, CaseIterable, NamedChoice {
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

    /// Every analyzer's parameters (one section per analyzer).
    public var parameters = AnalyzerParameters()
    /// The analyzers to run (nil: every one that applies).
    public var analyzers: Set<Analyzer>?
    /// How stand-alone audio files are scored: voice, environmentNoise (spl) or both.
    public var audio = AudioTask.voice

    public init() {}

    /// The configuration in a TOML file; errors name the file, and the line or the key.
    public static func read(_ path: String) throws(ReadError) -> BatchConfiguration {
        let bytes = try FileBytes.read(path, maximumBytes: 1 << 20)
        return try parse(toml: bytes, file: path, folder: (path as NSString).deletingLastPathComponent)
    }

    /// The configuration of TOML text (`file` names it in errors; relative paths are under `folder`).
    public static func parse(toml text: String, file: String, folder: String = ".") throws(ReadError) -> BatchConfiguration {
        try parse(toml: Array(text.utf8), file: file, folder: folder)
    }

    /// The configuration of a TOML document's bytes (`file` names it in errors; relative paths are under `folder`).
    public static func parse(toml bytes: [UInt8], file: String, folder: String = ".") throws(ReadError) -> BatchConfiguration {
        let table: TOMLTable
        do { table = try TOMLParser.parse(bytes) } catch {
            var failure = ReadError(file: file, reason: .invalidValue("not TOML: \(error.message)"))
            failure.line = error.line
            failure.column = error.column
            throw failure
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
            let calibration = try CalibrationFile(path: path)
            let (bytes, offset) = (calibration.bytes, calibration.offsetDecibels)
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

    /// `analyzer`'s parameters: these, then the members of `overrides` as its section (the
    /// command line's options), and `lenient` where the analyzer has that parameter; checked as
    /// a configuration is, messages naming the command line. With no option given these are
    /// returned as they are (already checked when read), without the round trip through their
    /// JSON text, which costs a command about a millisecond at start-up.
    public func parameters(_ analyzer: Analyzer, overrides: [JSONObject], lenient: Bool) throws(ReadError) -> AnalyzerParameters {
        if !lenient, overrides.allSatisfy({ $0.count == 0 }) { return parameters }
        var section = JSONObject()
        for group in overrides {
            for (key, value) in group.members { section.append(key, value) }
        }
        if lenient, parameters.section(analyzer)["lenient"] != nil {
            section.append("lenient", .bool(true))
        }
        var document = JSONObject()
        document.append(analyzer.rawValue, .object(section))
        return try overriding(document, file: "command line").parameters
    }

    /// This configuration with `document`'s analyzer sections (section → key → value, nested
    /// objects for nested parameters) laid over its parameters: what `--config` and each
    /// command-line parameter option do, in that order. Errors name `file` (the configuration,
    /// or the command line) and the key. Only the sections `document` has are decoded again.
    public func overriding(_ document: JSONObject, file: String) throws(ReadError) -> BatchConfiguration {
        func invalid(_ message: String) -> ReadError { ReadError(file: file, reason: .invalidValue(message)) }
        var configuration = self
        for analyzer in Analyzer.allCases {
            guard let section = document[analyzer.rawValue]?.object else { continue }
            configuration.parameters = try Self.overriding(configuration.parameters, analyzer, with: section, invalid)
        }
        if let problem = configuration.parameters.problem { throw invalid(problem) }
        return configuration
    }

    /// `parameters` with `section` laid over `analyzer`'s: decoded, re-encoded, and every key
    /// set must be there (a key the type does not have would otherwise be dropped silently).
    private static func overriding(
        _ parameters: AnalyzerParameters, _ analyzer: Analyzer, with section: JSONObject, _ invalid: (String) -> ReadError
    ) throws(ReadError) -> AnalyzerParameters {
        let name = analyzer.rawValue
        let current = parameters.section(analyzer)
        func decoded(_ set: JSONObject) throws -> AnalyzerParameters {
            try parameters.replacing(analyzer, with: .object(current.merging(set)))
        }
        func mistyped(_ type: Any.Type, _ context: DecodingError.Context) -> ReadError {
            let table = ([name] + context.codingPath.map(\.stringValue).dropLast()).joined(separator: ".")
            return invalid("[\(table)] \(context.codingPath.last!.stringValue) must be \(typeName(type))")
        }
        let result: AnalyzerParameters
        do {
            result = try decoded(section)
        } catch let DecodingError.typeMismatch(type, context) where !context.codingPath.isEmpty {
            throw mistyped(type, context)
        } catch let DecodingError.valueNotFound(type, context) where !context.codingPath.isEmpty {
            throw mistyped(type, context)
        } catch {
            // The decoder did not say which key (a number that does not fit the parameter's
            // integer type fails while the text is read): each key set is tried alone.
            for path in leaves(section) {
                let value = section.value(at: path) ?? .null
                do { _ = try decoded(nested(path, value)) } catch {
                    let table = ([name] + path.dropLast()).joined(separator: ".")
                    // A value type that says what it takes (a NamedChoice lists its names) is quoted; else a hint.
                    let hint = if case .number = value { " (an integer parameter takes a whole number within ±2^53)" }
                        else if case DecodingError.dataCorrupted(let context) = error, !context.debugDescription.isEmpty { ": " + context.debugDescription }
                        else { " (docs/batch.md lists each parameter's values)" }
                    throw invalid("[\(table)] \(path.last!) = \(JSONWriter().string(value)) is not a value of this parameter's type\(hint)")
                }
            }
            throw invalid("\(error)")
        }
        let used = result.section(analyzer)
        for path in leaves(section) where used.value(at: path) == nil {
            throw invalid("unknown key \"\(path.joined(separator: "."))\" in [\(name)]; known: \(leaves(current).map { $0.joined(separator: ".") }.joined(separator: ", "))")
        }
        return result
    }

    /// `value` inside objects along `path` (`["analysis", "rateHz"]` → `{"analysis": {"rateHz": value}}`).
    private static func nested(_ path: [String], _ value: JSONValue) -> JSONObject {
        var object = JSONObject()
        object.append(path[0], path.count == 1 ? value : .object(nested(Array(path.dropFirst()), value)))
        return object
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type, is Optional<Double>.Type: "a number"
        case is Bool.Type: "true or false"
        case is String.Type, is Optional<String>.Type: "a string"
        case is [Any].Type: "an array (docs/batch.md lists its values)"
        default: "one of its documented values"
        }
    }

    /// The deepest nesting of tables and arrays a configuration may have. Parameters are at most
    /// three levels deep (`[gait.analysis]` and a list in it); the conversion below recurses once
    /// per level, so a deeper file (a header of 10,000 dotted keys) is refused, not followed.
    static let maximumDepth = 8

    /// A TOML table as JSON (integers and floats both numbers; dates refused).
    private static func json(_ table: TOMLTable, path: [String], file: String) throws(ReadError) -> JSONObject {
        var object = JSONObject()
        for (key, value) in table.members {
            object.append(key, try json(value, path: path + [key], file: file))
        }
        return object
    }

    private static func json(_ value: TOMLValue, path: [String], file: String) throws(ReadError) -> JSONValue {
        guard path.count <= maximumDepth else {
            let shown = path.prefix(maximumDepth).joined(separator: ".")
            throw ReadError(file: file, reason: .invalidValue("\(shown)…: tables or arrays nested deeper than \(maximumDepth) levels; no parameter is that deep"))
        }
        switch value {
        case .table(let table): return .object(try json(table, path: path, file: file))
        case .array(let array):
            var items: [JSONValue] = []
            for item in array {
                items.append(try json(item, path: path + ["\(items.count)"], file: file))
            }
            return .array(items)
        case .string(let text): return .string(text)
        case .integer(let integer): return .number(Double(integer))
        case .float(let float): return .number(float)
        case .boolean(let flag): return .bool(flag)
        case .dateTime:
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

    /// `analyzer`'s parameters as JSON, key → value, keys sorted as in their canonical text.
    public func section(_ analyzer: Analyzer) -> JSONObject {
        (try? JSONValueEncoder(sortedKeys: true).encode(self[analyzer]))?.object ?? JSONObject()
    }

    /// Why these parameters cannot be used (nil: they can), naming the section.
    public var problem: String? {
        if let problem = spl.problem { return "[spl] " + problem }
        if let problem = voice.problem { return "[voice] " + problem }
        if let problem = gait.analysis.problem { return "[gait.analysis] " + problem }
        if let problem = tapping.problem { return "[tapping] " + problem }
        if let problem = walkTest.problem { return "[walkTest] " + problem }
        if let problem = tremor.problem { return "[tremor] " + problem }
        if let problem = heartRate.analysis.problem { return "[heartRate.analysis] " + problem }
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
