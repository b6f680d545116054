import Glibc
import SensorData

extension HeadphoneCalibration {
    /// A headphone's measured calibration (`activetask hearing-test --calibration FILE`): for each
    /// frequency, the sound pressure level a coupler or ear simulator measured while a sine of peak
    /// level `referenceLevelDbfs` played at the system volume the test will use, and the RETSPL
    /// of the earphone (per row, or a standard set for all rows). Two spellings:
    ///
    ///     # headphone: Sennheiser HDA 300
    ///     # reference_dbfs: -20
    ///     # retspl: er3aHA2            (optional: a standard set instead of the column)
    ///     frequency_hz,spl_db,retspl_db
    ///     1000,91.5,7.5
    ///
    ///     {"headphone": "Sennheiser HDA 300", "referenceLevelDbfs": -20,
    ///      "points": [{"frequencyHz": 1000, "splDb": 91.5, "retsplDb": 7.5}]}
    ///
    /// As tables: dBSPL(f) = spl − (reference + 30), the level of a −30 dBFS sine, and a flat
    /// volume curve (the measurement holds at its own volume only; the command refuses another).
    public struct Measured: Sendable, Hashable {
        public var headphone: String
        public var referenceLevelDbfs: Double
        /// frequency, Hz → (SPL at the reference level, RETSPL), dB re 20 µPa.
        public var points: [Double: (spl: Double, retspl: Double)]

        public static func == (a: Measured, b: Measured) -> Bool {
            a.headphone == b.headphone && a.referenceLevelDbfs == b.referenceLevelDbfs && a.points.count == b.points.count
                && a.points.allSatisfy { f, p in b.points[f].map { $0.spl == p.spl && $0.retspl == p.retspl } ?? false }
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(headphone)
            hasher.combine(referenceLevelDbfs)
        }

        /// The tables ``researchKitAmplitude(hearingLevel:frequencyHz:tables:volume:rule:)`` uses.
        public var tables: Tables {
            Tables(retspl: points.mapValues(\.retspl), dBSPL: points.mapValues { $0.spl - (referenceLevelDbfs + 30) },
                   volumeCurve: Array(repeating: 0, count: 16))
        }

        /// What a measured value may be: frequencies of audiometers (IEC 60645-1: 125 Hz–8 kHz,
        /// extended to 16 kHz) with margin, levels a coupler reads, RETSPLs of ISO 389.
        static let frequencyRange = 20.0...20_000, splRange = 0.0...160, retsplRange = -20.0...100, referenceRange = -120.0...0

        /// Parses a CSV or JSON table (JSON when the first non-blank byte is `{` or `[`); `file` names it
        /// in errors, which say the line or key.
        public init(bytes: [UInt8], file: String) throws(ReadError) {
            func fail(_ message: String) -> ReadError { ReadError(file: file, reason: .invalidValue(message)) }
            var headphone: String?
            var reference: Double?
            var rows: [(at: String, frequency: Double?, spl: Double?, retspl: Double?)] = []
            var standard: [Double: Double]?
            func standardSet(_ name: String, _ at: String) throws(ReadError) -> [Double: Double] {
                guard let transducer = Transducer.allCases.first(where: { String(describing: $0) == name }) else {
                    throw fail("\(at): unknown RETSPL set \"\(name)\" (\(Transducer.allCases.map { String(describing: $0) }.joined(separator: ", ")))")
                }
                return transducer.retspl
            }
            let first = bytes.first { !($0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                let root = try JSONValue.parse(bytes, file: file)
                guard let object = root.object else { throw fail("the top level is not an object") }
                headphone = object["headphone"]?.string
                reference = object["referenceLevelDbfs"]?.number
                if let name = object["retspl"]?.string { standard = try standardSet(name, "retspl") }
                guard let points = object["points"]?.array else { throw fail("points: an array of {frequencyHz, splDb, retsplDb} is required") }
                for (index, point) in points.enumerated() {
                    rows.append(("points[\(index)]", point["frequencyHz"]?.number, point["splDb"]?.number, point["retsplDb"]?.number))
                }
            } else {
                var header: [String]?
                for record in try CSVRecords(bytes: bytes, file: file).records {
                    let at = "line \(record.line)"
                    if record.text[...].trimmingSpaces.hasPrefix("#") {
                        let pair = record.text[...].trimmingSpaces.dropFirst().split(separator: ":", maxSplits: 1).map { String($0.trimmingSpaces) }
                        guard pair.count == 2 else { continue }
                        switch pair[0] {
                        case "headphone": headphone = pair[1]
                        case "reference_dbfs":
                            guard let value = Double(pair[1]) else { throw fail("\(at): reference_dbfs \"\(pair[1])\" is not a number") }
                            reference = value
                        case "retspl": standard = try standardSet(pair[1], at)
                        default: break
                        }
                        continue
                    }
                    let cells = record.fields
                    guard let columns = header else {
                        guard cells.first == "frequency_hz", cells.count >= 2, cells[1] == "spl_db" else {
                            throw fail("\(at): the header must be frequency_hz,spl_db[,retspl_db]")
                        }
                        header = cells
                        continue
                    }
                    guard cells.count == columns.count else { throw fail("\(at): \(cells.count) cells, the header has \(columns.count)") }
                    func value(_ i: Int) throws(ReadError) -> Double? {
                        guard i < cells.count else { return nil }
                        guard let v = Double(cells[i]) else { throw fail("\(at): \"\(cells[i])\" is not a number") }
                        return v
                    }
                    rows.append((at, try value(0), try value(1), columns.count > 2 ? try value(2) : nil))
                }
            }
            guard let headphone, !headphone.isEmpty else { throw fail("headphone: the headphone's name is required") }
            guard let reference, reference.isFinite, Self.referenceRange.contains(reference) else {
                throw fail("the reference level (referenceLevelDbfs / reference_dbfs) must be a sine peak level in \(Self.referenceRange.lowerBound)…0 dBFS")
            }
            guard !rows.isEmpty else { throw fail("no measured frequencies") }
            var points: [Double: (spl: Double, retspl: Double)] = [:]
            for row in rows {
                guard let f = row.frequency, f.isFinite, Self.frequencyRange.contains(f) else {
                    throw fail("\(row.at): the frequency must be in 20–20000 Hz")
                }
                guard points[f] == nil else { throw fail("\(row.at): \(f.compactDescription) Hz is given twice") }
                guard let spl = row.spl, spl.isFinite, Self.splRange.contains(spl) else {
                    throw fail("\(row.at): the measured level must be in 0–160 dB SPL")
                }
                guard let retspl = row.retspl ?? standard?[f], retspl.isFinite, Self.retsplRange.contains(retspl) else {
                    throw fail("\(row.at): \(row.retspl == nil ? "no RETSPL for \(f.compactDescription) Hz (a retspl_db value or a standard set that has it)" : "the RETSPL must be in −20–100 dB")")
                }
                points[f] = (spl, retspl)
            }
            self.headphone = headphone
            referenceLevelDbfs = reference
            self.points = points
        }
    }
}
