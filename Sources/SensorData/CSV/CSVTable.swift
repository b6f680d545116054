/// A delimited text table (RFC 4180, as spreadsheets and Synapse export it: an optional UTF-8 byte
/// order mark, LF or CRLF line ends, quoted fields that hold delimiters, `""` and line breaks):
/// an optional header line and columns that are numeric (every non-empty cell a number; empty
/// cells NaN) or text.
public struct CSVTable: Sendable {
    public enum Column: Sendable, Hashable {
        case numbers([Double])
        case text([String])

        public var numbers: [Double]? {
            if case .numbers(let values) = self { values } else { nil }
        }

        /// Row `row`'s cell as text: a number in its shortest round-trip form, an empty cell "".
        public func text(at row: Int) -> String? {
            switch self {
            case .numbers(let values): values.indices.contains(row) ? (values[row].isNaN ? "" : JSONWriter.number(values[row])) : nil
            case .text(let values): values.indices.contains(row) ? values[row] : nil
            }
        }
    }

    /// Column names when the first line is not all numbers (a leading `#` is removed).
    public var header: [String]?
    public var columns: [Column]
    public var rowCount: Int
    public var delimiter: UInt8

    /// Parses `bytes`. The delimiter is the first of `,`, `;`, tab found in the first line; with `;`
    /// or tab, a number may carry a decimal comma (`0,25`: phyphox's and European spreadsheets'
    /// "decimal comma" exports) where it has no point and one comma.
    ///
    /// - Throws: `ReadError` naming the line of a row whose field count differs from the first
    ///   row's, of a quoted field that is never closed, or `.invalidUTF8`.
    public static func parse(_ bytes: [UInt8], file: String) throws(ReadError) -> CSVTable {
        try bytes.withUnsafeBufferPointer { buffer throws(ReadError) in try parse(buffer, file: file) }
    }

    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, file: String) throws(ReadError) -> CSVTable {
        guard !buffer.isEmpty else { throw ReadError(file: file, reason: .emptyFile) }
        var start = 0
        if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { start = 3 }
        let firstLineEnd = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) ?? buffer.count
        let delimiter = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")].first {
            buffer[start..<firstLineEnd].contains($0)
        } ?? UInt8(ascii: ",")

        var cells: [[Range<Int>]] = []  // per column, for text fallback
        var numbers: [[Double]] = []
        var isNumeric: [Bool] = []
        var header: [String]?
        var rowCount = 0
        var line = 0
        var lineStart = start
        while lineStart < buffer.count {
            line += 1
            let recordLine = line
            // One record: up to the first line break outside quotes (a quoted field may hold
            // line breaks, RFC 4180 §2.6); a doubled quote inside a quoted field toggles twice.
            var fields: [Range<Int>] = []
            var fieldStart = lineStart
            var quoted = false
            var quoteOpened = lineStart
            var i = lineStart
            while i < buffer.count {
                let byte = buffer[i]
                if byte == UInt8(ascii: "\"") {
                    quoted.toggle()
                    if quoted { quoteOpened = i }
                } else if byte == UInt8(ascii: "\n") {
                    if !quoted { break }
                    line += 1
                } else if byte == delimiter, !quoted {
                    fields.append(fieldStart..<i)
                    fieldStart = i + 1
                }
                i += 1
            }
            guard !quoted else {
                throw ReadError(file: file, reason: .invalidValue("a quoted field opened here is never closed (a missing \"?)"),
                                offset: quoteOpened, path: "line \(recordLine)")
            }
            var lineEnd = i
            let next = i + 1
            if lineEnd > fieldStart, buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            defer { lineStart = next }
            if lineEnd == lineStart { continue }  // blank line
            fields.append(fieldStart..<lineEnd)
            if rowCount == 0 && header == nil && numbers.isEmpty {
                if !fields.allSatisfy({ number(buffer, trimmed(buffer, $0), delimiter: delimiter) != nil }) {
                    header = try fields.map { range throws(ReadError) in
                        var text = try string(buffer, trimmed(buffer, range), file: file, line: recordLine)
                        if text.hasPrefix("#") { text.removeFirst() }
                        return String(text[...].trimmingSpaces)
                    }
                    numbers = Array(repeating: [], count: fields.count)
                    cells = Array(repeating: [], count: fields.count)
                    isNumeric = Array(repeating: true, count: fields.count)
                    continue
                }
                numbers = Array(repeating: [], count: fields.count)
                cells = Array(repeating: [], count: fields.count)
                isNumeric = Array(repeating: true, count: fields.count)
            }
            guard fields.count == numbers.count else {
                throw ReadError(
                    file: file,
                    reason: .invalidValue("\(fields.count) field(s) where the first row has \(numbers.count)"),
                    offset: lineStart, line: recordLine, column: 1, path: "line \(recordLine)")
            }
            for (column, range) in fields.enumerated() {
                let cell = trimmed(buffer, range)
                cells[column].append(cell)
                if isNumeric[column] {
                    if cell.isEmpty {
                        numbers[column].append(.nan)
                    } else if let value = number(buffer, cell, delimiter: delimiter) {
                        numbers[column].append(value)
                    } else {
                        isNumeric[column] = false
                    }
                }
            }
            rowCount += 1
        }
        var columns: [Column] = []
        for column in numbers.indices {
            if isNumeric[column] {
                columns.append(.numbers(numbers[column]))
            } else {
                var texts: [String] = []
                for range in cells[column] {
                    texts.append(try string(buffer, range, file: file, line: nil))
                }
                columns.append(.text(texts))
            }
        }
        return CSVTable(header: header, columns: columns, rowCount: rowCount, delimiter: delimiter)
    }

    private static func trimmed(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, buffer[lower] == 0x20 || buffer[lower] == 0x09 { lower += 1 }
        while upper > lower, buffer[upper - 1] == 0x20 || buffer[upper - 1] == 0x09 { upper -= 1 }
        if upper - lower >= 2, buffer[lower] == UInt8(ascii: "\""), buffer[upper - 1] == UInt8(ascii: "\"") {
            lower += 1
            upper -= 1
        }
        return lower..<upper
    }

    /// The cells of column `index` that are neither numbers nor empty, as (1-based line counting
    /// the header, text), in order; none for a numeric column.
    func nonNumbers(inColumn index: Int) -> [(line: Int, text: String)] {
        guard case .text(let cells) = columns[index] else { return [] }
        return cells.indices.compactMap { row in
            let cell = cells[row]
            let number = cell.isEmpty || Array(cell.utf8).withUnsafeBufferPointer { Self.number($0, 0..<$0.count, delimiter: delimiter) != nil }
            return number ? nil : (row + 1 + (header == nil ? 0 : 1), cell)
        }
    }

    /// The first cell that keeps an otherwise numeric column text — one whose cells are at least
    /// 90 % numbers or empty — as its line, column (1-based) and text: `nan`, `inf` or `1,5`
    /// among numbers, which no layout reads. Nil when none.
    public var strayText: (line: Int, column: Int, text: String)? {
        for index in columns.indices {
            let stray = nonNumbers(inColumn: index)
            if let first = stray.first, stray.count * 10 <= rowCount { return (first.line, index + 1, first.text) }
        }
        return nil
    }

    /// The cell as a number (JSON number syntax, plus a leading `+`; where fields are not separated
    /// by `,`, one comma for the point in a cell without one), nil if it is not one.
    private static func number(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, delimiter: UInt8) -> Double? {
        var range = range
        if range.count > 1, buffer[range.lowerBound] == UInt8(ascii: "+") { range = range.dropFirst() }
        guard !range.isEmpty else { return nil }
        var cursor = JSONCursor(bytes: buffer, file: "", range: range)
        if let value = try? cursor.parseNumber(), cursor.index == range.upperBound { return value }
        let cell = UnsafeBufferPointer(rebasing: buffer[range])
        guard delimiter != UInt8(ascii: ","), let comma = cell.firstIndex(of: UInt8(ascii: ",")), cell.lastIndex(of: UInt8(ascii: ",")) == comma,
              !cell.contains(UInt8(ascii: ".")) else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: cell.count) { copy -> Double? in
            _ = copy.initialize(fromContentsOf: cell)
            copy[comma] = UInt8(ascii: ".")
            var cursor = JSONCursor(bytes: UnsafeBufferPointer(copy), file: "", range: 0..<copy.count)
            guard let value = try? cursor.parseNumber(), cursor.index == copy.count else { return nil }
            return value
        }
    }

    private static func string(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, file: String, line: Int?
    ) throws(ReadError) -> String {
        guard let text = String(validating: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self) else {
            throw ReadError(file: file, reason: .invalidUTF8, offset: range.lowerBound, path: line.map { "line \($0)" })
        }
        return text.replacing("\"\"", with: "\"")  // RFC 4180 escaped quote
    }
}
