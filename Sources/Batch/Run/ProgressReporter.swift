import Foundation
import InputGuards

/// Progress on stderr: a line rewritten in place on a terminal (at most 10 times a second),
/// plain lines every 10 s otherwise.
public final class ProgressReporter: @unchecked Sendable {
    public init() {}

    private let lock = NSLock()
    private let terminal = isatty(2) != 0
    private var lastShown = Date.distantPast
    private var shownOnce = false

    /// Shows `counts` unless the last line is too recent (the final count is always shown).
    public func show(_ counts: BatchCounts) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        let done = counts.unitsDone == counts.unitsTotal
        guard done || now.timeIntervalSince(lastShown) >= (terminal ? 0.1 : 10) else { return }
        lastShown = now
        shownOnce = true
        let rate = counts.elapsedSeconds > 0 ? Double(counts.unitsDone) / counts.elapsedSeconds : 0
        let remaining = rate > 0 ? Double(counts.unitsTotal - counts.unitsDone) / rate : 0
        let line = String(format: "%d/%d recordings, %.1f/s, %.1f MB/s, ETA %@, %d errors", counts.unitsDone, counts.unitsTotal, rate,
                          counts.elapsedSeconds > 0 ? Double(counts.bytes) / 1e6 / counts.elapsedSeconds : 0,
                          Self.duration(remaining), counts.errors)
        StandardStream.writeError(terminal ? "\r\u{1B}[K" + line : "batch: " + line + "\n")
    }

    /// Ends a line rewritten in place.
    public func finish() {
        if terminal, shownOnce { StandardStream.writeError("\n") }
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(clamping: seconds, rounding: .toNearestOrAwayFromZero)
        return s >= 3600 ? "\(s / 3600)h\(s % 3600 / 60)m" : s >= 60 ? "\(s / 60)m\(s % 60)s" : "\(s)s"
    }
}
