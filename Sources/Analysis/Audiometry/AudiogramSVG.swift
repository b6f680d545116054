import InputGuards
import Glibc

extension Audiogram {
    /// An SVG audiogram by ASHA (1990) *Guidelines for Audiometric Symbols* (docs/audiometry.md §12):
    /// log frequency axis 125–8000 Hz with octave ticks and 750/1500/3000/6000 between, dB HL
    /// increasing downwards from −10 to 120 with a 10 dB grid, one octave as wide as 20 dB is
    /// tall; air conduction right red O, left blue X, joined by lines per ear except to no-response
    /// points, which sit at the highest level presented (else 120 dB HL) and carry an arrow down and
    /// outward (right down-left, left down-right). A 1 kHz
    /// retest more than 5 dB from the first test is drawn as a small dashed symbol labelled retest. WHO 2021 bands
    /// are shaded; `legend` lines (headphone, tables, volume correction) go below the plot.
    public func svg(title: String, legend: [String] = []) -> String {
        let octave = 80.0, perTenDecibels = octave / 2
        let (left, top) = (70.0, 60.0)
        let width = 6 * octave, height = 13 * perTenDecibels
        func x(_ f: Double) -> Double { left + octave * log2(f / 125) }
        func y(_ db: Double) -> Double { top + (min(max(db, -10), 120) + 10) / 10 * perTenDecibels }
        func number(_ v: Double) -> String { Self.decimal(v) }
        let legendHeight = Double(legend.count + 1) * 18
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\((left + width + 40).compactDescription)" height="\((top + height + 50 + legendHeight).rounded(.down).compactDescription)" \
            font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(number(left + width / 2))" y="24" text-anchor="middle" font-size="15">\(Self.escaped(title))</text>

            """
        // WHO 2021 grade bands (lower bounds, dB HL) with their names at the right edge.
        let bands: [(Double, Double, String)] = [(-10, 20, "normal"), (20, 35, "mild"), (35, 50, "moderate"), (50, 65, "mod. severe"),
                                                 (65, 80, "severe"), (80, 95, "profound"), (95, 120, "complete")]
        for (index, band) in bands.enumerated() {
            let shade = index % 2 == 0 ? "#f4f4f4" : "#e9e9e9"
            svg += "<rect x=\"\(number(left))\" y=\"\(number(y(band.0)))\" width=\"\(number(width))\" height=\"\(number(y(band.1) - y(band.0)))\" fill=\"\(shade)\"/>\n"
            svg += "<text x=\"\(number(left + 4))\" y=\"\(number(y(band.0) + 13))\" font-size=\"10\" fill=\"#888\">\(band.2)</text>\n"
        }
        for db in stride(from: -10.0, through: 120, by: 10) {
            svg += "<line x1=\"\(number(left))\" y1=\"\(number(y(db)))\" x2=\"\(number(left + width))\" y2=\"\(number(y(db)))\" stroke=\"#bbb\" stroke-width=\"\(db == 0 ? 1.5 : 0.6)\"/>\n"
            svg += "<text x=\"\(number(left - 8))\" y=\"\(number(y(db) + 4))\" text-anchor=\"end\">\(db.rounded(.towardZero).compactDescription)</text>\n"
        }
        for f in [125.0, 250, 500, 750, 1000, 1500, 2000, 3000, 4000, 6000, 8000] {
            let octaveTick = [125.0, 250, 500, 1000, 2000, 4000, 8000].contains(f)
            svg += "<line x1=\"\(number(x(f)))\" y1=\"\(number(top))\" x2=\"\(number(x(f)))\" y2=\"\(number(top + height))\" stroke=\"#bbb\" stroke-width=\"0.6\"\(octaveTick ? "" : " stroke-dasharray=\"3 3\"")/>\n"
            let label = f >= 1000 ? (f.truncatingRemainder(dividingBy: 1000) == 0 ? "\((f / 1000).compactDescription)k" : "\(f / 1000)k") : "\(f.rounded(.towardZero).compactDescription)"
            svg += "<text x=\"\(number(x(f)))\" y=\"\(number(top - 8))\" text-anchor=\"middle\"\(octaveTick ? "" : " font-size=\"10\"")>\(label)</text>\n"
        }
        svg += "<rect x=\"\(number(left))\" y=\"\(number(top))\" width=\"\(number(width))\" height=\"\(number(height))\" fill=\"none\" stroke=\"black\"/>\n"
        svg += "<text x=\"\(number(left + width / 2))\" y=\"\(number(top + height + 22))\" text-anchor=\"middle\">frequency (Hz)</text>\n"
        svg += "<text transform=\"translate(22 \(number(top + height / 2))) rotate(-90)\" text-anchor=\"middle\">hearing level (dB HL)</text>\n"

        for ear in [Ear.right, .left] {
            let colour = ear == .right ? "#d00000" : "#0040d0"
            let points = (thresholds[ear] ?? [:]).filter { $0.key >= 125 && $0.key <= 8000 }.sorted { $0.key < $1.key }
            // Lines join consecutive measured points; a no-response point breaks the line.
            var run: [String] = []
            func flush() {
                if run.count > 1 { svg += "<polyline points=\"\(run.joined(separator: " "))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.5\"/>\n" }
                run = []
            }
            for (f, value) in points {
                if let threshold = value { run.append("\(number(x(f))),\(number(y(threshold)))") } else { flush() }
            }
            flush()
            for (f, value) in points {
                let (cx, cy) = (x(f), y(value ?? noResponseLevels[ear]?[f] ?? 120))
                svg += Self.symbol(ear, cx, cy, radius: 7, colour: colour)
                if value == nil {
                    let dx = ear == .right ? -1.0 : 1.0
                    let (x1, y1) = (cx + dx * 6, cy + 6), (x2, y2) = (cx + dx * 18, cy + 18)
                    svg += "<line x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\" stroke=\"\(colour)\" stroke-width=\"1.5\"/>\n"
                    svg += "<polyline points=\"\(number(x2 - dx * 6)),\(number(y2)) \(number(x2)),\(number(y2)) \(number(x2)),\(number(y2 - 6))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.5\"/>\n"
                }
            }
            // Not finished: a "?" in the ear's colour above the chart, never a symbol at a level.
            for f in (notFinished[ear] ?? []).sorted() where f >= 125 && f <= 8000 && thresholds[ear]?[f] == nil {
                svg += "<text x=\"\(number(x(f) + (ear == .right ? -5 : 5)))\" y=\"\(number(top + 16))\" text-anchor=\"middle\" font-weight=\"bold\" fill=\"\(colour)\">?</text>\n"
            }
            if let difference = retestDifference[ear], difference > 5, let retest = retests[ear] {
                svg += "<g stroke-dasharray=\"2 2\">" + Self.symbol(ear, x(1000), y(retest), radius: 4, colour: colour) + "</g>\n"
                svg += "<text x=\"\(number(x(1000) + 8))\" y=\"\(number(y(retest) + 4))\" font-size=\"10\" fill=\"\(colour)\">retest</text>\n"
            }
        }
        var lineY = top + height + 44
        let key = "<tspan fill=\"#d00000\">O right</tspan>   <tspan fill=\"#0040d0\">X left</tspan>   arrow = no response at the highest level"
            + (notFinished.values.contains { !$0.isEmpty } ? "   ? = not finished" : "")
        for line in [key] + legend.map(Self.escaped) {
            svg += "<text x=\"\(number(left))\" y=\"\(number(lineY))\">\(line)</text>\n"
            lineY += 18
        }
        return svg + "</svg>\n"
    }

    private static func symbol(_ ear: Ear, _ cx: Double, _ cy: Double, radius r: Double, colour: String) -> String {
        let n = decimal
        if ear == .right {
            return "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"\(n(r))\" fill=\"white\" fill-opacity=\"0\" stroke=\"\(colour)\" stroke-width=\"2\"/>\n"
        }
        return "<path d=\"M\(n(cx - r)),\(n(cy - r)) L\(n(cx + r)),\(n(cy + r)) M\(n(cx - r)),\(n(cy + r)) L\(n(cx + r)),\(n(cy - r))\" stroke=\"\(colour)\" stroke-width=\"2\"/>\n"
    }

    /// One decimal, without Foundation's formatter.
    private static func decimal(_ v: Double) -> String { "\((v * 10).rounded() / 10)" }

    private static func escaped(_ text: String) -> String { XMLText.escaped(text) }
}
