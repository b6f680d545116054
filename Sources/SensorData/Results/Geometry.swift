/// A point in a step view's coordinate space (iOS points, origin top-left, y down).
public struct Point: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A size in points.
public struct Size: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// A rectangle in points (origin top-left).
public struct Rect: Sendable, Hashable {
    public var origin: Point
    public var size: Size
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

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

/// Parsing of `NSStringFromCGPoint/Size/Rect` strings (formats.md §8.2): `"{x, y}"`,
/// `"{w, h}"`, `"{{x, y}, {w, h}}"`, with any whitespace and exponents.
enum CGString {
    /// The numbers of a `{a, b}` string; nil if it is not one.
    static func pair(_ text: Substring) -> (Double, Double)? {
        let trimmed = text.trimmingSpaces
        guard trimmed.hasPrefix("{"), trimmed.hasSuffix("}") else { return nil }
        let inner = trimmed.dropFirst().dropLast()
        let parts = inner.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = number(parts[0]), let b = number(parts[1]) else { return nil }
        return (a, b)
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

    private static func number(_ text: Substring) -> Double? {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty, trimmed.allSatisfy({ "0123456789.eE+-".contains($0) }),
            let value = Double(trimmed), value.isFinite
        else { return nil }
        return value
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return text
    }
}
