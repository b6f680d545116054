/// Everything a ResearchKit-family JSON file holds, whatever its layout (docs/formats.md §1):
/// recorder logs and bare item arrays become `series`; results in either dialect, anywhere in a
/// task/step tree or a flattened archive, land in the typed lists.
public struct JSONContents: Sendable {
    /// The top-level shape of the file.
    public enum Layout: Sendable, Hashable {
        /// `{"items":[…]}` written by `ORKDataLogger`.
        case recorderLog(RecorderKind?)
        /// A bare array of recorder items (Synapse table downloads), or an empty array.
        case bareItemArray(RecorderKind?)
        /// A bare array of tapping samples in either dialect.
        case bareTappingSamples(TappingResult.Dialect)
        /// Dialect A: an object with `_class` (the root class), possibly a whole task result.
        case researchKitResult(rootClass: String)
        /// Dialect B: an AppCore tapping result (`TappingSamples`).
        case appCoreTappingResult
        /// AppCore's `info.json`.
        case archiveManifest
        /// An object mapping archive file names to their contents (docs/formats.md §8.4).
        case flattenedArchive
        /// A bare array of audiograms keyed `AUXU…` (ResearchKit's golden set).
        case audiogramTable

        public var name: String {
            switch self {
            case .recorderLog: "recorder log {\"items\":[…]}"
            case .bareItemArray: "bare item array"
            case .bareTappingSamples(let dialect): "bare tapping samples (\(dialect.rawValue))"
            case .researchKitResult(let root): "ResearchKit serializer result (\(root))"
            case .appCoreTappingResult: "AppCore tapping result"
            case .archiveManifest: "AppCore archive manifest"
            case .flattenedArchive: "flattened archive (file name → content)"
            case .audiogramTable: "audiogram table"
            }
        }
    }

    /// One recorder file's items.
    public struct NamedSeries: Sendable {
        /// File name (for an archive entry: `archive › entry`).
        public var file: String
        public var series: SensorSeries
        public var warnings: [ReadWarning]
    }

    public var file: String
    public var layout: Layout
    public var series: [NamedSeries] = []
    public var tappingResults: [TappingResult] = []
    public var splMeterResults: [SPLMeterResult] = []
    public var rangeOfMotionResults: [RangeOfMotionResult] = []
    public var timedWalkResults: [TimedWalkResult] = []
    /// Form answers (scale, yes/no and choice questions) by question identifier, in file order.
    public var questionAnswers: [QuestionAnswer] = []
    public var dBHLResults: [DBHLToneAudiometryResult] = []
    public var toneAudiometryResults: [ToneAudiometryResult] = []
    public var fileResults: [FileResultReference] = []
    public var manifest: ArchiveManifest?
    public var audiograms: AudiogramTable?
    /// Names of archive entries, in file order (flattened archives only).
    public var archiveEntries: [String] = []
    /// The decoded entries of a flattened archive, each named `archive › entry`; their series
    /// and results are also merged into this value's lists.
    public var entries: [JSONContents] = []
    /// `_class` values seen that the toolkit does not interpret (steps, configurations, …).
    public var otherClasses: [String] = []
    /// File-level warnings (series carry their own).
    public var warnings: [ReadWarning] = []

    init(file: String, layout: Layout) {
        self.file = file
        self.layout = layout
    }

    /// All warnings of the file and its series.
    public var allWarnings: [ReadWarning] { warnings + series.flatMap(\.warnings) }

    /// Options of `read`.
    public struct Options: Sendable {
        /// Return the complete items before a torn tail with a warning instead of failing
        /// (docs/formats.md §11).
        public var lenient = false
        public init(lenient: Bool = false) { self.lenient = lenient }
    }

    /// Reads and decodes the file at `path`.
    public static func read(_ path: String, options: Options = Options()) throws(ReadError) -> JSONContents {
        try decode(FileBytes.read(path), file: path, options: options)
    }

    /// Decodes JSON bytes; `file` names the file in messages and hints the recorder kind of an
    /// empty log.
    public static func decode(_ bytes: [UInt8], file: String, options: Options = Options()) throws(ReadError) -> JSONContents {
        if bytes.isEmpty {
            let name = RecorderFileName(file)
            guard let name, name.isCurrentLog else { throw ReadError(file: file, reason: .emptyFile) }
            var contents = JSONContents(file: file, layout: .recorderLog(name.kind))
            contents.warnings.append(.emptyCurrentLog)
            return contents
        }
        return try bytes.withUnsafeBufferPointer { buffer throws(ReadError) in
            var cursor = JSONCursor(bytes: buffer, file: file)
            var contents = try decodeValue(&cursor, name: file, options: options)
            try cursor.expectEnd()
            if let first = cursor.duplicateKeys.first {
                contents.warnings.append(.duplicateKeys(count: cursor.duplicateKeys.count, key: first.key, location: first.location))
            }
            return contents
        }
    }

