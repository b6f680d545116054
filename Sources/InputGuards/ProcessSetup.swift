import CProcess
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
    /// A limit of open files below ``minimumOpenFiles`` is refused before anything else; above
    /// it, the main queue's wake-up descriptor is made before any file is opened, so a process
    /// that reaches its limit reports it instead of aborting in libdispatch (`CProcess.h`).
    public static func prepare(reportPeak: @escaping @Sendable (Int?) -> Void) throws(OpenFileLimit) {
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(minimumOpenFiles) {
            throw OpenFileLimit(limit: Int(limit.rlim_cur))
        }
        atk_dispatch_main_queue_prepare()
        signal(SIGXFSZ, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        MemoryBudget.prepare()
        if getenv("ATK_REPORT_PEAK_MEMORY") != nil {  // getenv: ProcessInfo copies the whole environment
            peakReporter.withLock { $0 = reportPeak }
            atexit { ProcessSetup.peakReporter.withLock { $0 }?(MemoryBudget.peakResidentMegabytes()) }
        }
    }

    private static let peakReporter = Mutex<(@Sendable (Int?) -> Void)?>(nil)

    /// The fewest open files (`ulimit -n`) a command starts with: standard input, output and
    /// error, the Swift runtime's three, a result store's five (database, journal, shared
    /// memory, a reader's two) and a file to read. Below it libdispatch, which opens descriptors
    /// of its own while the process runs, aborted the process in 13–34 of 250 `batch` runs at
    /// limits 5 to 7 (docs/reliability.md).
    public static let minimumOpenFiles = 12

    /// A limit of open files below ``minimumOpenFiles``.
    public struct OpenFileLimit: Error, CustomStringConvertible {
        public var limit: Int
        public var description: String {
            "the limit of open files is \(limit) (ulimit -n); activetask needs at least \(ProcessSetup.minimumOpenFiles) — raise it and run the command again"
        }
    }
}
