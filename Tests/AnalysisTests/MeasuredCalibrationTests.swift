import Testing
@testable import Analysis
import SensorData

/// ``HeadphoneCalibration/Measured``: a coupler measurement as tables, by hand, and every refusal.
struct MeasuredCalibrationTests {
    static func parse(_ text: String) throws(ReadError) -> HeadphoneCalibration.Measured {
        try HeadphoneCalibration.Measured(bytes: Array(text.utf8), file: "cal")
    }

    /// 90 dB SPL at −20 dBFS and RETSPL 7.5 dB at 1 kHz: 0 dB HL = 7.5 dB SPL = −20 + (7.5 − 90)
    /// = −102.5 dBFS; 60 dB HL = −42.5 dBFS. The CSV and the JSON spelling give the same table;
    /// a standard set supplies the RETSPL (ER-3A, ISO 389-2: 0 dB at 1 kHz).
    @Test func levelsByHand() throws {
        let csv = try Self.parse("# headphone: HDA 300\n# reference_dbfs: -20\nfrequency_hz,spl_db,retspl_db\n1000,90,7.5\n 4000 , 85 , 12 \n")
        let json = try Self.parse(#"{"headphone": "HDA 300", "referenceLevelDbfs": -20, "points": [{"frequencyHz": 1000, "splDb": 90, "retsplDb": 7.5}, {"frequencyHz": 4000, "splDb": 85, "retsplDb": 12}]}"#)
        #expect(csv == json && csv.headphone == "HDA 300")
        let zero = try #require(HeadphoneCalibration.researchKitAmplitude(hearingLevel: 0, frequencyHz: 1000, tables: csv.tables))
        #expect(abs(zero.attenuationDecibels + 102.5) < 1e-12)
        let sixty = try #require(HeadphoneCalibration.researchKitAmplitude(hearingLevel: 60, frequencyHz: 4000, tables: csv.tables))
        #expect(abs(sixty.attenuationDecibels - (-20 + (60 + 12 - 85))) < 1e-12)
        // Clipping where 0 dBFS falls: 90 + 20 − 7.5 = 102.5 dB HL at 1 kHz is the top (less the −1 dB margin).
        #expect(HeadphoneCalibration.researchKitAmplitude(hearingLevel: 102, frequencyHz: 1000, tables: csv.tables)?.amplitude == nil)
        let standard = try Self.parse("# headphone: ER-3A\n# reference_dbfs: -30\n# retspl: er3aHA2\nfrequency_hz,spl_db\n1000,80\n")
        let expectedRETSPL = try #require(HeadphoneCalibration.Transducer.er3aHA2.retspl[1000])
        #expect(standard.points[1000]?.retspl == expectedRETSPL)
    }

    @Test("every refusal names the line or key", arguments: [
        ("frequency_hz,spl_db,retspl_db\n1000,90,7.5\n", "headphone"),
        ("# headphone: X\nfrequency_hz,spl_db,retspl_db\n1000,90,7.5\n", "reference level"),
        ("# headphone: X\n# reference_dbfs: 3\nfrequency_hz,spl_db,retspl_db\n1000,90,7.5\n", "reference level"),
        ("# headphone: X\n# reference_dbfs: abc\n", "line 2: reference_dbfs"),
        ("# headphone: X\n# reference_dbfs: -20\nhz,db\n", "line 3: the header"),
        ("# headphone: X\n# reference_dbfs: -20\nfrequency_hz,spl_db,retspl_db\n1000,90\n", "line 4: 2 cells"),
        ("# headphone: X\n# reference_dbfs: -20\nfrequency_hz,spl_db,retspl_db\n1000,nan,7\n", "line 4: the measured level"),
        ("# headphone: X\n# reference_dbfs: -20\nfrequency_hz,spl_db,retspl_db\n1000,ninety,7\n", "line 4: \"ninety\""),
        ("# headphone: X\n# reference_dbfs: -20\nfrequency_hz,spl_db,retspl_db\n1000,90,7\n1000,91,7\n", "line 5: 1000 Hz is given twice"),
        ("# headphone: X\n# reference_dbfs: -20\nfrequency_hz,spl_db,retspl_db\n1e308,90,7\n", "line 4: the frequency"),
        ("# headphone: X\n# reference_dbfs: -20\nfrequency_hz,spl_db,retspl_db\n1000,90,500\n", "line 4: the RETSPL"),
        ("# headphone: X\n# reference_dbfs: -20\nfrequency_hz,spl_db\n1000,90\n", "no RETSPL for 1000 Hz"),
        ("# headphone: X\n# reference_dbfs: -20\n# retspl: tdh39\nfrequency_hz,spl_db\n750,90\n", "no RETSPL for 750 Hz"),
        ("# headphone: X\n# reference_dbfs: -20\n# retspl: airpods\n", "unknown RETSPL set"),
        ("# headphone: X\n# reference_dbfs: -20\nfrequency_hz,spl_db,retspl_db\n", "no measured frequencies"),
        (#"{"headphone": "X", "referenceLevelDbfs": -20}"#, "points"),
        (#"{"headphone": "X", "referenceLevelDbfs": -20, "points": [{"frequencyHz": 1000, "splDb": -5, "retsplDb": 7}]}"#, "points[0]: the measured level"),
        ("[1, 2]", "the top level"),
    ])
    func refusals(text: String, message: String) {
        do {
            _ = try Self.parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    /// Spreadsheets and Windows editors write CRLF and a byte-order mark; RFC 4180 quotes a
    /// name that holds a comma. A NUL inside a cell is refused with its line.
    @Test("CRLF, a BOM and quoted cells read as the LF file does; a NUL is refused naming its line")
    func spreadsheetSpellings() throws {
        let plain = try Self.parse("# headphone: HDA 300\n# reference_dbfs: -20\nfrequency_hz,spl_db,retspl_db\n1000,90,7.5\n4000,85,12\n")
        let crlf = try Self.parse("# headphone: HDA 300\r\n# reference_dbfs: -20\r\nfrequency_hz,spl_db,retspl_db\r\n1000,90,7.5\r\n4000,85,12\r\n")
        let bom = try HeadphoneCalibration.Measured(bytes: [0xEF, 0xBB, 0xBF] + Array("# headphone: HDA 300\n# reference_dbfs: -20\nfrequency_hz,spl_db,retspl_db\n1000,90,7.5\n4000,85,12\n".utf8), file: "cal")
        let quoted = try Self.parse("# headphone: HDA 300\n# reference_dbfs: -20\n\"frequency_hz\",\"spl_db\",\"retspl_db\"\n\"1000\",90,7.5\n4000,\"85\",12\n")
        #expect(crlf == plain && bom == plain && quoted == plain)
        #expect(throws: ReadError.self) { try Self.parse("# headphone: HDA 300\n# reference_dbfs: -20\nfrequency_hz,spl_db,retspl_db\n1000,9\u{0}0,7.5\n") }
        do { _ = try Self.parse("# headphone: HD\u{0}A\n# reference_dbfs: -20\nfrequency_hz,spl_db,retspl_db\n1000,90,7.5\n") } catch {
            #expect(error.description.contains("NUL") && error.description.contains("line 1"), "\(error)")
        }
    }
}
