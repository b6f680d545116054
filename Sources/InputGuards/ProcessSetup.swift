import Glibc
import Synchronization

/// What a command-line process of the toolkit sets up before anything else.
public enum ProcessSetup {
    /// A file-size limit (ulimit -f) makes write() fail with EFBIG instead of killing the process,
    /// so a full disk and a size limit both end in an error naming the file; a reader that went
    /// away (`… | head`) makes write() fail with EPIPE instead of killing the process without a
    /// word; under an address-space limit, one malloc arena, so memory estimates hold
    /// (``MemoryBudget/prepare()``). With `ATK_REPORT_PEAK_MEMORY` set, `reportPeak` hears the
    /// peak resident megabytes at exit (memory bounds in tests, docs/reliability.md).
    public static func prepare(reportPeak: @escaping @Sendable (Int?) -> Void) {
        signal(SIGXFSZ, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        MemoryBudget.prepare()
        if getenv("ATK_REPORT_PEAK_MEMORY") != nil {  // getenv: ProcessInfo copies the whole environment
            peakReporter.withLock { $0 = reportPeak }
            atexit { ProcessSetup.peakReporter.withLock { $0 }?(MemoryBudget.peakResidentMegabytes()) }
        }
    }

    private static let peakReporter = Mutex<(@Sendable (Int?) -> Void)?>(nil)
}
