import Foundation
import InputGuards
import SensorData
import Scoring

/// One recording for the batch: a file, an unpacked upload folder, or a task result with the
/// recorder files it names.
public struct WorkUnit: Sendable, Hashable {
    public enum Shape: Sendable, Hashable {
        /// A single file.
        case file
        /// An upload: a folder with an `info.json` manifest (docs/formats.md §8), or an upload archive
        /// (`.zip`, read in place: its members are `ARCHIVE/ENTRY`); its JSON and audio files are
        /// scored together, and the manifest's fields are its metadata.
        case upload
        /// A ResearchKit task result whose `ORKFileResult`s name recorder files next to it.
        case taskResult
        /// A record of a study manifest (``StudyManifest``): its files by column.
        case record(columns: [String: String])
        /// A folder that could not be listed, a FIFO, socket or device, or a manifest record
        /// naming a missing file: recorded as an error with the reason, never read.
        case refused(reason: String)
    }

    /// The recording's path (the folder, for an upload).
    public var path: String
    /// The files whose content identifies the recording, sorted.
    public var members: [String]
    public var shape: Shape
    /// A manifest record's metadata columns (stored with the recording, exported first).
    public var metadata: [StudyManifest.Metadata] = []

    /// A member's name within the unit: relative to the upload's folder, or to the task
    /// result's folder (the name its content key and result keys use).
    func relativeName(_ member: String) -> String {
        if case .record(let columns) = shape {
            if let column = columns.filter({ $0.value == member }).map(\.key).min() { return column }
            // An entry of an archive a column names: COLUMN/ENTRY.
            let archive = TaskFiles.parent(of: member)
            if let column = columns.filter({ $0.value == archive }).map(\.key).min() { return column + "/" + TaskFiles.name(of: member) }
        }
        let folder = shape == .upload ? path : TaskFiles.parent(of: path)
        return member.hasPrefix(folder + "/") ? String(member.dropFirst(folder.count + 1)) : member
    }

    /// Whether a shard key (``Discovery/shardKey(of:uploadFolders:)``) belongs to shard `index`
    /// of `count`: FNV-1a (64-bit) of the key, modulo `count` — stable across runs, machines and
    /// process counts, and decided before any file is read.
    public static func isInShard(key: String, _ index: Int, of count: Int) -> Bool {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return Int(hash % UInt64(count)) == index
    }
}

/// Finds the recordings under the batch's arguments: ``walk(_:)`` lists the files (reading
/// none), ``group(_:facts:)`` makes them units from their facts.
public enum Discovery {
    /// The paths of `paths` (an `@LIST` names its list file) that do not exist.
    public static func absent(_ paths: [String]) -> [String] {
        paths.map { $0.hasPrefix("@") ? String($0.dropFirst()) : $0 }.filter { FileSystem.statusIfAny($0) == nil }
    }

    /// Files as given; folders replaced by the regular files under them, sorted, and what a
    /// folder walk refused (folders that cannot be listed, FIFOs, sockets, devices).
    public static func expand(_ paths: [String]) -> (files: [String], refused: [(path: String, reason: String)]) {
        var files: [String] = []
        var refused: [(path: String, reason: String)] = []
        for path in paths {
            guard FileSystem.statusIfAny(path)?.isDirectory == true else {
                files.append(path)
                continue
            }
            let found = Discovery.files(under: path, includeHidden: true)
            files += found.files
            refused += found.refused
        }
        return (files, refused)
    }

    /// The files under `arguments` (files, folders walked recursively, and `@FILE` lists of one
    /// path per line, relative to the list's folder; `#` starts a comment), sorted; the
    /// arguments that do not exist; and what the walk refused (folders that cannot be listed,
    /// FIFOs, sockets, devices) as ``WorkUnit/Shape/refused(reason:)`` units. Hidden files
    /// (`.name`) are left out. Folders are walked by ``FolderWalk``: links followed, loops ended.
    public static func walk(_ arguments: [String]) -> (files: [String], missing: [String], refused: [WorkUnit]) {
        let walk = walked(arguments)
        return (walk.files, walk.missing, walk.refused)
    }

