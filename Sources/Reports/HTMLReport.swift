import InputGuards
import Analysis
import Batch
import Scoring
import Foundation
import SensorData
import SignalProcessing

/// Self-contained HTML pages (inline CSS and SVG, no scripts, no network): one scored recording
/// (`score --html`), or a whole result store with per-cohort summaries (`activetask report`).
public enum HTMLReport {
    /// The page of one scored recording: its features and its charts.
    public static func recording(_ score: Score) -> String {
        let report = score.report, path = report.file
        var body = "<h1>\(escape((path as NSString).lastPathComponent)) — \(escape(report.kind))</h1>"
        body += "<p class=\"meta\">\(escape(path))\(report.dialect.map { " · " + escape($0) } ?? "")</p>"
        if let reason = report.unusable { body += "<p class=\"bad\">Unusable: \(escape(reason))</p>" }
        for warning in report.warnings { body += "<p class=\"warn\">Warning: \(escape(warning))</p>" }
        body += RecordingCharts.svgs(score).map { "<figure>\($0)</figure>" }.joined()
        for set in report.sets { body += featureTable(set) }
        return page(title: "\(report.kind): \((path as NSString).lastPathComponent)", body: body)
    }

    /// The page of a result store: counts, per analyzer the distribution of every numeric feature
    /// (n, mean, SD, P5, median, P95, and histograms of the first `histograms`), up to `examples`
    /// recordings with their charts, then errors and unknown files. One pass over the results
    /// (a cursor): memory grows with the number of numeric values, not with the stored JSON.
    public static func store(_ store: ResultStore, examples: Int = 2, histograms: Int = 6) throws(StoreError) -> String {
        struct Analyzer {
            var counts: [ResultStatus: Int] = [:]
            var features = FeatureValues()
            var candidates: [ResultRow] = []
        }
        var analyzers: [String: Analyzer] = [:]
        var recordings = Set<String>()
        var results = 0
        var failed: [ResultRow] = []
        var failedCount = 0
        try store.forEachResult { row in
            results += 1
            recordings.insert(row.recording)
            // Mutated in place (a copy out of the dictionary would copy its value arrays on every row).
            analyzers[row.key.analyzer, default: Analyzer()].counts[row.status, default: 0] += 1
            if row.status == .ok {
                analyzers[row.key.analyzer]!.features.add(featureSets(row.featuresJSON) ?? [])
                // AUXU CSV rows: the table, not one audiogram, is the recording.
                let chartable = !(row.key.analyzer == "audiometry" && row.recording.hasSuffix(".csv"))
                let candidates = analyzers[row.key.analyzer]!.candidates
                if chartable, candidates.count < examples + 3, !candidates.contains(where: { $0.recording == row.recording }) {
                    analyzers[row.key.analyzer]!.candidates.append(row)
                }
            } else {
                failedCount += 1
                if failed.count < 200 { failed.append(row) }
            }
        }
        let unknown = try store.unknownFiles()
        var body = "<h1>ActiveTaskKit results</h1><p class=\"meta\">\(escape(store.path)) · \(recordings.count) recordings · "
            + "\(results) results · \(unknown.count) unknown files</p>"
        let names = analyzers.keys.sorted()
        body += "<table><tr><th>analyzer</th>" + ResultStatus.allCases.map { "<th>\($0.rawValue)</th>" }.joined() + "</tr>"
        for name in names {
            body += "<tr><td>\(escape(name))</td>" + ResultStatus.allCases.map { "<td class=\"num\">\(analyzers[name]!.counts[$0] ?? 0)</td>" }.joined() + "</tr>"
        }
        body += "</table>"
        for name in names {
            let analyzer = analyzers[name]!
            body += "<h2>\(escape(name))</h2>"
            guard (analyzer.counts[.ok] ?? 0) > 0 else {
                body += "<p>No usable results.</p>"
                continue
            }
            body += analyzer.features.summary(histograms: histograms)
            var shown = 0
            for row in analyzer.candidates where shown < examples {
                // The example scored again as it was stored: its analyzer, with its stored
                // parameters, and only if its bytes are still those the features came from.
                guard Discovery.currentContentKey(of: row.recording) == row.key.contentSHA256 else {
                    body += "<p class=\"note\">Example \(escape(FileName.display(row.recording))) is not charted: its content changed or vanished after the batch "
                        + "(its SHA-256 is not the stored \(escape(String(row.key.contentSHA256.prefix(12))))…), so a chart would show other data than these features.</p>"
                    continue
                }
                guard let analyzer = Scoring.Analyzer(rawValue: row.key.analyzer),
                    let parameters = AnalyzerParameters(analyzer, canonical: row.key.parameters),
                    let unit = try? LoadedUnit.load(row.recording),
                    let score = ([row.recording] + unit.inputs.map(\.path)).lazy.compactMap({ try? parameters.score(analyzer, unit, target: $0) }).first
                else { continue }
                let charts = RecordingCharts.svgs(score)
                guard !charts.isEmpty else { continue }
                shown += 1
                body += "<h3>Example: \(escape(FileName.display(row.recording)))</h3>" + charts.map { "<figure>\($0)</figure>" }.joined()
            }
        }
        if !failed.isEmpty {
            body += "<h2>Errors, unusable and skipped results</h2><table><tr><th>recording</th><th>analyzer</th><th>status</th><th>reason</th></tr>"
            for row in failed {
                body += "<tr><td>\(escape(FileName.display(row.recording)))</td><td>\(escape(row.key.analyzer))</td><td>\(row.status.rawValue)</td><td>\(escape(row.error ?? ""))</td></tr>"
            }
            body += "</table>" + (failedCount > failed.count ? "<p>… and \(failedCount - failed.count) more (see the store).</p>" : "")
        }
        if !unknown.isEmpty {
            body += "<h2>Unknown files</h2><table><tr><th>file</th><th>kind</th><th>reason</th></tr>"
            for file in unknown.prefix(200) { body += "<tr><td>\(escape(file.path))</td><td>\(escape(file.kind))</td><td>\(escape(file.reason))</td></tr>" }
            body += "</table>" + (unknown.count > 200 ? "<p>… and \(unknown.count - 200) more.</p>" : "")
        }
        return page(title: "ActiveTaskKit results", body: body)
    }

