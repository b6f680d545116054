import Glibc

/// The system's clocks, read in one place (`clock_gettime`), as seconds.
public enum SystemClock {
    /// Seconds on `clock` (`CLOCK_MONOTONIC`, `CLOCK_REALTIME`, `CLOCK_BOOTTIME`, …).
    public static func seconds(_ clock: clockid_t) -> Double {
        var now = timespec()
        clock_gettime(clock, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
    }

    /// Seconds on `CLOCK_MONOTONIC` (intervals, immune to clock changes).
    @Sendable public static func monotonic() -> Double { seconds(CLOCK_MONOTONIC) }

    /// Unix time, s (`CLOCK_REALTIME`).
    @Sendable public static func wall() -> Double { seconds(CLOCK_REALTIME) }
}
