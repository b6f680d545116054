import Glibc
import SensorData
import InputGuards

/// Reads a file descriptor (stdin, a socket) as lines, in chunks: `nextLines()` returns every
/// complete line read so far (without `\n`, `\r` stripped) and nil at end of input. A last line
/// without `\n` (a sender that closed mid-line) is returned as it is.
///
/// Each chunk is searched for its own newlines only (linear in the bytes read, however long a
/// line), and a line longer than ``maximumLineBytes`` is an error: a sender that never sends a
/// newline ends the source instead of growing memory and time without end.
public final class LineReader {
    /// 1 MiB: a recorder item is a few hundred bytes.
    public static let maximumLineBytes = 1 << 20
    public let name: String
    private let descriptor: Int32
    private var pending: [UInt8] = []
    private var finished = false

    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    public func nextLines() throws(RecordingError) -> [[UInt8]]? {
        while true {
            if finished {
                guard !pending.isEmpty else { return nil }
                defer { pending = [] }
                return [strip(pending[...])]
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count: Int
            do { count = try FileSystem.read(descriptor, path: name, into: &chunk) } catch { throw .system(error) }
            if count == 0 {
                finished = true
                continue
            }
            let previous = pending.count
            pending += chunk[0..<count]
            guard let newline = chunk[0..<count].lastIndex(of: UInt8(ascii: "\n")) else {
                guard pending.count <= Self.maximumLineBytes else {
                    throw RecordingError(file: name, reason: .sample("a line is longer than \(Self.maximumLineBytes) bytes without a newline; the source is closed"))
                }
                continue
            }
            let last = previous + newline
            let lines = pending[..<last].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { strip($0) }
            guard lines.allSatisfy({ $0.count <= Self.maximumLineBytes }) else {
                throw RecordingError(file: name, reason: .sample("a line is longer than \(Self.maximumLineBytes) bytes; the source is closed"))
            }
            pending.removeSubrange(...last)
            return lines
        }
    }

    private func strip(_ line: ArraySlice<UInt8>) -> [UInt8] {
        Array(line.last == UInt8(ascii: "\r") ? line.dropLast() : line)
    }
}

/// How a line source encodes its samples.
public enum LineFormat: String, Sendable, Hashable, CaseIterable {
    /// One recorder item object per line, the layout of docs/formats.md §4.
    case json
    /// A header line naming item fields (docs/formats.md §4 names, `coordinate.latitude` style for
    /// nested ones), then one item per line; empty cells are absent fields.
    case csv
    /// Heart rate only: Bluetooth Heart Rate Measurement values (GATT 0x2A37) in hex, one per
    /// line, timed on arrival.
    case gattHex = "gatt-hex"
}

/// Decodes a line source's lines into recorder items, counting lines so errors name their line.
/// A bad line ends the decoding: the items of the lines before it are returned with the error.
public struct LineDecoder {
    public let format: LineFormat
    public let kind: RecorderKind
    public let name: String
    /// Lines consumed so far (the 1-based number of the last one).
    public private(set) var lineNumber = 0
    private var header: CSVHeader?

    public init(format: LineFormat, kind: RecorderKind, name: String) throws(RecordingError) {
        guard format != .gattHex || kind == .healthQuantity else {
            throw RecordingError(file: name, reason: .sample("gatt-hex lines are heart-rate measurements, not \(kind.rawValue) items"))
        }
        self.format = format
        self.kind = kind
        self.name = name
    }

    /// What a chunk of lines held.
    public struct Decoded: Sendable {
        /// The items, of the decoder's kind.
        public var items: SensorSeries
        /// gatt-hex: the RR intervals of the measurements (``HeartRateMeasurement/rrSeries(_:arrivalSeconds:)``).
        public var rrIntervals: SensorSeries
        /// The first bad line's error; then `items` are those of the lines before it.
        public var error: RecordingError?
        /// Items that came earlier than the item before them (the reader puts a chunk's items in time order).
        public var itemsOutOfOrder = 0
    }

