import CProcess
import Glibc

/// The signals that ask a command to end: SIGINT (Ctrl-C), SIGTERM (`kill`, a scheduler's
/// time limit) and SIGHUP (the terminal closed). Commands that write files either remove their
/// temporaries when one arrives (``OutputFile``, through `CProcess`) or stop cleanly
/// (``stopOnInterrupt(_:)``, the recorders).
public enum InterruptSignals {
    public static let numbers: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Calls `handler` (which may only do what a signal handler may: set a flag) when any of the
    /// three arrives, and unblocks them on the calling thread.
    public static func stopOnInterrupt(_ handler: @convention(c) (Int32) -> Void) {
        for number in numbers { signal(number, handler) }
        atk_interrupts_unblock()
    }
}
