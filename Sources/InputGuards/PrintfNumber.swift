import CProcess

/// C's `%.Ng` of a Double: what `String(format: "%.10g", x)` prints, written by glibc's own
/// snprintf (``atk_format_g``) without Foundation's format parser, string bridging and Swift's
/// variadic-list casts (a tenth of a millisecond of a command's start-up, docs/cli.md "Start-up").
public enum PrintfNumber {
    /// `%.{significant}g` of `value`; `significant` is clamped to 1…17 (a Double's digits).
    public static func g(_ value: Double, significant: Int) -> String {
        // At most 17 digits, a sign, a point and "e-308": 32 bytes are enough.
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buffer in
            _ = atk_format_g(buffer.baseAddress!, 32, Int32(min(max(significant, 1), 17)), value)
            return String(cString: buffer.baseAddress!)
        }
    }
}