    public mutating func decode(_ lines: [[UInt8]]) -> Decoded {
        switch format {
        case .json:
            return decodeJSON(lines.map { Self.isBlank($0) ? [] : $0 })
        case .csv:
            var converted: [[UInt8]] = []
            for line in lines {
                if Self.isBlank(line) {
                    converted.append([])
                } else if let header {
                    let cells = Self.cells(line)
                    guard cells.count == header.columns else {
                        var decoded = decodeJSON(converted)
                        decoded.error = decoded.error ?? RecordingError(
                            file: name, reason: .source(line: lineNumber + 1, message: "\(cells.count) field(s), the header names \(header.columns)"))
                        return decoded
                    }
                    converted.append(header.jsonObject(cells))
                } else {
                    header = CSVHeader(Self.cells(line).map { String(decoding: $0, as: UTF8.self) })
                    converted.append([])
                }
            }
            return decodeJSON(converted)
        case .gattHex:
            var decoded = Decoded(items: SensorSeries(kind: .healthQuantity), rrIntervals: SensorSeries(kind: .healthQuantity))
            for line in lines {
                lineNumber += 1
                guard !Self.isBlank(line) else { continue }
                do {
                    let measurement = try HeartRateMeasurement(hex: String(decoding: line, as: UTF8.self))
                    let now = SystemClock.wall()
                    decoded.items.append(contentsOf: measurement.heartRateItem(arrivalSeconds: now))
                    decoded.rrIntervals.append(contentsOf: measurement.rrSeries(arrivalSeconds: now))
                } catch {
                    decoded.error = RecordingError(file: name, reason: .source(line: lineNumber, message: error.description))
                    return decoded
                }
            }
            return decoded
        }
    }

    private static func isBlank(_ line: [UInt8]) -> Bool { line.allSatisfy { $0 == 32 || $0 == 9 } }

    /// JSON item lines (empty ones skipped) decoded through the foundation reader: all at once,
    /// and line by line only when that fails, to find the bad line.
    private mutating func decodeJSON(_ lines: [[UInt8]]) -> Decoded {
        let first = lineNumber + 1
        lineNumber += lines.count
        var decoded = Decoded(items: SensorSeries(kind: kind), rrIntervals: SensorSeries(kind: .healthQuantity))
        let items = lines.enumerated().filter { !$0.element.isEmpty }
        guard !items.isEmpty else { return decoded }
        var joined: [UInt8] = [UInt8(ascii: "[")]
        for (index, item) in items.enumerated() {
            if index > 0 { joined.append(UInt8(ascii: ",")) }
            joined += item.element
        }
        joined.append(UInt8(ascii: "]"))
        if let (series, outOfOrder) = try? single(joined), series.count == items.count {
            decoded.items = series
            decoded.itemsOutOfOrder = outOfOrder
            return decoded
        }
        for (offset, line) in items {
            do throws(RecordingError) {
                decoded.items.append(contentsOf: try single([UInt8(ascii: "[")] + line + [UInt8(ascii: "]")]).series)
            } catch {
                // Positions in the line itself (the decoder wrapped it in `[…]`) for syntax errors.
                var detail = message(error)
                do throws(ReadError) { _ = try JSONValue.parse(line, file: name) } catch { detail = message(RecordingError(file: name, reason: .sample(error.description))) }
                decoded.error = RecordingError(file: name, reason: .source(line: first + offset, message: detail))
                return decoded
            }
        }
        decoded.error = RecordingError(file: name, reason: .source(line: first, message: "the lines do not form \(kind.rawValue) items"))
        return decoded
    }

    /// The items of `bytes` (a JSON array), in time order, and how many were earlier than the one before.
    private func single(_ bytes: [UInt8]) throws(RecordingError) -> (series: SensorSeries, outOfOrder: Int) {
        let contents: JSONContents
        do { contents = try JSONContents.decode(bytes, file: name) } catch {
            throw RecordingError(file: name, reason: .sample(error.description))
        }
        guard let series = contents.series.first?.series else {
            throw RecordingError(file: name, reason: .sample("not a recorder item"))
        }
        guard series.kind == kind else {
            throw RecordingError(file: name, reason: .sample("found a \(series.kind.rawValue) item, expected \(kind.rawValue)"))
        }
        let outOfOrder = contents.allWarnings.reduce(0) { total, warning in
            if case .unsortedTimestamps(let count) = warning { return total + count }
            return total
        }
        return (series, outOfOrder)
    }

