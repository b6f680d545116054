/// Decodes a JSON array of recorder items straight into the columns of a `SensorSeries`, without
/// building a document model: one pass over the bytes, keys matched against the schema's key
/// tree, numbers parsed in place, unknown keys validated and skipped.
struct ItemColumnsDecoder {
    /// A key of the schema's key tree: a leaf names a field, an inner node a nested object
    /// (`attitude`, `coordinate`, …).
    private struct KeyNode {
        let key: [UInt8]
        let name: String
        /// The key as it is written when nothing separates its bytes: `"key":`.
        let quoted: [UInt8]
        var field: Int?
        var children: [KeyNode] = []
        /// A number for `children` as a list, unique in the tree (the root's list is 0; leaves
        /// have none).
        var list = 0

        init(name: String) {
            self.name = name
            key = Array(name.utf8)
            quoted = [UInt8(ascii: "\"")] + key + [UInt8(ascii: "\""), UInt8(ascii: ":")]
        }
    }

    /// Per node list and place in it, the node the key at that place of the previous object of
    /// that list matched (-1: none yet). Items of a recorder file write their keys in one order,
    /// so the next object's key is first compared as written (the node's `quoted`); a different
    /// key, whitespace or an escape takes the general path. Matching each key byte by byte
    /// against every node was a quarter of reading the mPower walk.
    private struct KeyGuesses {
        /// Places remembered per list; keys after them take the general path.
        static let places = 16
        var nodes: [Int]

        init(lists: Int) { nodes = [Int](repeating: -1, count: lists * Self.places) }
    }

    let schema: RecorderSchema
    private let root: [KeyNode]
    /// How many node lists the tree has, the root's included.
    private let listCount: Int
    /// `schema.fields[i].type`, kept apart so the per-item loop touches no strings.
    private let fieldTypes: [FieldType]
    /// Whether field i is a number of any value, read inline (the common case).
    private let anyNumber: [Bool]

    init(kind: RecorderKind) {
        schema = kind.schema
        var root: [KeyNode] = []
        for (fieldIndex, field) in schema.fields.enumerated() {
            Self.insert(field.path[...], field: fieldIndex, into: &root)
        }
        var lists = 0
        Self.numberLists(&root, next: &lists)
        self.root = root
        listCount = lists + 1
        fieldTypes = schema.fields.map(\.type)
        anyNumber = schema.fields.map { $0.type == .number && $0.plausible == nil }
    }

    /// Numbers the children list of every node that has one, depth first from 1.
    private static func numberLists(_ nodes: inout [KeyNode], next: inout Int) {
        for index in nodes.indices where !nodes[index].children.isEmpty {
            next += 1
            nodes[index].list = next
            numberLists(&nodes[index].children, next: &next)
        }
    }

    private static func insert(_ path: ArraySlice<String>, field: Int, into nodes: inout [KeyNode]) {
        guard let key = path.first else { return }
        let index: Int
        if let existing = nodes.firstIndex(where: { $0.name == key }) {
            index = existing
        } else {
            nodes.append(KeyNode(name: key))
            index = nodes.count - 1
        }
        if path.count == 1 {
            nodes[index].field = field
        } else {
            insert(path.dropFirst(), field: field, into: &nodes[index].children)
        }
    }