    /// Decodes the value at the cursor as if it were a whole file named `name`.
    static func decodeValue(_ cursor: inout JSONCursor, name: String, options: Options) throws(ReadError) -> JSONContents {
        switch cursor.peek() {
        case UInt8(ascii: "{")?:
            return try decodeObject(&cursor, name: name, options: options)
        case UInt8(ascii: "[")?:
            return try decodeArray(&cursor, name: name, options: options)
        case nil:
            throw cursor.error(.truncatedJSON)
        default:
            let start = cursor.index
            _ = try cursor.skipValue()
            throw cursor.error(.unrecognisedLayout("a bare JSON \(cursor.quoteToken(at: start)) is not a ResearchKit file"), at: start)
        }
    }

    private static func decodeObject(_ cursor: inout JSONCursor, name: String, options: Options) throws(ReadError) -> JSONContents {
        let start = cursor.index
        try cursor.beginObject()
        var first = true
        var members: [(key: String, range: Range<Int>)] = []
        var itemsContents: JSONContents?
        var seenKeys = Set<String>()
        var repeatedKeys: [(key: String, offset: Int)] = []  // noted unless a whole-object parse notes them
        while let key = try cursor.nextKey(first: &first) {
            let keyName = try cursor.decodeString(key.range, escaped: key.escaped, at: key.range.lowerBound - 1)
            if !seenKeys.insert(keyName).inserted { repeatedKeys.append((keyName, key.range.lowerBound - 1)) }
            if keyName == "items", cursor.peek() == UInt8(ascii: "[") {  // a repeated "items": the last wins
                let valueStart = cursor.index
                let kind = try sniffItems(cursor, name: name)
                var contents = JSONContents(file: name, layout: .recorderLog(kind))
                if let kind {
                    let decoded = try ItemColumnsDecoder(kind: kind).decode(&cursor, arrayPath: "items", lenient: options.lenient)
                    contents.series.append(NamedSeries(file: name, series: decoded.series, warnings: decoded.warnings))
                    if case .truncatedTail? = decoded.warnings.first { return contents }
                } else {
                    try cursor.skipValue(depth: 1)
                }
                itemsContents = contents
                members.append((keyName, valueStart..<cursor.index))
            } else {
                members.append((keyName, try cursor.skipValue(depth: 1)))
            }
        }
        let end = cursor.index
        let keys = members.map(\.key)
        func noteRepeatedKeys() {
            for (key, offset) in repeatedKeys { cursor.noteDuplicateKey(key, location: "byte \(offset)") }
        }
        if let itemsContents {
            noteRepeatedKeys()
            return itemsContents
        }

        /// The object as a document; the parse notes its repeated keys, top level included.
        func wholeObject() throws(ReadError) -> JSONObject {
            var sub = JSONCursor(bytes: cursor.bytes, file: cursor.file, range: start..<end)
            let object = try sub.parseValue().object ?? JSONObject()
            cursor.absorbDuplicateKeys(of: sub)
            return object
        }
        let reader = ObjectReader(file: name)
        if keys.contains("_class") {
            let object = try wholeObject()
            let root = object["_class"]?.string ?? "?"
            var walker = ResultTreeWalker(reader: reader, contents: JSONContents(file: name, layout: .researchKitResult(rootClass: root)))
            try walker.walk(.object(object), path: "", step: nil)
            return walker.contents
        }
        if keys.contains("TappingSamples") {
            var contents = JSONContents(file: name, layout: .appCoreTappingResult)
            contents.tappingResults.append(try TappingResult.appCore(try wholeObject(), path: "", reader: reader))
            return contents
        }
        if keys.contains("taskRun") || keys.contains("taskRunUUID") || (keys.contains("files") && (keys.contains("item") || keys.contains("taskIdentifier"))) {
            var contents = JSONContents(file: name, layout: .archiveManifest)
            contents.manifest = try ArchiveManifest.decode(try wholeObject(), path: "", reader: reader)
            return contents
        }
        if !members.isEmpty, members.allSatisfy({ looksLikeFileName($0.key) && isContainer(cursor, $0.range) }) {
            var contents = JSONContents(file: name, layout: .flattenedArchive)
            noteRepeatedKeys()
            for member in members {
                var sub = JSONCursor(bytes: cursor.bytes, file: cursor.file, range: member.range)
                let entryName = "\(name) › \(member.key)"
                let entry: JSONContents
                do throws(ReadError) {
                    entry = try decodeValue(&sub, name: entryName, options: options)
                } catch {
                    var error = error
                    error.file = entryName
                    throw error
                }
                cursor.absorbDuplicateKeys(of: sub)
                contents.archiveEntries.append(member.key)
                contents.merge(entry)
                contents.entries.append(entry)
            }
            return contents
        }
        let shown = keys.prefix(8).map { ReadError.quote($0) }.joined(separator: ", ")
        throw cursor.error(
            .unrecognisedLayout("a JSON object with keys [\(shown)\(keys.count > 8 ? ", …" : "")] is none of the ResearchKit layouts"),
            at: start)
    }