    /// ``walk(_:)`` with the version of every regular file as the walk found it.
    static func walked(_ arguments: [String]) -> (files: [String], missing: [String], refused: [WorkUnit], versions: [String: FileVersion]) {
        var files: [String] = []
        var versions: [String: FileVersion] = [:]
        var missing: [String] = []
        var refused: [WorkUnit] = []
        for argument in arguments {
            if argument.hasPrefix("@") {
                let manifest = String(argument.dropFirst())
                guard let bytes = try? FileBytes.read(manifest), String(validating: bytes, as: UTF8.self) != nil else {
                    missing.append(manifest)
                    continue
                }
                let folder = TaskFiles.parent(of: manifest)
                for (number, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
                    let entry = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    guard !entry.isEmpty, !entry.hasPrefix("#") else { continue }
                    guard !entry.utf8.contains(0) else {  // a path cut at the NUL would name another file
                        refused.append(WorkUnit(path: "\(manifest):\(number + 1)", members: [], shape: .refused(
                            reason: "line \(number + 1) of the list holds a NUL byte (\(FileName.display(entry))); no file read for it")))
                        continue
                    }
                    let path = entry.hasPrefix("/") || folder.isEmpty ? entry : folder + "/" + entry
                    if !collect(path, into: &files, versions: &versions, refused: &refused) { missing.append(path) }
                }
            } else if !collect(argument, into: &files, versions: &versions, refused: &refused) {
                missing.append(argument)
            }
        }
        return (Array(Set(files)).sorted(), missing, Array(Set(refused)).sorted { $0.path < $1.path }, versions)
    }

    /// The units of `files`, from their facts: a folder holding an AppCore `info.json`, or an
    /// upload archive, is one upload (its JSON and audio files together); a JSON task result naming
    /// recorder files that exist next to it claims them; every other file is its own unit.
    /// `facts` must hold every file and every file a task result names.
    static func group(_ files: [String], facts: [String: FileFacts]) -> [WorkUnit] {
        var claimed = Set<String>()
        var units: [WorkUnit] = []
        let byFolder = Dictionary(grouping: files, by: TaskFiles.parent(of:))
        for (folder, inFolder) in byFolder.sorted(by: { $0.key < $1.key }) {
            let manifest = folder.isEmpty ? "info.json" : folder + "/info.json"
            guard facts[manifest]?.uploadManifest == true else { continue }
            let members = inFolder.filter { [.json, .audio].contains(facts[$0]?.category) }
            units.append(WorkUnit(path: folder, members: members, shape: .upload, metadata: facts[manifest]?.uploadMetadata ?? []))
            claimed.formUnion(members)
        }
        for file in files where !claimed.contains(file) {
            guard let entries = facts[file]?.archiveEntries, !entries.isEmpty else { continue }
            let members = entries.map { file + "/" + $0 }.sorted()
            units.append(WorkUnit(path: file, members: members, shape: .upload, metadata: facts[file + "/info.json"]?.uploadMetadata ?? []))
            claimed.insert(file)
        }
        for file in files where !claimed.contains(file) {
            let siblings = namedFiles(of: file, facts).filter { $0 != file && facts[$0] != nil }
            guard !siblings.isEmpty else { continue }
            units.append(WorkUnit(path: file, members: ([file] + siblings).sorted(), shape: .taskResult))
            claimed.formUnion(siblings)
            claimed.insert(file)
        }
        for file in files where !claimed.contains(file) { units.append(WorkUnit(path: file, members: [file], shape: .file)) }
        return units.sorted { $0.path < $1.path }
    }

    /// The units under `arguments` as a run with an empty store finds them, the arguments that
    /// do not exist, and the inventory.
    static func units(_ arguments: [String]) async -> (units: [WorkUnit], missing: [String], inventory: Inventory) {
        let walk = walked(arguments)
        let (units, inventory) = await units(files: walk.files, refused: walk.refused, records: [], cached: [:],
                                             options: BatchOptions(toolkitVersion: ""), versions: walk.versions)
        return (units, walk.missing, inventory)
    }

