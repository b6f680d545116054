// The toolkit's side of `Benchmarks/peers/compare.py`: each workload does what the Python (or
// C) peer of the same name does, on the same input, timed the same way — the median of
// `repeats` wall-clock runs inside one process, after one warm-up run — and prints one JSON line:
// {"workload", "seconds", "repeats", "peakResidentMB", "check"}. `check` is a number computed by
// the run (a level, a feature) that compare.py sets beside the peer's, so a fast wrong answer
// shows. Peak memory is the process's VmHWM: run one workload per process.
//
//   peer-workloads fft SIZE double|float
//   peer-workloads leq FILE            A-weighted Leq per second, streamed (soundfile + scipy peer)
//   peer-workloads meter FILE          the full IEC 61672-1 meter of `activetask score spl`
//   peer-workloads loudness FILE       BS.1770-4 integrated loudness (pyloudnorm peer)
//   peer-workloads voice FILE...       F0, pulses, jitter, shimmer, HNR, intensity (parselmouth): VoiceAnalysis with the harmonicity set alone
//   peer-workloads voice-sets SETS FILE...   F0, pulses, jitter, shimmer and levels with the sets named (harmonicity,formants,cepstral,mfcc,egemaps,egemapsv02)
//   peer-workloads mfcc FILE... / egemapsv02 FILE...   one set alone on channel 0
//   peer-workloads tapping FILE        read + mhealthtools tapping features (numpy peer)
//   peer-workloads tapping-features FILE   the features alone, of a file read once
//   peer-workloads gait FILE           gait features of an accelerometer JSON (pdkit peer)
//   peer-workloads json FILE           accelerometer items → columns (orjson + numpy peer)

import Analysis
import AudioIO
import Scoring
import Foundation
import InputGuards
import SensorData
import SignalProcessing

/// Median wall time of `repeats` runs after one warm-up; the last run's check value.
func measure(repeats: Int, _ body: () throws -> Double) rethrows -> (seconds: Double, check: Double) {
    var check = try body()
    var times: [Double] = []
    for _ in 0..<repeats {
        let start = DispatchTime.now().uptimeNanoseconds
        check = try body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    times.sort()
    return (times[times.count / 2], check)
}

/// Peak resident set of this process (VmHWM), MB.
func peakResidentMB() -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan) / 1024
}

func report(_ workload: String, repeats: Int, _ result: (seconds: Double, check: Double)) {
    let check = result.check.isFinite ? "\(result.check)" : "null"
    print(#"{"workload":"\#(workload)","seconds":\#(result.seconds),"repeats":\#(repeats),"peakResidentMB":\#(peakResidentMB()),"check":\#(check)}"#)
}

/// Per-call time of a real forward FFT of `size` points through `FFT`, in the same loop shape
/// as fftw_floor.c: `calls` transforms of one aligned buffer, median of 7 such loops.
func fft(size: Int, float: Bool) throws -> (seconds: Double, check: Double) {
    let transform = try FFT(size: size)
    let calls = max(20, 50_000_000 / (size * max(1, Int(log2(Double(size))))))
    func run<T: BinaryFloatingPoint>(_: T.Type, _ body: (UnsafeBufferPointer<T>, UnsafeMutableBufferPointer<T>) -> Void) -> (seconds: Double, check: Double) {
        // 64-byte aligned, as fftw_malloc's buffers in fftw_floor.c.
        func buffer(_ count: Int) -> UnsafeMutableBufferPointer<T> {
            let raw = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<T>.stride, alignment: 64)
            return UnsafeMutableBufferPointer(start: raw.bindMemory(to: T.self, capacity: count), count: count)
        }
        let input = buffer(size), output = buffer(2 * transform.realBins)
        defer { input.deallocate(); output.deallocate() }
        for i in 0..<size { input[i] = T(sin(Double(i) * 0.01)) }
        let (loop, check) = measure(repeats: 7) {
            for _ in 0..<calls { body(UnsafeBufferPointer(input), output) }
            return Double(output[2])
        }
        return (loop / Double(calls), check)
    }
    return float
        ? run(Float.self) { transform.forward($0, into: $1) }
        : run(Double.self) { transform.forward($0, into: $1) }
}

