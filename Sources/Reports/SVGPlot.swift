import InputGuards
import Foundation

/// A small self-contained SVG chart: one x–y panel with axes, "nice" ticks (1–2–5 steps),
/// labelled units, and any number of layers (lines, points, vertical markers, a threshold line,
/// bars). Text is escaped; long lines are thinned to one minimum and one maximum per pixel
/// column, so an hour of samples stays a small picture that still shows every peak.
public struct SVGPlot: Sendable {
    public enum Layer: Sendable {
        /// A polyline; NaN values break it (unvoiced frames, missing readings).
        case line(x: [Double], y: [Double], color: String, label: String)
        case points(x: [Double], y: [Double], color: String, label: String)
        /// Vertical lines at each x (detected steps, taps).
        case markers(x: [Double], color: String, label: String)
        /// A dashed horizontal line (a decision threshold).
        case threshold(y: Double, color: String, label: String)
        /// Bars from `edges[i]` to `edges[i + 1]` with height `counts[i]` (a histogram).
        case bars(edges: [Double], counts: [Double], color: String, label: String)
        /// Cells from xEdges[i]…xEdges[i + 1] by yEdges[j]…yEdges[j + 1] shaded by values[i][j]:
        /// white at `floor` and below, black at the largest value (a spectrogram in dB).
        case heatmap(xEdges: [Double], yEdges: [Double], values: [[Double]], floor: Double, label: String)
    }

    public var title: String
    public var xLabel: String
    public var yLabel: String
    public var layers: [Layer] = []
    public var width = 640.0
    public var height = 240.0
    /// Fixed axis ranges (nil: from the data).
    public var xRange: ClosedRange<Double>?
    public var yRange: ClosedRange<Double>?

