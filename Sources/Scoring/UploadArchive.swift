import Foundation
import InputGuards
import SensorData

/// An upload archive (`.zip`: AppCore, Bridge, SageResearch; docs/formats.md §8.1) read in place, from
/// the bytes already loaded, without writing anything: each entry is classified like a file
/// (``LoadedInput/classify(_:format:path:lenient:)``) under the path `ARCHIVE/ENTRY`.
///
/// Entries come from the upload, so they are checked as `unpack` checks names, before any is
/// used: a name that is empty, absolute (`/…`, `C:…`), holds a `..` component, a `\` or NUL, or an
/// entry that is a symbolic link, refuses the whole archive. Sizes are bounded against zip bombs:
/// at most ``maximumEntries`` entries and ``maximumBytes`` inflated bytes in all, counted as
/// they are inflated (a header that understates a size does not get past the count). A CRC-32
/// that does not match, a truncated or malformed archive is an error naming the archive and
/// the entry. Archives inside the archive are not opened (they are binary entries).
///
/// Memory: the archive's bytes (≤ ``FileBytes/maximumBytes``) plus its entries as loaded files
/// (≤ ``maximumBytes`` inflated).
public struct UploadArchive: Sendable {
    public struct Entry: Sendable {
        /// The entry's name in the archive (`info.json`, `accel_walking_outbound.json.items`).
        public let name: String
        public let input: LoadedInput
        /// SHA-256 of the inflated bytes, hexadecimal.
        public let sha256: String
    }

    public let path: String
    /// The file entries in archive order (folders left out).
    public let entries: [Entry]

    /// At most 10,000 entries (an upload holds a dozen).
    public static let maximumEntries = 10_000
    /// At most 1 GiB inflated in all (by default; a task-local bound, like ``FileBytes/maximumBytes``).
    @TaskLocal public static var maximumBytes = 1 << 30

    /// The upload's `info.json` manifest, if it has one.
    public var manifest: ArchiveManifest? {
        entries.first { $0.name == "info.json" }?.input.json?.manifest
    }

    /// Reads the archive `bytes` loaded from `path`.
    ///
    /// - Throws: `ScoringError` naming the archive (and the entry): not a readable ZIP, an unsafe
    ///   entry name or a link, too many entries or bytes, a CRC mismatch, or an entry that does not
    ///   parse as its content says.
    public static func read(_ bytes: [UInt8], path: String, lenient: Bool = false) throws(ScoringError) -> UploadArchive {
        func failure(_ what: String) -> ScoringError {
            ScoringError(.invalidInput, "\(FileName.display(path)): \(what)")
        }
        let directory: ZIPDirectory
        do { directory = try ZIPDirectory(bytes) } catch {
            throw failure("not a readable ZIP archive (\(error.reason)); nothing read from it")
        }
        guard directory.entryCount <= UInt64(maximumEntries) else {
            throw failure("\(directory.entryCount) entries, more than \(maximumEntries) (UploadArchive.maximumEntries); not read")
        }
        let listed: [ZIPDirectory.Entry]
        do { listed = try directory.entries() } catch {
            throw failure("not a readable ZIP archive (\(error.reason)); nothing read from it")
        }
        // Every name and kind is checked before any entry is inflated.
        var names = Set<String>()
        for entry in listed {
            guard names.insert(entry.name).inserted else {
                throw failure("entry name \(ReadError.quote(entry.name)) appears twice: the archive is ambiguous (which one is the recording?); not read")
            }
            guard isSafeName(entry.name) else {
                throw failure("entry name \(ReadError.quote(entry.name)) is not a relative name inside the archive (absolute, \"..\", \"\\\\\" or NUL); not read")
            }
            guard !entry.isSymbolicLink else {
                throw failure("entry \(ReadError.quote(entry.name)) is a symbolic link; links are never followed, the archive is not read")
            }
        }
        let maximumBytes = maximumBytes
        // What inflating and parsing every entry takes, from the sizes the directory states (an
        // entry that understates its size is stopped by the inflate bound below).
        let stated = listed.reduce(0) { $0 &+ Int(clamping: min($1.uncompressedSize, UInt64(maximumBytes))) }
        let estimate = min(stated, maximumBytes).multipliedReportingOverflow(by: LoadedInput.memoryPerByte(.json)).partialValue
        do {
            return try MemoryBudget.reserve(estimate, for: "\(FileName.display(path)): inflating and parsing its entries (\(stated) bytes)") { () throws(ScoringError) in
                try read(directory, listed, path: path, lenient: lenient, maximumBytes: maximumBytes)
            }
        } catch {
            throw .reserving(error)
        }
    }

    /// The entries of `listed`, inflated (at most `maximumBytes` in all) and classified.
    private static func read(_ directory: ZIPDirectory, _ listed: [ZIPDirectory.Entry], path: String, lenient: Bool,
                             maximumBytes: Int) throws(ScoringError) -> UploadArchive {
        func failure(_ what: String) -> ScoringError {
            ScoringError(.invalidInput, "\(FileName.display(path)): \(what)")
        }
        var entries: [Entry] = []
        var inflated = 0
        for entry in listed where !entry.isDirectory {
            let name = entry.name
            guard entry.uncompressedSize <= UInt64(maximumBytes - inflated) else {
                throw failure("entry \(ReadError.quote(name)) says it inflates to \(entry.uncompressedSize) bytes, beyond the \(maximumBytes)-byte bound (UploadArchive.maximumBytes); not read")
            }
            let content: [UInt8]
            do { content = try directory.contents(of: entry, atMost: maximumBytes - inflated) } catch {
                if case .beyondBound = error {
                    throw failure("entry \(ReadError.quote(name)) inflates beyond the \(maximumBytes)-byte bound (UploadArchive.maximumBytes; its header said \(entry.uncompressedSize) bytes); not read")
                }
                throw failure("entry \(ReadError.quote(name)) \(error.reason)")
            }
            inflated += content.count
            var format = InputSniffer.sniff(prefix: Array(content.prefix(InputSniffer.prefixLength)))
            if format == .zip { format = .binary }  // archives inside archives are not opened
            let entryPath = path + "/" + name
            let kind = try LoadedInput.classify(content, format: format, path: entryPath, lenient: lenient)
            entries.append(Entry(name: name, input: LoadedInput(path: entryPath, kind: kind, byteCount: content.count),
                                 sha256: SHA256.hash(data: content).hexadecimal))
        }
        return UploadArchive(path: path, entries: entries)
    }

    /// Whether an entry name stays inside the archive's folder: relative, no `..` component, no
    /// `\`, NUL or drive letter.
    public static func isSafeName(_ name: String) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.contains(where: { $0 == "\\" || $0 == "\0" }) else { return false }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        if let first = components.first, first.count >= 2, first.dropFirst().first == ":" { return false }  // C:…
        return !components.contains("..") && !components.contains(".")
    }

}
