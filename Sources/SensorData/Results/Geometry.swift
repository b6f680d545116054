/// A point, size or rectangle of a step view, by its numbers.
protocol ViewGeometry {
    var numbers: [Double] { get }
}

/// The coordinates a step view can have, points: the largest iPad screen is 1,376 points
/// tall; 10⁵ points hold any view many times over, 1e300 is no place on a screen.
let plausiblePoints: ClosedRange<Double> = -100_000...100_000

/// A point in a step view's coordinate space (iOS points, origin top-left, y down).
public struct Point: Sendable, Hashable, ViewGeometry {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    var numbers: [Double] { [x, y] }
}

/// A size in points.
public struct Size: Sendable, Hashable, ViewGeometry {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    var numbers: [Double] { [width, height] }
}

/// A rectangle in points (origin top-left).
public struct Rect: Sendable, Hashable, ViewGeometry {
    public var origin: Point
    public var size: Size
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }
    var numbers: [Double] { origin.numbers + size.numbers }

    public var center: Point {
        Point(x: origin.x + size.width / 2, y: origin.y + size.height / 2)
    }

    /// True if `point` lies inside or on the edge (CGRectContainsPoint excludes the far edges;
    /// the difference is one line of points and documented here).
    public func contains(_ point: Point) -> Bool {
        point.x >= origin.x && point.x <= origin.x + size.width && point.y >= origin.y
            && point.y <= origin.y + size.height
    }
}

/// Parsing of `NSStringFromCGPoint/Size/Rect` strings (docs/formats.md §8.2): `"{x, y}"`,
/// `"{w, h}"`, `"{{x, y}, {w, h}}"`, with any whitespace and exponents.
enum CGString {
    /// The numbers of a `{a, b}` string (ASCII spaces allowed around each part); nil if it is
    /// not one. Works on the UTF-8 bytes: every tap of a tapping result has one.
    static func pair(_ text: Substring) -> (Double, Double)? {
        if let pair = text.utf8.withContiguousStorageIfAvailable(pair) { return pair }
        return Array(text.utf8).withUnsafeBufferPointer(pair)
    }

    private static func pair(_ bytes: UnsafeBufferPointer<UInt8>) -> (Double, Double)? {
        let (start, end) = trimmed(bytes, 0, bytes.count)
        guard end - start >= 2, bytes[start] == UInt8(ascii: "{"), bytes[end - 1] == UInt8(ascii: "}"),
            let comma = bytes[(start + 1)..<(end - 1)].firstIndex(of: UInt8(ascii: ",")),
            let a = number(bytes, start + 1, comma), let b = number(bytes, comma + 1, end - 1)
        else { return nil }
        return (a, b)
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (Int, Int) {
        var start = start, end = end
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return (start, end)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// A finite decimal number filling bytes[start..<end] but for spaces (a second comma fails here).
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        let (start, end) = trimmed(bytes, start, end)
        guard start < end else { return nil }
        for byte in bytes[start..<end] {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"): continue
            default: return nil
            }
        }
        guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    static func point(_ text: String) -> Point? {
        pair(text[...]).map { Point(x: $0.0, y: $0.1) }
    }

    static func size(_ text: String) -> Size? {
        pair(text[...]).map { Size(width: $0.0, height: $0.1) }
    }

    static func rect(_ text: String) -> Rect? {
        let trimmed = text[...].trimmingSpaces
        guard trimmed.hasPrefix("{"), trimmed.hasSuffix("}") else { return nil }
        let inner = trimmed.dropFirst().dropLast()
        guard let close = inner.firstIndex(of: "}") else { return nil }
        let first = inner[...close]
        let rest = inner[inner.index(after: close)...].trimmingSpaces
        guard rest.hasPrefix(","), let origin = pair(first), let size = pair(rest.dropFirst()) else { return nil }
        return Rect(origin: Point(x: origin.0, y: origin.1), size: Size(width: size.0, height: size.1))
    }

}

extension Substring {
    /// This text without whitespace at either end.
    public var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return text
    }
}
