import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport
@testable import Batch
@testable import Reports
import Scoring
import Analysis

@Suite struct SVGPlotTests {
    @Test("axes: 1–2–5 steps covering the data", arguments: [
        (0.0...7.3, 0.0...8.0, 2.0), (139.3...140.7, 139.0...141.0, 0.5), (-23.0...0.4, -25.0...5.0, 5.0), (5.0...5.0, 4.0...6.0, 0.5),
    ])
    func axis(data: ClosedRange<Double>, expected: ClosedRange<Double>, step: Double) {
        let axis = SVGPlot.axis(data)
        #expect(axis.range == expected && axis.step == step, "\(axis)")
        #expect(axis.ticks.first == expected.lowerBound && axis.ticks.last == expected.upperBound)
    }

    @Test("a long line is thinned to ≤ 4 points per pixel column and keeps its extremes")
    func thinning() {
        var points: [(Double, Double)] = (0..<100_000).map { (Double($0), sin(Double($0) / 100)) }
        points[51_234].1 = 9
        points[70_001].1 = -9
        let thinned = SVGPlot.thin(points, pixels: 500) { $0 / 100_000 * 500 }
        #expect(thinned.count <= 4 * 501)
        #expect(thinned.contains { $0.1 == 9 } && thinned.contains { $0.1 == -9 })
        #expect(zip(thinned, thinned.dropFirst()).allSatisfy { $0.0 <= $1.0 })
    }

    @Test("the SVG is well-formed XML with escaped text, NaN breaks lines, and every layer kind renders")
    func wellFormed() throws {
        var plot = SVGPlot(title: "A <title> & \"quotes\"", xLabel: "time, s", yLabel: "level, dB")
        plot.layers = [.line(x: [0, 1, 2, 3], y: [1, .nan, 2, 3], color: "#123456", label: "line"), .points(x: [0, 1], y: [2, 3], color: "red", label: "points"),
                       .markers(x: [0.5], color: "blue", label: "marks"), .threshold(y: 2.5, color: "green", label: "threshold"),
                       .bars(edges: [0, 1, 2], counts: [1, 2], color: "gray", label: "")]
        let svg = plot.svg
        #expect(svg.contains("A &lt;title&gt; &amp; &quot;quotes&quot;"))
        // NaN splits the line into the runs [(0, 1)] and [(2, 2), (3, 3)]: two polylines.
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 2)
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    }
}

@Suite struct HTMLReportTests {
    @Test("one recording: its charts and feature tables (SampleData walk: 18 steps)")
    func recording() throws {
        let path = SharedData.sampleData.appendingPathComponent("accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json").path
        let html = HTMLReport.recording(.gait(try GaitScorer.score(LoadedUnit.load(path))))
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("steps (18 in all)") && html.contains("<td>stepCount</td><td class=\"num\">18</td>"))
        #expect(!html.contains("<script") && !html.contains("http://") || html.contains("http://www.w3.org/2000/svg"))
    }

    @Test("charts are drawn from the score: a tapping chart keeps the taps of the threshold given, a gait chart the steps of the parameters given")
    func chartsFollowOptions() throws {
        let tapping = try LoadedInput.load(SharedData.sampleData.appendingPathComponent("tapping_results.json").path)
        var parameters = TappingScorer.Parameters()
        let standard = try TappingScorer.score(tapping, parameters)
        parameters.depressThreshold = 60
        let strict = try TappingScorer.score(tapping, parameters)
        // Independently: the taps whose |Δx| to the previous kept tap exceeds each threshold.
        let kept20 = TappingAnalysis.keptIntervals(standard.result, depressThreshold: 20).timeSeconds.count
        let kept60 = TappingAnalysis.keptIntervals(standard.result, depressThreshold: 60).timeSeconds.count
        #expect(kept60 < kept20)
        #expect(RecordingCharts.svgs(.tapping(standard)).joined().contains("\(kept20 + 1) kept taps (|Δx| &gt; 20 points)"))
        #expect(RecordingCharts.svgs(.tapping(strict)).joined().contains("\(kept60 + 1) kept taps (|Δx| &gt; 60 points)"))

        let walk = try LoadedUnit.load(SharedData.sampleData.appendingPathComponent("accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json").path)
        var gait = GaitScorer.Parameters()
        let usual = try GaitScorer.score(walk, gait)
        gait.analysis.minimumBoutSeconds = 60  // longer than the walk: no bout, no steps
        let none = try GaitScorer.score(walk, gait)
        let (walking, still) = (try #require(usual.recordings.first), try #require(none.recordings.first))
        #expect(walking.analysis.stepTimes.count == 18 && still.analysis.stepTimes.isEmpty, "\(walking.analysis.stepTimes.count) \(still.analysis.stepTimes.count)")
        #expect(RecordingCharts.svgs(.gait(usual)).joined().contains("steps (18 in all)") && RecordingCharts.svgs(.gait(none)).joined().contains("steps (0 in all)"))
    }

    @Test("a store: counts per analyzer and status, feature distributions, example charts, unknown files")
    func store() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try ResultStore(path: folder.path("r.sqlite"))
        _ = try await BatchRunner.run([SharedData.sampleData.path], store: store, options: BatchOptions(toolkitVersion: "test"))
        let html = try HTMLReport.store(store)
        for section in ["<h2>audiometry</h2>", "<h2>gait</h2>", "<h2>spl</h2>", "<h2>tapping</h2>", "<h2>voice</h2>", "<h2>Unknown files</h2>"] {
            #expect(html.contains(section), "\(section)")
        }
        #expect(html.contains("Tapping intervals") && html.contains("F0 contour") && html.contains("Sound level against the threshold")
            && html.contains("Acceleration and detected steps"))
        #expect(html.contains("<td>atk.stepCount</td>"))
        // Each embedded SVG is well-formed.
        let svgs = html.components(separatedBy: "<svg xmlns").dropFirst().map { "<svg xmlns" + $0.components(separatedBy: "</figure>")[0] }
        #expect(svgs.count >= 8)
        for svg in svgs { #expect(XMLParser(data: Data(svg.utf8)).parse()) }
    }

    /// docs/reliability.md §6: a 10-tap chart beside the features of 100 taps. The report charts a stored
    /// example only while its bytes hash to the stored key.
    @Test("a recording rewritten after the batch is not charted beside the stored features; the page says why")
    func rewrittenExample() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let original = try String(contentsOfFile: SharedData.sampleData.appendingPathComponent("tapping_results.json").path, encoding: .utf8)
        let tapping = try folder.write("tapping.json", original)
        let store = try ResultStore(path: folder.path("r.sqlite"))
        _ = try await BatchRunner.run([tapping], store: store, options: BatchOptions(toolkitVersion: "test"))
        let stored = try #require(try store.resultRows().first)
        #expect(Discovery.currentContentKey(of: tapping) == stored.key.contentSHA256)
        #expect(try HTMLReport.store(store).contains("Tapping intervals"))
        // The same taps, one byte more: other content.
        _ = try folder.write("tapping.json", original + " ")
        #expect(Discovery.currentContentKey(of: tapping) != stored.key.contentSHA256)
        let html = try HTMLReport.store(store)
        #expect(!html.contains("Tapping intervals"))
        #expect(html.contains("is not charted: its content changed or vanished after the batch"))
        try FileManager.default.removeItem(atPath: tapping)
        #expect(try HTMLReport.store(store).contains("is not charted"))
    }
}
