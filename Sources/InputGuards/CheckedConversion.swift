/// The one way a floating-point number becomes an integer in ActiveTaskKit.
///
/// Every number that comes from a file, a socket or an option can be NaN, ±∞, ±1e308, −0 or a
/// subnormal; `Int(_:)` on such a value traps (docs/reliability.md, "Rules now in
/// the code"). These initialisers never trap: the checking form returns `nil` for a value that is not
/// finite or falls outside the bounds the caller states, and the clamping form saturates at them
/// (NaN to the lower bound), for sizes derived from values that were validated earlier.
extension Int {
    /// `value` rounded by `rule`, or `nil` when it is NaN, ±∞ or, once rounded, outside `bounds`.
    /// Always inlined, as the clamping form below.
    @inlinable @inline(__always)
    public init?(checking value: Double, rounding rule: FloatingPointRoundingRule = .towardZero,
                 in bounds: ClosedRange<Int> = Int.min...Int.max) {
        guard value.isFinite else { return nil }
        let rounded = value.rounded(rule)
        // Double(Int.max) is 2^63, one above Int.max: compare against the bounds as Doubles first.
        guard rounded >= Double(bounds.lowerBound), rounded <= Double(bounds.upperBound),
              rounded < 9_223_372_036_854_775_808.0 else { return nil }
        let result = Int(rounded)
        guard bounds.contains(result) else { return nil }
        self = result
    }

    /// `value` rounded by `rule` and clamped to `bounds`; NaN gives `bounds.lowerBound`. Always
    /// inlined: analyses call it per frame and per evaluation, and with the rule known there it
    /// becomes one rounding instruction and two comparisons instead of a call and a switch.
    @inlinable @inline(__always)
    public init(clamping value: Double, rounding rule: FloatingPointRoundingRule = .towardZero,
                to bounds: ClosedRange<Int> = Int.min...Int.max) {
        if value.isNaN { self = bounds.lowerBound; return }
        let rounded = value.rounded(rule)
        if rounded <= Double(bounds.lowerBound) { self = bounds.lowerBound; return }
        if rounded >= Double(bounds.upperBound) { self = bounds.upperBound; return }
        self = Int(rounded)
    }
}

extension Double {
    /// A compact decimal for messages and labels that never converts to an integer: `35`, `0.5`,
    /// `1e+300`, `nan`, `inf`.
    @inlinable
    public var compactDescription: String {
        if let whole = Int(checking: self, in: -999_999_999_999...999_999_999_999), Double(whole) == self {
            return String(whole)
        }
        return "\(self)"
    }
}
