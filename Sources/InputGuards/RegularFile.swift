import CProcess
import Glibc

/// Opening a file whose name came from data (a folder listing, a task result's `fileName`, a
/// manifest row, an option) without trusting what it names: a FIFO blocks `open` until a writer
/// comes, `/dev/zero` never ends, a socket or a folder is not a recording. Every reader opens
/// through here, so none of them can hang or read without end on such a name.
public enum RegularFile {
    /// Why a path was not opened: the system's message, or what it is instead of a regular file.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Called with the path of every file opened here for its content, in the task that set it
    /// and the tasks it starts: a tracing hook (tests count the reads of each file).
    @TaskLocal public static var openObserver: (@Sendable (String) -> Void)?

    /// A read-only descriptor of `path` if it is a regular file (after following links). The open
    /// itself is non-blocking, so a FIFO is refused instead of waiting for a writer; the returned
    /// descriptor is blocking again. The caller closes it.
    /// `systemViews`: files of /proc and /sys are opened too (a device's sysfs attributes).
    public static func openForReading(_ path: String, systemViews: Bool = false) throws(Refusal) -> Int32 {
        let descriptor = FileName.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard descriptor >= 0 else { throw Refusal(description: systemMessage()) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let message = systemMessage()
            close(descriptor)
            throw Refusal(description: message)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw Refusal(description: "is \(kind(of: status.st_mode)), not a regular file")
        }
        // /proc and /sys entries look like regular files (size 0, or a size that is not what a
        // read gives: /proc/self/mem fails with EIO) but are views of the running system.
        if !systemViews, let name = systemFileSystems[Int64(atk_filesystem_type(descriptor))] {
            close(descriptor)
            throw Refusal(description: "is an entry of \(name) (a view of the running system), not a recording")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        openObserver?(path)
        return descriptor
    }

    /// Throws unless `path` is a regular file that can be opened for reading (for libraries that
    /// open by name themselves).
    public static func check(_ path: String) throws(Refusal) {
        close(try openForReading(path))
    }

    /// The file systems whose files are the kernel's views, by `statfs` magic number (linux/magic.h).
    static let systemFileSystems: [Int64: String] = [
        0x9FA0: "/proc", 0x6265_6572: "/sys", 0x6462_6720: "debugfs", 0x7472_6163: "tracefs", 0x7363_6673: "securityfs",
        0x6367_7270: "cgroup2", 0x0027_E0EB: "cgroup", 0x6265_6570: "configfs", 0xDE5E_81E4: "efivarfs", 0x6E73_6673: "nsfs", 0x5049_5045: "pipefs",
    ]

    /// "a FIFO", "a character device", … for a `st_mode`.
    public static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        case S_IFREG: "a regular file"
        default: "not a file"
        }
    }

    static func systemMessage() -> String { String(cString: strerror(errno)) }
}
