import InputGuards
import Analysis
import SensorData

/// Scores an audiogram — a ResearchKit `ORKdBHLToneAudiometryResult` or a data row of an NHANES
/// AUXU CSV — with ``Audiogram`` (thresholds, PTA3/PTA4, WHO 2021/1991 and Clark grades,
/// asymmetry; audiometry.md §10–11), and for outputVolume < 1 a `volumeCorrected` set (§7.5).
public enum AudiometryScorer {
    public struct Parameters: Sendable, Hashable, Codable {
        /// CSV data row (first = 1).
        public var row = 1
        /// The step identifier of the result to score when the file holds several (nil: the first).
        public var identifier: String?
        /// Headphone table version for the volume correction.
        public var tables = HeadphoneCalibration.TableVersion.researchKit3_2
        public var lenient = false
        public init() {}
    }

    /// The report, the audiogram to plot (volume-corrected when that applies) and the plot's legend.
    public struct Scored: Sendable {
        public var report: ScoreReport
        public var plotted: Audiogram
        public var legend: [String]
    }

    public static func score(_ file: String, _ parameters: Parameters = .init()) throws(ScoringError) -> Scored {
        var warnings: [String] = []
        let audiogram: Audiogram
        var legend: [String] = []
        var corrected: Audiogram?
        let dialect = "ResearchKit dBHL result"
        if InputSniffer.sniff(file) == .csv {  // by content, as every classification
            return try score(AUXUTable(file), row: parameters.row)
        } else {
            let contents = try readContents(file, lenient: parameters.lenient)
            warnings += contents.warnings.map(\.description)
            let results = contents.dBHLResults
            guard !results.isEmpty else {
                throw .input(ReadError(file: file, reason: .notFound("no ORKdBHLToneAudiometryResult in this file (\(contents.layout.name))")))
            }
            let result: DBHLToneAudiometryResult
            if let identifier = parameters.identifier {
                guard let match = results.first(where: { $0.identifier == identifier }) else {
                    throw ScoringError(.badInvocation, "\(FileName.display(file)): no dB HL result with identifier \"\(identifier)\"; found: \(results.map { $0.identifier ?? "(none)" }.joined(separator: ", "))")
                }
                result = match
            } else {
                result = results[0]
                if results.count > 1 { warnings.append("the file holds \(results.count) dB HL results; scored the first, choose with --identifier") }
            }
            audiogram = Audiogram(result)
            legend.append("headphone \(result.headphoneType ?? "unknown"), output volume \(result.outputVolume.map { String($0) } ?? "unknown")")
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
        }
        return scored(audiogram, corrected: corrected, file: file, dialect: dialect, warnings: warnings, legend: legend)
    }

    /// Data row `row` (first = 1) of an AUXU table.
    public static func score(_ table: AUXUTable, row: Int) throws(ScoringError) -> Scored {
        scored(try table.audiogram(row: row), corrected: nil, file: table.file, dialect: "AUXU CSV row \(row)", warnings: [], legend: [])
    }

    private static func scored(_ audiogram: Audiogram, corrected: Audiogram?, file: String, dialect: String, warnings: [String],
                               legend: [String]) -> Scored {
        let recorded = audiogram.features()
        var sets = [recorded.set]
        if let corrected { sets.append(corrected.features(name: "volumeCorrected").set) }
        let tested = Audiogram.Ear.allCases.contains { !(audiogram.thresholds[$0]?.isEmpty ?? true) }
        let report = ScoreReport(kind: "audiometry", file: file, dialect: dialect, sets: sets, warnings: warnings + recorded.warnings,
                                 unusable: tested ? nil : "no thresholds")
        return Scored(report: report, plotted: corrected ?? audiogram, legend: legend)
    }
}

/// A CSV with `AUXU…R/L` columns (the NHANES AUX layout): one audiogram per data row.
public struct AUXUTable: Sendable {
    public let file: String
    public let header: [String]
    public let table: CSVTable

    public init(_ file: String) throws(ScoringError) {
        let table: CSVTable
        do { table = try CSVTable.parse(FileBytes.read(file), file: file) } catch { throw .input(error) }
        guard let header = table.header, header.contains(where: { $0.hasPrefix("AUXU") && ($0.hasSuffix("R") || $0.hasSuffix("L")) }) else {
            throw ScoringError(.invalidInput, "\(FileName.display(file)): no header with AUXU…R/L columns (NHANES AUX layout)")
        }
        self.file = file
        self.header = header
        self.table = table
    }

    /// The audiogram of data row `row` (first = 1).
    public func audiogram(row: Int) throws(ScoringError) -> Audiogram {
        guard row >= 1, row <= table.rowCount else { throw ScoringError(.badInvocation, "\(FileName.display(file)): --row \(row) outside 1…\(table.rowCount)") }
        return Audiogram(columns: header, values: table.columns.map { $0.numbers?[row - 1] ?? .nan })
    }
}