    /// The numeric features of a cohort, by `set.feature`, in order of first appearance.
    struct FeatureValues {
        private(set) var order: [String] = []
        private(set) var values: [String: [Double]] = [:]

        mutating func add(_ sets: [FeatureSet]) {
            for set in sets {
                for (name, value) in zip(set.names, set.values) {
                    guard case .number(let number) = value, number.isFinite else { continue }
                    let key = set.name + "." + name
                    if values[key] == nil { order.append(key) }
                    values[key, default: []].append(number)
                }
            }
        }

        /// n, mean, SD, P5, median, P95 per feature, and histograms (√n bins, 5–30) of the first
        /// `histograms` features that vary.
        func summary(histograms: Int) -> String {
            var html = "<table><tr><th>feature (unit in the name)</th><th>n</th><th>mean</th><th>SD</th><th>P5</th><th>median</th><th>P95</th></tr>"
            var charts: [String] = []
            for key in order {
                let data = values[key]!, sorted = data.sorted()
                let mean = data.reduce(0, +) / Double(data.count)
                let sd = data.count > 1 ? (data.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(data.count - 1)).squareRoot() : .nan
                let cells = [mean, sd, Statistics.quantileOfSorted(sorted, 0.05), Statistics.quantileOfSorted(sorted, 0.5), Statistics.quantileOfSorted(sorted, 0.95)]
                html += "<tr><td>\(escape(key))</td><td class=\"num\">\(data.count)</td>" + cells.map { "<td class=\"num\">\(number($0))</td>" }.joined() + "</tr>"
                let bins = Int(clamping: Double(data.count).squareRoot(), to: 5...30)
                let width = ((sorted.last ?? 0) - (sorted.first ?? 0)) / Double(bins)
                // A range too wide for a Double (±1e308 values) has no histogram.
                if charts.count < histograms, data.count >= 2, width.isFinite, width > 0 {
                    var counts = [Double](repeating: 0, count: bins)
                    for value in data { counts[Int(clamping: (value - sorted.first!) / width, rounding: .down, to: 0...(bins - 1))] += 1 }
                    var plot = SVGPlot(title: "\(key) (n = \(data.count))", xLabel: key.split(separator: ".").last.map(String.init) ?? key, yLabel: "recordings")
                    plot.width = 420
                    plot.height = 200
                    plot.layers = [.bars(edges: (0...bins).map { sorted.first! + Double($0) * width }, counts: counts, color: "#4c72b0", label: "")]
                    charts.append(plot.svg)
                }
            }
            return html + "</table>" + (charts.isEmpty ? "" : "<div class=\"grid\">" + charts.map { "<figure>\($0)</figure>" }.joined() + "</div>")
        }
    }

    /// The feature sets of a stored features JSON (set → feature → value).
    static func featureSets(_ json: String) -> [FeatureSet]? {
        guard let object = (try? JSONValue.parse(Array(json.utf8), file: "features"))?.object else { return nil }
        return object.members.map { name, value in
            let members = value.object.map { Array($0.members) } ?? []
            return FeatureSet(name: name, rows: members.map { feature, item -> (name: String, value: FeatureValue) in
                switch item {
                case .number(let number): (feature, .number(number))
                case .bool(let flag): (feature, .boolean(flag))
                case .string(let text): (feature, .text(text))
                case .array(let array): (feature, .numbers(array.map { $0.number ?? .nan }))
                default: (feature, .missing)
                }
            })
        }
    }

    static func featureTable(_ set: FeatureSet) -> String {
        var html = "<h2>\(escape(set.name))</h2><table><tr><th>feature</th><th>value</th></tr>"
        for (name, value) in zip(set.names, set.values) {
            let shown: String
            switch value {
            case .number(let v): shown = number(v)
            case .boolean(let flag): shown = flag ? "yes" : "no"
            case .text(let text): shown = escape(text)
            case .numbers(let values): shown = values.prefix(20).map(number).joined(separator: " ") + (values.count > 20 ? " … (\(values.count))" : "")
            case .missing: shown = "–"
            }
            html += "<tr><td>\(escape(name))</td><td class=\"num\">\(shown)</td></tr>"
        }
        return html + "</table>"
    }

    static func number(_ value: Double) -> String { value.isNaN ? "–" : value.isFinite ? String(format: "%.6g", value) : "\(value)" }

    static func escape(_ text: String) -> String { SVGPlot.escape(text) }

    static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <style>
        body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1400px; }
        h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 28px; border-bottom: 1px solid #ccc; } h3 { font-size: 14px; }
        .meta { color: #666; } .warn { color: #8a6d00; } .bad { color: #b00020; }
        table { border-collapse: collapse; margin: 8px 0; font-size: 12px; }
        th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
        figure { margin: 8px 0; display: inline-block; } .grid { display: flex; flex-wrap: wrap; gap: 8px; }
        </style></head><body>
        \(body)
        </body></html>

        """
    }
}
