import Glibc
import GRDB
import Synchronization

/// Why SQLite could not open a file, as its error log (`SQLITE_CONFIG_LOG`, which GRDB sets as
/// `Database.logError`) says it.
///
/// A failed open reaches the caller as SQLITE_CANTOPEN, "unable to open database file", whatever
/// the cause: a folder without permission, or the process at its limit of open files. Only the
/// log says which: `os_unix.c:4668: (24) open(/path/r.sqlite-shm) - ` (the errno, the call, the
/// file). A store keeps the latest of these system errors here, and ``StoreError`` quotes the
/// one of its files, so a batch that meets the machine's limit while opening a store connection
/// stops with that limit named (``ResourceExhaustion``) instead of asking for permissions.
enum SQLiteOpenErrors {
    /// The latest failures, at most ``capacity``: the file's path (as SQLite made it absolute)
    /// and the system's text for the errno.
    private static let recent = Mutex<[(path: String, reason: String)]>([])
    private static let capacity = 16

    /// Installs the log callback; runs once, before the process's first SQLite connection
    /// (``ResultStore`` opens every one).
    static let installed: Void = { Database.logError = { _, message in record(message) } }()

    /// Keeps a log line `…: (ERRNO) CALL(PATH) - …` (CALL: `open`, `openDirectory`, …); other
    /// lines are not kept.
    static func record(_ message: String) {
        guard let open = message.range(of: ": ("), let close = message[open.upperBound...].firstIndex(of: ")"),
              let errno = Int32(message[open.upperBound..<close]), errno > 0,
              let call = message[close...].firstIndex(of: "("),
              let end = message.range(of: ") - ", range: call..<message.endIndex) else { return }
        let path = String(message[message.index(after: call)..<end.lowerBound])
        let reason = String(cString: strerror(errno))
        recent.withLock { entries in
            entries.append((path, reason))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
    }

    /// The latest failure to open the store at `path`, one of its journals (`-wal`, `-shm`,
    /// `-journal`) or its folder — the file and the system's text — taken out of the log so that
    /// no later error quotes it. Matched by name: SQLite logs the path made absolute.
    static func take(store path: String) -> (file: String, reason: String)? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let names = [name, name + "-wal", name + "-shm", name + "-journal"]
        let folder = path.split(separator: "/").dropLast().last.map(String.init)
        return recent.withLock { entries in
            guard let index = entries.lastIndex(where: { entry in
                let last = entry.path.split(separator: "/").last.map(String.init) ?? entry.path
                return names.contains(last) || last == folder
            }) else { return nil }
            let entry = entries.remove(at: index)
            return (entry.path, entry.reason)
        }
    }
}
