import Foundation
import InputGuards
import SensorData

/// One recording for the batch: a file, an unpacked upload folder, or a task result with the
/// recorder files it names.
public struct WorkUnit: Sendable, Hashable {
    public enum Shape: Sendable, Hashable {
        /// A single file.
        case file
        /// An unpacked AppCore upload: a folder with an `info.json` manifest (formats.md §8); its
        /// JSON files are scored together (audio files in it are units of their own).
        case upload
        /// A ResearchKit task result whose `ORKFileResult`s name recorder files next to it.
        case taskResult
        /// A folder that could not be listed, or a FIFO, socket or device: recorded as an error
        /// with the reason, never read.
        case refused(reason: String)
    }

    /// The recording's path (the folder, for an upload).
    public var path: String
    /// The files whose content identifies the recording, sorted.
    public var members: [String]
    public var shape: Shape

    /// Whether this unit belongs to shard `index` of `count`: FNV-1a (64-bit) of the path,
    /// modulo `count` — stable across runs, machines and process counts.
    public func isInShard(_ index: Int, of count: Int) -> Bool {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return Int(hash % UInt64(count)) == index
    }
}

/// Finds the recordings under the batch's arguments.
public enum Discovery {
    /// The work units under `arguments` (files, folders walked recursively, and `@FILE` manifests
    /// listing one path per line, relative to the manifest's folder; `#` starts a comment), in
    /// path order, and the arguments that do not exist.
    ///
    /// Grouping: a folder holding an AppCore `info.json` is one upload (its JSON files together;
    /// its audio files alone); a JSON task result naming recorder files that exist next to it
    /// claims them; every other file is its own unit. Hidden files (`.name`) are left out.
    /// Folders are walked by ``FolderWalk``: links followed, loops ended, and folders that cannot
    /// be listed (and FIFOs, sockets, devices) become ``WorkUnit/Shape/refused(reason:)`` units.
    public static func units(_ arguments: [String]) -> (units: [WorkUnit], missing: [String]) {
        var files: [String] = []
        var missing: [String] = []
        var refused: [WorkUnit] = []
        for argument in arguments {
            if argument.hasPrefix("@") {
                let manifest = String(argument.dropFirst())
                guard let bytes = try? FileBytes.read(manifest), let text = String(validating: bytes, as: UTF8.self) else {
                    missing.append(manifest)
                    continue
                }
                let folder = (manifest as NSString).deletingLastPathComponent
                for line in text.split(whereSeparator: \.isNewline) {
                    let entry = line.trimmingCharacters(in: .whitespaces)
                    guard !entry.isEmpty, !entry.hasPrefix("#") else { continue }
                    let path = entry.hasPrefix("/") ? entry : (folder.isEmpty ? entry : (folder as NSString).appendingPathComponent(entry))
                    if !collect(path, into: &files, refused: &refused) { missing.append(path) }
                }
            } else if !collect(argument, into: &files, refused: &refused) {
                missing.append(argument)
            }
        }
        files = Array(Set(files)).sorted()

        var claimed = Set<String>()
        var units: [WorkUnit] = []
        // Uploads: folders with an AppCore manifest.
        let fileSet = Set(files)
        let byFolder = Dictionary(grouping: files) { ($0 as NSString).deletingLastPathComponent }
        for (folder, inFolder) in byFolder.sorted(by: { $0.key < $1.key }) {
            let manifest = (folder as NSString).appendingPathComponent("info.json")
            guard fileSet.contains(manifest), let contents = try? JSONContents.read(manifest), case .archiveManifest = contents.layout else { continue }
            let members = inFolder.filter { InputSniffer.sniff($0) == .json }
            units.append(WorkUnit(path: folder, members: members, shape: .upload))
            claimed.formUnion(members)
        }
        // Task results that name recorder files next to them.
        for file in files where !claimed.contains(file) && mentionsFileResults(file) {
            guard let contents = try? JSONContents.read(file) else { continue }
            let siblings = GaitScorer.siblingFiles(of: file, contents).map(\.path).filter { $0 != file }
            guard !siblings.isEmpty else { continue }
            units.append(WorkUnit(path: file, members: ([file] + siblings).sorted(), shape: .taskResult))
            claimed.formUnion(siblings)
            claimed.insert(file)
        }
        for file in files where !claimed.contains(file) { units.append(WorkUnit(path: file, members: [file], shape: .file)) }
        units += Set(refused)
        return (units.sorted { $0.path < $1.path }, missing)
    }

    /// Adds `path` (a file, or the files under a folder, hidden ones left out) to `files`, and
    /// what the walk refused to `refused`; false if it does not exist.
    private static func collect(_ path: String, into files: inout [String], refused: inout [WorkUnit]) -> Bool {
        var info = stat()
        guard FileName.withCString(path, { stat($0, &info) }) == 0 else { return false }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            files.append(path)
            return true
        }
        let walk = Self.files(under: path, includeHidden: false)
        files += walk.files
        refused += walk.refused.map { WorkUnit(path: $0.path, members: [], shape: .refused(reason: $0.reason)) }
        return true
    }

    /// The files under `folder` (``FolderWalk``: links followed, each folder once), and the
    /// folders it could not list and the FIFOs, sockets and devices it did not read, with why.
    public static func files(under folder: String, includeHidden: Bool) -> (files: [String], refused: [(path: String, reason: String)]) {
        let walk = FolderWalk(folder, includeHidden: includeHidden)
        return (walk.files, walk.refused)
    }

    /// Whether a JSON file (≤ 8 MB) contains `ORKFileResult` — the cheap test before parsing a
    /// possible task result.
    private static func mentionsFileResults(_ path: String) -> Bool {
        guard InputSniffer.sniff(path) == .json,
            let bytes = try? FileBytes.read(path, maximumBytes: 8 << 20)
        else { return false }
        return bytes.firstRange(of: Array("ORKFileResult".utf8)) != nil
    }
}
