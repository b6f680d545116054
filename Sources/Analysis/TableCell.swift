import Foundation

/// Cells of the fixed-width text tables the reports print (`evaluate oxford`, `audiometry
/// simulate`).
enum TableCell {
    /// `value` with `digits` decimals right-aligned in `width` characters; "–" where there is no
    /// value (NaN or ±∞: no run or window to summarise).
    static func number(_ value: Double, _ width: Int, _ digits: Int, suffix: String = "") -> String {
        let text = value.isFinite ? String(format: "%.\(digits)f", value) + suffix : "–"
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// `text` followed by spaces up to `width` characters (longer text as it is; `%-25@` pads
    /// nothing in this Foundation).
    static func padded(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
}
