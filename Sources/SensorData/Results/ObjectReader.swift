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
        guard let number = try optionalNumber(value, path) else { throw error(.missingKey(lastKey(path)), path) }
        return number
    }

    /// A required finite number: an overflowing literal (±∞) is refused naming the key.
    func finiteNumber(_ value: JSONValue?, _ path: String) throws(ReadError) -> Double {
        let number = try self.number(value, path)
        guard number.isFinite else { throw error(.invalidValue("\(lastKey(path)) must be a finite number, found \(number)"), path) }
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
        let hertz = try number(value, path)
        guard hertz.isFinite, (20...20_000).contains(hertz) else {
            throw error(.invalidValue("frequency \(hertz) Hz is outside 20–20000 Hz"), path)
        }
        return hertz
    }

    func string(_ value: JSONValue?, _ path: String) throws(ReadError) -> String {
        guard let text = try optionalString(value, path) else { throw error(.missingKey(lastKey(path)), path) }
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
        return Point(x: try number(object["x"], path + ".x"), y: try number(object["y"], path + ".y"))
    }

    /// A dialect-A size `{"h":…,"w":…}`.
    func size(_ value: JSONValue?, _ path: String) throws(ReadError) -> Size? {
        guard let value, value != .null else { return nil }
        let object = try object(value, path)
        return Size(width: try number(object["w"], path + ".w"), height: try number(object["h"], path + ".h"))
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
    func cgString<T>(_ value: JSONValue?, _ path: String, _ parse: (String) -> T?) throws(ReadError) -> T? {
        guard let text = try optionalString(value, path) else { return nil }
        guard let parsed = parse(text) else {
            throw error(.invalidValue("\(ReadError.quote(text)) is not a CoreGraphics geometry string"), path)
        }
        return parsed
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

    private func lastKey(_ path: String) -> String {
        String(path.split(separator: ".").last ?? Substring(path))
    }
}