    public init(title: String, xLabel: String, yLabel: String) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
    }

    static let margin = (left: 56.0, right: 12.0, top: 40.0, bottom: 40.0)

    public var svg: String {
        let m = Self.margin
        let plotWidth = width - m.left - m.right, plotHeight = height - m.top - m.bottom
        let xs = layers.flatMap(Self.xValues).filter(\.isFinite), ys = layers.flatMap(Self.yValues).filter(\.isFinite)
        let xAxis = Self.axis(xRange ?? (xs.min() ?? 0)...(xs.max() ?? 1))
        let yAxis = Self.axis(yRange ?? (ys.min() ?? 0)...(ys.max() ?? 1))
        // Halves first: an axis from −1e308 to 1e308 spans more than a Double holds.
        func px(_ x: Double) -> Double { m.left + (x / 2 - xAxis.range.lowerBound / 2) / (xAxis.range.upperBound / 2 - xAxis.range.lowerBound / 2) * plotWidth }
        func py(_ y: Double) -> Double { m.top + plotHeight - (y / 2 - yAxis.range.lowerBound / 2) / (yAxis.range.upperBound / 2 - yAxis.range.lowerBound / 2) * plotHeight }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }

        var out = #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(f(width))" height="\#(f(height))" viewBox="0 0 \#(f(width)) \#(f(height))" font-family="sans-serif" font-size="11">"#
        out += #"<title>\#(Self.escape(title))</title><rect width="100%" height="100%" fill="white"/>"#
        // The title, shortened with an ellipsis to fit (about 7.5 points per bold 13-point character).
        let fitting = Int(clamping: (width - m.left - m.right) / 7.5, to: 1...10_000)
        let shown = title.count > fitting ? String(title.prefix(max(1, fitting - 1))) + "…" : title
        out += #"<text x="\#(f(m.left))" y="16" font-size="13" font-weight="bold">\#(Self.escape(shown))</text>"#
        // Grid and ticks.
        for tick in xAxis.ticks {
            out += #"<line x1="\#(f(px(tick)))" y1="\#(f(m.top))" x2="\#(f(px(tick)))" y2="\#(f(m.top + plotHeight))" stroke="rgb(229,229,229)"/>"#
            out += #"<text x="\#(f(px(tick)))" y="\#(f(m.top + plotHeight + 14))" text-anchor="middle">\#(Self.label(tick, step: xAxis.step))</text>"#
        }
        for tick in yAxis.ticks {
            out += #"<line x1="\#(f(m.left))" y1="\#(f(py(tick)))" x2="\#(f(m.left + plotWidth))" y2="\#(f(py(tick)))" stroke="rgb(229,229,229)"/>"#
            out += #"<text x="\#(f(m.left - 4))" y="\#(f(py(tick) + 4))" text-anchor="end">\#(Self.label(tick, step: yAxis.step))</text>"#
        }
        out += #"<rect x="\#(f(m.left))" y="\#(f(m.top))" width="\#(f(plotWidth))" height="\#(f(plotHeight))" fill="none" stroke="rgb(136,136,136)"/>"#
        out += #"<text x="\#(f(m.left + plotWidth / 2))" y="\#(f(height - 6))" text-anchor="middle">\#(Self.escape(xLabel))</text>"#
        out += #"<text transform="translate(12 \#(f(m.top + plotHeight / 2))) rotate(-90)" text-anchor="middle">\#(Self.escape(yLabel))</text>"#
        out += #"<svg x="\#(f(m.left))" y="\#(f(m.top))" width="\#(f(plotWidth))" height="\#(f(plotHeight))" viewBox="\#(f(m.left)) \#(f(m.top)) \#(f(plotWidth)) \#(f(plotHeight))" overflow="hidden">"#
        var legend: [(String, String, Bool)] = []
        for layer in layers {
            switch layer {
            case .line(let x, let y, let color, let label):
                for run in Self.runs(x, y) {
                    let thinned = Self.thin(run, pixels: Int(clamping: plotWidth, to: 1...100_000), px: px)
                    out += #"<polyline fill="none" stroke="\#(color)" stroke-width="1.2" points="\#(thinned.map { "\(f(px($0.0))),\(f(py($0.1)))" }.joined(separator: " "))"/>"#
                }
                legend.append((label, color, false))
            case .points(let x, let y, let color, let label):
                for (a, b) in zip(x, y) where a.isFinite && b.isFinite {
                    out += #"<circle cx="\#(f(px(a)))" cy="\#(f(py(b)))" r="2.2" fill="\#(color)"/>"#
                }
                legend.append((label, color, false))
            case .markers(let x, let color, let label):
                for a in x where a.isFinite {
                    out += #"<line x1="\#(f(px(a)))" y1="\#(f(m.top))" x2="\#(f(px(a)))" y2="\#(f(m.top + plotHeight))" stroke="\#(color)" stroke-opacity="0.5"/>"#
                }
                legend.append((label, color, false))
            case .threshold(let y, let color, let label):
                out += #"<line x1="\#(f(m.left))" y1="\#(f(py(y)))" x2="\#(f(m.left + plotWidth))" y2="\#(f(py(y)))" stroke="\#(color)" stroke-dasharray="6 4" stroke-width="1.5"/>"#
                legend.append((label, color, true))
            case .bars(let edges, let counts, let color, let label):
                for (i, count) in counts.enumerated() where i + 1 < edges.count {
                    let x0 = px(edges[i]), x1 = px(edges[i + 1])
                    out += #"<rect x="\#(f(x0 + 0.5))" y="\#(f(py(count)))" width="\#(f(max(0.5, x1 - x0 - 1)))" height="\#(f(py(0) - py(count)))" fill="\#(color)"/>"#
                }
                legend.append((label, color, false))
            case .heatmap(let xEdges, let yEdges, let values, let floor, let label):
                let top = values.joined().filter(\.isFinite).max() ?? floor
                for (i, column) in values.enumerated() where i + 1 < xEdges.count {
                    for (j, value) in column.enumerated() where j + 1 < yEdges.count && value.isFinite && value > floor && top > floor {
                        let shade = Int(clamping: 255 * (1 - (value - floor) / (top - floor)), rounding: .toNearestOrAwayFromZero, to: 0...255)
                        let x0 = px(xEdges[i]), x1 = px(xEdges[i + 1]), y0 = py(yEdges[j + 1]), y1 = py(yEdges[j])
                        out += #"<rect x="\#(f(x0))" y="\#(f(y0))" width="\#(f(x1 - x0 + 0.3))" height="\#(f(y1 - y0 + 0.3))" fill="rgb(\#(shade),\#(shade),\#(shade))"/>"#
                    }
                }
                legend.append((label, "rgb(96,96,96)", false))
            }
        }
        out += "</svg>"
        // Legend, right-aligned under the title.
        var x = width - m.right
        for (label, color, dashed) in legend.reversed() where !label.isEmpty {
            let textWidth = Double(label.count) * 6.2
            x -= textWidth + 26
            out += #"<line x1="\#(f(x))" y1="28" x2="\#(f(x + 16))" y2="28" stroke="\#(color)" stroke-width="3"\#(dashed ? #" stroke-dasharray="4 3""# : "")/>"#
            out += #"<text x="\#(f(x + 20))" y="32">\#(Self.escape(label))</text>"#
        }
        return out + "</svg>"
    }

    // MARK: - Helpers

    static func xValues(_ layer: Layer) -> [Double] {
        switch layer {
        case .line(let x, _, _, _), .points(let x, _, _, _), .markers(let x, _, _): x
        case .threshold: []
        case .bars(let edges, _, _, _): edges
        case .heatmap(let xEdges, _, _, _, _): xEdges
        }
    }

    static func yValues(_ layer: Layer) -> [Double] {
        switch layer {
        case .line(_, let y, _, _), .points(_, let y, _, _): y
        case .markers: []
        case .threshold(let y, _, _): [y]
        case .bars(_, let counts, _, _): counts + [0]
        case .heatmap(_, let yEdges, _, _, _): yEdges
        }
    }

    /// An axis covering `range` with 4–8 ticks at 1, 2 or 5 × 10^k. Any finite range works, up to
    /// ±Double.greatestFiniteMagnitude (spans are computed on halves so they never overflow), and
    /// the tick count is at most 12 whatever the values: no loop runs longer than the axis.
    static func axis(_ range: ClosedRange<Double>) -> (range: ClosedRange<Double>, ticks: [Double], step: Double) {
        let largest = Double.greatestFiniteMagnitude
        var low = range.lowerBound.isFinite ? range.lowerBound : (range.lowerBound < 0 ? -largest : 0)
        var high = range.upperBound.isFinite ? range.upperBound : (range.upperBound > 0 ? largest : 1)
        if high / 2 - low / 2 < 0.5e-12 * max(1, abs(low)) {
            low = max(-largest, low - max(1, abs(low) * 0.1))
            high = min(largest, high + max(1, abs(high) * 0.1))
        }
        let raw = (high / 2 - low / 2) / 3  // (high − low) / 6 without overflow
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        let firstIndex = (low / step).rounded(.down), lastIndex = (high / step).rounded(.up)
        let count = Int(clamping: lastIndex - firstIndex, rounding: .toNearestOrAwayFromZero, to: 1...12)
        func clamped(_ value: Double) -> Double { min(largest, max(-largest, value)) }
        let first = clamped(firstIndex * step), last = clamped(lastIndex * step)
        let ticks = (0...count).map { clamped((firstIndex + Double($0)) * step) }.filter { $0 <= last }
        return (first...last, ticks, step)
    }

    static func label(_ value: Double, step: Double) -> String {
        let digits = Int(clamping: -log10(step), rounding: .up, to: 0...17)
        return String(format: "%.\(digits)f", value == 0 ? 0 : value)
    }

    /// The finite stretches of a line (NaN breaks it).
    static func runs(_ x: [Double], _ y: [Double]) -> [[(Double, Double)]] {
        var runs: [[(Double, Double)]] = [[]]
        for (a, b) in zip(x, y) {
            if a.isFinite && b.isFinite { runs[runs.count - 1].append((a, b)) } else if !runs[runs.count - 1].isEmpty { runs.append([]) }
        }
        return runs.filter { !$0.isEmpty }
    }

    /// At most a first, minimum, maximum and last point per pixel column.
    static func thin(_ points: [(Double, Double)], pixels: Int, px: (Double) -> Double) -> [(Double, Double)] {
        guard points.count > 4 * pixels else { return points }
        var out: [(Double, Double)] = []
        var column = Int.min
        var bucket: [(Double, Double)] = []
        func flush() {
            guard let first = bucket.first, let last = bucket.last else { return }
            let low = bucket.min { $0.1 < $1.1 }!, high = bucket.max { $0.1 < $1.1 }!
            out += ([first, low, high, last]).sorted { $0.0 < $1.0 }
            bucket.removeAll(keepingCapacity: true)
        }
        for point in points {
            let c = Int(exactly: px(point.0).rounded(.down)) ?? Int.min  // an axis too wide for a Double
            if c != column {
                flush()
                column = c
            }
            bucket.append(point)
        }
        flush()
        return out
    }

    /// Text for SVG/HTML (``XMLText``).
    public static func escape(_ text: String) -> String { XMLText.escaped(text) }
}
