import Glibc
import AudioIO
import InputGuards
import SensorData

/// What a file is, decided once from its content by ``LoadedInput/load(_:lenient:inspect:)``,
/// the toolkit's one classifier (docs/formats.md §1): extensions are never consulted. `info`,
/// `score`, `report` and `batch` all switch on it.
public enum InputKind: Sendable {
    /// JSON (or an empty file, which only a recorder's current log may be): its layout says which
    /// recorder log, result, archive or manifest.
    case json(JSONContents)
    /// Delimited text, and what its columns hold.
    case table(CSVTable, TableKind)
    /// An audio container.
    case audio(AudioSource)
    /// An upload archive (`.zip`), its entries read in place.
    case archive(UploadArchive)
    /// Other UTF-8 text (notes, documentation).
    case text(lineCount: Int)
    /// Anything else, with its first bytes (for the message).
    case binary(leadingBytes: [UInt8])
}

/// What a CSV table holds, tried in this order.
public enum TableKind: Sendable {
    /// Motion samples: time and x, y, z acceleration in a detected layout.
    case motion(MotionCSVLayout)
    /// NHANES AUX audiograms, one per data row.
    case audiogram(AUXUTable)
    /// Oxford step-counter ground truth (reference data for `evaluate`).
    case stepGroundTruth(StepGroundTruth)
    /// None of these (a motion table in a layout only options describe may still be scored).
    case other
}

/// An audio file to decode: from its bytes when it was read whole, else from its path.
public struct AudioSource: Sendable {
    public let path: String
    let bytes: [UInt8]?

    /// A decoder positioned at the first frame (one per analysis: decoders are not shared).
    public func open() throws(ScoringError) -> any AudioDecoder {
        do {
            if let bytes { return try AudioInput.open(bytes: bytes, path: path) }
            return try AudioInput.open(path)
        } catch {
            throw .input(error)
        }
    }
}

/// A file read once — opened once, its bytes handed to `inspect` (batch hashes them there) and
/// classified and parsed once — for every analyzer that runs on it.
///
/// Memory: JSON and CSV files are held whole (bounded by ``FileBytes/maximumBytes``) and then
/// their parsed columns; audio files up to ``audioInMemoryBytes`` are held as bytes and decoded
/// from memory, longer ones are decoded from the file (their bytes pass `inspect` once as they
/// are read, and the decoder reads the file a second time).
public struct LoadedInput: Sendable {
    public let path: String
    public let kind: InputKind
    /// The file's size, bytes.
    public let byteCount: Int

    /// The largest audio file held in memory: 256 MiB (25 min of 48 kHz 16-bit stereo).
    public static let audioInMemoryBytes = 256 << 20

    public init(path: String, kind: InputKind, byteCount: Int) {
        self.path = path
        self.kind = kind
        self.byteCount = byteCount
    }

    /// Reads and classifies `path`.
    ///
    /// - Parameters:
    ///   - lenient: JSON with a torn tail keeps its complete items (docs/formats.md §11).
    ///   - inspect: called with the file's bytes, in order (once for a file held whole, block by
    ///     block for long audio).
    ///   - audio: what becomes of an audio file's bytes (``AudioBytes``).
    /// - Throws: `ScoringError` naming the file: unreadable, not a regular file, too large, or
    ///   JSON/CSV that does not parse.
    public static func load(_ path: String, lenient: Bool = false, audio: AudioBytes = .held,
                            inspect: (UnsafeRawBufferPointer) -> Void = { _ in }) throws(ScoringError) -> LoadedInput {
        let descriptor: Int32
        do { descriptor = try RegularFile.openForReading(path) } catch {
            throw ScoringError(.invalidInput, "\(FileName.display(path)): cannot be read: \(error.description)")
        }
        defer { FileSystem.close(descriptor) }
        let size = (try? FileSystem.status(descriptor: descriptor, path: path)).map { Int(clamping: $0.size) } ?? 0
        var prefix = [UInt8](repeating: 0, count: InputSniffer.prefixLength)
        let got = (try? FileSystem.read(descriptor, path: path, into: &prefix, at: 0)) ?? 0
        prefix.removeSubrange(got...)
        let format = InputSniffer.sniff(prefix: prefix)
        if case .audio = format, audio != .held || size > audioInMemoryBytes {
            if audio != .unread { try stream(descriptor, path: path, inspect) }
            return LoadedInput(path: path, kind: .audio(AudioSource(path: path, bytes: nil)), byteCount: size)
        }
        // Held whole and parsed: checked against the memory limits before a byte is read.
        let estimate = size.multipliedReportingOverflow(by: memoryPerByte(format)).partialValue
        do {
            return try MemoryBudget.reserve(estimate, for: "\(FileName.display(path)): reading and parsing its \(size) bytes (~\(memoryPerByte(format)) bytes each)") {
                () throws(ScoringError) in
                let bytes: [UInt8]
                do throws(ReadError) { bytes = try FileBytes.read(descriptor: descriptor, path: path) } catch { throw ScoringError.input(error) }
                bytes.withUnsafeBytes(inspect)
                return LoadedInput(path: path, kind: try classify(bytes, format: format, path: path, lenient: lenient), byteCount: bytes.count)
            }
        } catch {
            throw .reserving(error)
        }
    }