    /// The units of walked `files` (``group(_:facts:)``), of the walk's `refused` paths and of a
    /// manifest's `records`, and the inventory that read every file once (a file whose version
    /// `cached` holds is not read). Recorder files a task result names outside `files` are read
    /// too, and are not units of their own. `versions`: the versions the walk found.
    static func units(files: [String], refused: [WorkUnit], records: [WorkUnit], cached: [String: CachedFile],
                      options: BatchOptions, versions: [String: FileVersion] = [:]) async -> (units: [WorkUnit], inventory: Inventory) {
        let recordFiles = Set(records.flatMap(\.members)).subtracting(files).sorted()
        var inventory = await Inventory.take(files + recordFiles, cached: cached, options: options, versions: versions)
        let named = Set(files.flatMap { namedFiles(of: $0, inventory.facts) }).subtracting(files).filter(FileVersion.exists)
        if !named.isEmpty { inventory.add(await Inventory.take(named.sorted(), cached: cached, options: options)) }
        let opened = records.map { openArchives($0, inventory.facts) }
        let units = group(files + named.sorted(), facts: inventory.facts).filter { !named.contains($0.path) } + refused + opened
        return (units.sorted { $0.path < $1.path }, inventory)
    }

    /// A manifest record whose cell names an upload archive (a Bridge `rawData` column): the
    /// archive's entries are the record's files, and its `info.json` fields follow the record's
    /// own metadata.
    static func openArchives(_ record: WorkUnit, _ facts: [String: FileFacts]) -> WorkUnit {
        var opened = record
        opened.members = record.members.flatMap { member in
            guard let entries = facts[member]?.archiveEntries, !entries.isEmpty else { return [member] }
            let columns = Set(opened.metadata.map(\.column))
            opened.metadata += (facts[member + "/info.json"]?.uploadMetadata ?? []).filter { !columns.contains($0.column) }
            return entries.map { member + "/" + $0 }
        }.sorted()
        return opened
    }

    /// The paths of the recorder files a task result names, relative to its folder; an absolute
    /// name or one with a `..` component is never followed (a result cannot point outside its folder).
    static func namedFiles(of file: String, _ facts: [String: FileFacts]) -> [String] {
        (facts[file]?.namedFiles ?? []).compactMap { TaskFiles.resolve($0.name, nextTo: file) }
    }

    /// The path that decides a file's shard, from names alone: the folder of an upload (a folder
    /// with an `info.json`, in `uploadFolders`), the task result's folder above a recorder's
    /// `recorder-…/` subfolder, else the file itself — so the files of one upload or task run
    /// share a shard while loose files spread over all shards.
    static func shardKey(of file: String, uploadFolders: Set<String>) -> String {
        let folder = TaskFiles.parent(of: file)
        if uploadFolders.contains(folder) { return folder }
        let name = folder.split(separator: "/").last.map(String.init) ?? ""
        return name.hasPrefix("recorder-") ? TaskFiles.parent(of: folder) : file
    }

    /// The folders among `files` that hold an `info.json`.
    static func uploadFolders(_ files: [String]) -> Set<String> {
        Set(files.filter { $0 == "info.json" || $0.hasSuffix("/info.json") }.map(TaskFiles.parent(of:)))
    }

    /// Adds `path` (a file, or the files under a folder, hidden ones left out) to `files`, and
    /// what the walk refused to `refused`; false if it does not exist.
    private static func collect(_ path: String, into files: inout [String], versions: inout [String: FileVersion], refused: inout [WorkUnit]) -> Bool {
        guard let info = FileSystem.statusIfAny(path) else { return false }
        guard info.isDirectory else {
            files.append(path)
            if info.isRegularFile { versions[path] = FileVersion(info) }
            return true
        }
        let walk = FolderWalk(path, includeHidden: false)
        files += walk.files
        versions.merge(walk.versions) { first, _ in first }
        refused += walk.refused.map { WorkUnit(path: $0.path, members: [], shape: .refused(reason: $0.reason)) }
        return true
    }

    /// The files under `folder` (``FolderWalk``: links followed, each folder once), and the
    /// folders it could not list and the FIFOs, sockets and devices it did not read, with why.
    public static func files(under folder: String, includeHidden: Bool) -> (files: [String], refused: [(path: String, reason: String)]) {
        let walk = FolderWalk(folder, includeHidden: includeHidden)
        return (walk.files, walk.refused)
    }
}