    private static func decodeArray(_ cursor: inout JSONCursor, name: String, options: Options) throws(ReadError) -> JSONContents {
        let start = cursor.index
        var probe = cursor
        try probe.beginArray()
        var first = true
        guard try probe.nextElement(first: &first) else {
            _ = try cursor.skipValue()
            let kind = RecorderFileName(name)?.kind
            var contents = JSONContents(file: name, layout: .bareItemArray(kind))
            if let kind { contents.series.append(NamedSeries(file: name, series: SensorSeries(kind: kind), warnings: [])) }
            return contents
        }
        let element = try probe.parseValue(depth: 1)
        let keys = element.object.map { Set($0.keys) } ?? []
        // A recorder that starts its array with a step marker (`stepPath` and times, no data, as
        // CardiorespiratoryFitness' camera recorder does): the file name says which, else the
        // item after the marker (a download renamed by its record or file handle).
        var kind = kindOfItem(element)
        if kind == nil, keys.contains("stepPath") {
            kind = RecorderFileName(name)?.kind
            if kind == nil, try probe.nextElement(first: &first) { kind = kindOfItem(try probe.parseValue(depth: 1)) }
        }
        if let kind {
            var contents = JSONContents(file: name, layout: .bareItemArray(kind))
            let decoded = try ItemColumnsDecoder(kind: kind).decode(&cursor, arrayPath: "", lenient: options.lenient)
            contents.series.append(NamedSeries(file: name, series: decoded.series, warnings: decoded.warnings))
            return contents
        }
        let reader = ObjectReader(file: name)
        let value = try cursor.parseValue()
        let elements = value.array ?? []
        if keys.contains("TapTimeStamp") {
            var contents = JSONContents(file: name, layout: .bareTappingSamples(.appCore))
            contents.tappingResults.append(try TappingResult.appCoreSamples(elements, path: "", reader: reader))
            return contents
        }
        if keys.contains("buttonIdentifier") {
            var contents = JSONContents(file: name, layout: .bareTappingSamples(.researchKit))
            contents.tappingResults.append(try TappingResult.researchKitSamples(elements, path: "", reader: reader))
            return contents
        }
        if !keys.isEmpty, keys.allSatisfy({ AudiogramTable.frequencyHz(ofColumn: $0) != nil }) {
            var contents = JSONContents(file: name, layout: .audiogramTable)
            contents.audiograms = try audiogramTable(elements, reader: reader)
            return contents
        }
        if keys.contains("_class") {
            let root = element["_class"]?.string ?? "?"
            var walker = ResultTreeWalker(reader: reader, contents: JSONContents(file: name, layout: .researchKitResult(rootClass: root)))
            try walker.walk(value, path: "", step: nil)
            return walker.contents
        }
        let shown = keys.sorted().prefix(8).map { ReadError.quote($0) }.joined(separator: ", ")
        throw cursor.error(
            .unrecognisedLayout("an array whose first element is \(element.typeName) [\(shown)] is none of the ResearchKit layouts"),
            at: start)
    }

