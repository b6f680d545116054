import Testing
@testable import SensorData

@Suite struct CSVTests {
    func table(_ text: String) throws(ReadError) -> CSVTable {
        try CSVTable.parse(Array(text.utf8), file: "t.csv")
    }

    @Test("header detection, numeric and text columns, empty cells, CRLF, quotes")
    func layout() throws {
        let t = try table("#dir, steps, note\r\nwalk_1, 305, \"a, b\"\r\nwalk_2, , \"say \"\"hi\"\"\"\r\n")
        #expect(t.header == ["dir", "steps", "note"])
        #expect(t.rowCount == 2)
        #expect(t.columns[0] == .text(["walk_1", "walk_2"]))
        #expect(t.columns[1].numbers?.first == 305)
        #expect(t.columns[1].numbers?.last?.isNaN == true)
        #expect(t.columns[2] == .text(["a, b", "say \"hi\""]))
    }

    @Test("RFC 4180 as spreadsheets write it: a BOM, CRLF, quoted line breaks and doubled quotes; rows after it keep their line numbers")
    func quotedLineBreaks() throws {
        let t = try table("\u{FEFF}id,note\r\n1,\"two\r\nlines, \"\"quoted\"\"\"\r\n2,\"\"\r\n")
        #expect(t.header == ["id", "note"] && t.rowCount == 2)
        #expect(t.columns[1] == .text(["two\r\nlines, \"quoted\"", ""]))
        #expect(throws: ReadError(file: "t.csv", reason: .invalidValue("1 field(s) where the first row has 2"),
                                  offset: 20, line: 5, column: 1, path: "line 5")) {
            try table("id,note\n1,\"a\nb\"\n2,c\n3\n")
        }
        #expect(throws: ReadError(file: "t.csv", reason: .invalidValue("a quoted field opened here is never closed (a missing \"?)"),
                                  offset: 10, path: "line 2")) {
            try table("id,note\n1,\"open\n2,b\n")
        }
    }

    /// phyphox's and European spreadsheets' "decimal comma" exports (`;` or tab between fields,
    /// `0,25` for 0.25) were refused: "0,000000000E+00" is not a finite number.
    @Test("a decimal comma under `;` or tab delimiters: numbers; under `,` a quoted \"0,5\" stays text; two commas, or a point and a comma, are no number")
    func decimalComma() throws {
        let semicolon = try table("\"Time (s)\";\"Acceleration x (m/s^2)\"\n0,000000000E+00;-1,5\n1,000000000E-02;2\n")
        #expect(semicolon.header == ["Time (s)", "Acceleration x (m/s^2)"])
        #expect(semicolon.columns[0].numbers == [0, 0.01] && semicolon.columns[1].numbers == [-1.5, 2])
        let tab = try table("t\tx\n0,5\t+3,25\n")
        #expect(tab.columns[0].numbers == [0.5] && tab.columns[1].numbers == [3.25])
        #expect(try table("t,x\n\"0,5\",1\n").columns[0] == .text(["0,5"]))
        let odd = try table("t;x;y\n1,234,5;1.234,5;,5\n")
        #expect(odd.columns[0] == .text(["1,234,5"]) && odd.columns[1] == .text(["1.234,5"]) && odd.columns[2] == .text([",5"]))
    }

    @Test("a row with another field count is an error naming its line")
    func ragged() throws {
        #expect(throws: ReadError(file: "t.csv", reason: .invalidValue("2 field(s) where the first row has 3"),
                                  offset: 12, line: 3, column: 1, path: "line 3")) {
            try table("1,2,3\n4,5,6\n7,8\n")
        }
    }

    /// A `nan` cell among an Oxford walk's numbers was "CSV whose time/x/y/z columns are not
    /// recognised (no header)", and one under a header "expected numbers, found text at column 2".
    @Test("a cell that is not a number among numbers is named by its line and column: with no layout detected (at most 1 in 10 cells of a column), and in a column a layout reads")
    func strayText() throws {
        let rows = (0..<20).map { "\(1_000_000_000 + $0 * 10_000_000),3,0,0,9.80665" }
        var oxford = rows
        oxford[5] = "1050000000,3,0,nan,9.80665"
        let stray = try table(oxford.joined(separator: "\n"))
        #expect(MotionCSVLayout.detect(stray) == nil)
        #expect(throws: ReadError(file: "t.csv", reason: .invalidValue(#""nan" is not a finite number, among numbers"#), path: "line 6, column 4")) {
            try MotionCSVOverrides().layout(for: stray, file: "t.csv")
        }
        // Three cells in 20 are text: a text column, not a stray cell.
        oxford[6] = "1060000000,3,0,inf,9.80665"
        oxford[7] = "1070000000,3,0,x,9.80665"
        #expect(try table(oxford.joined(separator: "\n")).strayText == nil)
        let headed = try table("time,x,y,z\n0,1,2,3\n0.01,nan,2,3\n")
        var columns = MotionCSVOverrides()
        (columns.timeColumn, columns.xColumn, columns.yColumn, columns.zColumn) = ("time", "x", "y", "z")
        #expect(throws: ReadError(file: "t.csv", reason: .invalidValue(#""nan" is not a finite number (x)"#), path: "line 3, column 2")) {
            try SensorSeries.accelerometer(from: headed, layout: columns.layout(for: headed, file: "t.csv"), file: "t.csv")
        }
    }

    /// An Oxford walk whose times all repeat the first, or run backwards, was "not recognised (no
    /// header)" without saying what kept it from the layout.
    @Test("a table without a header that is not in the Oxford layout says why: its column count, a column of text, one row, the median interval of its times")
    func headerlessMismatch() throws {
        func reason(_ text: String) throws -> String? { MotionCSVLayout.headerlessMismatch(try table(text)) }
        let rows = (0..<20).map { "\(1_000_000_000 + $0 * 10_000_000),3,0,0,9.80665" }
        #expect(try reason(rows.joined(separator: "\n")) == nil)
        #expect(try reason("1,2,3,4\n5,6,7,8\n") == "4 columns, not the Oxford layout's 5")
        #expect(try reason("1,a,3,4,5\n2,b,3,4,5\n") == "column 2 is not all numbers")
        #expect(try reason("1000000000,3,0,0,9.8\n") == "fewer than two rows")
        let repeated = rows.map { "1000000000" + $0.drop { $0 != "," } }.joined(separator: "\n")
        let said = "the median interval of column 1 is 0.0, not the 10⁵–10⁹ (0.1 ms–1 s) of the Oxford layout's nanosecond times"
        #expect(try reason(repeated) == said)
        #expect(throws: ReadError(file: "t.csv", reason: .unrecognisedLayout("CSV whose time/x/y/z columns are not recognised (no header; \(said)); name them with the CSV parameters timeColumn, xColumn, yColumn, zColumn, or choose the oxford layout"))) {
            try MotionCSVOverrides().layout(for: try table(repeated), file: "t.csv")
        }
        #expect(try reason(rows.reversed().joined(separator: "\n"))?.hasPrefix("the median interval of column 1 is -10000000.0,") == true)
    }

    /// 1,000,000,000 ns = 1 s; 9.80665 m/s² = 1 g.
    @Test("Oxford layout: ns → s, m/s² → g, detected without a header")
    func oxford() throws {
        let t = try table("1000000000,3,0,0,9.80665\n1010000000,3,9.80665,0,0\n1020000000,3,0,-4.903325,0\n")
        #expect(MotionCSVLayout.detect(t) == .oxfordStepCounter)
        let (series, warnings) = try SensorSeries.accelerometer(from: t, layout: .oxfordStepCounter, file: "t.csv")
        #expect(warnings.isEmpty)
        #expect(series.time == [1, 1.01, 1.02])
        #expect(series["z"]?.first == 1)
        #expect(series["x"]?[1] == 1)
        #expect(series["y"]?[2] == -0.5)
    }

    @Test("header layouts name time, x, y, z and their units")
    func headerLayout() throws {
        let t = try table("time_ms,x (m/s2),y (m/s2),z (m/s2)\n0,0,0,9.80665\n10,0,0,9.80665\n")
        let layout = try #require(MotionCSVLayout.detect(t))
        #expect(layout.timeUnit == .milliseconds)
        #expect(layout.accelerationUnit == .metresPerSecondSquared)
        let (series, _) = try SensorSeries.accelerometer(from: t, layout: layout, file: "t.csv")
        #expect(series.time == [0, 0.01])
        #expect(series["z"] == [1, 1])
    }
}
