import InputGuards
/// The date strings of ResearchKit and AppCore files (docs/formats.md §4.8), as Unix time.
///
/// Accepted forms (Gregorian calendar, numeric offset required):
/// - `yyyy-MM-dd'T'HH:mm:ssZ` — `2019-05-27T00:35:06-0700` (ResearchKit recorders and serializer)
/// - `yyyy-MM-dd HH:mm:ss Z` — `2015-02-04 23:20:21 +0000` (early AppCore archives)
/// - `yyyy-MM-dd'T'HH:mm:ssXXX` — `2015-02-25T16:42:11+00:00` (later AppCore archives)
/// - a literal `Z` for UTC, and fractional seconds `ss.SSS…` in any of them.
///
/// A string without a zone is rejected: it is local time of an unknown zone and must never be
/// taken as UTC.
public struct DateString: Sendable, Hashable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Double
    /// The offset of the writer's local time from UTC, seconds (−0700 → −25200).
    public var utcOffsetSeconds: Int

    public init(secondsSince1970: Double, utcOffsetSeconds: Int) {
        self.secondsSince1970 = secondsSince1970
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// Parses one of the accepted forms; nil if the text is none of them.
    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    static func parse(_ s: UnsafeBufferPointer<UInt8>) -> DateString? {
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= s.count else { return nil }
            var value = 0
            for k in 0..<count {
                let digit = s[i + k] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            i += count
            return value
        }
        func take(_ byte: UInt8) -> Bool {
            guard i < s.count, s[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), take(UInt8(ascii: "-")), let month = digits(2), take(UInt8(ascii: "-")),
            let day = digits(2)
        else { return nil }
        guard take(UInt8(ascii: "T")) || take(UInt8(ascii: " ")) else { return nil }
        guard let hour = digits(2), take(UInt8(ascii: ":")), let minute = digits(2), take(UInt8(ascii: ":")),
            let second = digits(2)
        else { return nil }
        var fraction = 0.0
        if take(UInt8(ascii: ".")) || take(UInt8(ascii: ",")) {
            var scale = 0.1
            let start = i
            while i < s.count, case let digit = s[i] &- UInt8(ascii: "0"), digit < 10 {
                fraction += Double(digit) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        _ = take(UInt8(ascii: " "))
        var offset = 0
        if take(UInt8(ascii: "Z")) {
            offset = 0
        } else {
            let negative: Bool
            if take(UInt8(ascii: "+")) {
                negative = false
            } else if take(UInt8(ascii: "-")) {
                negative = true
            } else {
                return nil
            }
            guard let hours = digits(2) else { return nil }
            _ = take(UInt8(ascii: ":"))
            guard let minutes = digits(2) else { return nil }
            guard hours <= 18, minutes < 60 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (negative ? -1 : 1)
        }
        guard i == s.count else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year, month), hour < 24, minute < 60,
            second <= 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let local = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        return DateString(secondsSince1970: local - Double(offset), utcOffsetSeconds: offset)
    }

    /// `yyyy-MM-dd'T'HH:mm:ssZ` in the stored offset (the form ResearchKit writes). Whole seconds,
    /// rounded down, as ResearchKit's formatter has no fractional seconds.
    public var researchKitText: String {
        // Years 0001–9999 (what the text form can show); times beyond are pinned to its ends.
        let local = Int(clamping: secondsSince1970 + Double(utcOffsetSeconds), rounding: .down, to: -62_135_596_800...253_402_300_799)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = local - days * 86_400
        let (year, month, day) = Self.civilFromDays(days)
        let sign = utcOffsetSeconds < 0 ? "-" : "+"
        let magnitude = abs(utcOffsetSeconds)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))\(sign)"
            + "\(pad(magnitude / 3600, 2))\(pad(magnitude / 60 % 60, 2))"
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant, "chrono-Compatible
    /// Low-Level Date Algorithms", `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Inverse of `daysFromCivil` (Hinnant, `civil_from_days`).
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
