import Foundation
import Testing
import TestSupport
@testable import Analysis
@testable import SensorData

/// docs/audiometry.md §3.8, §4, §5 and §13 D16–D18.
@Suite struct ThresholdEngineTests {
    /// "30+ 20+ 10−" → [(30, heard), (20, heard), (10, missed)]; p = pre-stimulus, c = clipped.
    static func parse(_ text: String) -> [(Double, PresentationResponse)] {
        text.split(separator: " ").map { token in
            let mark = token.last!
            let level = Double(token.dropLast().replacingOccurrences(of: "−", with: "-"))!
            let response: PresentationResponse = mark == "+" ? .heard : mark == "p" ? .preStimulus : mark == "c" ? .clipped : .missed
            return (level, response)
        }
    }

    static func deterministic(_ threshold: Double) -> (Double) -> PresentationResponse {
        { $0 >= threshold ? .heard : .missed }
    }

    static let researchKitTable: [(Double, String)] = [
        (-10, "30+ 20+ 10+ 0+ −10+ −10+ −10+"), (-5, "30+ 20+ 10+ 0+ −10− −5+ −10− −5+"),
        (0, "30+ 20+ 10+ 0+ −10− −5− 0+ −10− −5− 0+"), (5, "30+ 20+ 10+ 0− 5+ −5− 0− 5+"),
        (10, "30+ 20+ 10+ 0− 5− 10+ 0− 5− 10+"), (15, "30+ 20+ 10− 15+ 5− 10− 15+"), (20, "30+ 20+ 10− 15− 20+ 10− 15− 20+"),
        (25, "30+ 20− 25+ 15− 20− 25+"), (30, "30+ 20− 25− 30+ 20− 25− 30+"), (35, "30− 50+ 40+ 30− 35+ 25− 30− 35+"),
        (40, "30− 50+ 40+ 30− 35− 40+ 30− 35− 40+"), (45, "30− 50+ 40− 45+ 35− 40− 45+"), (50, "30− 50+ 40− 45− 50+ 40− 45− 50+"),
        (55, "30− 50− 60+ 50− 55+ 45− 50− 55+"), (60, "30− 50− 60+ 50− 55− 60+ 50− 55− 60+"),
        (65, "30− 50− 60− 70+ 60− 65+ 55− 60− 65+"), (70, "30− 50− 60− 70+ 60− 65− 70+ 60− 65− 70+"),
        (75, "30− 50− 60− 70− 75+ 65− 70− 75+ 65− 70− 75+"), (80, "30− 50− 60− 70− 75− 80+ 70− 75− 80+ 70− 75− 80+"),
        (85, "30− 50− 60− 70− 75− 80− 85+ 75− 80− 85+ 75− 80− 85+"),
        (90, "30− 50− 60− 70− 75− 80− 85− 90+ 80− 85− 90+ 80− 85− 90+"),
        (95, "30− 50− 60− 70− 75− 80− 85− 90− 95+ 85− 90− 95+ 85− 90− 95+"),
        (100, "30− 50− 60− 70− 75− 80− 85− 90− 95− 100+ 90− 95− 100+ 90− 95− 100+"),
        (105, "30− 50− 60− 70− 75− 80− 85− 90− 95− 100− 105+ 95− 100− 105+ 95− 100− 105+"),
        (110, "30− 50− 60− 70− 75− 80− 85− 90− 95− 100− 105− 110+ 100− 105− 110+ 100− 105− 110+"),
    ]

    @Test("D17: ResearchKit procedure, deterministic listener: every T from −10 to 110 with the exact presentation list (§3.8)")
    func researchKitSequences() {
        for (t, text) in Self.researchKitTable {
            var engine = ResearchKitThresholdProcedure()
            engine.run(listener: Self.deterministic(t))
            #expect(engine.threshold == t, "T=\(t)")
            let expected = Self.parse(text)
            #expect(engine.presentations.map(\.level) == expected.map(\.0), "T=\(t)")
            #expect(engine.presentations.map(\.response) == expected.map(\.1), "T=\(t)")
        }
    }

    /// A scripted listener: the responses of the edge-case table, in order.
    static func scripted(_ text: String) -> (Double) -> PresentationResponse {
        var responses = parse(text).map(\.1)
        return { _ in responses.isEmpty ? .missed : responses.removeFirst() }
    }

