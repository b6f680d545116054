/// The records of a small delimited text file, one at a time, as RFC 4180 and spreadsheets write
/// them: an optional UTF-8 byte-order mark, LF or CRLF line ends, quoted fields holding
/// delimiters, `""` and line breaks. Bytes that are not UTF-8 and NUL bytes are refused with
/// their line (a NUL would cut a name or a path short wherever it is passed on). For tables of
/// settings (a measured calibration) whose lines need not have one layout; recordings are read
/// by ``CSVTable``.
public struct CSVRecords: Sendable {
    public struct Record: Sendable, Hashable {
        /// The 1-based line the record starts on.
        public var line: Int
        /// The record as written (without its line end): for lines that are not fields, such as `# key: value`.
        public var text: String
        /// Its fields, unquoted, with blanks around them removed.
        public var fields: [String]
    }

    public var records: [Record]

    public init(bytes: [UInt8], file: String, delimiter: UInt8 = UInt8(ascii: ",")) throws(ReadError) {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1
        records = []
        while start < bytes.count {
            let first = line
            var fields: [String] = [], field: [UInt8] = []
            var quoted = false, index = start
            func finishField() { fields.append(Self.trimmed(field)); field = [] }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0 { throw ReadError(file: file, reason: .invalidValue("a NUL byte"), path: "line \(line)") }
                if byte == 0x22 {
                    if quoted, index + 1 < bytes.count, bytes[index + 1] == 0x22 {
                        field.append(0x22)
                        index += 1
                    } else {
                        quoted.toggle()
                    }
                } else if byte == 0x0A {
                    line += 1
                    if !quoted { break }
                    field.append(byte)
                } else if byte == delimiter, !quoted {
                    finishField()
                } else {
                    field.append(byte)
                }
                index += 1
            }
            guard !quoted else { throw ReadError(file: file, reason: .invalidValue("a quoted field opened here is never closed (a missing \"?)"), path: "line \(first)") }
            var end = min(index, bytes.count)
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            if field.last == 0x0D { field.removeLast() }
            finishField()
            guard let text = String(validating: bytes[start..<end], as: UTF8.self) else {
                throw ReadError(file: file, reason: .invalidUTF8, path: "line \(first)")
            }
            if !text.allSatisfy({ $0 == " " || $0 == "\t" }) { records.append(Record(line: first, text: text, fields: fields)) }
            start = index + 1
        }
    }

    private static func trimmed(_ bytes: [UInt8]) -> String {
        var lower = 0, upper = bytes.count
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }
}
