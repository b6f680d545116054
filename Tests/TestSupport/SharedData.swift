import InputGuards
import Foundation
import SignalProcessing
import Testing

/// Locations shared by the test targets.
public enum SharedData {
    /// The package root (the folder with Package.swift).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// `../shared/data` next to the package, where the real recordings live (never copied into
    /// the repository).
    public static let root = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")

    /// True when the real recordings are present.
    public static var isPresent: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("README.md").path)
    }

    /// Whether the tests that need the real recordings run: always under `CI=true` (where their
    /// absence fails them, naming the folder), elsewhere when they are present (else skipped with
    /// `skipMessage`).
    public static var runs: Bool { Peer.inCI || isPresent }

    public static let skipMessage: Comment = "../shared/data (real recordings) is absent: skipped; under CI=true its absence fails"

    /// Records the absence of `../shared/data` as the test's failure.
    static func requirePresent() {
        if !isPresent { Issue.record("\(root.path) (the real recordings) is missing: CI lays it beside the clone") }
    }

    /// Path of a file under `../shared/data` (its absence fails the test).
    public static func path(_ relative: String) -> String {
        requirePresent()
        return root.appendingPathComponent(relative).path
    }

    /// Regular files directly in a folder of `../shared/data`, sorted (its absence fails the test).
    public static func files(in folder: String) -> [String] {
        requirePresent()
        let directory = root.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0).path }
            .filter { var isDirectory: ObjCBool = false; return FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue }
    }

    /// The package's own `SampleData/`.
    public static let sampleData = packageRoot.appendingPathComponent("SampleData")
}

/// A fresh temporary folder, removed by the caller with `remove()`.
public struct TemporaryFolder: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("atk-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    public func write(_ name: String, _ text: String) throws -> String {
        try write(name, Array(text.utf8))
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// SplitMix64 (SignalProcessing): reproducible test data, and deterministic
/// mutations of a byte string for robustness tests (truncations, byte flips, inserted and
/// deleted bytes).
public struct SeededRandom {
    private var generator: SplitMix64

    public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { generator.unit() }

    public mutating func next() -> UInt64 { generator.next() }

    public mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }

    /// One mutant of `bytes`; `index` picks the kind of mutation in rotation.
    public mutating func mutate(_ bytes: [UInt8], index: Int) -> [UInt8] {
        var copy = bytes
        guard !copy.isEmpty else { return [UInt8(truncatingIfNeeded: next())] }
        switch index % 5 {
        case 0:  // truncation
            copy.removeSubrange(below(copy.count)...)
        case 1:  // byte flips
            for _ in 0...below(4) { copy[below(copy.count)] = UInt8(truncatingIfNeeded: next()) }
        case 2:  // inserted bytes, often JSON punctuation
            let alphabet: [UInt8] = Array("{}[],:\"0-eE.\\ nN".utf8) + [0x00, 0xFF, 0xC3]
            for _ in 0...below(4) { copy.insert(alphabet[below(alphabet.count)], at: below(copy.count + 1)) }
        case 3:  // deleted span
            let start = below(copy.count)
            copy.removeSubrange(start..<min(copy.count, start + 1 + below(16)))
        default:  // bit flip near the start (headers)
            let position = below(min(copy.count, 256))
            copy[position] ^= UInt8(1 << below(8))
        }
        return copy
    }
}

/// Counts the opens of each file (``RegularFile/openObserver``'s tracing hook), from any task.
public final class OpenCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    public init() {}

    public func add(_ path: String) {
        lock.lock()
        counts[path, default: 0] += 1
        lock.unlock()
    }

    public func count(_ path: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[path] ?? 0
    }

    /// Every path opened, with its count.
    public var all: [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }
}

/// coreutils' `sha256sum`: the independent reference for content keys.
public enum SHA256Sum {
    /// The lowercase hex SHA-256 `/usr/bin/sha256sum` prints for `file`.
    public static func of(_ file: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [file]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output.prefix(64), as: UTF8.self)
    }
}
