import Glibc
import SensorData

/// Reads a file descriptor (stdin, a socket) as lines, in chunks: `nextLines()` returns every
/// complete line read so far (without `\n`, `\r` stripped) and nil at end of input. A last line
/// without `\n` (a sender that closed mid-line) is returned as it is.
public final class LineReader {
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
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw RecordingError.system("read", file: name)
            }
            if count == 0 {
                finished = true
                continue
            }
            pending += chunk[0..<count]
            guard let last = pending.lastIndex(of: UInt8(ascii: "\n")) else { continue }
            let lines = pending[..<last].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { strip($0) }
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
    /// One recorder item object per line, the layout of formats.md §4.
    case json
    /// A header line naming item fields (formats.md §4 names, `coordinate.latitude` style for
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
    private var header: [String]?

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
                    guard cells.count == header.count else {
                        var decoded = decodeJSON(converted)
                        decoded.error = decoded.error ?? RecordingError(
                            file: name, reason: .source(line: lineNumber + 1, message: "\(cells.count) field(s), the header names \(header.count)"))
                        return decoded
                    }
                    converted.append(Self.jsonObject(header, cells))
                } else {
                    header = Self.cells(line).map { String(decoding: $0, as: UTF8.self) }
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
                    let now = DataLogger.wallClock()
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
        if let series = try? single(joined), series.count == items.count {
            decoded.items = series
            return decoded
        }
        for (offset, line) in items {
            do throws(RecordingError) {
                decoded.items.append(contentsOf: try single([UInt8(ascii: "[")] + line + [UInt8(ascii: "]")]))
            } catch {
                decoded.error = RecordingError(file: name, reason: .source(line: first + offset, message: message(error)))
                return decoded
            }
        }
        decoded.error = RecordingError(file: name, reason: .source(line: first, message: "the lines do not form \(kind.rawValue) items"))
        return decoded
    }

    private func single(_ bytes: [UInt8]) throws(RecordingError) -> SensorSeries {
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
        return series
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

    /// A CSV row as the JSON item object the reader decodes: numbers stay numbers, other cells
    /// become strings, empty cells are left out, dotted names nest (`coordinate.latitude`).
    private static func jsonObject(_ header: [String], _ cells: [ArraySlice<UInt8>]) -> [UInt8] {
        var root = JSONObject()
        var nested: [String: JSONObject] = [:]
        var nestedOrder: [String] = []
        for (name, cell) in zip(header, cells) where !cell.isEmpty {
            let text = String(decoding: cell, as: UTF8.self)
            let value: JSONValue = Double(text).map { .number($0) } ?? .string(text)
            let path = name.split(separator: ".", maxSplits: 1).map(String.init)
            if path.count == 2 {
                if nested[path[0]] == nil { nestedOrder.append(path[0]) }
                nested[path[0], default: JSONObject()].append(path[1], value)
            } else {
                root.append(name, value)
            }
        }
        for key in nestedOrder { root.append(key, .object(nested[key]!)) }
        return Array(JSONWriter().string(.object(root)).utf8)
    }
}