    /// What ``load(_:lenient:audio:inspect:)`` does with an audio file's bytes; its analyses
    /// decode from the path when they are not held.
    public enum AudioBytes: Sendable {
        /// Held in memory up to ``audioInMemoryBytes``, streamed through `inspect` beyond.
        case held
        /// Streamed through `inspect` in 1-MiB blocks, never held (a content hash alone).
        case streamed
        /// Not read after its first bytes: for callers that only want its siblings.
        case unread
    }

    /// Peak memory per byte of a file held whole and parsed (``MemoryBudget``): JSON object trees
    /// (results, manifests) measured 9–19 bytes per byte (`batch` on uploads whose `info.json`
    /// lists 300,000 files), recorder item arrays and CSV columns about 2, so 24 for every text
    /// format; archives and audio 1 (their entries reserve their own in ``UploadArchive``, the
    /// voice analysis in ``VoiceScorer``; the other audio analyses stream).
    static func memoryPerByte(_ format: InputSniffer.Format) -> Int {
        switch format {
        case .zip, .audio: 1
        default: 24
        }
    }

    /// The kind of `bytes` whose first bytes sniffed as `format`.
    public static func classify(_ bytes: [UInt8], format: InputSniffer.Format, path: String, lenient: Bool) throws(ScoringError) -> InputKind {
        if format == .zip { return .archive(try UploadArchive.read(bytes, path: path, lenient: lenient)) }
        do throws(ReadError) {
            switch format {
            case .empty, .json:
                return .json(try JSONContents.decode(bytes, file: path, options: .init(lenient: lenient)))
            case .audio:
                return .audio(AudioSource(path: path, bytes: bytes))
            case .csv:
                let table = try CSVTable.parse(bytes, file: path)
                if let layout = MotionCSVLayout.detect(table) { return .table(table, .motion(layout)) }
                if let audiograms = AUXUTable(table, file: path) { return .table(table, .audiogram(audiograms)) }
                if let steps = StepGroundTruth(table) { return .table(table, .stepGroundTruth(steps)) }
                return .table(table, .other)
            case .text:
                return .text(lineCount: bytes.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 })
            case .binary, .zip:  // .zip: handled above
                return .binary(leadingBytes: Array(bytes.prefix(8)))
            }
        } catch {
            throw .input(error)
        }
    }

    /// Reads the descriptor to its end in blocks through `inspect` (long audio: hashed, not held).
    private static func stream(_ descriptor: Int32, path: String, _ inspect: (UnsafeRawBufferPointer) -> Void) throws(ScoringError) {
        var block = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count: Int
            do { count = try FileSystem.read(descriptor, path: path, into: &block) } catch {
                throw .input(ReadError(file: path, reason: .unreadable(error.reason)))
            }
            if count == 0 { return }
            block.withUnsafeBytes { inspect(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// Whether analyses decode the file from its path (long audio) rather than the bytes loaded.
    public var decodesFromFile: Bool {
        if case .audio(let source) = kind { source.bytes == nil } else { false }
    }

    /// Whether an upload's analyses read this file (JSON and audio; not notes or other files).
    public var isUploadMember: Bool {
        switch kind {
        case .json, .audio: true
        default: false
        }
    }

    /// The JSON contents, if the file is JSON.
    public var json: JSONContents? {
        if case .json(let contents) = kind { contents } else { nil }
    }
}

/// The files of one recording, each loaded once: a file, the recorder files its task result
/// names, or the JSON files of an unpacked upload.
public struct LoadedUnit: Sendable {
    /// The file, or the upload's folder.
    public let path: String
    public let inputs: [LoadedInput]
    /// What each file is, when its unit says so (a manifest's column name): path → label.
    public let labels: [String: String]

    public init(path: String, inputs: [LoadedInput], labels: [String: String] = [:]) {
        self.path = path
        self.inputs = inputs
        self.labels = labels
    }

    /// Loads what `path` names for `score`: a folder's JSON files (an unpacked upload), or a file
    /// and the recorder files its task result names (``TaskFiles/named(by:_:)``). Audio is not
    /// held: its analyses decode it from the file (they stream it, or hold its samples).
    public static func load(_ path: String, lenient: Bool = false) throws(ScoringError) -> LoadedUnit {
        if FileSystem.statusIfAny(path)?.isDirectory == true {
            var inputs: [LoadedInput] = []
            for file in TaskFiles.folderMembers(path) {
                let input = try LoadedInput.load(file, lenient: lenient, audio: .unread)
                if input.isUploadMember { inputs.append(input) }
            }
            return LoadedUnit(path: path, inputs: inputs)
        }
        let first = try LoadedInput.load(path, lenient: lenient, audio: .unread)
        if case .archive(let archive) = first.kind { return LoadedUnit(archive) }
        var inputs = [first]
        if let contents = first.json {
            for sibling in TaskFiles.named(by: path, contents) where sibling.path != path {
                inputs.append(try LoadedInput.load(sibling.path, lenient: lenient, audio: .unread))
            }
        }
        // In path order, as a batch holds a task result's unit: the recordings, and so the sets
        // and the dialect made of them, come in the same order from both.
        return LoadedUnit(path: path, inputs: inputs.sorted { $0.path < $1.path })
    }

    /// An upload archive's JSON and audio entries, as an unpacked upload folder's files.
    public init(_ archive: UploadArchive) {
        self.init(path: archive.path, inputs: archive.entries.map(\.input).filter(\.isUploadMember))
    }

    /// The file `analyzer` scores when `score` names a whole upload (a folder or an archive):
    /// the first tapping, SPL-meter or dB HL result for those analyzers, the first audio file
    /// its task (``steps``, then its name) does not call a countdown for voice and loudness.
    public func defaultTarget(for analyzer: Analyzer) -> String? {
        let steps = steps
        func isPhonation(_ input: LoadedInput) -> Bool {
            guard case .audio = input.kind else { return false }
            return RecordingTask.named([steps[input.path], TaskFiles.name(of: input.path)]) != .countdown
        }
        switch analyzer {
        case .gait, .balance, .rangeOfMotion, .walkTest, .tremor, .heartRate: return path
        case .tapping: return inputs.first { $0.json?.tappingResults.isEmpty == false }?.path
        case .audiometry: return inputs.first { $0.json?.dBHLResults.isEmpty == false }?.path
        case .spl: return (inputs.first { $0.json?.splMeterResults.isEmpty == false } ?? inputs.first(where: isPhonation))?.path
        case .voice, .loudness: return inputs.first(where: isPhonation)?.path
        }
    }

    /// The step identifier of each member that a task result of the unit names, or its label.
    public var steps: [String: String] {
        var steps = labels
        for input in inputs {
            guard let contents = input.json else { continue }
            for sibling in TaskFiles.named(by: input.path, contents) { steps[sibling.path] = sibling.step }
        }
        return steps
    }
}

/// How the files of a task run find each other, from names alone (no file is read here).
public enum TaskFiles {
    /// The recorder files a task result names that exist next to it, with their step
    /// identifiers. Names are relative to the result's folder (a recorder's `recorder-…/`
    /// subfolder included); an absolute name or one with a `..` component is never opened: a
    /// result cannot point outside its folder.
    public static func named(by path: String, _ contents: JSONContents) -> [(path: String, step: String?)] {
        contents.fileResults.compactMap { reference in
            guard let sibling = resolve(reference.fileName, nextTo: path) else { return nil }
            guard FileSystem.statusIfAny(sibling)?.isRegularFile == true else { return nil }
            return (sibling, reference.stepIdentifier)
        }
    }

    /// The path of the file a task result at `path` names as `name`: relative to the result's
    /// folder; nil for an empty or absolute name or one with a `..` component.
    public static func resolve(_ name: String?, nextTo path: String) -> String? {
        guard let name, !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else { return nil }
        let folder = parent(of: path)
        return folder.isEmpty ? name : folder + "/" + name
    }

    /// The visible files directly in `folder`, in name order.
    public static func folderMembers(_ folder: String) -> [String] {
        let names = (try? DirectoryListing.names(in: folder).get().names) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.hasSuffix("/") ? folder + $0 : folder + "/" + $0 }.filter {
            FileSystem.statusIfAny($0)?.isRegularFile == true
        }
    }

    /// The last component of a path (trailing slashes ignored; a path of slashes alone, or
    /// empty, is its own name), found from the end without splitting the whole path.
    public static func name(of path: String) -> String {
        let utf8 = path.utf8
        guard let end = utf8.lastIndex(where: { $0 != UInt8(ascii: "/") }) else { return path }
        let start = utf8[...end].lastIndex(of: UInt8(ascii: "/")).map(utf8.index(after:)) ?? utf8.startIndex
        return String(path[start...end])
    }

    /// The folder part of a path ("" for a bare name).
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
