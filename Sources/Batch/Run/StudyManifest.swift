import Glibc
import InputGuards
import Scoring
import SensorData

/// A study's table of records (a Synapse table downloaded as CSV, as mPower published): one row
/// per record, one column per file whose cells are paths (relative to the manifest's folder or
/// a base folder), and metadata columns (`healthCode`, `createdOn`, `appVersion`, `phoneInfo`, …).
///
/// A column holds files when its name says so — an mPower file column (`…json.items`,
/// `…json.TappingSamples`, `….m4a`, `….json`, `….wav`, `….csv`) — or when one of its first
/// ``detectionCells`` non-empty cells names a file that exists; its name tells what the file is
/// (`deviceMotion_walking_rest.json.items` is the rest part of the walk, `audio_countdown.m4a` the
/// countdown). Every other column is metadata, stored with the record and exported as the first
/// columns of its wide tables.
///
/// Ambiguous tables are refused, naming the file, the row and the column: two columns of one
/// name, or one named like a column every export adds (`recording`, `status`, …: which one would
/// a key or an export mean?), a cell or name holding a NUL byte (a path would be cut at it and
/// name another file), and a table with no file column at all (every record would silently give
/// nothing).
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
        var columnsByName: [String: Int] = [:]
        for (column, name) in header.enumerated() {
            if let first = columnsByName.updateValue(column, forKey: name) {
                throw ReadError(file: file, reason: .invalidValue("columns \(first + 1) and \(column + 1) are both named \(ReadError.quote(name)); rename one"))
            }
            if name.contains("\0") { throw ReadError(file: file, reason: .invalidValue("column \(column + 1)'s name holds a NUL byte")) }
            // Metadata columns lead every wide export, beside the columns every export adds.
            // Case-insensitively: SQL names (the wide_* views) are.
            if name != idColumn, WideTable.identifierColumns.contains(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) {
                throw ReadError(file: file, reason: .invalidValue("column \(column + 1) is named \(ReadError.quote(name)), a column every export adds "
                    + "(\(WideTable.identifierColumns.joined(separator: ", "))); rename it"))
            }
        }
        for column in header.indices {
            guard case .text(let texts) = table.columns[column], let row = texts.firstIndex(where: { $0.contains("\0") }) else { continue }
            throw ReadError(file: file, reason: .invalidValue("data row \(row + 1), column \(ReadError.quote(header[column])): the cell holds a NUL byte (a path would be cut there); not read"))
        }
        let folder = base ?? TaskFiles.parent(of: file)
        func path(_ cell: String) -> String {
            cell.hasPrefix("/") || folder.isEmpty ? cell : folder + "/" + cell
        }
        /// The column's first non-empty cells, at most `detectionCells` of them.
        func sample(_ column: Int) -> [String] {
            var cells: [String] = []
            for row in 0..<table.rowCount where cells.count < detectionCells {
                if let cell = table.columns[column].text(at: row), !cell.isEmpty { cells.append(cell) }
            }
            return cells
        }
        let fileColumns = header.indices.filter { column in
            guard column != idIndex else { return false }
            return isFileColumn(header[column]) || sample(column).contains { FileVersion.exists(path($0)) && !isDirectory(path($0)) }
        }
        guard !fileColumns.isEmpty || table.rowCount == 0 else {
            throw ReadError(file: file, reason: .invalidValue("no column names files: no column is named like a file column (….json.items, ….m4a, ….json, ….wav, ….csv) "
                + "and none of the first \(detectionCells) cells of any column names an existing file (relative to \(FileName.display(folder.isEmpty ? "." : folder))); nothing to analyse"))
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

    /// How many non-empty cells of a column whose name does not say it holds files are looked up
    /// as paths: a million-row metadata column costs a thousand `stat` calls, not a million.
    public static let detectionCells = 1_000

    /// Whether a column's name is an mPower file column (`accel_walking_outbound.json.items`,
    /// `tapping_results.json.TappingSamples`, `audio_audio.m4a`) or a file name.
    static func isFileColumn(_ name: String) -> Bool {
        let lower = name.lowercased()
        return [".json.items", ".json.tappingsamples", ".m4a", ".json", ".wav", ".csv", ".caf", ".flac"].contains { lower.hasSuffix($0) }
    }

    private static func isDirectory(_ path: String) -> Bool {
        FileSystem.statusIfAny(path)?.isDirectory == true
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
