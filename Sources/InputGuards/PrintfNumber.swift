import Glibc

/// C's `%.Ng` of a Double: what `String(format: "%.10g", x)` prints, written by glibc's own
/// `vsnprintf` without Foundation's format parser and string bridging (a tenth of a millisecond
/// of a command's start-up, docs/cli.md "Start-up").
public enum PrintfNumber {
    /// `%.{significant}g` of `value`; `significant` is clamped to 1…17 (a Double's digits).
    public static func g(_ value: Double, significant: Int) -> String {
        // At most 17 digits, a sign, a point and "e-308": 32 bytes are enough.
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buffer in
            let digits = Int32(min(max(significant, 1), 17))
            _ = withVaList([digits, value]) { vsnprintf(buffer.baseAddress!, 32, "%.*g", $0) }
            return String(cString: buffer.baseAddress!)
        }
    }
}
