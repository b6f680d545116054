import Foundation
import Testing
import TestSupport
@testable import Analysis
@testable import SensorData

/// The `mhealthtools` tapping set against mhealthtools itself, run live (docs/analyses.md §1):
/// get_tapping_features of Sage-Bionetworks/mhealthtools 4340b82 (Tests/Peers/mhealthtools,
/// `tapping.R`) by Rscript on the same taps, every one of the 42 features and the error.
@Suite struct TappingPeerTests {
    typealias Tap = (t: Double, x: Double, y: Double, button: TapButton)

    /// Tap sequences of the shapes uploads show, nine kinds in turn: alternating taps with
    /// Gaussian intervals; positions spread ±40 points (sides and the 20-point depress threshold
    /// crossed); intervals from four values (ties in every quantile); 80 % of taps on one side;
    /// 15 % outside taps, half of them repeated; 5–12 taps with one pair out of order; every tap
    /// at one x (no depress event: mhealthtools' error); two x exactly 15, 19.9, 20, 20.1 or 25
    /// points apart (the threshold's edge); 30 % of times repeating the previous one. Lengths
    /// 5 to 200 taps; positions on a 0.1-point grid, times on a microsecond grid. Then the two
    /// rounding cases of `TappingTests` (``rounding(xs:)``).
    static func sequences(count: Int, seed: UInt64) -> [[Tap]] {
        var random = SeededRandom(seed: seed)
        func gaussian() -> Double { (0..<12).reduce(-6.0) { sum, _ in sum + random.unit() } }  // Irwin–Hall, σ = 1
        func grid(_ value: Double, _ step: Double) -> Double { (value / step).rounded() * step }
        return (0..<count).map { index in
            let kind = index % 9
            let n = kind == 5 ? 5 + random.below(8) : [5, 6, 7, 9, 12, 30, 80, 200][random.below(8)]
            var taps: [Tap] = [], t = 0.0
            for i in 0..<n {
                let repeatTime = kind == 8 && !taps.isEmpty && random.unit() < 0.3
                if !repeatTime { t += kind == 2 ? [0.1, 0.15, 0.2, 0.25][random.below(4)] : max(0.0005, 0.2 + 0.08 * gaussian()) }
                let left = kind == 3 ? random.unit() < 0.8 : i % 2 == 0
                var button: TapButton = left ? .left : .right
                var x = (left ? 96.0 : 224.0) + (kind == 1 ? 40 : 8) * gaussian(), y = 416 + 8 * gaussian()
                if kind == 4, random.unit() < 0.15 { (button, x, y) = (.none, 320 * random.unit(), 500 * random.unit()) }
                if kind == 6 { x = 150 }
                if kind == 7 { x = 150 + (i % 2 == 0 ? 0 : [15, 19.9, 20, 20.1, 25][index / 9 % 5]) }
                let tap = (t: grid(t, 1e-6), x: grid(x, 0.1), y: grid(y, 0.1), button: button)
                taps.append(tap)
                if button == .none, random.unit() < 0.5 { taps.append((t: grid(t + 0.001, 1e-6), x: tap.x, y: tap.y, button: .none)) }
            }
            if kind == 5 { taps.swapAt(2, 3) }
            return taps
        } + [rounding(xs: TappingTests.centredStepXs), rounding(xs: TappingTests.sideAtMeanXs)]
    }

    /// The two rounding cases of `TappingTests` (a step of 20 points far from the mean, a tap at
    /// the mean), 0.2 s apart at y 416.
    static func rounding(xs: [Double]) -> [Tap] {
        xs.enumerated().map { (t: 0.2 * Double($0.offset), x: $0.element, y: 416, button: $0.element < 200 ? .left : .right) }
    }

    /// R's text of a number: NA and NaN as NaN, Inf and -Inf as ±∞.
    static func number(_ text: String) -> Double? {
        switch text {
        case "NA", "NaN": .nan
        case "Inf": .infinity
        case "-Inf": -.infinity
        default: Double(text)
        }
    }

    @Test("90 generated tap sequences of nine kinds and the two rounding cases: the 42 features within 1e-9 relative of mhealthtools' (NaN, ±∞ and errors equal)",
          .enabled(if: Peer.r.runs, Peer.r.skipMessage))
    func generatedSequencesEqualMhealthtools() throws {
        guard Peer.r.require() != nil else { return }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sequences = Self.sequences(count: 90, seed: 2024)
        let names = ["TappedButtonLeft", "TappedButtonRight", "TappedButtonNone"]
        let paths = try sequences.enumerated().map { index, taps in
            let rows = taps.map { tap in
                [tap.t, tap.x, tap.y].map { String(format: "%.17g", $0) }.joined(separator: ",") + "," + names[[TapButton.left, .right, .none].firstIndex(of: tap.button)!]
            }
            return try folder.write("taps\(index).csv", (["t,x,y,buttonid"] + rows).joined(separator: "\n") + "\n")
        }
        let script = SharedData.packageRoot.appendingPathComponent("Tests/Peers/mhealthtools/tapping.R").path
        try MhealthtoolsKinematicsTests.run("/usr/bin/Rscript", [script] + paths)
        var worst = 0.0, errors = 0
        for (taps, path) in zip(sequences, paths) {
            var result = TappingResult(dialect: .appCore)
            for tap in taps { result.append(timestamp: tap.t, x: tap.x, y: tap.y, button: tap.button) }
            let ours = FeatureSet(name: "mhealthtools", features: TappingAnalysis.analyze(result).peer)
            let lines = try String(contentsOfFile: path + ".out.csv", encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            let theirs = Dictionary(uniqueKeysWithValues: zip(lines[0], lines[1]))
            #expect(ours.names == lines[0], "\(path): \(ours.names.count) names here, \(lines[0].count) in mhealthtools")
            if theirs["error"] != "None" {
                errors += 1
                #expect(ours["error"] == .text(theirs["error"] ?? ""), "\(path): \(String(describing: ours["error"])) vs \(theirs["error"] ?? "")")
                continue
            }
            #expect(ours["error"] == .missing, "\(path)")
            for name in lines[0] where name != "error" {
                guard let value = ours[name]?.number, let reference = theirs[name].flatMap(Self.number) else {
                    Issue.record("\(path) \(name): \(String(describing: ours[name])) here, \(theirs[name] ?? "none") in mhealthtools")
                    continue
                }
                if value.isNaN || reference.isNaN || value.isInfinite || reference.isInfinite {
                    #expect(value.isNaN ? reference.isNaN : value == reference, "\(path) \(name): \(value) vs \(reference)")
                    continue
                }
                // Near 0 (a skewness of symmetric drifts) both sides are rounding noise of
                // inputs of order 100: an absolute floor of 1e-12.
                let difference = abs(value - reference)
                if difference > 1e-12 { worst = max(worst, difference / max(abs(value), abs(reference))) }
                #expect(difference <= 1e-9 * max(abs(value), abs(reference)) + 1e-12, "\(path) \(name): \(value) here, \(reference) in mhealthtools")
            }
        }
        #expect(errors > 0 && errors < sequences.count, "\(errors) of \(sequences.count) sequences unusable: the kinds exercise both paths")
        print("mhealthtools tapping on \(sequences.count) generated sequences (\(errors) unusable): largest relative difference \(worst)")
    }
}
