import CProcess
import Glibc

/// The processors this thread may run on: its affinity mask (`taskset`, a cgroup's cpuset, a Slurm
/// allocation), not the machine's count, which Dispatch and `sysconf` report.
public enum Processors {
    /// Bytes of the mask: 1,024 processors, glibc's `cpu_set_t`.
    private static let maskBytes = 128

    /// How many processors the calling thread's affinity mask allows (at least 1; the machine's
    /// online count when the mask cannot be read).
    public static var usable: Int {
        guard let mask = threadMask else { return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
        return max(1, mask.reduce(0) { $0 + $1.nonzeroBitCount })
    }

    /// The calling thread's affinity mask, bit k of byte k / 8 for processor k (nil when it cannot
    /// be read).
    public static var threadMask: [UInt8]? {
        var mask = [UInt8](repeating: 0, count: maskBytes)
        return atk_thread_affinity(&mask, UInt(maskBytes), 0) == 0 ? mask : nil
    }

    /// Restricts the calling thread to the processors of `mask` (as ``threadMask`` gives it);
    /// the system's errno when it refuses.
    public static func setThreadMask(_ mask: [UInt8]) throws(Errno) {
        var bytes = Array(mask.prefix(maskBytes))
        guard atk_thread_affinity(&bytes, UInt(bytes.count), 1) == 0 else { throw Errno.current }
    }
}
