/// Encodes series items the way ResearchKit's recorders serialize them (docs/formats.md §4, §12):
/// compact objects, keys in schema order (deterministic), nested groups (`attitude`, …),
/// optional fields omitted when unavailable (never `null`), dates as `yyyy-MM-dd'T'HH:mm:ssZ`
/// in the series' UTC offset (whole seconds, as ResearchKit's formatter writes them).
public struct RecorderItemEncoder: Sendable {
    public let schema: RecorderSchema

    public init(kind: RecorderKind) {
        schema = kind.schema
    }

    /// Why an item cannot be written.
    public struct EncodingError: Error, Sendable, Equatable, CustomStringConvertible {
        public var item: Int
        public var field: String
        public var message: String
        public var description: String { "item \(item), \(field): \(message)" }
    }

    /// The JSON object of item `index`.
    ///
    /// - Throws: `EncodingError` for NaN/infinite values in required fields or non-integral
    ///   values in integer fields (ResearchKit cannot serialize them either).
    public func item(_ index: Int, of series: SensorSeries) throws(EncodingError) -> JSONValue {
        var root = JSONObject()
        var groups: [(name: String, object: JSONObject)] = []
        for (fieldIndex, field) in schema.fields.enumerated() {
            let value: JSONValue
            if field.type == .string {
                guard let text = series.text[fieldIndex][index] else {
                    if field.required { throw EncodingError(item: index, field: field.name, message: "missing required text") }
                    continue
                }
                value = .string(text)
            } else {
                let number = series.numeric[fieldIndex][index]
                if !number.isFinite {
                    if field.required || !number.isNaN {
                        throw EncodingError(item: index, field: field.name, message: "\(number) cannot be written as JSON")
                    }
                    continue
                }
                switch field.type {
                case .date:
                    value = .string(DateString(secondsSince1970: number, utcOffsetSeconds: series.utcOffsetSeconds).researchKitText)
                case .integer where number != number.rounded():
                    throw EncodingError(item: index, field: field.name, message: "\(number) is not an integer")
                default:
                    value = .number(number)
                }
            }
            if field.path.count == 1 {
                root.append(field.name, value)
            } else if let group = groups.firstIndex(where: { $0.name == field.path[0] }) {
                groups[group].object.append(field.path[1], value)
            } else {
                var object = JSONObject()
                object.append(field.path[1], value)
                groups.append((field.path[0], object))
            }
        }
        // Groups go where their first field is in schema order: after the top-level keys before it.
        for group in groups { root.append(group.name, .object(group.object)) }
        return .object(root)
    }

    /// A complete data-logger document `{"items":[…]}` (no whitespace, no trailing newline).
    public func document(_ series: SensorSeries) throws(EncodingError) -> [UInt8] {
        var output = "{\"items\":["
        let writer = JSONWriter()
        for index in 0..<series.count {
            if index > 0 { output += "," }
            writer.write(try item(index, of: series), into: &output, level: 0)
        }
        output += "]}"
        return Array(output.utf8)
    }
}
