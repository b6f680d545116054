import Batch
import Dispatch
import Glibc

/// The whole batch path for one fuzz input: units → analyses → a store in a fresh folder, then
/// the store's oracles: it opens again for writing (which runs SQLite's `quick_check` first,
/// `ResultStore`), and every error row has a message.
public enum FuzzBatch {
    /// The repository's SampleData folder (manifests and configurations name its files).
    public static let sampleData: String = {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/SampleData"
    }()

    /// Runs a batch over `arguments` with `options` into a new store and checks it; a batch that
    /// refuses its input as a whole must say why, naming `about`.
    public static func run(_ arguments: [String], options: BatchOptions, about: String) {
        let folder = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        let db = "\(folder)/atk-fuzz-\(getpid()).sqlite"
        for suffix in ["", "-wal", "-shm"] { unlink(db + suffix) }
        defer { for suffix in ["", "-wal", "-shm"] { unlink(db + suffix) } }
        let store: ResultStore
        do { store = try ResultStore(path: db) } catch { fatalError("a new store cannot be opened: \(error)") }
        let outcome = blocking { () async -> String? in
            do {
                _ = try await BatchRunner.run(arguments, store: store, options: options)
                return nil
            } catch {
                return "\(error)"
            }
        }
        if let message = outcome, !message.contains(about) { fatalError("the batch failed without naming \(about): \(message)") }
        do {
            _ = try ResultStore(path: db)
            for row in try store.resultRows() where row.status == .error {
                guard let error = row.error, !error.isEmpty else { fatalError("an error row without a message: \(row.recording)") }
            }
        } catch {
            fatalError("the store cannot be read back: \(error)")
        }
    }

    /// Waits for `body` on the calling thread (libFuzzer's callbacks are synchronous).
    public static func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            result.value = await body()
            done.signal()
        }
        done.wait()
        return result.value!
    }

    /// A value handed from the detached task to the waiting thread (the semaphore orders them).
    private final class Box<T>: @unchecked Sendable {
        var value: T?
    }
}