    /// Decodes the array at the cursor (which must be at `[`, after whitespace).
    ///
    /// - Parameters:
    ///   - arrayPath: JSON path of the array for messages (`items`, or empty for a bare array).
    ///   - lenient: on a torn tail, keep the complete items before it and warn instead of failing.
    func decode(
        _ cursor: inout JSONCursor, arrayPath: String, lenient: Bool = false
    ) throws(ReadError) -> (series: SensorSeries, warnings: [ReadWarning]) {
        var series = SensorSeries(kind: schema.kind)
        var utcOffset: Int?
        try cursor.beginArray()
        var first = true
        var count = 0
        let requiredMask = schema.fields.enumerated().reduce(UInt64(0)) { mask, element in
            element.element.required ? mask | (1 << UInt64(element.offset)) : mask
        }
        // Each item's numbers are written in place into per-field buffers (NaN where absent),
        // grown together; the columns are made from them once at the end. Appending each item's
        // row to the columns cost a seventh of reading the mPower walk.
        let numericFields = fieldTypes.indices.filter { fieldTypes[$0] != .string }
        let textFields = fieldTypes.indices.filter { fieldTypes[$0] == .string }
        var buffers = ColumnBuffers(fields: fieldTypes.count, numeric: numericFields)
        defer { buffers.release() }
        let arrayStart = cursor.index
        var guesses = KeyGuesses(lists: listCount)
        do throws(ReadError) {
            while try cursor.nextElement(first: &first) {
                for index in textFields { series.text[index].append(nil) }
                if count == buffers.capacity {
                    buffers.grow(to: max(2 * count, 256))
                } else if count == 1 {
                    // Room for as many items as the array's bytes hold at the first one's size, at
                    // most twice the bytes in columns (a small first item cannot ask for more).
                    let bytes = cursor.end - arrayStart
                    let estimate = min(bytes / max(1, cursor.index - arrayStart) + 16, bytes / (4 * max(1, numericFields.count)))
                    if estimate > buffers.capacity { buffers.grow(to: estimate) }
                }
                for index in numericFields { buffers.columns[index][count] = .nan }
                var seen: UInt64 = 0, nulls: UInt64 = 0
                guard cursor.peek() == UInt8(ascii: "{") else {
                    var error = cursor.wrongType(expected: "an item object")
                    error.path = "\(arrayPath)[\(count)]"
                    throw error
                }
                try decodeObject(&cursor, nodes: root, into: &series, columns: buffers.columns, item: count, seen: &seen, nulls: &nulls,
                                 utcOffset: &utcOffset, guesses: &guesses, list: 0, arrayPath: arrayPath, group: nil)
                let missing = requiredMask & ~seen
                if missing != 0 {
                    let first = missing.trailingZeroBitCount, field = schema.fields[first]
                    // A key given as null is there: its value is what is wrong.
                    throw ReadError(
                        file: cursor.file,
                        reason: nulls & (1 << UInt64(first)) != 0 ? .wrongType(expected: field.type.description, found: "null") : .missingKey(field.path.last ?? field.name),
                        path: "\(arrayPath)[\(count)].\(field.name)")
                }
                count += 1
            }
        } catch let error where lenient && error.reason == .truncatedJSON {
            cursor.index = cursor.end
            series.numeric = buffers.takeColumns(count: count)
            series.truncate(to: count)
            var (finished, warnings) = finish(series, utcOffset: utcOffset)
            warnings.insert(.truncatedTail(offset: error.offset ?? cursor.index, itemsKept: count), at: 0)
            return (finished, warnings)
        }
        series.numeric = buffers.takeColumns(count: count)
        return finish(series, utcOffset: utcOffset)
    }

    /// The numeric columns while an array is decoded: one buffer per numeric field, all with the
    /// same capacity (a text field's pointer is a one-value placeholder, never written).
    private struct ColumnBuffers {
        let columns: UnsafeMutablePointer<UnsafeMutablePointer<Double>>
        let fields: Int
        let numeric: [Int]
        private(set) var capacity = 0

        init(fields: Int, numeric: [Int]) {
            self.fields = fields
            self.numeric = numeric
            columns = .allocate(capacity: max(1, fields))
            for index in 0..<fields { columns[index] = .allocate(capacity: 1) }
        }

        /// Room for `capacity` items, the `count` already written kept.
        mutating func grow(to newCapacity: Int) {
            for index in numeric {
                let column = UnsafeMutablePointer<Double>.allocate(capacity: newCapacity)
                column.update(from: columns[index], count: capacity)
                columns[index].deallocate()
                columns[index] = column
            }
            capacity = newCapacity
        }

        /// The first `count` items as the series' columns (text fields' empty), each buffer freed
        /// once copied (at most one column more than the buffers in memory).
        mutating func takeColumns(count: Int) -> [[Double]] {
            var result = [[Double]](repeating: [], count: fields)
            for index in numeric {
                result[index] = Array(UnsafeBufferPointer(start: columns[index], count: count))
                columns[index].deallocate()
                columns[index] = .allocate(capacity: 1)
            }
            capacity = 0
            return result
        }

