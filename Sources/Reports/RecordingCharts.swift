import InputGuards
import Analysis
import Scoring
import SensorData

/// The pictures of one score, by analyzer: tapping intervals over time, gait acceleration with
/// the detected steps, SPL readings against the threshold, voice level and F0 contour, the
/// audiogram. Each is drawn from what the score computed (with the options it was computed
/// with), never by reading the recording again.
public enum RecordingCharts {
    /// The SVGs of `score`; a chart without data is left out.
    public static func svgs(_ score: Score) -> [String] {
        switch score {
        case .tapping(let tapping): return self.tapping(tapping)
        case .gait(let gait): return motion(gait.recordings)
        case .spl(let spl): return self.spl(spl)
        case .voice(let voice): return self.voice(voice)
        case .audiometry(let audiogram):
            let name = audiogram.report.file.split(separator: "/").last.map(String.init) ?? audiogram.report.file
            return [audiogram.plotted.svg(title: name + " — " + (audiogram.report.dialect ?? "audiogram"), legend: audiogram.legend)]
        case .loudness, .walkTest, .heartRate: return []
        case .balance(let balance): return motion(balance.recordings, steps: false)
        case .tremor(let tremor): return motion(tremor.recordings, steps: false)
        case .rangeOfMotion(let score): return rangeOfMotion(score)
        }
    }

    /// Per range-of-motion step: the angle as the step reports it over time, with the minimum and
    /// maximum recomputed and, when the step stored them, its own.
    static func rangeOfMotion(_ score: RangeOfMotionScore) -> [String] {
        score.steps.filter { !$0.timeSeconds.isEmpty }.map { step in
            let name = step.name.split(separator: "/").last.map(String.init) ?? step.name
            var plot = SVGPlot(title: "Range of motion — " + name, xLabel: "time, s", yLabel: "angle (start − relative angle), degrees")
            plot.layers = [.line(x: step.timeSeconds, y: step.angleDegrees, color: "#1f77b4", label: "angle")]
            let f = step.features
            for (value, label, color) in [(f.minimumDegrees, "minimum", "#2ca02c"), (f.maximumDegrees, "maximum", "#d62728"),
                                          (f.storedMinimumDegrees, "stored minimum", "#98df8a"), (f.storedMaximumDegrees, "stored maximum", "#ff9896")] {
                if let value { plot.layers.append(.threshold(y: value, color: color, label: "\(label) \(value.compactDescription)°")) }
            }
            return plot.svg
        }
    }

    /// The intervals between the taps the features use (mhealthtools cleaning at the score's
    /// depress threshold), ms, against the tap's time, s.
    static func tapping(_ score: TappingScore) -> [String] {
        let (x, intervals) = TappingAnalysis.keptIntervals(score.result, depressThreshold: score.depressThreshold)
        guard !x.isEmpty else { return [] }
        var plot = SVGPlot(title: "Tapping intervals\(score.result.identifier.map { " (\($0))" } ?? "")", xLabel: "time since the first kept tap, s",
                           yLabel: "interval to the previous tap, ms")
        let y = intervals.map { $0 * 1000 }
        plot.layers = [.line(x: x, y: y, color: "#1f77b4", label: ""),
                       .points(x: x, y: y, color: "#1f77b4", label: "\(x.count + 1) kept taps (|Δx| > \(score.depressThreshold.compactDescription) points)")]
        return [plot.svg]
    }

    /// Per motion recording: the acceleration magnitude minus its mean, m/s², and the detected
    /// steps (not on a rest recording), over the first `windowSeconds` (steps stay distinguishable).
    static func motion(_ recordings: [GaitRecording], steps showSteps: Bool = true, windowSeconds: Double = 20) -> [String] {
        recordings.map { recording in
            let signal = recording.signal
            let t0 = signal.time.first ?? 0
            let magnitude = signal.time.indices.map { (signal.x[$0] * signal.x[$0] + signal.y[$0] * signal.y[$0] + signal.z[$0] * signal.z[$0]).squareRoot() }
            let mean = magnitude.reduce(0, +) / Double(max(1, magnitude.count))
            let duration = (signal.time.last ?? t0) - t0
            let shown = signal.time.indices.filter { signal.time[$0] - t0 <= windowSeconds }
            let steps = recording.analysis.stepTimes.map { $0 - t0 }.filter { $0 <= windowSeconds }
            let name = recording.name.split(separator: "/").last.map(String.init) ?? recording.name
            var plot = SVGPlot(title: (showSteps ? "Acceleration and detected steps — " : "Acceleration at rest — ") + name
                               + (duration > windowSeconds ? " (first \(Int(windowSeconds)) of \(duration.rounded().compactDescription) s)" : ""),
                               xLabel: "time, s", yLabel: "|a| − mean, m/s²")
            plot.layers = [.line(x: shown.map { signal.time[$0] - t0 }, y: shown.map { magnitude[$0] - mean }, color: "#555555", label: "|a|")]
            if showSteps { plot.layers.append(.markers(x: steps, color: "#d62728", label: "steps (\(recording.analysis.stepTimes.count) in all)")) }
            return plot.svg
        }
    }

