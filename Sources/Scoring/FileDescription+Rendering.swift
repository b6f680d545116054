import Foundation
import InputGuards
import SensorData

extension FileDescription {
    /// The description as `info --json` prints it.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        object.append("file", .string(file))
        object.append("kind", .string(kind))
        object.append("dialect", dialect.map { .string($0) } ?? .null)
        object.append("samples", samples.map { .number(Double($0)) } ?? .null)
        object.append("durationSeconds", shownDurationSeconds.map { .number($0) } ?? .null)
        object.append("samplingRateHz", shownSamplingRateHz.map { .number($0) } ?? .null)
        object.append("channels", channels.map { .number(Double($0)) } ?? .null)
        object.append("contents", .array(contents.map { .string($0) }))
        if !parts.isEmpty { object.append("parts", .array(parts.map(\.jsonValue))) }
        object.append("warnings", .array(warnings.map { .string($0) }))
        return .object(object)
    }

    /// The duration and the rate as shown, numbers or none: timestamps of ±1e308 or ±∞ make a
    /// span that is not finite, and ones 1e-320 s apart (or equal) a rate that is not.
    var shownDurationSeconds: Double? { durationSeconds.flatMap { $0.isFinite ? $0 : nil } }
    var shownSamplingRateHz: Double? { samplingRateHz.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } }

    /// Readable block: the file, then one aligned row per property.
    public var table: String {
        var rows: [(String, String)] = [("kind", kind)]
        if let dialect { rows.append(("dialect", dialect)) }
        if let samples { rows.append(("samples", String(samples))) }
        if let shownDurationSeconds { rows.append(("duration", Self.format(shownDurationSeconds) + " s")) }
        if let shownSamplingRateHz { rows.append(("rate", Self.format(shownSamplingRateHz) + " Hz")) }
        if let channels { rows.append(("channels", String(channels))) }
        rows += contents.map { ("contains", $0) }
        rows += warnings.map { ("warning", $0) }
        // Every field is data (a file name, an info.json field): escaped so it can neither act on
        // the terminal nor forge a line of this table.
        var text = TerminalText.escaped(FileName.display(file)) + "\n"
        for (key, value) in rows { text += "  " + key.padding(toLength: 9, withPad: " ", startingAt: 0) + " " + TerminalText.escaped(value) + "\n" }
        for part in parts {
            text += part.table.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .enumerated().map { $0.offset == 0 ? "  ▸ part: \($0.element.replacingOccurrences(of: file + " › ", with: ""))" : "  " + $0.element }
                .joined(separator: "\n") + "\n"
        }
        return parts.isEmpty ? text + "\n" : text
    }
}