        func release() {
            for index in 0..<fields { columns[index].deallocate() }
            columns.deallocate()
        }
    }

    private func decodeObject(
        _ cursor: inout JSONCursor, nodes: [KeyNode], into series: inout SensorSeries, columns: UnsafeMutablePointer<UnsafeMutablePointer<Double>>,
        item: Int, seen: inout UInt64, nulls: inout UInt64, utcOffset: inout Int?, guesses: inout KeyGuesses, list: Int, arrayPath: String, group: String?
    ) throws(ReadError) {
        // Paths are built only for messages, never per item on the hot path.
        func path(_ key: String) -> String { "\(arrayPath)[\(item)].\(group.map { $0 + "." } ?? "")\(key)" }
        try cursor.beginObject()
        var first = true
        var place = list * KeyGuesses.places
        let lastPlace = place + KeyGuesses.places
        while true {
            defer { place += 1 }
            let nodeIndex: Int
            if place < lastPlace, guesses.nodes[place] >= 0, cursor.consumeKey(nodes[guesses.nodes[place]].quoted, first: &first) {
                nodeIndex = guesses.nodes[place]
            } else {
                guard let key = try cursor.nextKey(first: &first) else { break }
                guard let found = try key.escaped ? matchEscaped(key.range, in: nodes, cursor: cursor) : match(key.range, in: nodes, bytes: cursor.bytes) else {
                    try cursor.skipValue(depth: 2)
                    continue
                }
                nodeIndex = found
                if place < lastPlace, !key.escaped { guesses.nodes[place] = found }
            }
            if cursor.peek() == UInt8(ascii: "n") {  // null: treat as absent (said as null if required)
                _ = try cursor.parseLiteral()
                if let fieldIndex = nodes[nodeIndex].field { nulls |= 1 << UInt64(fieldIndex) }
                continue
            }
            if let fieldIndex = nodes[nodeIndex].field {
                do throws(ReadError) {
                    if anyNumber[fieldIndex] {  // the common case, inline
                        columns[fieldIndex][item] = try cursor.parseNumber()
                    } else {
                        try decodeField(&cursor, field: fieldIndex, into: &series, columns: columns, item: item, utcOffset: &utcOffset)
                    }
                } catch {
                    var error = error
                    if error.path == nil { error.path = "\(arrayPath)[\(item)].\(schema.fields[fieldIndex].name)" }
                    throw error
                }
                if seen & (1 << UInt64(fieldIndex)) != 0 {
                    cursor.noteDuplicateKey(schema.fields[fieldIndex].name, location: path(nodes[nodeIndex].name))
                }
                seen |= 1 << UInt64(fieldIndex)
            } else {
                guard cursor.peek() == UInt8(ascii: "{") else {
                    var error = cursor.wrongType(expected: "object")
                    error.path = path(nodes[nodeIndex].name)
                    throw error
                }
                try decodeObject(&cursor, nodes: nodes[nodeIndex].children, into: &series, columns: columns, item: item, seen: &seen, nulls: &nulls,
                                 utcOffset: &utcOffset, guesses: &guesses, list: nodes[nodeIndex].list, arrayPath: arrayPath, group: nodes[nodeIndex].name)
            }
        }
    }

    /// The node whose key is the raw key at `range` of `bytes` (no escapes). It takes the bytes,
    /// not the cursor: a cursor passed here was copied for every key, reading back fields just
    /// stored (about a third of this decoder's own time on the mPower walk).
    @inline(__always)
    private func match(_ range: Range<Int>, in nodes: [KeyNode], bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let length = range.count
        for index in nodes.indices where nodes[index].key.count == length {
            let matched = nodes[index].key.withUnsafeBufferPointer { name in
                var k = 0
                var i = range.lowerBound
                while k < length, bytes[i] == name[k] {
                    k += 1
                    i += 1
                }
                return k == length
            }
            if matched { return index }
        }
        return nil
    }

