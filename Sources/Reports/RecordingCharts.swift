import InputGuards
import Analysis
import AudioIO
import Batch
import Foundation
import SensorData

/// The pictures of one scored recording, by kind: tapping intervals over time, gait
/// acceleration with the detected steps, SPL readings against the threshold, voice level and F0
/// contour, the audiogram. Each reads the recording again (the store keeps features, not samples).
public enum RecordingCharts {
    /// SVGs for `report` of the recording at `path` (a file, or an upload folder); a chart that
    /// cannot be drawn is left out.
    public static func svgs(_ report: ScoreReport, path: String) -> [String] {
        switch report.kind {
        case "tapping": return tapping(path)
        case "gait": return gait(path)
        case "spl": return spl(report)
        case "voice": return voice(path)
        case "audiometry": return audiometry(path, title: report.dialect ?? "audiogram")
        default: return []
        }
    }

    /// The intervals between the taps the features use (mhealthtools cleaning, |Δx| > 20
    /// points), ms, against the tap's time, s.
    static func tapping(_ path: String) -> [String] {
        guard let result = GaitScorer.inputFiles(path).lazy.compactMap({ try? JSONContents.read($0).tappingResults.first }).first else { return [] }
        let (x, intervals) = TappingAnalysis.keptIntervals(result)
        guard !x.isEmpty else { return [] }
        var plot = SVGPlot(title: "Tapping intervals\(result.identifier.map { " (\($0))" } ?? "")", xLabel: "time since the first kept tap, s",
                           yLabel: "interval to the previous tap, ms")
        let y = intervals.map { $0 * 1000 }
        plot.layers = [.line(x: x, y: y, color: "#1f77b4", label: ""),
                       .points(x: x, y: y, color: "#1f77b4", label: "\(x.count + 1) kept taps (|Δx| > 20 points)")]
        return [plot.svg]
    }

    /// Per motion recording: the acceleration magnitude minus its mean, m/s², and the detected
    /// steps, over the first `windowSeconds` (steps stay distinguishable).
    static func gait(_ path: String, windowSeconds: Double = 20) -> [String] {
        guard let (recordings, _, _) = try? GaitScorer.recordings(path) else { return [] }
        return recordings.compactMap { recording in
            guard [.accelerometer, .deviceMotion].contains(recording.series.kind), let signal = MotionSignal(recording.series) else { return nil }
            let result = GaitAnalysis.analyze(signal, windows: false)
            let t0 = signal.time.first ?? 0
            let magnitude = signal.time.indices.map { (signal.x[$0] * signal.x[$0] + signal.y[$0] * signal.y[$0] + signal.z[$0] * signal.z[$0]).squareRoot() }
            let mean = magnitude.reduce(0, +) / Double(max(1, magnitude.count))
            let duration = (signal.time.last ?? t0) - t0
            let shown = signal.time.indices.filter { signal.time[$0] - t0 <= windowSeconds }
            let steps = result.stepTimes.map { $0 - t0 }.filter { $0 <= windowSeconds }
            var plot = SVGPlot(title: "Acceleration and detected steps — \((recording.name as NSString).lastPathComponent)"
                               + (duration > windowSeconds ? String(format: " (first %.0f of %.0f s)", windowSeconds, duration) : ""),
                               xLabel: "time, s", yLabel: "|a| − mean, m/s²")
            plot.layers = [.line(x: shown.map { signal.time[$0] - t0 }, y: shown.map { magnitude[$0] - mean }, color: "#555555", label: "|a|"),
                           .markers(x: steps, color: "#d62728", label: "steps (\(result.stepTimes.count) in all)")]
            return plot.svg
        }
    }

    /// The SPL readings (audio: LAeq per interval; ResearchKit result: its readings) against the threshold.
    static func spl(_ report: ScoreReport) -> [String] {
        guard let set = report.sets.first else { return [] }
        let readings: [Double]
        switch set["laeqIntervalsDecibels"] ?? set["readingsDecibels"] {
        case .numbers(let values)?: readings = values
        default: return []
        }
        guard !readings.isEmpty else { return [] }
        let interval = set["intervalSeconds"]?.number ?? 1
        var plot = SVGPlot(title: "Sound level against the threshold (\(set["researchKitDecision"].flatMap { if case .text(let t) = $0 { t } else { nil } } ?? "?"))",
                           xLabel: "time, s", yLabel: set.name == "researchKit" ? "reading, dB(A)" : "LAeq per interval, dB(A)")
        let x = readings.indices.map { Double($0 + 1) * interval }
        plot.layers = [.line(x: x, y: readings, color: "#2ca02c", label: "level"), .points(x: x, y: readings, color: "#2ca02c", label: "")]
        if let threshold = set["thresholdDecibels"]?.number { plot.layers.append(.threshold(y: threshold, color: "#d62728", label: "threshold \(threshold.compactDescription) dB(A)")) }
        return [plot.svg]
    }

    /// Level per 50-ms frame, dBFS, and the F0 contour (Praat "To Pitch (ac)"), Hz.
    static func voice(_ path: String) -> [String] {
        guard let decoder = try? AudioInput.open(path),
            let samples = try? decoder.readAll(maximumSamples: VoiceScorer.Parameters().maximumSamples)  // the voice analyzer's bound
        else { return [] }
        let channels = decoder.format.channels, rate = decoder.format.sampleRateHz
        let channel0 = stride(from: 0, to: samples.count, by: channels).map { Double(samples[$0]) }
        let frame = Int(clamping: 0.05 * rate, to: 1...Int.max)
        var levelTime: [Double] = [], level: [Double] = []
        for start in stride(from: 0, to: channel0.count - frame + 1, by: frame) {
            let meanSquare = channel0[start..<start + frame].reduce(0) { $0 + $1 * $1 } / Double(frame)
            levelTime.append((Double(start) + Double(frame) / 2) / rate)
            level.append(meanSquare > 0 ? 10 * log10(meanSquare) : .nan)
        }
        var levels = SVGPlot(title: "Voice level", xLabel: "time, s", yLabel: "RMS per 50 ms, dBFS")
        levels.layers = [.line(x: levelTime, y: level, color: "#9467bd", label: "level")]
        let contour = VoiceAnalysis.pitchContour(channel0, sampleRateHz: rate)
        var pitch = SVGPlot(title: "F0 contour", xLabel: "time, s", yLabel: "F0, Hz")
        pitch.layers = [.line(x: contour.timeSeconds, y: contour.f0Hz, color: "#ff7f0e", label: ""),
                        .points(x: contour.timeSeconds, y: contour.f0Hz, color: "#ff7f0e", label: "F0 of voiced frames")]
        pitch.xRange = levels.xRange ?? (0...max(0.1, Double(channel0.count) / rate))
        return [levels.svg, pitch.svg]
    }

    static func audiometry(_ path: String, title: String) -> [String] {
        guard let scored = try? AudiometryScorer.score(path) else { return [] }
        return [scored.plotted.svg(title: (path as NSString).lastPathComponent + " — " + title, legend: scored.legend)]
    }
}