/// A-weighted Leq of every second and of the whole file, dB re full scale: libsndfile's
/// Double reads in 2^20-frame blocks through the IEC 61672-1 A filter (`FrequencyWeighting`),
/// split over the vector lanes (`BiquadCascade.processLanes`).
func leq(_ path: String) throws -> Double {
    let file = try SoundFile(reading: path)
    let rate = Int(file.format.sampleRateHz), channels = file.format.channels
    var filter = FrequencyWeighting.a.filter(sampleRateHz: file.format.sampleRateHz)
    let frames = 1 << 20
    var block = [Double](repeating: 0, count: frames * channels)
    var mono = [Double](repeating: 0, count: frames)
    var perSecond = IntervalEnergy(length: rate)
    var levels: [Double] = []
    var total = 0.0
    while true {
        let read = try block.withUnsafeMutableBufferPointer { buffer throws(AudioError) in try file.read(into: buffer) }
        if read == 0 { break }
        if channels == 1 { swap(&block, &mono) } else { for i in 0..<read { mono[i] = block[i * channels] } }
        mono.withUnsafeMutableBufferPointer { filter.processLanes(UnsafeMutableBufferPointer(rebasing: $0[0..<read])) }
        mono.withUnsafeBufferPointer { mono in
            perSecond.add(UnsafeBufferPointer(rebasing: mono[0..<read])) { sum in
                levels.append(10 * log10(sum / Double(rate)))
                total += sum
            }
        }
    }
    return 10 * log10(total / Double(max(levels.count * rate, 1)))
}

func number(_ report: ScoreReport, _ name: String) -> Double {
    report.sets.first?[name]?.number ?? .nan
}