    private func message(_ error: RecordingError) -> String {
        guard case .sample(let text) = error.reason else { return error.description }
        // The reader's message starts with the source's name; keep what follows.
        return text.hasPrefix(name + ": ") ? String(text.dropFirst(name.count + 2)) : text
    }

    /// The comma-separated cells of a CSV line, spaces around them and double quotes removed.
    private static func cells(_ line: [UInt8]) -> [ArraySlice<UInt8>] {
        line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { cell in
            var cell = cell
            while cell.first == 32 { cell = cell.dropFirst() }
            while cell.last == 32 { cell = cell.dropLast() }
            if cell.count >= 2, cell.first == 34, cell.last == 34 { cell = cell.dropFirst().dropLast() }
            return cell
        }
    }
}

/// A CSV header's field names, grouped as the JSON item object nests them
/// (`coordinate.latitude`, `coordinate.longitude` → `"coordinate":{…}`).
struct CSVHeader {
    /// Top-level keys in header order, each with its columns and their sub-keys (nil: the key's own value).
    private let groups: [(key: [UInt8], members: [(column: Int, subkey: [UInt8]?)])]
    let columns: Int

    init(_ names: [String]) {
        var groups: [(key: [UInt8], members: [(column: Int, subkey: [UInt8]?)])] = []
        for (column, name) in names.enumerated() {
            let path = name.split(separator: ".", maxSplits: 1).map { Array($0.utf8) }
            let subkey = path.count == 2 ? path[1] : nil
            if subkey != nil, let index = groups.firstIndex(where: { $0.key == path[0] && $0.members.first?.subkey != nil }) {
                groups[index].members.append((column, subkey))
            } else {
                groups.append((path.first ?? [], [(column, subkey)]))
            }
        }
        self.groups = groups
        columns = names.count
    }

    /// A row as the JSON item object the reader decodes: cells that are JSON numbers stay
    /// numbers, others become strings, empty cells are left out.
    func jsonObject(_ cells: [ArraySlice<UInt8>]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(cells.reduce(16) { $0 + $1.count + 12 })
        var firstMember = true
        func member(_ key: [UInt8], into out: inout [UInt8], first: inout Bool) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            Self.string(key[...], into: &out)
            out.append(UInt8(ascii: ":"))
        }
        for group in groups {
            let present = group.members.filter { !cells[$0.column].isEmpty }
            guard !present.isEmpty else { continue }
            member(group.key, into: &out, first: &firstMember)
            if group.members[0].subkey == nil {
                Self.value(cells[present[0].column], into: &out)
                continue
            }
            out.append(UInt8(ascii: "{"))
            var firstInner = true
            for (column, subkey) in present {
                member(subkey ?? [], into: &out, first: &firstInner)
                Self.value(cells[column], into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    private static func value(_ cell: ArraySlice<UInt8>, into out: inout [UInt8]) {
        if isJSONNumber(cell) { out += cell } else { string(cell, into: &out) }
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isJSONNumber(_ bytes: ArraySlice<UInt8>) -> Bool {
        var i = bytes.startIndex
        func digits() -> Int {
            let start = i
            while i < bytes.endIndex, (48...57).contains(bytes[i]) { i += 1 }
            return i - start
        }
        if i < bytes.endIndex, bytes[i] == UInt8(ascii: "-") { i += 1 }
        let start = i
        guard digits() > 0, bytes[start] != 48 || i - start == 1 else { return false }
        if i < bytes.endIndex, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return false }
        }
        if i < bytes.endIndex, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < bytes.endIndex, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == bytes.endIndex
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// A JSON string: `"` and `\` escaped, control characters as \u00XX.
    private static func string(_ bytes: ArraySlice<UInt8>, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case 0..<0x20: out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
