import CProcess
import Glibc
import Synchronization

/// How much more memory this process may take, and the estimates that claim part of it.
///
/// Two limits apply to a process on Linux: its address space (`RLIMIT_AS`, `ulimit -v`), which a
/// failed `mmap` enforces by aborting a Swift allocation (SIGABRT, "failed to allocate"), and its
/// cgroup's memory limit (v2 `memory.max`, v1 `memory.limit_in_bytes`; a container's or a Slurm job's), which the OOM killer
/// enforces with SIGKILL. Neither can be caught once an allocation fails, so work whose memory
/// is known in advance (``reserve(_:for:_:)``) is checked against both before it starts: a unit
/// that would not fit is refused with what it needs, while the others go on.
///
/// Estimates of work running at the same time are reserved until it ends, so two jobs do not
/// both take the same headroom. What is already allocated is in the address space and the
/// cgroup's usage already, so a reservation also counts memory its own work has taken so far:
/// the check is conservative, never optimistic.
public enum MemoryBudget {
    /// What refuses work that would not fit: the estimate, the headroom, and which limit.
    public struct Shortfall: Error, Sendable, CustomStringConvertible {
        public var neededBytes: Int
        public var availableBytes: Int
        /// `address-space limit (ulimit -v) of 600 MB` or `cgroup memory limit of 512 MB`.
        public var limit: String
        public var what: String

        public var description: String {
            "\(what) needs about \(Self.megabytes(neededBytes)) MB, and \(Self.megabytes(availableBytes)) MB are available under this process's \(limit); not analysed (raise the limit, or analyse fewer units at once)"
        }

        static func megabytes(_ bytes: Int) -> String { String(Int((Double(bytes) / 1e6).rounded(.up))) }
    }

    private static let reserved = Atomic<Int>(0)

    /// Call first thing in a process that reserves. Under an address-space limit, glibc's malloc
    /// keeps one arena (`M_ARENA_MAX` 1) instead of reserving 64 MiB of address space for each
    /// thread that allocates (measured: a two-thread voice analysis took 142 MB more address
    /// space than its resident memory), so the address space follows what is allocated and the
    /// estimates hold. Without any limit, malloc keeps what is freed for the next allocation
    /// (`atk_malloc_keep_freed`; measured on a 2-core AMD EPYC, a one-job batch of 20 generated
    /// task runs on one CPU: system time 0.56 s → 0.08 s of about 11 s, wall time 2–6 % less in
    /// medians of five, peak resident memory 1 % more). Under a limit freed memory goes back, so
    /// what the limit counts stays what is in use and no estimate is refused for memory merely
    /// kept.
    public static func prepare() {
        var limit = rlimit()
        let addressSpaceLimited = getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0 && limit.rlim_cur != rlim_t.max
        switch mallocPolicy(addressSpaceLimited: addressSpaceLimited, memoryLimited: cgroupLimit != nil) {
        case .oneArena: atk_malloc_one_arena()
        case .keepFreed: atk_malloc_keep_freed()
        case .glibcDefaults: break
        }
    }

    /// How malloc is set up (``prepare()``).
    enum MallocPolicy: Equatable {
        case oneArena, keepFreed, glibcDefaults
    }

    /// One arena under an address-space limit; memory freed kept only when no limit counts it
    /// (under a cgroup limit glibc's defaults give it back).
    static func mallocPolicy(addressSpaceLimited: Bool, memoryLimited: Bool) -> MallocPolicy {
        if addressSpaceLimited { return .oneArena }
        return memoryLimited ? .glibcDefaults : .keepFreed
    }

    /// Address space of the stacks of the threads a parallel analysis may start (Dispatch: one
    /// per core, 8 MiB each, at most 16).
    public static var threadStacksBytes: Int { min(16, max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) * (8 << 20) }

