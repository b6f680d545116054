import Testing
@testable import SensorData

/// docs/formats.md §11: errors name the file, what is wrong and where; anomalies become warnings.
@Suite struct BadInputTests {
    func error(_ text: String, file: String = "accel_X-20190527003506.json", lenient: Bool = false) -> ReadError? {
        do {
            _ = try JSONContents.decode(Array(text.utf8), file: file, options: .init(lenient: lenient))
            return nil
        } catch {
            return error
        }
    }

    @Test("a wrong type names the item path and quotes the text")
    func wrongType() throws {
        let failure = try #require(error(#"{"items":[{"timestamp":1,"x":0.1,"y":0,"z":0},{"timestamp":2,"x":"0.1","y":0,"z":0}]}"#))
        #expect(failure.path == "items[1].x")
        #expect(failure.reason == .wrongType(expected: "number", found: "string \"0.1\""))
        #expect(failure.description.hasPrefix("accel_X-20190527003506.json: expected number"))
        #expect(failure.offset == 65)
    }

    @Test("a missing required key names the item path, a null one its null; a missing or null optional key is unavailable")
    func missingKey() throws {
        let failure = try #require(error(#"{"items":[{"timestamp":1,"x":0.1,"y":0}]}"#))
        #expect(failure.reason == .missingKey("z"))
        #expect(failure.path == "items[0].z")
        let second = try #require(error(#"[{"timestamp":1,"x":0.1,"y":0,"z":0},{"timestamp":2,"x":0.1,"y":0}]"#))
        #expect(second.path == "[1].z")
        let pedometer = try JSONContents.decode(Array(#"[{"startDate":"2019-05-27T00:35:06-0700","endDate":"2019-05-27T00:35:07-0700","numberOfSteps":3}]"#.utf8), file: "p")
        #expect(pedometer.series.first?.series["distance"]?.first?.isNaN == true)
        // A required key given as null is there: its null is named, not a missing key; an
        // optional one null is unavailable, as when missing.
        let null = try #require(error(#"{"items":[{"timestamp":1,"x":0.1,"y":0,"z":0},{"timestamp":2,"x":null,"y":0,"z":0}]}"#))
        #expect(null.reason == .wrongType(expected: "number", found: "null") && null.path == "items[1].x")
        let nullDate = try #require(error(#"[{"startDate":null,"endDate":"2019-05-27T00:35:07-0700","numberOfSteps":3}]"#))
        #expect(nullDate.reason == .wrongType(expected: "date string", found: "null") && nullDate.path == "[0].startDate")
        let nullDistance = try JSONContents.decode(Array(#"[{"startDate":"2019-05-27T00:35:06-0700","endDate":"2019-05-27T00:35:07-0700","numberOfSteps":3,"distance":null}]"#.utf8), file: "p")
        #expect(nullDistance.series.first?.series["distance"]?.first?.isNaN == true)
    }

    @Test("integers where Ints are needed; fractions there are invalid")
    func integrality() throws {
        let failure = try #require(error(#"[{"startDate":"2019-05-27T00:35:06-0700","endDate":"2019-05-27T00:35:07-0700","numberOfSteps":3.5}]"#))
        #expect(failure.path == "[0].numberOfSteps")
        #expect(failure.reason == .invalidValue("numberOfSteps must be an integer, found 3.5"))
    }

    @Test("NaN and Infinity tokens are not JSON")
    func nanTokens() throws {
        let failure = try #require(error(#"[{"timestamp":1,"x":NaN,"y":0,"z":0}]"#))
        #expect(failure.offset == 20)
        #expect(failure.reason == .syntax("expected a JSON value, found \"NaN\""))
        let later = try #require(error(#"[{"timestamp":1,"x":1,"y":0,"z":0},{"timestamp":2,"x":NaN,"y":0,"z":0}]"#))
        #expect(later.offset == 54)
        #expect(later.path == "[1].x")
        #expect(later.reason == .wrongType(expected: "number", found: "\"NaN\""))
        #expect(error(#"[{"timestamp":Infinity,"x":1,"y":0,"z":0}]"#) != nil)
    }

    @Test("a torn tail is truncatedJSON at the end; lenient mode keeps the complete items")
    func tornTail() throws {
        let text = #"{"items":[{"timestamp":1,"x":0.1,"y":0,"z":0},{"timestamp":2,"x":0.2,"y":"#
        let failure = try #require(error(text))
        #expect(failure.reason == .truncatedJSON)
        #expect(failure.offset == text.utf8.count)
        let lenient = try JSONContents.decode(Array(text.utf8), file: "a", options: .init(lenient: true))
        #expect(lenient.series.first?.series.count == 1)
        #expect(lenient.series.first?.warnings == [.truncatedTail(offset: text.utf8.count, itemsKept: 1)])
    }

    @Test("empty data: {\"items\":[]} and [] are valid; a zero-byte file is an error unless it is a current log")
    func emptyData() throws {
        let log = try JSONContents.decode(Array(#"{"items":[]}"#.utf8), file: "accel_ABC-20190527003506.json")
        #expect(log.layout == .recorderLog(.accelerometer))
        let array = try JSONContents.decode(Array("[]".utf8), file: "pedometer_walking.outbound")
        #expect(array.series.first?.series.kind == .pedometer)
        #expect(array.series.first?.series.count == 0)
        let current = try JSONContents.decode([], file: "dir/accel_9F2C1A4E_0B7D.json")
        #expect(current.warnings == [.emptyCurrentLog])
        #expect(throws: ReadError(file: "x/accel_ABC-20190527003506.json", reason: .emptyFile)) {
            try JSONContents.decode([], file: "x/accel_ABC-20190527003506.json")
        }
    }

    @Test("unsorted items are stable-sorted with a warning; gaps are reported")
    func ordering() throws {
        let text = #"[{"timestamp":0.02,"x":2,"y":0,"z":0},{"timestamp":0.01,"x":1,"y":0,"z":0},{"timestamp":0.03,"x":3,"y":0,"z":0},{"timestamp":0.04,"x":4,"y":0,"z":0},{"timestamp":0.5,"x":5,"y":0,"z":0}]"#
        let named = try #require(try JSONContents.decode(Array(text.utf8), file: "a").series.first)
        #expect(named.series["x"] == [1, 2, 3, 4, 5])
        #expect(named.warnings.contains(.unsortedTimestamps(count: 1)))
        #expect(named.warnings.contains { if case .timestampGaps(1, _) = $0 { true } else { false } })
        // 1010.04 − 1000.03 is 10.009999999999991 in binary: said to six significant digits.
        let late = #"[{"timestamp":1000.01,"x":0,"y":0,"z":0},{"timestamp":1000.02,"x":0,"y":0,"z":0},{"timestamp":1000.03,"x":0,"y":0,"z":0},{"timestamp":1010.04,"x":0,"y":0,"z":0}]"#
        let gap = try #require(try JSONContents.decode(Array(late.utf8), file: "a").series.first)
        #expect(gap.warnings.map(\.description) == ["timestampGaps(1): 1 gap(s) longer than 5x the median interval, longest 10.01 s"], "\(gap.warnings)")
    }

    /// 1,000 times 0.01 s apart with a 2-s dropout (items 300–499 missing): 800 items, 7.98 s of
    /// intervals and a 2.01-s gap.
    static let withDropout: [Double] = (0..<1000).filter { !(300..<500).contains($0) }.map { Double($0) / 100 }
    /// Each case's times: the recording with its dropout and the items named, or 11 items 0.01 s
    /// apart and one 0.8 s later.
    static let detachedCases: [String: [Double]] = [
        "1e6": withDropout + [1e6], "-5e5": withDropout + [-5e5], "±1e308": withDropout + [-1e308, 1e308],
        "+∞": withDropout + [.infinity], "NaN": withDropout + [.nan], "−∞": withDropout + [-.infinity], "20": withDropout + [20], "none": withDropout,
        "0.8 s after 0.1 s": (0...10).map { Double($0) / 100 } + [0.9],
    ]

    /// An item 10⁶ s from a 10-s recording became its end: a tremor rate of 1,000 / 913,590 s, a
    /// range of motion's last angle, a balance duration of 1e300 s.
    @Test("times that are not one recording: an item far after or before the rest, items on both sides at ±1e308 (their interval +∞), a time of ±∞ or NaN, a gap of 10 s after 8 s; a dropout shorter than the rest, or gaps of at most a second, are one recording",
          arguments: [("1e6", true), ("-5e5", true), ("±1e308", true), ("+∞", true), ("−∞", true), ("NaN", true), ("20", true), ("none", false), ("0.8 s after 0.1 s", false)])
    func detachedTimes(name: String, detached: Bool) throws {
        let times = try #require(Self.detachedCases[name])
        var series = SensorSeries(kind: .accelerometer)
        for time in times { series.append(numbers: [time, .nan, 0, 0, 1]) }
        _ = series.sortByTime()
        let problem = series.detachedTimes
        #expect((problem != nil) == detached, "\(name): \(problem ?? "nil")")
        if times.last == 1e6 {
            #expect(problem == "gaps longer than 5 × the median interval (0.01 s) add up to 999992 s, more than the 7.98 s of the other intervals: "
                + "the times are not those of one recording (the longest gap from 9.99 s to 1e+06 s, items 799 and 800 in time order)")
        }
    }

    @Test("layouts that are not ResearchKit's are unrecognised, with the keys shown")
    func unrecognised() throws {
        let failure = try #require(error(#"{"foo":1,"bar":[1]}"#, file: "f.json"))
        guard case .unrecognisedLayout(let message) = failure.reason else { Issue.record("\(failure)"); return }
        #expect(message.contains("\"foo\", \"bar\""))
        #expect(error("42", file: "f.json") != nil)
        #expect(error(#"[{"a":1}]"#, file: "f.json") != nil)
    }

    @Test("dialect-B geometry strings: flexible whitespace and exponents; garbage is an error with the path")
    func geometry() throws {
        #expect(CGString.point("{ 89.5 ,454 }") == Point(x: 89.5, y: 454))
        #expect(CGString.rect("{{44,364},{1.04e2, 104}}") == Rect(origin: Point(x: 44, y: 364), size: Size(width: 104, height: 104)))
        #expect(CGString.point("{1, 2, 3}") == nil)
        #expect(CGString.point("{nan, 2}") == nil)
        let failure = try #require(error(#"[{"TapTimeStamp":0,"TapCoordinate":"{1;2}","TappedButtonId":"TappedButtonLeft"}]"#, file: "t.json"))
        #expect(failure.path == "[0].TapCoordinate")
    }

    @Test("dB HL thresholds: DBL_MAX and its overflowing spelling are no threshold")
    func noThreshold() throws {
        for literal in ["1.7976931348623157e+308", "1.797693134862316e+308"] {
            let text = #"{"_class":"ORKdBHLToneAudiometryResult","samples":[{"_class":"ORKdBHLToneAudiometryFrequencySample","frequency":1000,"channel":1,"calculatedThreshold":\#(literal),"units":[]}]}"#
            let result = try JSONContents.decode(Array(text.utf8), file: "d.json")
            #expect(result.dBHLResults.first?.samples.first?.calculatedThresholdDecibelsHL == nil)
        }
    }

    /// A threshold or presented level of 1e300 dB HL was read as measured (a PTA of 3.3e299 dB HL,
    /// graded "complete"); so was a golden-table value.
    @Test("dB HL levels an audiometer does not present (outside −20…140 dB HL) are refused naming their place: thresholds, presented levels and audiogram-table values; the range's ends and NHANES' codes are read",
          arguments: ["1e300", "-1e300", "140.5", "-20.5", "1e-320"])
    func implausibleLevels(value: String) throws {
        let accepted = Double(value).map { (-20...140).contains($0) } ?? false
        let sample = { (threshold: String, level: String) in
            #"{"_class":"ORKdBHLToneAudiometryResult","samples":[{"_class":"ORKdBHLToneAudiometryFrequencySample","frequency":1000,"channel":1,"calculatedThreshold":\#(threshold),"units":[{"_class":"ORKdBHLToneAudiometryUnit","dBHLValue":\#(level)}]}]}"#
        }
        for (text, path) in [(sample(value, "30"), "samples[0].calculatedThreshold"), (sample("30", value), "samples[0].units[0].dBHLValue"),
                             (#"[{"AUXU500":-20,"AUXU1K1":140},{"AUXU500":666,"AUXU1K1":\#(value)}]"#, "[1].AUXU1K1")] {
            if accepted {
                #expect(throws: Never.self) { try JSONContents.decode(Array(text.utf8), file: "d.json") }
            } else {
                let failure = try #require(error(text, file: "d.json"), "\(path) \(value)")
                #expect(failure.path == path && failure.description.contains("outside -20…140 dB HL"), "\(failure)")
            }
        }
    }

    /// An outputVolume of −1e300, −∞ or 1e300 was taken as a volume: below 1 it made a volume
    /// correction of 0 dB, above 1 none, without a word.
    /// Each place a result or recorder file holds a quantity with a physical range, the value
    /// that text gives it and the range it must lie in: the first value outside refused naming
    /// the place, the range's ends read. 1e300 dB, 1e300° or 1e300 steps was read and reported.
    static let ranges: [(template: String, path: String, range: ClosedRange<Double>)] = [
        (#"{"_class":"ORKEnvironmentSPLMeterResult","sensitivityOffset":-23.3,"recordedSPLMeterSamples":[30,@]}"#, "recordedSPLMeterSamples[1]", -200...200),
        (#"{"_class":"ORKEnvironmentSPLMeterResult","sensitivityOffset":@,"recordedSPLMeterSamples":[30]}"#, "sensitivityOffset", -200...200),
        (#"{"_class":"ORKRangeOfMotionResult","start":5,"finish":105,"minimum":5,"maximum":115,"range":@}"#, "range", -720...720),
        (tappingA(#""timestamp":@"#), "samples[0].timestamp", 0...86_400),
        (tappingA(#""duration":@"#), "samples[0].duration", 0...86_400),
        (tappingA(#""location":{"x":@,"y":2}"#), "samples[0].location", -100_000...100_000),
        (tappingA(#""rect":{"origin":{"x":0,"y":@},"size":{"w":10,"h":10}}"#), "buttonRect1.origin", -100_000...100_000),
        (#"{"TappingSamples":[{"TapCoordinate":"{1, 2}","TappedButtonId":"TappedButtonLeft","TapTimeStamp":@}]}"#, "TappingSamples[0].TapTimeStamp", 0...86_400),
        (#"{"TappingSamples":[{"TapCoordinate":"{1, @}","TappedButtonId":"TappedButtonLeft","TapTimeStamp":0}]}"#, "TappingSamples[0].TapCoordinate", -100_000...100_000),
        (#"{"_class":"ORKTimedWalkResult","distanceInMeters":@,"timeLimit":180,"duration":30}"#, "distanceInMeters", 0...100_000),
        (#"{"_class":"ORKTimedWalkResult","distanceInMeters":30,"timeLimit":180,"duration":@}"#, "duration", 0...86_400),
        (#"{"_class":"ORKTimedWalkResult","distanceInMeters":30,"timeLimit":@,"duration":30}"#, "timeLimit", 0...Double.greatestFiniteMagnitude),
        (#"{"items":[{"startDate":"2026-01-01T12:00:00+0100","endDate":"2026-01-01T12:00:01+0100","numberOfSteps":@,"distance":1}]}"#, "items[0].numberOfSteps", 0...1e9),
        (#"{"items":[{"startDate":"2026-01-01T12:00:00+0100","endDate":"2026-01-01T12:00:01+0100","numberOfSteps":1,"distance":@}]}"#, "items[0].distance", 0...1e9),
    ]

    /// An ORKTappingIntervalResult of one tap, `part` replacing that tap's key (or adding buttonRect1).
    static func tappingA(_ part: String) -> String {
        var sample = [#""timestamp":0"#, #""location":{"x":1,"y":2}"#, #""buttonIdentifier":"left""#, #""duration":0.1"#]
        if let key = ["timestamp", "location", "duration"].first(where: { part.hasPrefix("\"\($0)\"") }) {
            sample[sample.firstIndex { $0.hasPrefix("\"\(key)\"") }!] = part
        }
        let rect = part.hasPrefix(#""rect""#) ? #","buttonRect1":"# + part.dropFirst(7) : ""
        return #"{"_class":"ORKTappingIntervalResult","samples":[{"# + sample.joined(separator: ",") + "}]" + rect + "}"
    }

    @Test("quantities outside their physical range are refused naming the place, the range's ends read: SPL readings and offsets, range-of-motion angles, tap times, durations, places and buttons, timed-walk distances, durations and limits, pedometer counts",
          arguments: 0..<14)
    func physicalRanges(index: Int) throws {
        let (template, path, range) = Self.ranges[index]
        let file = path.hasPrefix("items") ? "pedometer_X-20260101120000.json" : "r.json"
        let outside = [range.lowerBound - max(1, abs(range.lowerBound)), range.upperBound == .greatestFiniteMagnitude ? -1 : range.upperBound * 2, 1e300, -1e300]
        for value in outside + [range.lowerBound, range.upperBound == .greatestFiniteMagnitude ? 1e300 : range.upperBound] {
            let text = template.replacingOccurrences(of: "@", with: "\(value)")
            if range.contains(value) {
                #expect(throws: Never.self, "\(path) \(value)") { try JSONContents.decode(Array(text.utf8), file: file) }
            } else {
                let failure = try #require(error(text, file: file), "\(path) \(value) accepted")
                #expect(failure.path == path && failure.description.contains("outside"), "\(path) \(value): \(failure)")
            }
        }
    }

    /// A required number given as null was "missing required key" (for an array's element, a
    /// key it never had).
    @Test("a result file's required number given as null is named as null at its place (an SPL reading, a range-of-motion angle, a tap time, a tapping-app time, a walk's distance)",
          arguments: [0, 2, 3, 7, 9])
    func nullNumbers(index: Int) throws {
        let (template, path, _) = Self.ranges[index]
        let failure = try #require(error(template.replacingOccurrences(of: "@", with: "null"), file: "r.json"), "\(path)")
        #expect(failure.path == path && failure.reason == .wrongType(expected: "number", found: "null"), "\(failure)")
    }

    /// 100 taps all at one time gave every rate null without a word, and taps 10⁻¹² s apart a
    /// tap rate of 10¹² taps/s, exit 0.
    @Test("taps whose times average less than 1 ms apart are refused naming the samples (every time equal, 10⁻¹² s apart, both dialects); 1 ms apart, one tap and none are read")
    func tapTimes() throws {
        func researchKit(_ times: [Double]) -> String {
            #"{"_class":"ORKTappingIntervalResult","samples":["# + times.enumerated().map { i, t in
                #"{"timestamp":\#(t),"location":{"x":\#(i % 2 == 0 ? 10 : 200),"y":2},"buttonIdentifier":"\#(i % 2 == 0 ? "left" : "right")"}"#
            }.joined(separator: ",") + "]}"
        }
        func appCore(_ times: [Double]) -> String {
            #"{"TappingSamples":["# + times.map { #"{"TapCoordinate":"{1, 2}","TappedButtonId":"TappedButtonLeft","TapTimeStamp":\#($0)}"# }.joined(separator: ",") + "]}"
        }
        for (text, path) in [(researchKit, "samples"), (appCore, "TappingSamples")] {
            for (times, span) in [(Array(repeating: 1.0, count: 100), "span 0.0 s, a mean interval of 0.0 s"),
                                  ((0..<100).map { 1 + Double($0) * 1e-12 }, "span \(99e-12 + 1 - 1) s")] {
                let failure = try #require(error(text(times), file: "t.json"), "\(path) \(span)")
                #expect(failure.path == path && failure.description.contains("the 100 taps \(span)")
                        && failure.description.contains("no finger taps a screen more than 1,000 times a second"), "\(failure)")
            }
            for times in [(0..<100).map { Double($0) * 0.001 }, [5.0], []] {
                #expect(throws: Never.self, "\(path) \(times.count)") { try JSONContents.decode(Array(text(times).utf8), file: "t.json") }
            }
        }
    }

    @Test("a dB HL result's outputVolume: 0, 1 and a fraction are read; −1, −1e300, 1.5, 1e300 and ±∞ are refused naming the key",
          arguments: ["-1", "-1e300", "1.5", "1e300", "1e400", "-1e400", "0", "1", "0.4375"])
    func outputVolumes(value: String) throws {
        let accepted = ["0", "1", "0.4375"].contains(value)
        for result in [#"{"_class":"ORKdBHLToneAudiometryResult","outputVolume":\#(value),"samples":[]}"#] {
            if accepted {
                let contents = try JSONContents.decode(Array(result.utf8), file: "v.json")
                #expect(contents.dBHLResults.first?.outputVolume == Double(value))
            } else {
                let failure = try #require(error(result, file: "v.json"), "\(value)")
                #expect(failure.path == "outputVolume" && failure.description.contains("is not a system volume (0…1)"), "\(failure)")
            }
        }
    }

    @Test("repeated keys: the last occurrence is used (as Python's json), with one duplicateKeys warning naming the first key and where")
    func duplicateKeys() throws {
        func decode(_ text: String, file: String = "accel_X-20190527003506.json") throws -> JSONContents {
            try JSONContents.decode(Array(text.utf8), file: file)
        }
        func duplicates(_ contents: JSONContents) -> [ReadWarning] {
            contents.allWarnings.filter { $0.code == "duplicateKeys" }
        }
        // In a recorder item: the columnar decoder, item path named.
        let items = try decode(#"{"items":[{"timestamp":1,"x":0.1,"y":0,"z":0},{"timestamp":2,"x":0.5,"y":0,"z":0,"x":0.7}]}"#)
        #expect(items.series.first?.series["x"] == [0.1, 0.7])
        #expect(duplicates(items) == [.duplicateKeys(count: 1, key: "x", location: "items[1].x")])
        #expect(duplicates(items).first?.description.hasPrefix(#"duplicateKeys(1): key "x" repeated in its object at items[1].x"#) == true)
        // A repeated "items" array: the last one is the recording.
        let twice = try decode(#"{"items":[{"timestamp":1,"x":1,"y":0,"z":0}],"items":[{"timestamp":1,"x":2,"y":0,"z":0},{"timestamp":2,"x":3,"y":0,"z":0}]}"#)
        #expect(twice.series.first?.series["x"] == [2, 3])
        #expect(duplicates(twice) == [.duplicateKeys(count: 1, key: "items", location: "byte 45")])
        // In a result object (the document model), at its byte offset; the last value is read.
        let tapping = #"{"TappingViewSize":"{320, 504}","ButtonRect1":"{{44, 364}, {104, 104}}","ButtonRect2":"{{172, 364}, {104, 104}}","TappingSamples":[{"TappedButtonId":"TappedButtonLeft","TapTimeStamp":1,"TapTimeStamp":2,"TapCoordinate":"{80, 400}"}]}"#
        let result = try decode(tapping, file: "tapping_results.json")
        #expect(result.tappingResults.first?.timestamp == [2])
        let offset = Array(tapping.utf8).indices.filter { Array(tapping.utf8)[$0...].starts(with: Array(#""TapTimeStamp""#.utf8)) }[1]
        #expect(duplicates(result) == [.duplicateKeys(count: 1, key: "TapTimeStamp", location: "byte \(offset)")])
        // An object with more keys than the linear search covers, repeated late; and a clean file.
        let wide = "{\"_class\":\"ORKTaskResult\",\"identifier\":\"t\"," + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k3\":9,\"k39\":1,\"results\":[]}"
        let many = try decode(wide, file: "taskResult.json")
        #expect(duplicates(many).first.map { if case .duplicateKeys(2, "k3", _) = $0 { true } else { false } } == true)
        #expect(duplicates(try decode(#"{"items":[{"timestamp":1,"x":0.1,"y":0,"z":0}]}"#)).isEmpty)
    }
}