    /// The readings (audio: LAeq per interval; ResearchKit result: its readings) against the threshold.
    static func spl(_ score: SPLScore) -> [String] {
        let readings = score.readingsDecibels
        guard !readings.isEmpty else { return [] }
        let isResult = if case .researchKitResult = score.source { true } else { false }
        var plot = SVGPlot(title: "Sound level against the threshold (\(score.passIndex == nil ? "fail" : "pass"))",
                           xLabel: "time, s", yLabel: isResult ? "reading, dB(A)" : "LAeq per interval, dB(A)")
        let x = readings.indices.map { Double($0 + 1) * score.intervalSeconds }
        plot.layers = [.line(x: x, y: readings, color: "#2ca02c", label: "level"), .points(x: x, y: readings, color: "#2ca02c", label: ""),
                       .threshold(y: score.thresholdDecibels, color: "#d62728", label: "threshold \(score.thresholdDecibels.compactDescription) dB(A)")]
        return [plot.svg]
    }

    /// Level per 50-ms frame, dBFS, the F0 contour the features came from (Praat "To Pitch
    /// (ac)" with the score's pitch range), Hz, and the formant tracks over a spectrogram.
    static func voice(_ score: VoiceScore) -> [String] {
        var levels = SVGPlot(title: "Voice level", xLabel: "time, s", yLabel: "RMS per 50 ms, dBFS")
        levels.layers = [.line(x: score.levelTimeSeconds, y: score.levelDbfs, color: "#9467bd", label: "level")]
        let time = score.analysis.pitchTimeSeconds, f0 = score.analysis.pitchF0Hz
        var pitch = SVGPlot(title: "F0 contour", xLabel: "time, s", yLabel: "F0, Hz")
        pitch.layers = [.line(x: time, y: f0, color: "#ff7f0e", label: ""),
                        .points(x: time, y: f0, color: "#ff7f0e", label: "F0 of voiced frames")]
        pitch.xRange = levels.xRange ?? (0...max(0.1, time.last ?? 0))
        // Formant tracks (Praat's Burg frames) over the spectrogram, up to the maximum formant.
        var formants = SVGPlot(title: "Formants F1–F4 of the voiced frames over the spectrogram", xLabel: "time, s", yLabel: "frequency, Hz")
        if let spectrogram = score.analysis.spectrogram {
            let loudest = spectrogram.levelDb.joined().max() ?? 0
            formants.layers = [.heatmap(xEdges: spectrogram.timeEdgesSeconds, yEdges: spectrogram.frequencyEdgesHz, values: spectrogram.levelDb,
                                        floor: loudest - 70, label: "spectrogram, 70 dB")]
        }
        let colors = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e"]
        for k in 0..<FormantFeatures.reported {
            formants.layers.append(.line(x: score.analysis.formantTimeSeconds, y: score.analysis.formantFrequenciesHz.map { $0[k] }, color: colors[k], label: "F\(k + 1)"))
        }
        formants.xRange = pitch.xRange
        formants.yRange = score.analysis.spectrogram?.frequencyEdgesHz.last.map { 0...$0 }
        formants.height = 320
        return [levels.svg, pitch.svg, formants.svg] + (score.analysis.cepstrumSlice.map { [cepstrum($0).svg] } ?? [])
    }

    /// The smoothed power cepstrum of the median-CPP frame with Praat's trend line and the CPP
    /// peak above it (quefrency in ms).
    static func cepstrum(_ slice: PraatCepstralAnalysis.Slice) -> SVGPlot {
        var plot = SVGPlot(title: "Cepstrum of the median-CPP frame (t = \((slice.timeSeconds * 1000).rounded() / 1000) s): CPP \((slice.cppDb * 100).rounded() / 100) dB at \((slice.peakQuefrencySeconds * 1e5).rounded() / 100) ms",
                           xLabel: "quefrency, ms", yLabel: "smoothed power cepstrum, dB")
        // From the start of the trend fit: the cepstrum's first bins (the spectrum's mean level) dwarf the rest.
        let shown = slice.quefrencySeconds.indices.filter { slice.quefrencySeconds[$0] >= slice.trendFromSeconds }
        let fit = shown.map { slice.quefrencySeconds[$0] }
        let peak = slice.peakQuefrencySeconds * 1000
        plot.layers = [.line(x: fit.map { $0 * 1000 }, y: shown.map { slice.levelDb[$0] }, color: "#1f77b4", label: "cepstrum"),
                       .line(x: fit.map { $0 * 1000 }, y: fit.map(slice.trendDb), color: "#7f7f7f", label: "trend (Theil fit, exponential decay)"),
                       .line(x: [peak, peak], y: [slice.trendDb(slice.peakQuefrencySeconds), slice.peakDb], color: "#d62728", label: "CPP"),
                       .points(x: [peak], y: [slice.peakDb], color: "#d62728", label: "")]
        plot.height = 280
        return plot
    }
}
