import Foundation
import Glibc
import InputGuards
import Scoring
import SensorData

/// A file's version as the kernel reports it: a file whose device, inode, size, modification and
/// status-change times are all unchanged has not been written since (the status-change time is
/// set by every write, truncation or rename, and no user can set it back).
struct FileVersion: Codable, Sendable, Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedNanoseconds: Int64
    var changedNanoseconds: Int64

    /// Whether something exists at `path` (a FIFO or a device too: reading it reports why it is not read).
    static func exists(_ path: String) -> Bool { FileSystem.statusIfAny(path) != nil }

    /// The version of `path` (links followed), or the system's reason it has none.
    static func of(_ path: String) -> Result<FileVersion, BatchRunner.ReadFailure> {
        let info: FileSystem.Status
        do { info = try FileSystem.status(path) } catch {
            return .failure(.init(message: "\(FileName.display(path)): cannot be read: \(error.reason)"))
        }
        guard info.isRegularFile else {
            return .failure(.init(message: "\(FileName.display(path)): is \(info.kind), not a regular file; not read"))
        }
        return .success(FileVersion(info))
    }
}

extension FileVersion {
    /// The version `info` (a regular file's status) states.
    init(_ info: FileSystem.Status) {
        self.init(device: info.device, inode: info.inode, size: info.size,
                  modifiedNanoseconds: info.modifiedNanoseconds, changedNanoseconds: info.changedNanoseconds)
    }
}

/// What the batch knows of a file without holding its content: its hash, and the facts that group
/// it with others and choose its analyses. Computed once from the loaded file and stored with the
/// file's version, so a rerun over unchanged files reads none of them.
struct FileFacts: Codable, Sendable, Hashable {
    enum Category: String, Codable, Sendable {
        case json, audio, archive, motionTable, audiogramTable, stepGroundTruth, table, text, binary, unreadable
    }

    var sha256: String
    var bytes: Int
    var category: Category
    /// JSON: an AppCore upload's `info.json`, and its `item` (the task, e.g. "Voice Activity").
    var uploadManifest = false
    var uploadItem: String?
    /// JSON: an upload manifest's fields, stored with the upload and exported with its results
    /// (``uploadMetadata(_:)``).
    var uploadMetadata: [StudyManifest.Metadata] = []
    /// An upload archive: the names of its JSON and audio entries (each entry's facts are kept
    /// under the path `ARCHIVE/NAME`).
    var archiveEntries: [String] = []
    /// JSON: the recorder files its task result names (relative names) and their steps.
    var namedFiles: [NamedFile] = []
    /// JSON: the step identifiers of its tapping results (nil for a result without one).
    var tappingIdentifiers: [String?] = []
    var motion = false
    /// JSON: holds a camera heart-rate recording (frame means of red, green, blue).
    var camera = false
    var splResult = false
    var dBHLResult = false
    /// JSON: holds an `ORKRangeOfMotionResult`.
    var rangeOfMotionResult = false
    /// JSON: holds an `ORKTimedWalkResult`.
    var timedWalkResult = false
    /// An AUXU table's data rows.
    var audiogramRows = 0
    /// What the file is, for the unknown-files table (JSON without anything to analyse, text, …).
    var kindName = ""
    var detail = ""
    /// Why the file could not be loaded (an error row), or nil.
    var loadError: String?
    /// The load was refused because it would not fit under the memory limits (``MemoryBudget``):
    /// nothing about the file; its unit is stored `skipped` and read again by the next run.
    var loadNeedsMemory: Bool?

    struct NamedFile: Codable, Sendable, Hashable {
        var name: String
        var step: String?
        /// The file result's identifier (`audio`, `countdown`, `accelerometer`).
        var identifier: String?
    }

    init(sha256: String, bytes: Int, error: String) {
        self.sha256 = sha256
        self.bytes = bytes
        category = .unreadable
        loadError = error
    }

