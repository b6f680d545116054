import InputGuards
import Foundation
import Analysis
import SensorData

/// Scores an audiogram — a ResearchKit `ORKdBHLToneAudiometryResult` or a data row of an NHANES
/// AUXU CSV — with ``Audiogram`` (thresholds, PTA3/PTA4, WHO 2021/1991 and Clark grades,
/// asymmetry; docs/audiometry.md §10–11), and for outputVolume < 1 a `volumeCorrected` set (§7.5).
public enum AudiometryScorer {
    public struct Parameters: Sendable, Hashable, Codable {
        /// CSV data row (first = 1).
        public var row = 1
        /// The step identifier of the result to score when the file holds several (nil: the first).
        public var identifier: String?
        /// Headphone table version for the volume correction.
        public var tables = HeadphoneCalibration.TableVersion.researchKit3_2
        /// Keep the complete items before a torn tail of a JSON file (killed mid-write), with a warning.
        public var lenient = false
        public init() {}
    }

    public static func score(_ input: LoadedInput, _ parameters: Parameters = .init()) throws(ScoringError) -> AudiogramScore {
        let file = input.path
        switch input.kind {
        case .table(_, .audiogram(let table)):
            return try score(table, row: parameters.row)
        case .json(let contents):
            return try score(contents, file: file, parameters)
        default:
            throw .input(ReadError(file: file, reason: .notFound("no ORKdBHLToneAudiometryResult and no AUXU audiogram columns: this file is \(input.kind.summary)")))
        }
    }

    /// Data row `row` (first = 1) of an AUXU table.
    public static func score(_ table: AUXUTable, row: Int) throws(ScoringError) -> AudiogramScore {
        scored(try table.audiogram(row: row), corrected: nil, file: table.file, dialect: "AUXU CSV row \(row)", warnings: [], legend: [])
    }

    private static func score(_ contents: JSONContents, file: String, _ parameters: Parameters) throws(ScoringError) -> AudiogramScore {
        var warnings = contents.warnings.map(\.description)
        let (result, note) = try choose(contents.dBHLResults, identifier: parameters.identifier, what: "ORKdBHLToneAudiometryResult", file: file, \.identifier)
        warnings += note.map { [$0] } ?? []
        if result.userInfo["incomplete"]?.bool == true {
            warnings.append("the test did not finish (userInfo.incomplete): thresholds of the frequencies it did not reach are missing")
        }
        let audiogram = Audiogram(result)
        let unfinished = Audiogram.Ear.allCases.flatMap { ear in (audiogram.notFinished[ear] ?? []).sorted().map { "\(ear.name) \($0.compactDescription) Hz" } }
        if !unfinished.isEmpty {
            warnings.append("not finished (no threshold, and not a no-response): " + unfinished.joined(separator: ", "))
        }
        var legend = ["headphone \(result.headphoneType ?? "unknown"), output volume \(result.outputVolume.map { String($0) } ?? "unknown")"]
        var corrected: Audiogram?
        if let volume = result.outputVolume, volume < 1 {
            let tables = parameters.tables.rawValue
            if let headphone = result.headphoneType, let table = HeadphoneCalibration.tables(for: headphone, version: parameters.tables),
                let played = HeadphoneCalibration.volumeOffset(table, volume: volume, rule: .correct),
                let assumed = HeadphoneCalibration.volumeOffset(table, volume: volume, rule: .researchKit3_1)
            {
                let offset = played - assumed
                corrected = audiogram.shifted(by: offset)
                warnings.append("outputVolume \(volume) < 1: volumeCorrected adds \(offset) dB (\(headphone), \(tables) volume curve), assuming ResearchKit ≥ 3.1.0 and a volume that did not change during the test")
                legend.append("plotted: volume-corrected thresholds = recorded + (\(offset)) dB (\(tables) volume curve)")
            } else {
                warnings.append("outputVolume \(volume) < 1 but headphone \"\(result.headphoneType ?? "unknown")\" has no \(tables) volume curve: thresholds not volume-corrected")
            }
        }
        return scored(audiogram, corrected: corrected, file: file, dialect: "ResearchKit dBHL result", warnings: warnings, legend: legend)
    }

    private static func scored(_ audiogram: Audiogram, corrected: Audiogram?, file: String, dialect: String, warnings: [String],
                               legend: [String]) -> AudiogramScore {
        let recorded = audiogram.features
        var sets = [FeatureSet(name: "atk", features: recorded.features)]
        if let corrected { sets.append(FeatureSet(name: "volumeCorrected", features: corrected.features.features)) }
        let tested = Audiogram.Ear.allCases.contains { !(audiogram.thresholds[$0]?.isEmpty ?? true) }
        let report = ScoreReport(kind: "audiometry", file: file, dialect: dialect, sets: sets, warnings: warnings + recorded.warnings,
                                 unusable: tested ? nil : "no thresholds")
        return AudiogramScore(report: report, audiogram: audiogram, volumeCorrected: corrected, legend: legend)
    }
}