    /// The node whose key is the escaped key at `range`, decoded.
    private func matchEscaped(_ range: Range<Int>, in nodes: [KeyNode], cursor: JSONCursor) throws(ReadError) -> Int? {
        let name = try cursor.decodeString(range, escaped: true, at: range.lowerBound - 1)
        return nodes.firstIndex { $0.name == name }
    }

    @inline(__always)
    private func decodeField(
        _ cursor: inout JSONCursor, field index: Int, into series: inout SensorSeries, columns: UnsafeMutablePointer<UnsafeMutablePointer<Double>>,
        item: Int, utcOffset: inout Int?
    ) throws(ReadError) {
        let field = schema.fields[index]
        switch field.type {
        case .number, .integer:
            let start = cursor.index
            let value = try cursor.parseNumber()
            if field.type == .integer, value.rounded() != value {
                throw cursor.error(.invalidValue("\(field.name) must be an integer, found \(value)"), at: start)
            }
            if let range = field.plausible, !range.contains(value) {
                throw cursor.error(.invalidValue("\(field.name) \(value) \(field.unit) is outside \(range.lowerBound.compactDescription)–\(range.upperBound.compactDescription) \(field.unit)"), at: start)
            }
            columns[index][item] = value
        case .date:
            cursor.skipWhitespace()
            let start = cursor.index
            guard cursor.peek() == UInt8(ascii: "\"") else { throw cursor.wrongType(expected: "date string") }
            let raw = try cursor.rawString()
            let text = try cursor.decodeString(raw.range, escaped: raw.escaped, at: start)
            guard let date = DateString(text) else {
                throw cursor.error(
                    .invalidValue("\(ReadError.quote(text)) is not a date of the form yyyy-MM-dd'T'HH:mm:ssZ"), at: start)
            }
            if utcOffset == nil { utcOffset = date.utcOffsetSeconds }
            columns[index][item] = date.secondsSince1970
        case .string:
            series.text[index][item] = try cursor.parseString()
        }
    }

    /// Placeholders, ordering and gaps (docs/formats.md §11).
    private func finish(_ input: SensorSeries, utcOffset: Int?) -> (SensorSeries, [ReadWarning]) {
        var series = input
        series.utcOffsetSeconds = utcOffset ?? 0
        var warnings: [ReadWarning] = []
        if series.kind == .deviceMotion, let accuracy = schema.index(of: "magneticField.accuracy") {
            let x = accuracy - 3
            var placeholders = 0
            for item in 0..<series.count
            where series.numeric[accuracy][item] == -1 && series.numeric[x][item] == 0
                && series.numeric[x + 1][item] == 0 && series.numeric[x + 2][item] == 0
            {
                for column in x...accuracy { series.numeric[column][item] = .nan }
                placeholders += 1
            }
            if placeholders > 0 { warnings.append(.magneticFieldUnavailable(count: placeholders)) }
        }
        var infinite = Set<Int>()
        for column in series.numeric { for (item, value) in column.enumerated() where value.isInfinite { infinite.insert(item) } }
        if !infinite.isEmpty { warnings.append(.infiniteValues(count: infinite.count)) }
        if let warning = series.sortByTime() { warnings.append(warning) }
        if series.kind == .accelerometer || series.kind == .deviceMotion, let median = series.medianInterval {
            let sorted = series.time
            var gaps = 0
            var longest = 0.0
            for i in sorted.indices.dropFirst() where sorted[i] - sorted[i - 1] > 5 * median {
                gaps += 1
                longest = max(longest, sorted[i] - sorted[i - 1])
            }
            if gaps > 0 { warnings.append(.timestampGaps(count: gaps, longestSeconds: longest)) }
        }
        return (series, warnings)
    }
}

extension SensorSeries {
    /// Keeps the first `count` items.
    mutating func truncate(to count: Int) {
        for index in numeric.indices where numeric[index].count > count {
            numeric[index].removeSubrange(count...)
        }
        for index in text.indices where text[index].count > count {
            text[index].removeSubrange(count...)
        }
    }
}