    /// The facts of a loaded file whose bytes hash to `sha256`.
    init(_ input: LoadedInput, sha256: String) {
        self.sha256 = sha256
        bytes = input.byteCount
        switch input.kind {
        case .json(let contents):
            category = .json
            if case .archiveManifest = contents.layout {
                uploadManifest = true
                uploadItem = contents.manifest?.task
                uploadMetadata = contents.manifest.map(Self.uploadMetadata) ?? []
            }
            namedFiles = contents.fileResults.compactMap { reference in
                reference.fileName.map { NamedFile(name: $0, step: reference.stepIdentifier, identifier: reference.identifier) }
            }
            tappingIdentifiers = contents.tappingResults.map(\.identifier)
            motion = contents.series.contains { [.accelerometer, .deviceMotion, .pedometer].contains($0.series.kind) }
            camera = contents.series.contains { $0.series.kind == .camera }
            splResult = !contents.splMeterResults.isEmpty
            dBHLResult = !contents.dBHLResults.isEmpty
            rangeOfMotionResult = !contents.rangeOfMotionResults.isEmpty
            timedWalkResult = !contents.timedWalkResults.isEmpty
            if tappingIdentifiers.isEmpty && !motion && !camera && !splResult && !dBHLResult && !rangeOfMotionResult && !timedWalkResult {  // described only when no analyzer applies
                let description = FileDescription.describe(contents)
                kindName = description.kind
                detail = "no analyzer for \(description.kind) (\(description.dialect ?? contents.layout.name))"
            }
        case .audio:
            category = .audio
        case .archive(let archive):
            category = .archive
            archiveEntries = archive.entries.filter(\.input.isUploadMember).map(\.name)
            if archiveEntries.isEmpty { (kindName, detail) = ("upload archive", "a ZIP archive without JSON or audio entries") }
        case .table(let table, let kind):
            switch kind {
            case .motion: category = .motionTable
            case .audiogram: category = .audiogramTable; audiogramRows = table.rowCount
            case .stepGroundTruth:
                category = .stepGroundTruth
                (kindName, detail) = ("step ground truth", "reference data for gait evaluation (activetask evaluate)")
            case .other:
                category = .table
                (kindName, detail) = ("table", "CSV without motion (time, x, y, z) or AUXU audiogram columns")
            }
        case .text:
            category = .text
            (kindName, detail) = ("text document", "UTF-8 text, not a recording")
        case .binary:
            category = .binary
            (kindName, detail) = ("binary", "neither JSON, CSV nor a known audio container")
        }
    }
}

extension FileFacts {
    /// An upload manifest's fields as metadata columns: `taskRun`, `item`, `taskIdentifier`,
    /// `appName`, `appVersion`, `phoneInfo` (those present), then `listedFiles` (how many files it
    /// lists) and `firstFileTimestamp`, `lastFileTimestamp` (the earliest and latest of their
    /// timestamps, ISO 8601, UTC). A list is never a column per entry: the columns of a store are
    /// bounded whatever an upload lists (300,000 names once made 300,000 columns and 1.5 GB).
    static func uploadMetadata(_ manifest: ArchiveManifest) -> [StudyManifest.Metadata] {
        let fields: [(String, String?)] = [("taskRun", manifest.taskRun), ("item", manifest.item), ("taskIdentifier", manifest.taskIdentifier),
                                           ("appName", manifest.appName), ("appVersion", manifest.appVersion), ("phoneInfo", manifest.phoneInfo)]
        var metadata = fields.compactMap { name, value in value.map { StudyManifest.Metadata(column: name, value: $0) } }
        metadata.append(.init(column: "listedFiles", value: String(manifest.files.count)))
        let times = manifest.files.compactMap { $0.timestamp?.secondsSince1970 }.filter(\.isFinite)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let first = times.min(), let last = times.max() {
            metadata.append(.init(column: "firstFileTimestamp", value: formatter.string(from: Date(timeIntervalSince1970: first))))
            metadata.append(.init(column: "lastFileTimestamp", value: formatter.string(from: Date(timeIntervalSince1970: last))))
        }
        return metadata
    }
}