// malloc set up as `activetask` sets it up first thing (keeping what is freed when no memory limit
// applies), so that an in-process row times the allocations the command makes.
MemoryBudget.prepare()
let arguments = Array(CommandLine.arguments.dropFirst())
guard let workload = arguments.first else {
    FileHandle.standardError.write(Data("usage: peer-workloads fft|leq|meter|loudness|voice|tapping|tapping-features|gait|json ARGS\n".utf8))
    exit(2)
}
do {
    switch workload {
    case "fft":
        let size = Int(arguments[1]) ?? 1024
        report("fft \(size) \(arguments[2])", repeats: 7, try fft(size: size, float: arguments[2] == "float"))
    case "leq":
        report(workload, repeats: 3, try measure(repeats: 3) { try leq(arguments[1]) })
    case "meter":
        report(workload, repeats: 3, try measure(repeats: 3) { number(try AnalyzerParameters().score(.spl, file: arguments[1]).report, "laeqDecibels") })
    case "loudness":
        report(workload, repeats: 3, try measure(repeats: 3) {
            let file = try SoundFile(reading: arguments[1])
            var meter = LoudnessMeter(sampleRateHz: file.format.sampleRateHz, channels: file.format.channels)
            try file.forEachDoubleBlock(frames: BiquadCascade.laneBlockFrames(channels: file.format.channels)) { block, frames in meter.process(interleaved: UnsafeBufferPointer(rebasing: block[0..<(frames * file.format.channels)])) }
            return meter.integratedLUFS ?? .nan
        })
    case "voice", "voice-sets":
        // The voice analysis on the decoded files with the sets named (voice: harmonicity, the
        // measures parselmouth computes in that row: F0, pulses, perturbation, HNR, levels — F0,
        // pulses, perturbation and levels always run); the check value is the sum of jitter, of
        // HNR and of CPPS where computed.
        let names = workload == "voice" ? ["harmonicity"] : arguments[1].split(separator: ",").map(String.init)
        let known: [String: VoiceAnalysis.Sets] = ["harmonicity": .harmonicity, "formants": .formants, "cepstral": .cepstral, "mfcc": .mfcc,
                                                   "egemaps": .egemaps, "egemapsv02": .egemapsv02]
        var options = VoiceAnalysis.Options()
        if let unknown = names.first(where: { known[$0] == nil }) {
            FileHandle.standardError.write(Data("peer-workloads \(workload): \"\(unknown)\" is not a voice set (\(known.keys.sorted().joined(separator: ", ")))\n".utf8))
            exit(2)
        }
        options.sets = VoiceAnalysis.Sets(names.compactMap { known[$0] })
        let files = Array(arguments.dropFirst(workload == "voice" ? 1 : 2))
        report(workload, repeats: 5, try measure(repeats: 5) {
            try files.reduce(0.0) { total, path in
                let file = try SoundFile(reading: path)
                let samples = try file.readAllDouble()
                let analysis = VoiceAnalysis.analyze(interleaved: samples, channels: file.format.channels, sampleRateHz: file.format.sampleRateHz, options: options)
                return total + (analysis.features.contour.perturbation.jitterLocal ?? 0) + (analysis.features.hnrDb ?? 0) + (analysis.cepstral.cppsDb ?? 0)
            }
        })
    case "mfcc", "egemapsv02":
        // One set alone on channel 0 of each decoded file: librosa's MFCCs with Δ and ΔΔ and their
        // statistics (the check: the sum of c₁'s means), or openSMILE's eGeMAPSv02 functionals
        // (the check: the sum of loudness_sma3_amean).
        let files = Array(arguments.dropFirst())
        report(workload, repeats: 5, try measure(repeats: 5) {
            try files.reduce(0.0) { total, path in
                let file = try SoundFile(reading: path)
                let samples = try file.readAllDouble()
                let channel0 = file.format.channels == 1 ? samples : stride(from: 0, to: samples.count, by: file.format.channels).map { samples[$0] }
                let rate = file.format.sampleRateHz
                return total + (workload == "mfcc" ? VoiceAnalysis.Options().mfcc.features(channel0, sampleRateHz: rate).coefficients[1].mean ?? 0
                                                   : EGeMAPSv02Analysis().features(channel0, sampleRateHz: rate).loudnessMean ?? 0)
            }
        })
    case "tapping":
        report(workload, repeats: 201, try measure(repeats: 201) { number(try AnalyzerParameters().score(.tapping, file: arguments[1]).report, "meanTapInter") })
    case "tapping-features":
        guard let result = try JSONContents.read(arguments[1]).tappingResults.first else {
            throw ScoringError(.invalidInput, "\(arguments[1]): no tapping result")
        }
        report(workload, repeats: 201, measure(repeats: 201) { { if case .mhealthtools(let features) = TappingAnalysis.analyze(result).peer { features.intervals.tapInter.mean } else { .nan } }() })
    case "gait":
        let contents = try JSONContents.read(arguments[1])
        guard let series = contents.series.first?.series, let signal = MotionSignal(series) else {
            throw ScoringError(.invalidInput, "\(arguments[1]): no accelerometer items")
        }
        report(workload, repeats: 3, measure(repeats: 3) {
            Double(GaitAnalysis.analyze(signal, windows: false).features.stepCount)
        })
    case "json":
        let bytes = try FileBytes.read(arguments[1])
        report(workload, repeats: 501, try measure(repeats: 501) {
            let contents = try JSONContents.decode(bytes, file: arguments[1])
            return contents.series.first?.series["x"]?.reduce(0, +) ?? .nan
        })
    default:
        FileHandle.standardError.write(Data("peer-workloads: unknown workload \(workload)\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("peer-workloads \(workload): \(error)\n".utf8))
    exit(1)
}
