import Testing
@testable import Analysis

/// The one derivation of feature rows from typed results (``FeatureSet/init(name:features:)``).
@Suite struct FeatureSetTests {
    enum Category: String, Encodable { case low, high }

    struct Axis: SuffixNamedFeatures {
        var peak: Double?
        var count: Int
    }

    struct Inner: Encodable {
        var innerFlag: Bool
    }

    struct Sample: Encodable {
        var count: Int
        var value: Double
        var absent: Double?
        var present: Double?
        var flag: Bool
        var maybeFlag: Bool?
        var label: String
        var category: Category
        var noCategory: Category?
        var series: [Double]
        var noSeries: [Double]?
        var inner: Inner
        var xAxis: Axis
        var nonFinite: Double
    }

    @Test("each property type becomes its value: Int and Double numbers, nil missing, Bool boolean, String and enums text, [Double] a series; groups in place, suffix groups named member + property; declaration order")
    func derivation() {
        let sample = Sample(count: 3, value: 2.5, absent: nil, present: -0.0, flag: true, maybeFlag: nil, label: "a", category: .high, noCategory: nil,
                            series: [1, .nan], noSeries: nil, inner: Inner(innerFlag: false), xAxis: Axis(peak: 4, count: 7), nonFinite: .infinity)
        let set = FeatureSet(name: "s", features: sample)
        #expect(set.name == "s")
        #expect(set.names == ["count", "value", "absent", "present", "flag", "maybeFlag", "label", "category", "noCategory", "series", "noSeries",
                              "innerFlag", "peakXAxis", "countXAxis", "nonFinite"])
        #expect(set.values[0] == .number(3) && set.values[1] == .number(2.5) && set.values[2] == .missing)
        #expect(set.values[3].number?.sign == .minus)  // −0 kept as it is
        #expect(set.values[4] == .boolean(true) && set.values[5] == .missing && set.values[6] == .text("a"))
        #expect(set.values[7] == .text("high") && set.values[8] == .missing && set.values[10] == .missing)
        guard case .numbers(let series) = set.values[9] else { Issue.record("not a series: \(set.values[9])"); return }
        #expect(series.count == 2 && series[0] == 1 && series[1].isNaN)
        #expect(set.values[11] == .boolean(false) && set.values[12] == .number(4) && set.values[13] == .number(7))
        // A non-finite number stays a number (written as null by every output), unlike a nil.
        #expect(set.values[14] == .number(.infinity) && set.json.object?["nonFinite"] == .null)
    }

    @Test("append(features:) adds a second group's rows after the first's")
    func appending() {
        var set = FeatureSet(name: "s", features: Inner(innerFlag: true))
        set.append(features: Axis(peak: nil, count: 1))
        #expect(set.names == ["innerFlag", "peak", "count"] && set.values == [.boolean(true), .missing, .number(1)])
    }
}