/// A CSV with `AUXU…R/L` columns (the NHANES AUX layout): one audiogram per data row.
public struct AUXUTable: Sendable {
    /// The AUXU CSV `file`, read once; refused unless its header holds AUXU…R/L columns.
    public static func load(_ file: String) throws(ScoringError) -> AUXUTable {
        let input = try LoadedInput.load(file)
        guard case .table(_, .audiogram(let table)) = input.kind else {
            throw ScoringError(.invalidInput, "\(FileName.display(file)): no header with AUXU…R/L columns (NHANES AUX layout); this file is \(input.kind.summary)")
        }
        return table
    }

    public let file: String
    public let header: [String]
    public let table: CSVTable

    /// The table's audiograms, if its header has a threshold column (`AUXU` + frequency + `R`/`L`).
    public init?(_ table: CSVTable, file: String) {
        guard let header = table.header,
            header.contains(where: Self.isThresholdColumn)
        else { return nil }
        self.file = file
        self.header = header
        self.table = table
    }

    /// (frequency, threshold) of every threshold (both ears, the first 1-kHz test) of the first
    /// `limit` data rows that have any: the true thresholds of a simulated test
    /// (``AudiometrySimulation``). A row's cell that is not a threshold is refused (``values(row:)``).
    public func thresholds(rows limit: Int) throws(ScoringError) -> [(frequencyHz: Double, threshold: Double)] {
        var truths: [(frequencyHz: Double, threshold: Double)] = []
        var used = 0
        for row in 0..<table.rowCount where used < limit {
            let audiogram = Audiogram(columns: header, values: try values(row: row))
            let found = Audiogram.Ear.allCases.flatMap { ear in
                (audiogram.thresholds[ear] ?? [:]).compactMap { f, value in value.map { (frequencyHz: f, threshold: $0) } }
            }
            truths += found.sorted { $0.frequencyHz < $1.frequencyHz }  // stable: the left ear first at one frequency
            if !found.isEmpty { used += 1 }
        }
        return truths
    }

    /// The audiogram of data row `row` (first = 1).
    public func audiogram(row: Int) throws(ScoringError) -> Audiogram {
        guard row >= 1, row <= table.rowCount else { throw ScoringError(.badInvocation, "\(FileName.display(file)): row \(row) is outside the table's data rows 1…\(table.rowCount)") }
        return Audiogram(columns: header, values: try values(row: row - 1))
    }

    /// Data row `row`'s (first = 0) cells as numbers, NaN where empty or `NA`. A threshold column's
    /// cell must be a hearing level an audiometer presents
    /// (``DBHLToneAudiometryResult/plausibleDecibelsHL``), NHANES' 666 (no response) or 888 (could
    /// not obtain), or missing; text or any other number is refused naming the row and column
    /// (such a cell once made its frequency "not tested", or a threshold of 1e300 dB HL).
    func values(row: Int) throws(ScoringError) -> [Double] {
        var values: [Double] = []
        for (name, column) in zip(header, table.columns) {
            let value: Double
            switch column {
            case .numbers(let numbers): value = numbers[row]
            case .text(let cells):
                let cell = cells[row].trimmingCharacters(in: .whitespaces)
                guard let number = cell.isEmpty || cell == "NA" ? .nan : Double(cell) else {
                    guard !Self.isThresholdColumn(name) else {
                        throw ScoringError(.invalidInput, "\(FileName.display(file)): data row \(row + 1), column \(name): \"\(TerminalText.escaped(cell))\" is not a threshold (dB HL, 666, 888 or empty)")
                    }
                    values.append(.nan)
                    continue
                }
                value = number
            }
            if Self.isThresholdColumn(name), !value.isNaN, value != 666, value != 888, !DBHLToneAudiometryResult.plausibleDecibelsHL.contains(value) {
                throw ScoringError(.invalidInput, "\(FileName.display(file)): data row \(row + 1), column \(name): " + DBHLToneAudiometryResult.implausible("threshold", value))
            }
            values.append(value)
        }
        return values
    }

    /// Whether `name` is a threshold column (`AUXU` + frequency + `R`/`L`).
    static func isThresholdColumn(_ name: String) -> Bool {
        AudiogramTable.frequencyHz(ofColumn: name) != nil && (name.hasSuffix("R") || name.hasSuffix("L"))
    }
}
