extension MemoryBudget {
    /// This process's peak resident set, MB: `VmHWM` of /proc/self/status, which belongs to the
    /// address space created by exec (getrusage's ru_maxrss survives exec and can report the
    /// parent's peak after a fork or posix_spawn).
    public static func peakResidentMegabytes() -> Int? {
        // A /proc file: opened as a system view, its size (0) not trusted, read to its end.
        guard let descriptor = try? RegularFile.openForReading("/proc/self/status", systemViews: true) else { return nil }
        defer { FileSystem.close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        guard let count = try? FileSystem.read(descriptor, path: "/proc/self/status", into: &buffer),
            case let status = String(decoding: buffer[..<count], as: UTF8.self),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")  // "VmHWM:\t12114560 kB"
        else { return nil }
        return kilobytes / 1024
    }
}
