import Glibc
import SensorData

/// Reads a file descriptor (stdin, a socket) as lines, in chunks: `nextLines()` returns every
/// complete line read so far (without `\n`, `\r` stripped) and nil at end of input.
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

/// Decodes JSON-lines recorder items (one item object per line, the layout of formats.md §4)
/// through the foundation reader, counting lines so errors name their line.
public struct JSONLinesDecoder {
    public let kind: RecorderKind
    public let name: String
    /// Lines consumed so far (1-based number of the last one).
    public private(set) var lineNumber = 0

    public init(kind: RecorderKind, name: String) {
        self.kind = kind
        self.name = name
    }

    /// The items of `lines` (blank lines skipped) as one series, and the first bad line's error:
    /// then the series holds the items before it.
    public mutating func decode(_ lines: [[UInt8]]) -> (items: SensorSeries, error: RecordingError?) {
        let first = lineNumber + 1
        lineNumber += lines.count
        let items = lines.enumerated().filter { !$0.element.allSatisfy { $0 == 32 || $0 == 9 } }
        guard !items.isEmpty else { return (SensorSeries(kind: kind), nil) }
        var joined: [UInt8] = [UInt8(ascii: "[")]
        for (index, item) in items.enumerated() {
            if index > 0 { joined.append(UInt8(ascii: ",")) }
            joined += item.element
        }
        joined.append(UInt8(ascii: "]"))
        if let series = try? single(joined), series.count == items.count { return (series, nil) }
        // Something is wrong: keep the items before the first bad line.
        var good = SensorSeries(kind: kind)
        for (offset, line) in items {
            do throws(RecordingError) {
                let one = try single([UInt8(ascii: "[")] + line + [UInt8(ascii: "]")])
                good.append(contentsOf: one)
            } catch {
                return (good, RecordingError(file: name, reason: .source(line: first + offset, message: Self.message(error))))
            }
        }
        return (good, RecordingError(file: name, reason: .source(line: first, message: "the lines do not form \(kind.rawValue) items")))
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

    private static func message(_ error: RecordingError) -> String {
        if case .sample(let text) = error.reason {
            // The reader's message starts with the synthetic file name; keep what follows.
            return text.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters() } ?? text
        }
        return error.description
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String { String(drop { $0 == " " }) }
}

/// Decodes lines of Bluetooth heart-rate measurements in hex (GATT 0x2A37, ``HeartRateMeasurement``)
/// into heart-rate items timed on arrival, counting lines so errors name their line.
public struct GATTHeartRateLines {
    public let name: String
    public private(set) var lineNumber = 0
    /// RR intervals seen so far (the heart-rate item has no field for them).
    public private(set) var rrIntervals = 0

    public init(name: String) { self.name = name }

    /// The items of `lines` (blank lines skipped), and the first bad line's error: then the
    /// items are those before it.
    public mutating func decode(_ lines: [[UInt8]]) -> (items: SensorSeries, error: RecordingError?) {
        var items = SensorSeries(kind: .healthQuantity)
        for line in lines {
            lineNumber += 1
            let text = String(decoding: line, as: UTF8.self)
            guard !text.allSatisfy(\.isWhitespace) else { continue }
            do {
                let measurement = try HeartRateMeasurement(hex: text)
                let now = DataLogger.wallClock()
                rrIntervals += measurement.rrIntervalsSeconds.count
                items.append(numbers: [.nan, now, now, .nan, Double(measurement.beatsPerMinute), .nan],
                             strings: ["HKQuantityTypeIdentifierHeartRate", nil, nil, "count/min", nil, "Bluetooth heart-rate sensor"])
            } catch {
                return (items, RecordingError(file: name, reason: .source(line: lineNumber, message: error.description)))
            }
        }
        return (items, nil)
    }
}
