import Testing
@testable import SensorData

@Suite struct DateStringTests {
    // Expected Unix times from Python's datetime.fromisoformat(...).timestamp().
    @Test("the three forms of docs/formats.md §4.8, Z and fractions")
    func forms() throws {
        let cases: [(String, Double, Int)] = [
            ("2019-05-27T00:35:06-0700", 1_558_942_506, -25_200),
            ("2015-02-04 23:20:21 +0000", 1_423_092_021, 0),
            ("2015-02-25T16:42:11+00:00", 1_424_882_531, 0),
            ("2015-02-25T16:42:11Z", 1_424_882_531, 0),
            ("1969-12-31T23:59:59.250+00:00", -0.75, 0),
        ]
        for (text, seconds, offset) in cases {
            let date = try #require(DateString(text), "\(text)")
            #expect(date.secondsSince1970 == seconds, "\(text)")
            #expect(date.utcOffsetSeconds == offset, "\(text)")
        }
    }

    @Test("dates without a zone or impossible dates are rejected")
    func rejects() {
        for text in ["2015-02-04 23:20:21", "20150204152021", "2015-02-30T00:00:00Z", "2015-13-01T00:00:00Z", "2015-02-04T25:00:00Z", "", "2015-02-04T23:20:21+0000x"] {
            #expect(DateString(text) == nil, "\(text)")
        }
    }

    @Test("ResearchKit's form round-trips, including leap days and negative offsets")
    func roundTrip() throws {
        for text in ["2019-05-27T00:35:06-0700", "2024-02-29T23:59:59+0545", "1970-01-01T00:00:00+0000", "2000-03-01T00:00:00-1200"] {
            #expect(try #require(DateString(text)).researchKitText == text)
        }
    }
}
