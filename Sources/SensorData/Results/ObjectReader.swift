import InputGuards

/// Typed access to document-model values with errors that name the file and the JSON path.
struct ObjectReader {
    let file: String

    func error(_ reason: ReadError.Reason, _ path: String) -> ReadError {
        ReadError(file: file, reason: reason, path: path)
    }

    func object(_ value: JSONValue?, _ path: String) throws(ReadError) -> JSONObject {
        guard let value else { throw error(.missingKey(lastKey(path)), path) }
        guard let object = value.object else { throw wrong("object", value, path) }
        return object
    }

    func array(_ value: JSONValue?, _ path: String) throws(ReadError) -> [JSONValue] {
        guard let value else { throw error(.missingKey(lastKey(path)), path) }
        guard let array = value.array else { throw wrong("array", value, path) }
        return array
    }

    /// A required number.
    func number(_ value: JSONValue?, _ path: String) throws(ReadError) -> Double {
        guard let number = try optionalNumber(value, path) else { throw absent("number", value, path) }
        return number
    }

    /// An optional number (absent or null → nil). Infinite values pass through (overflowing
    /// literals); callers decide what they mean.
    func optionalNumber(_ value: JSONValue?, _ path: String) throws(ReadError) -> Double? {
        switch value {
        case nil, .null?: return nil
        case .number(let number)?: return number
        case let other?: throw wrong("number", other, path)
        }
    }

    /// A required test frequency, Hz: finite and within 20 Hz–20 kHz (the audible range that
    /// audiometers cover; ResearchKit tests 250 Hz–8 kHz). 0, negative or 1e300 Hz is not a tone.
    func frequency(_ value: JSONValue?, _ path: String) throws(ReadError) -> Double {
        try plausible(number(value, path), path, "frequency", 20...20_000, " Hz")
    }

    /// An optional number, checked as a present one is; nil stays nil.
    func plausible(_ number: Double?, _ path: String, _ what: String, _ range: ClosedRange<Double>, _ unit: String) throws(ReadError) -> Double? {
        guard let number else { return nil }
        return try plausible(number, path, what, range, unit) as Double
    }

    /// `number` if it lies within `range` (a NaN or ±∞ does not), else an error naming the
    /// quantity, the value, the range and the key: "frequency 0.0 Hz is outside 20–20000 Hz".
    func plausible(_ number: Double, _ path: String, _ what: String, _ range: ClosedRange<Double>, _ unit: String) throws(ReadError) -> Double {
        guard range.contains(number) else {
            throw error(.invalidValue("\(what) \(number)\(unit) is outside \(range.lowerBound.compactDescription)–\(range.upperBound.compactDescription)\(unit)"), path)
        }
        return number
    }

    func string(_ value: JSONValue?, _ path: String) throws(ReadError) -> String {
        guard let text = try optionalString(value, path) else { throw absent("string", value, path) }
        return text
    }

    func optionalString(_ value: JSONValue?, _ path: String) throws(ReadError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw wrong("string", other, path)
        }
    }

    func optionalDate(_ value: JSONValue?, _ path: String) throws(ReadError) -> DateString? {
        guard let text = try optionalString(value, path) else { return nil }
        guard let date = DateString(text) else {
            throw error(.invalidValue("\(ReadError.quote(text)) is not a date of the form yyyy-MM-dd'T'HH:mm:ssZ"), path)
        }
        return date
    }

    /// A dialect-A point `{"x":…,"y":…}`.
    func point(_ value: JSONValue?, _ path: String) throws(ReadError) -> Point? {
        guard let value, value != .null else { return nil }
        let object = try object(value, path)
        return try onScreen(Point(x: try number(object["x"], path + ".x"), y: try number(object["y"], path + ".y")), path)
    }

    /// A dialect-A size `{"h":…,"w":…}`.
    func size(_ value: JSONValue?, _ path: String) throws(ReadError) -> Size? {
        guard let value, value != .null else { return nil }
        let object = try object(value, path)
        return try onScreen(Size(width: try number(object["w"], path + ".w"), height: try number(object["h"], path + ".h")), path)
    }

    /// A dialect-A rect `{"origin":{x,y},"size":{h,w}}`.
    func rect(_ value: JSONValue?, _ path: String) throws(ReadError) -> Rect? {
        guard let value, value != .null else { return nil }
        let object = try object(value, path)
        guard let origin = try point(object["origin"], path + ".origin") else {
            throw error(.missingKey("origin"), path + ".origin")
        }
        guard let size = try size(object["size"], path + ".size") else {
            throw error(.missingKey("size"), path + ".size")
        }
        return Rect(origin: origin, size: size)
    }

    /// A CG string (dialect B) parsed by `parse`, with the offending text in the error.
    func cgString<T: ViewGeometry>(_ value: JSONValue?, _ path: String, _ parse: (String) -> T?) throws(ReadError) -> T? {
        guard let text = try optionalString(value, path) else { return nil }
        guard let parsed = parse(text) else {
            throw error(.invalidValue("\(ReadError.quote(text)) is not a CoreGraphics geometry string"), path)
        }
        return try onScreen(parsed, path)
    }

    /// `geometry` if each of its numbers lies within ``plausiblePoints``, else refused naming it.
    func onScreen<T: ViewGeometry>(_ geometry: T, _ path: String) throws(ReadError) -> T {
        for number in geometry.numbers where !plausiblePoints.contains(number) {
            throw error(.invalidValue("\(number) points is outside \(plausiblePoints.lowerBound.compactDescription)–\(plausiblePoints.upperBound.compactDescription) points, no place in a step view"), path)
        }
        return geometry
    }

    func wrong(_ expected: String, _ value: JSONValue, _ path: String) -> ReadError {
        let found: String
        switch value {
        case .string(let text): found = "string \(ReadError.quote(text))"
        case .number(let number): found = "number \(number)"
        default: found = value.typeName
        }
        return error(.wrongType(expected: expected, found: found), path)
    }

    /// A required value that is not there: its key missing, or null in its place (an array's
    /// element has no key to miss).
    private func absent(_ expected: String, _ value: JSONValue?, _ path: String) -> ReadError {
        value == nil ? error(.missingKey(lastKey(path)), path) : wrong(expected, .null, path)
    }

    private func lastKey(_ path: String) -> String {
        String(path.split(separator: ".").last ?? Substring(path))
    }
}