    /// The bytes this process may still take, and the limit that decides it (nil: no limit).
    public static func headroom() -> (bytes: Int, limit: String)? {
        var candidates: [(bytes: Int, limit: String)] = []
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max, let used = addressSpaceBytes() {
            let total = Int(clamping: limit.rlim_cur)
            candidates.append((max(0, total - used), "address-space limit (ulimit -v) of \(Shortfall.megabytes(total)) MB"))
        }
        if let (maximum, current) = cgroupMemory() {
            candidates.append((max(0, maximum - current), "cgroup memory limit of \(Shortfall.megabytes(maximum)) MB"))
        }
        return candidates.min { $0.bytes < $1.bytes }
    }

    /// Runs `body` with `bytes` reserved, or throws ``Shortfall`` (naming `what`) when they exceed
    /// the headroom less what running work has reserved. Without a limit, `body` just runs.
    public static func reserve<T, E: Error>(_ bytes: Int, for what: @autoclosure () -> String,
                                            _ body: () throws(E) -> T) throws -> T {
        let claim = max(0, bytes)
        if let (headroom, limit) = headroom() {
            let before = reserved.add(claim, ordering: .relaxed).oldValue
            guard before <= headroom, claim <= headroom - before else {
                reserved.subtract(claim, ordering: .relaxed)
                throw Shortfall(neededBytes: claim, availableBytes: max(0, headroom - before), limit: limit, what: what())
            }
            defer { reserved.subtract(claim, ordering: .relaxed) }
            return try body()
        }
        return try body()
    }

    /// The process's mapped address space (`VmSize`: /proc/self/statm's first field, in pages).
    static func addressSpaceBytes() -> Int? {
        guard let text = read("/proc/self/statm"), let pages = Int(text.split(separator: " ").first ?? "") else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// This process's cgroup memory limit (bytes) and the file that holds its usage, read once:
    /// cgroup v2 `memory.max` / `memory.current`, else v1 `memory.limit_in_bytes` /
    /// `memory.usage_in_bytes` (v1 writes "no limit" as a number near 2^63). Nil: no limit.
    private static let cgroupLimit: (bytes: Int, usage: String)? = {
        guard let membership = read("/proc/self/cgroup") else { return nil }
        let lines = membership.split(separator: "\n")
        func number(_ path: String) -> Int? { read(path).flatMap { Int(trimmed($0[...])) } }
        if let line = lines.first(where: { $0.hasPrefix("0::") }) {
            let folder = "/sys/fs/cgroup" + trimmed(line.dropFirst(3))
            if let limit = number(folder + "/memory.max") { return (limit, folder + "/memory.current") }
        }
        if let line = lines.first(where: { $0.split(separator: ":").dropFirst().first?.split(separator: ",").contains("memory") == true }) {
            let folder = "/sys/fs/cgroup/memory" + (line.split(separator: ":", maxSplits: 2).last.map(String.init) ?? "")
            if let limit = number(folder + "/memory.limit_in_bytes"), limit < 1 << 60 { return (limit, folder + "/memory.usage_in_bytes") }
        }
        return nil
    }()

    /// The cgroup's memory limit and its usage now (nil: no limit).
    static func cgroupMemory() -> (maximum: Int, current: Int)? {
        guard let (limit, usage) = cgroupLimit, let text = read(usage), let current = Int(trimmed(text[...])) else { return nil }
        return (limit, current)
    }

    /// A small file of /proc or /sys, whole (at most 16 KiB: /proc/self/cgroup lists a line per
    /// cgroup v1 controller, a few hundred bytes). Read into the stack, not a zeroed array: every
    /// command reads three of them at start-up, and a page's first touch costs about 2 µs.
    private static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1 << 14) { buffer in
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            guard count > 0 else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
    }
}

/// `text` without the spaces, tabs and line ends around it: the bytes compared as they are, so
/// the start-up of every command (``MemoryBudget/prepare()`` reads the cgroup files) instantiates
/// no `Set<Character>` (its hashing conformances cost a scan of every protocol conformance in the
/// binary the first time).
private func trimmed(_ text: Substring) -> String {
    let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    let bytes = text.utf8
    guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else { return "" }
    return String(text[first...last])
}