    @Test("ResearchKit procedure: pre-stimulus taps, clipping and the cap (§3.8 edge cases)")
    func researchKitEdges() {
        let cases: [(String, Double?, Int?)] = [
            ("30+ 20− 25− 30p 30+ 20− 25− 30+", 30, nil), ("30p 30− 50+ 40− 45− 50+ 40− 45− 50+", 50, nil),
            ("30− 50− 60− 70c 65+ 55− 60− 65+ 55− 60− 65+", 65, nil), ("30c 15+ 5− 10+ 0− 5− 10+", 10, nil),
            ("30− 50− 60c 55c", nil, nil), ("30− 50+ 40+ 30− 35− 40+ 30− 35−", nil, 8),
        ]
        for (text, expected, cap) in cases {
            var parameters = ResearchKitThresholdProcedure.Parameters()
            if let cap { parameters.maximumPresentations = cap }
            var engine = ResearchKitThresholdProcedure(parameters: parameters)
            engine.run(listener: Self.scripted(text))
            #expect(engine.threshold == expected, "\(text)")
            #expect(engine.presentations.map(\.level) == Self.parse(text).map(\.0), "\(text)")
        }
    }

    @Test("ASHA procedure: the §5 table, every T from −10 to 100, NR above the ceiling")
    func asha() {
        let table: [(Double, String, ASHAThresholdProcedure.Outcome)] = [
            (15, "30+ 20+ 10− 15+ 5− 10− 15+", .threshold), (35, "30− 50+ 40+ 30− 35+ 25− 30− 35+", .threshold),
            (60, "30− 50− 60+ 50− 55− 60+ 50− 55− 60+", .threshold), (-10, "30+ 20+ 10+ 0+ −10+ −10+", .atFloor),
            (105, "30− 50− 60− 70− 80− 90− 100−", .noResponse),
        ]
        for (t, text, outcome) in table {
            var engine = ASHAThresholdProcedure()
            engine.run(listener: Self.deterministic(t))
            #expect(engine.presentations.map(\.level) == Self.parse(text).map(\.0), "T=\(t)")
            #expect(engine.outcome == outcome, "T=\(t)")
        }
        for t in stride(from: -10.0, through: 100, by: 5) {
            var engine = ASHAThresholdProcedure()
            engine.run(listener: Self.deterministic(t))
            #expect(engine.threshold == t, "T=\(t)")
        }
    }

    /// D18: logistic listener P(heard | L) = 1/(1 + e^(−(L − 22.5)/s)), 4,000 seeded runs.
    @Test("ASHA procedure with a logistic listener: mean threshold in [20, 27.5]", arguments: [1.0, 2.0, 3.0])
    func logistic(slope: Double) {
        var random = SeededRandom(seed: UInt64(slope * 1000))
        var sum = 0.0, count = 0
        for _ in 0..<4000 {
            var engine = ASHAThresholdProcedure()
            engine.run { level in random.unit() < 1 / (1 + exp(-(level - 22.5) / slope)) ? .heard : .missed }
            if let t = engine.threshold {
                sum += t
                count += 1
            }
        }
        let mean = sum / Double(count)
        #expect(mean >= 20 && mean <= 27.5, "s=\(slope): \(mean)")
    }
}

/// docs/audiometry.md §4: ResearchKit's own golden set, driven exactly as ResearchKit's test.
@Suite(.enabled(if: SharedData.runs, SharedData.skipMessage))
struct GoldenSetTests {
    @Test("all 3,561 audiograms: 24,927 × 2 runs and the 28,488-entry combined run recover every threshold")
    func golden() throws {
        let table = try #require(try JSONContents.read(SharedData.path("researchkit/ORKAudiometryTestData.json")).audiograms)
        #expect(table.rows.count == 3561)
        let summary = GoldenSet.run(table)
        #expect(summary.runAEntries == 24_927 && summary.runAExact == 24_927)
        #expect(summary.runBEntries == 24_927 && summary.runBExact == 24_927)
        #expect(summary.combinedEntries == 28_488 && summary.combinedExact == 28_488)
        #expect(summary.minimumPresentations >= 6 && summary.maximumPresentations <= 18)
    }
}
