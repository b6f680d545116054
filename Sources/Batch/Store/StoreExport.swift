import Glibc
import InputGuards

/// `batch export`: a store's results as long or wide tables, CSV or JSON lines, to a file
/// through a temporary file renamed when complete (a failed or killed export leaves the previous
/// file as it was) or to standard output; streamed through a 1-MiB buffer, so memory does not
/// grow with the store. The store is only read.
public struct StoreExport {
    /// CSV (RFC 4180) when true, else JSON lines.
    public var csv: Bool
    /// CSV cells exactly as stored, without the leading `'` that keeps a spreadsheet from
    /// running a text cell as a formula.
    public var rawCells: Bool
    let store: ResultStore
    /// The store's path: an output may never be it.
    let storePath: String

    public init(store: ResultStore, path: String, csv: Bool, rawCells: Bool) {
        (self.store, storePath, self.csv, self.rawCells) = (store, path, csv, rawCells)
    }

    /// One row per feature (long form) of every result.
    public func long(to path: String?) throws {
        let long = try LongExport(store: store)
        try write(path, header: csv ? long.csvHeader(rawCells: rawCells) : "", analyzer: nil) { row in
            csv ? long.csvLines(row, rawCells: rawCells) : long.jsonLine(row)
        }
    }

    /// One row per recording and result of `analyzer`, one column per scalar feature.
    public func wide(_ analyzer: String, to path: String?) throws {
        let table = try WideTable(analyzer: analyzer, store: store)
        try write(path, header: csv ? table.csvHeader(rawCells: rawCells) : "", analyzer: analyzer) { row in
            csv ? table.csvLine(row, rawCells: rawCells) : table.jsonLine(row)
        }
    }

    /// A metadata column no recording of the analyzer has; `known` lists those they have.
    public struct UnknownColumn: Error, Sendable {
        public var known: [String]
    }

    /// Per value of manifest metadata column `column` (a participant): the record count and each
    /// numeric feature's median and IQR over the usable records of `analyzer`.
    public func participants(_ analyzer: String, by column: String, to path: String?) throws {
        let table = try WideTable(analyzer: analyzer, store: store)
        guard table.metadataColumns.contains(column) else { throw UnknownColumn(known: table.metadataColumns) }
        let summary = try ParticipantSummary(table, store: store, by: column)
        try write(path, header: csv ? summary.csv : summary.jsonLines, analyzer: nil, rows: false) { _ in "" }
    }

    /// Every analyzer's wide table into `folder` (created if missing) as ANALYZER.csv or ANALYZER.jsonl.
    public func wideTables(into folder: String) throws {
        do { try FileSystem.makeDirectories(folder) } catch {
            throw OutputFile.Refusal(description: "\(FileName.display(folder)): cannot create the folder: \(error.reason)")
        }
        for name in try store.analyzers() {
            try wide(name, to: (folder.hasSuffix("/") ? folder : folder + "/") + name + (csv ? ".csv" : ".jsonl"))
        }
    }

    /// `header`, then (when `rows`) one line per result of `analyzer` (nil: every result).
    private func write(_ path: String?, header: String, analyzer: String?, rows: Bool = true, _ line: (ResultRow) -> String) throws {
        let file = try path.map { path throws(OutputFile.Refusal) in try OutputFile(path, inputs: [storePath]) }
        func emit(_ text: String) throws {
            // Data bytes as they are, but on a terminal escaped (``TerminalText``).
            if let file { try file.write(text) } else {
                try StandardStream.output.write(isatty(1) == 1 ? TerminalText.escaped(text, keepingLineBreaks: true) : text)
            }
        }
        var buffer = header
        do {
            if rows { try store.forEachResult(analyzer: analyzer) { row in
                buffer += line(row)
                if buffer.utf8.count >= 1 << 20 {
                    try emit(buffer)
                    buffer = ""
                }
            } }
            try emit(buffer)
            try file?.commit()
        } catch {
            file?.discard()
            throw error
        }
    }
}