    /// The kind of the first element of `items` (or of the file name if the array is empty).
    private static func sniffItems(_ cursor: JSONCursor, name: String) throws(ReadError) -> RecorderKind? {
        var probe = cursor
        try probe.beginArray()
        var first = true
        guard try probe.nextElement(first: &first) else { return RecorderFileName(name)?.kind }
        let element = try probe.parseValue(depth: 2)
        guard let kind = kindOfItem(element) ?? RecorderFileName(name)?.kind else {
            let keys = element.object?.keys.prefix(8).map { ReadError.quote($0) }.joined(separator: ", ") ?? element.typeName
            throw probe.error(.unrecognisedLayout("items[0] with keys [\(keys)] is no recorder item"), at: cursor.index)
        }
        return kind
    }

    /// Bare-array classification by the first element's keys, in the order of docs/formats.md §1.
    static func kindOfItem(_ element: JSONValue) -> RecorderKind? {
        guard let object = element.object else { return nil }
        let keys = Set(object.keys)
        if keys.contains("TapTimeStamp") || keys.contains("buttonIdentifier") { return nil }
        if keys.contains("attitude") { return .deviceMotion }
        if keys.contains("phase") && keys.contains("index") { return .touch }
        if keys.isSuperset(of: ["red", "green", "blue"]) { return .camera }
        if object["timestamp"]?.number != nil, keys.isSuperset(of: ["x", "y", "z"]) { return .accelerometer }
        if keys.contains("numberOfSteps") { return .pedometer }
        if keys.contains("coordinate") || object["timestamp"]?.string != nil { return .location }
        if keys.isSuperset(of: ["type", "value", "unit"]) { return .healthQuantity }
        return nil
    }

    private static func audiogramTable(_ elements: [JSONValue], reader: ObjectReader) throws(ReadError) -> AudiogramTable {
        let columns = elements.first?.object?.keys ?? []
        var rows: [[Double]] = []
        rows.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let object = try reader.object(element, "[\(index)]")
            var row: [Double] = []
            for column in columns {
                // A hearing level, NHANES' 666 (no response) or 888 (could not obtain), or none.
                let value = try reader.optionalNumber(object[column], "[\(index)].\(column)") ?? .nan
                if !value.isNaN, value != 666, value != 888, !DBHLToneAudiometryResult.plausibleDecibelsHL.contains(value) {
                    throw reader.error(.invalidValue(DBHLToneAudiometryResult.implausible("threshold", value)), "[\(index)].\(column)")
                }
                row.append(value)
            }
            rows.append(row)
        }
        return AudiogramTable(columns: columns, rows: rows)
    }

    /// Archive keys: `info.json`, `*.json`, `*.m4a`, RK recorder names (`accel_tapping-20150204152021`,
    /// `deviceMotion_walking.rest`).
    /// The entries of a flattened archive (docs/formats.md §8.4) from one parse: the object's members in
    /// file order, when every key names a file and every value is an object or array (the rule
    /// ``decode(_:file:options:)`` recognises the layout by); otherwise a `ReadError` saying so.
    public static func flattenedArchiveEntries(_ bytes: [UInt8], file: String) throws(ReadError) -> [(name: String, value: JSONValue)] {
        guard case .object(let object) = try JSONValue.parse(bytes, file: file), !object.keys.isEmpty,
            object.members.allSatisfy({ name, value in looksLikeFileName(name) && (value.object != nil || value.array != nil) })
        else {
            throw ReadError(file: file, reason: .unrecognisedLayout("not a flattened archive: not an object whose every key names a file (.json, .m4a, .wav, a recorder file) and whose every value is JSON content"))
        }
        return Array(zip(object.keys, object.values))
    }

    static func looksLikeFileName(_ key: String) -> Bool {
        if key.hasSuffix(".json") || key.hasSuffix(".m4a") || key.hasSuffix(".wav") { return true }
        return RecorderFileName(key) != nil
    }

    private static func isContainer(_ cursor: JSONCursor, _ range: Range<Int>) -> Bool {
        guard let byte = range.first.map({ cursor.bytes[$0] }) else { return false }
        return byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
    }

    mutating func merge(_ other: JSONContents) {
        series += other.series
        tappingResults += other.tappingResults
        splMeterResults += other.splMeterResults
        rangeOfMotionResults += other.rangeOfMotionResults
        timedWalkResults += other.timedWalkResults
        questionAnswers += other.questionAnswers
        dBHLResults += other.dBHLResults
        toneAudiometryResults += other.toneAudiometryResults
        fileResults += other.fileResults
        if manifest == nil { manifest = other.manifest }
        if audiograms == nil { audiograms = other.audiograms }
        otherClasses += other.otherClasses
        warnings += other.warnings
    }
}
