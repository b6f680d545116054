import Glibc
import InputGuards
import Scoring
import SensorData

/// A study's table of records (a Synapse table downloaded as CSV, as mPower published): one row
/// per record, one column per file whose cells are paths (relative to the manifest's folder or
/// a base folder), and metadata columns (`healthCode`, `createdOn`, `appVersion`, `phoneInfo`, …).
///
/// A column holds files when its name says so — an mPower file column (`…json.items`,
/// `…json.TappingSamples`, `….m4a`, `….json`, `….wav`, `….csv`) — or when one of its cells names a
/// file that exists; its name tells what the file is (`deviceMotion_walking_rest.json.items` is
/// the rest part of the walk, `audio_countdown.m4a` the countdown). Every other column is
/// metadata, stored with the record and exported as the first columns of its wide tables.
public struct StudyManifest: Sendable {
    public struct Record: Sendable, Hashable {
        public var id: String
        /// 1-based data row.
        public var row: Int
        /// File column → path, for the cells that name one.
        public var files: [String: String]
        /// The id, then the metadata in column order.
        public var metadata: [Metadata]
        /// Cells naming files that do not exist: column → path.
        public var missing: [String: String]
    }

    public struct Metadata: Sendable, Hashable, Codable {
        public var column: String
        public var value: String
    }

    public let file: String
    public let idColumn: String
    public let fileColumns: [String]
    public let records: [Record]

    /// Reads `file` (CSV with a header); paths are relative to `base` (default: the manifest's folder).
    public static func read(_ file: String, idColumn: String = "recordId", base: String? = nil) throws(ReadError) -> StudyManifest {
        let table = try CSVTable.parse(FileBytes.read(file), file: file)
        guard let header = table.header else { throw ReadError(file: file, reason: .invalidValue("a study manifest needs a header row")) }
        guard let idIndex = header.firstIndex(of: idColumn) else {
            throw ReadError(file: file, reason: .invalidValue("no id column \(ReadError.quote(idColumn)) among \(header.prefix(12).map { ReadError.quote($0) }.joined(separator: ", "))"))
        }
        let folder = base ?? TaskFiles.parent(of: file)
        func path(_ cell: String) -> String {
            cell.hasPrefix("/") || folder.isEmpty ? cell : folder + "/" + cell
        }
        func cells(_ column: Int) -> [String] { (0..<table.rowCount).map { table.columns[column].text(at: $0) ?? "" } }
        let fileColumns = header.indices.filter { column in
            guard column != idIndex else { return false }
            return isFileColumn(header[column]) || cells(column).contains { !$0.isEmpty && FileVersion.exists(path($0)) && !isDirectory(path($0)) }
        }
        var seen = Set<String>()
        let records = try (0..<table.rowCount).map { row throws(ReadError) -> Record in
            let id = table.columns[idIndex].text(at: row) ?? ""
            guard !id.isEmpty, seen.insert(id).inserted else {
                throw ReadError(file: file, reason: .invalidValue("data row \(row + 1): \(id.isEmpty ? "empty" : "repeated") \(idColumn) \(ReadError.quote(id))"))
            }
            var record = Record(id: id, row: row + 1, files: [:], metadata: [Metadata(column: idColumn, value: id)], missing: [:])
            for column in header.indices where column != idIndex {
                let cell = table.columns[column].text(at: row) ?? ""
                if fileColumns.contains(column) {
                    guard !cell.isEmpty else { continue }
                    if FileVersion.exists(path(cell)) { record.files[header[column]] = path(cell) } else { record.missing[header[column]] = path(cell) }
                } else {
                    record.metadata.append(Metadata(column: header[column], value: cell))
                }
            }
            return record
        }
        return StudyManifest(file: file, idColumn: idColumn, fileColumns: fileColumns.map { header[$0] }, records: records)
    }

    /// Whether a column's name is an mPower file column (`accel_walking_outbound.json.items`,
    /// `tapping_results.json.TappingSamples`, `audio_audio.m4a`) or a file name.
    static func isFileColumn(_ name: String) -> Bool {
        let lower = name.lowercased()
        return [".json.items", ".json.tappingsamples", ".m4a", ".json", ".wav", ".csv", ".caf", ".flac"].contains { lower.hasSuffix($0) }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return FileName.withCString(path, { stat($0, &info) }) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// One unit per record: its files, keyed by column; a record naming a missing file is an
    /// error unit saying which.
    public var units: [WorkUnit] {
        records.map { record in
            let path = file + "#" + record.id
            if let (column, missing) = record.missing.sorted(by: { $0.key < $1.key }).first {
                return WorkUnit(path: path, members: [], shape: .refused(reason: "data row \(record.row) (\(idColumn) \(record.id)): column \(column) names \(FileName.display(missing)), which does not exist"),
                                metadata: record.metadata)
            }
            return WorkUnit(path: path, members: Set(record.files.values).sorted(), shape: .record(columns: record.files), metadata: record.metadata)
        }
    }
}