extension FileFacts {
    enum CodingKeys: String, CodingKey {
        case sha256, bytes, category, uploadManifest, uploadItem, uploadMetadata, archiveEntries, namedFiles, tappingIdentifiers
        case motion, camera, splResult, dBHLResult, rangeOfMotionResult, timedWalkResult, audiogramRows, kindName, detail
        case loadError, loadNeedsMemory
    }

    /// The stored form: the hash, size and category, and only the facts that differ from their
    /// defaults (false, 0, "", an empty list, nil) — a rerun parses every file's facts, and most
    /// files have one or two (a tapping result, a motion recording).
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sha256, forKey: .sha256)
        try c.encode(bytes, forKey: .bytes)
        try c.encode(category, forKey: .category)
        func flag(_ value: Bool, _ key: CodingKeys) throws { if value { try c.encode(true, forKey: key) } }
        func list<T: Encodable>(_ value: [T], _ key: CodingKeys) throws { if !value.isEmpty { try c.encode(value, forKey: key) } }
        func text(_ value: String, _ key: CodingKeys) throws { if !value.isEmpty { try c.encode(value, forKey: key) } }
        try flag(uploadManifest, .uploadManifest)
        try c.encodeIfPresent(uploadItem, forKey: .uploadItem)
        try list(uploadMetadata, .uploadMetadata)
        try list(archiveEntries, .archiveEntries)
        try list(namedFiles, .namedFiles)
        try list(tappingIdentifiers, .tappingIdentifiers)
        try flag(motion, .motion)
        try flag(camera, .camera)
        try flag(splResult, .splResult)
        try flag(dBHLResult, .dBHLResult)
        try flag(rangeOfMotionResult, .rangeOfMotionResult)
        try flag(timedWalkResult, .timedWalkResult)
        if audiogramRows != 0 { try c.encode(audiogramRows, forKey: .audiogramRows) }
        try text(kindName, .kindName)
        try text(detail, .detail)
        try c.encodeIfPresent(loadError, forKey: .loadError)
        try c.encodeIfPresent(loadNeedsMemory, forKey: .loadNeedsMemory)
    }

    /// Reads the stored form, and the earlier one with every key present: a key left out or null
    /// is its default.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sha256 = try c.decode(String.self, forKey: .sha256)
        bytes = try c.decode(Int.self, forKey: .bytes)
        category = try c.decode(Category.self, forKey: .category)
        uploadManifest = try c.decodeIfPresent(Bool.self, forKey: .uploadManifest) ?? false
        uploadItem = try c.decodeIfPresent(String.self, forKey: .uploadItem)
        uploadMetadata = try c.decodeIfPresent([StudyManifest.Metadata].self, forKey: .uploadMetadata) ?? []
        archiveEntries = try c.decodeIfPresent([String].self, forKey: .archiveEntries) ?? []
        namedFiles = try c.decodeIfPresent([NamedFile].self, forKey: .namedFiles) ?? []
        tappingIdentifiers = try c.decodeIfPresent([String?].self, forKey: .tappingIdentifiers) ?? []
        motion = try c.decodeIfPresent(Bool.self, forKey: .motion) ?? false
        camera = try c.decodeIfPresent(Bool.self, forKey: .camera) ?? false
        splResult = try c.decodeIfPresent(Bool.self, forKey: .splResult) ?? false
        dBHLResult = try c.decodeIfPresent(Bool.self, forKey: .dBHLResult) ?? false
        rangeOfMotionResult = try c.decodeIfPresent(Bool.self, forKey: .rangeOfMotionResult) ?? false
        timedWalkResult = try c.decodeIfPresent(Bool.self, forKey: .timedWalkResult) ?? false
        audiogramRows = try c.decodeIfPresent(Int.self, forKey: .audiogramRows) ?? 0
        kindName = try c.decodeIfPresent(String.self, forKey: .kindName) ?? ""
        detail = try c.decodeIfPresent(String.self, forKey: .detail) ?? ""
        loadError = try c.decodeIfPresent(String.self, forKey: .loadError)
        loadNeedsMemory = try c.decodeIfPresent(Bool.self, forKey: .loadNeedsMemory)
    }
}
