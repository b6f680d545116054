import Foundation
import Testing
import TestSupport
@testable import Analysis
@testable import SignalProcessing
import InputGuards

/// Camera heart rate against mhealthtools' `get_heartrate` itself (docs/analyses.md §7.5): its R
/// code at 4340b82 with signal 1.8-1's elliptic design and filter (Tests/Peers/mhealthtools) and
/// Debian's pracma 2.4.2, run by Rscript on the same frames — mhealthtools' own recording
/// (`heartrate_data`, 60.4 s at 59.6 frames/s) and generated ones.
@Suite struct CameraHeartRateTests {
    struct Frames {
        var t: [Double] = [], red: [Double] = [], green: [Double] = [], blue: [Double] = []
    }

    struct PeerOutput {
        var channels: [String: (hr: [Double], confidence: [Double])] = [:]
        var error = ""
        var samplingRate = Double.nan
    }

    static let peers = SharedData.packageRoot.appendingPathComponent("Tests/Peers/mhealthtools")

    static func number(_ text: Substring) -> Double { text == "NA" || text == "NaN" ? .nan : Double(text)! }

    /// Runs heartrate.R once for every method: the peer's output by each; `frames` nil runs it on
    /// mhealthtools' heartrate_data and returns those frames too.
    static func peer(_ frames: Frames?, windowSeconds: Double = 10, overlap: Double = 0.5)
        throws -> (outputs: [(method: CameraHeartRate.Method, output: PeerOutput)], frames: Frames) {
        let methods = CameraHeartRate.Method.allCases
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var input = "-"
        if let frames {
            var text = "t,red,green,blue\n"
            for i in frames.t.indices {
                text += [frames.t[i], frames.red[i], frames.green[i], frames.blue[i]].map { $0.isNaN ? "" : String(format: "%.17g", $0) }.joined(separator: ",") + "\n"
            }
            input = try folder.write("in.csv", text)
        }
        let library = try MhealthtoolsKinematicsTests.installed.get()
        try MhealthtoolsKinematicsTests.run("/usr/bin/Rscript", [peers.appendingPathComponent("heartrate.R").path, library, input,
                                                                methods.map(\.rawValue).joined(separator: ","), String(windowSeconds), String(overlap), folder.path("out")])
        let outputs = try methods.map { method -> (method: CameraHeartRate.Method, output: PeerOutput) in
            var output = PeerOutput()
            for line in try String(contentsOfFile: folder.path("out.\(method.rawValue).csv"), encoding: .utf8).split(separator: "\n").dropFirst() {
                // The error text may hold commas: the row's last field.
                let cells = line.split(separator: ",", maxSplits: line.hasPrefix("error,") ? 2 : 3, omittingEmptySubsequences: false)
                switch cells[0] {
                case "error": output.error = String(cells[2])
                case "sampling_rate": output.samplingRate = number(cells[2])
                default: output.channels[String(cells[0]), default: ([], [])].hr.append(number(cells[2]))
                    output.channels[String(cells[0])]!.confidence.append(number(cells[3]))
                }
            }
            return (method, output)
        }
        var used = frames ?? Frames()
        if frames == nil {
            for line in try String(contentsOfFile: folder.path("out.input.csv"), encoding: .utf8).split(separator: "\n").dropFirst() {
                let v = line.split(separator: ",").map { Double($0)! }
                used.t.append(v[0]); used.red.append(v[1]); used.green.append(v[2]); used.blue.append(v[3])
            }
        }
        return (outputs, used)
    }

    /// Every window's rate and confidence against the peer; the largest relative difference.
    @discardableResult
    static func compare(_ ours: CameraHeartRate, _ peer: PeerOutput, tolerance: Double = 1e-9) -> Double {
        #expect(ours.error == peer.error)
        var worst = 0.0
        func close(_ a: Double, _ b: Double, _ what: String) {
            guard a.isFinite || b.isFinite else {
                #expect(a.isNaN == b.isNaN && (a.isNaN || a == b), "\(what): \(a) here, \(b) in mhealthtools"); return
            }
            let difference = a == b ? 0 : abs(a - b) / max(abs(a), abs(b))
            worst = max(worst, difference)
            #expect(difference <= tolerance, "\(what): \(a) here, \(b) in mhealthtools (relative \(difference))")
        }
        if peer.samplingRate.isNaN { #expect(ours.samplingRate == nil) } else { close(ours.samplingRate ?? .nan, peer.samplingRate, "sampling_rate") }
        for (name, channel) in [("red", ours.red), ("green", ours.green), ("blue", ours.blue)] {
            guard let expected = peer.channels[name] else { Issue.record("no \(name) in mhealthtools"); continue }
            let hr = channel?.hr ?? [.nan], confidence = channel?.confidence ?? [.nan]
            #expect(hr.count == expected.hr.count, "\(name): \(hr.count) windows here, \(expected.hr.count) in mhealthtools")
            for (w, (a, b)) in zip(hr, expected.hr).enumerated() { close(a, b, "\(name) window \(w + 1) hr") }
            for (w, (a, b)) in zip(confidence, expected.confidence).enumerated() { close(a, b, "\(name) window \(w + 1) confidence") }
        }
        return worst
    }

    /// A pulse wave: a beat every 60/bpm s (a skewed bump), breathing drift and noise, per channel
    /// scaled as a finger over the flash gives them (red near saturation, green and blue dim).
    static func pulse(seconds: Double, frameRate: Double, bpm: Double, seed: UInt64 = 3) -> Frames {
        var random = SplitMix64(seed: seed)
        var frames = Frames()
        var time = 0.0
        while time < seconds {
            let phase = (time * bpm / 60).truncatingRemainder(dividingBy: 1)
            let systolic: Double = exp(-pow((phase - 0.25) / 0.08, 2)), dicrotic: Double = exp(-pow((phase - 0.55) / 0.1, 2))
            let beat = systolic + 0.4 * dicrotic
            let drift = 0.02 * sin(2 * Double.pi * 0.25 * time)
            func noise() -> Double { (random.unit() - 0.5) * 0.004 }
            frames.t.append(time)
            frames.red.append(0.9 - 0.01 * beat + drift + noise())
            frames.green.append(0.2 - 0.02 * beat + drift / 2 + noise())
            frames.blue.append(0.1 - 0.015 * beat + drift / 3 + noise())
            // Frame times jitter by up to ±1 ms, as a camera's presentation times do.
            time += 1 / frameRate + (random.unit() - 0.5) * 0.002
        }
        return frames
    }

    static func ours(_ frames: Frames, method: CameraHeartRate.Method = .acf, windowSeconds: Double = 10, overlap: Double = 0.5) -> CameraHeartRate {
        var parameters = CameraHeartRate.Parameters()
        parameters.method = method
        parameters.windowSeconds = windowSeconds
        parameters.windowOverlap = overlap
        return CameraHeartRate(t: frames.t, red: frames.red, green: frames.green, blue: frames.blue, parameters: parameters)
    }

    /// Pass band, stop band (fractions of Nyquist), ripple and attenuation (dB).
    static let designs: [(Double, Double, Double, Double, Double, Double)] = [
        (0.5 / 30, 10.0 / 30, 0.3 / 30, 12.0 / 30, 0.001, 0.001), (0.5 / 15, 10.0 / 15, 0.3 / 15, 12.0 / 15, 0.001, 0.001), (0.1, 0.4, 0.05, 0.5, 0.5, 40),
    ]

    /// Beats/min, frames/s, duration (s), window (s), overlap.
    static let pulses: [(Double, Double, Double, Double, Double)] = [(72, 60, 40, 5, 0.25), (110, 30, 40, 10, 0.5), (50, 15, 45, 10, 0.5), (80, 60, 12, 20, 0.5)]

    @Test("signal's elliptic designs: mhealthtools' two band-passes (ellipord gives order 1 at Rp = Rs = 0.001 dB) and an ordinary order-3 band-pass, every coefficient within 1e-12 of R's",
          arguments: designs)
    func design(wp1: Double, wp2: Double, ws1: Double, ws2: Double, rp: Double, rs: Double) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let script: String = try folder.write("design.R", """
            .libPaths(c("\(try MhealthtoolsKinematicsTests.installed.get())", .libPaths()))
            o <- signal::ellipord(Wp = c(\(wp1), \(wp2)), Ws = c(\(ws1), \(ws2)), Rp = \(rp), Rs = \(rs))
            f <- suppressWarnings(signal::ellip(o))
            writeLines(c(o$n, paste(sprintf("%.17g", f$b), collapse = " "), paste(sprintf("%.17g", f$a), collapse = " ")), "\(folder.path("out.txt"))")
            """)
        try MhealthtoolsKinematicsTests.run("/usr/bin/Rscript", [script])
        let lines = try String(contentsOfFile: folder.path("out.txt"), encoding: .utf8).split(separator: "\n")
        let order = try #require(EllipticFilter.order(passband: (wp1, wp2), stopband: (ws1, ws2), passRippleDecibels: rp, stopAttenuationDecibels: rs))
        #expect(order == Int(lines[0]))
        let design = EllipticFilter.bandPass(order: order, passRippleDecibels: rp, stopAttenuationDecibels: rs, band: (wp1, wp2))
        for (ours, line) in [(design.b, lines[1]), (design.a, lines[2])] {
            let theirs = line.split(separator: " ").map { Double($0)! }
            #expect(ours.count == theirs.count)
            let scale = theirs.map(abs).max()!
            for (a, b) in zip(ours, theirs) { #expect(abs(a - b) <= 1e-12 * scale, "\(ours) here, \(theirs) in R") }
        }
    }

    @Test("mhealthtools' own camera recording (heartrate_data): every window's rate and confidence of every channel within 1e-9, by each method")
    func mhealthtoolsRecording() throws {
        let (outputs, frames) = try Self.peer(nil)
        #expect(frames.t.count == 3601)
        for (method, expected) in outputs {
            let worst = Self.compare(Self.ours(frames, method: method), expected)
            print("camera heart rate, heartrate_data, \(method): largest relative difference \(worst)")
        }
    }

    @Test("generated pulses: 72 bpm at 60 frames/s with a missing colour in two frames and 5-s windows overlapping 0.25; 110 bpm at 30 frames/s (the 33-frame mean filter, a low-rate error); 50 bpm at 15 frames/s (the design for 20 frames/s or fewer); 12 s at 60 frames/s (a window longer than the recording)",
          arguments: pulses)
    func generated(bpm: Double, frameRate: Double, seconds: Double, windowSeconds: Double, overlap: Double) throws {
        var frames = Self.pulse(seconds: seconds, frameRate: frameRate, bpm: bpm)
        if bpm == 72 { frames.red[500] = .nan; frames.blue[900] = .nan }
        let (outputs, _) = try Self.peer(frames, windowSeconds: windowSeconds, overlap: overlap)
        for (method, expected) in outputs {
            let ours = Self.ours(frames, method: method, windowSeconds: windowSeconds, overlap: overlap)
            let worst = Self.compare(ours, expected)
            print("camera heart rate, \(bpm) bpm at \(frameRate) frames/s, \(method): \(ours.red?.hr.count ?? 0) windows, red \(ours.red?.hr ?? []), largest relative difference \(worst)")
            if method == .acf, frameRate >= 30, seconds > windowSeconds {
                // The estimate itself: within a lag's resolution of the simulated rate.
                let median = ours.red!.hr.sorted()[ours.red!.hr.count / 2]
                #expect(abs(median - bpm) <= bpm * bpm / (60 * frameRate) + 1, "red median \(median) for \(bpm) bpm")
            }
        }
    }

    @Test("degenerate recordings against mhealthtools: constant colours (no autocorrelation, no AR spectrum, no peaks: NA as R reports it), 400 frames/s with 1-s windows (the acf's 40 bpm lag beyond its last lag: NA confidence), 244 frames (the filters' minimum)")
    func degenerate() throws {
        var constant = Self.pulse(seconds: 30, frameRate: 60, bpm: 70)
        constant.red = constant.red.map { _ in 0.5 }
        constant.green = constant.green.map { _ in 0.25 }
        constant.blue = constant.blue.map { _ in 0.125 }
        let fast = Self.pulse(seconds: 6, frameRate: 400, bpm: 150)
        var shortest = Self.pulse(seconds: 10, frameRate: 60, bpm: 70)
        for column in [\Frames.t, \.red, \.green, \.blue] { shortest[keyPath: column] = Array(shortest[keyPath: column].prefix(244)) }
        for (frames, window) in [(constant, 10.0), (fast, 1), (shortest, 10)] {
            let (outputs, _) = try Self.peer(frames, windowSeconds: window)
            for (method, expected) in outputs {
                Self.compare(Self.ours(frames, method: method, windowSeconds: window), expected)
            }
        }
        #expect(Self.ours(fast, windowSeconds: 1).red!.confidence.allSatisfy { $0.isNaN })
        #expect(Self.ours(constant, method: .peak).red!.hr.count == 1)
    }

    @Test("no rate: fewer than two frames, a non-finite first or last time, or a last time not after the first gives mhealthtools' sampling-rate error and no channels")
    func noRate() {
        let error = "Sampling Rate calculated from timestamp is Inf or NaN / timestamp not found in json"
        for t in [[0.0], [.nan, 1, 2], [0, 1, .infinity], [2, 1, 0], [1, 1, 1]] {
            let ours = CameraHeartRate(t: t, red: t.map { _ in 0.5 }, green: t.map { _ in 0.2 }, blue: t.map { _ in 0.1 })
            #expect(ours.error == error && ours.red == nil && ours.samplingRate == nil, "\(t)")
        }
        let backwards = CameraHeartRate(t: [2, 1, 0], red: [0, 0, 0], green: [0, 0, 0], blue: [0, 0, 0])
        #expect(backwards.warnings.contains { $0.contains("not later than the first") })
    }

    @Test("frames with a missing or non-finite colour are left out with a warning; too few left is mhealthtools' filter error")
    func missingColours() {
        var frames = Self.pulse(seconds: 30, frameRate: 60, bpm: 70)
        frames.red[10] = .nan
        frames.green[20] = .infinity
        let ours = Self.ours(frames)
        #expect(ours.warnings.contains("2 frame(s) without three finite colours left out") && ours.error == "none", "\(ours.warnings)")
        for column in [\Frames.t, \.red, \.green, \.blue] { frames[keyPath: column] = Array(frames[keyPath: column].prefix(245)) }
        let short = Self.ours(frames)
        #expect(short.error == "Error in filtering the signal" && short.red == nil && short.warnings.contains { $0.contains("243 frames") }, "\(short.warnings)")
    }

    @Test("a window shorter than 2 frames, or longer than the recording and 2^20 frames (timestamps 1e-20 s apart ask for 10^22): mhealthtools' window error, nothing that size allocated")
    func windowBounds() {
        let frames = Self.pulse(seconds: 30, frameRate: 60, bpm: 70)
        let tiny = Self.ours(frames, windowSeconds: 0.01)
        #expect(tiny.error == "red, green, blue cannot be read from JSON" && tiny.red == nil, "\(tiny.warnings)")
        let dense = CameraHeartRate(t: frames.t.indices.map { Double($0) * 1e-20 }, red: frames.red, green: frames.green, blue: frames.blue)
        #expect(dense.error == "red, green, blue cannot be read from JSON" && dense.warnings.contains { $0.contains("1048576") }, "\(dense.warnings)")
        // Within the bound a longer window is the recording repeated, as in R (one window).
        #expect(Self.ours(frames, windowSeconds: 60).red?.hr.count == 1)
    }

    @Test("values of 1e300 and 1e-300, alternating: numbers or nulls, no trap; the red means outside 0…1 counted in a warning, the green ones inside not")
    func extremes() {
        var frames = Self.pulse(seconds: 20, frameRate: 60, bpm: 70)
        #expect(!Self.ours(frames).warnings.contains { $0.contains("outside 0…1") })
        frames.red = frames.red.indices.map { $0 % 2 == 0 ? 1e300 : -1e300 }
        frames.green = frames.green.indices.map { $0 % 3 == 0 ? 1e-300 : 0 }
        for method in CameraHeartRate.Method.allCases {
            let ours = Self.ours(frames, method: method)
            #expect(ours.red != nil && ours.error == "none", "\(method)")
            let count = frames.red.count
            #expect(ours.warnings.filter { $0.contains("outside 0…1") } == ["red: \(count) of \(count) frame means outside 0…1, the range of a camera frame's mean colour; its estimates follow them, as mhealthtools' would"], "\(ours.warnings)")
        }
        frames = Self.pulse(seconds: 20, frameRate: 60, bpm: 70)
        frames.blue[100] = -0.0001
        #expect(Self.ours(frames).warnings.filter { $0.contains("outside 0…1") } == ["blue: 1 of \(frames.t.count) frame means outside 0…1, the range of a camera frame's mean colour; its estimates follow them, as mhealthtools' would"])
    }

    @Test("parameters: a window of NaN, 0 or beyond an hour and an overlap outside [0, ½] are refused naming the key")
    func parameters() {
        for (seconds, overlap, key) in [(Double.nan, 0.5, "windowSeconds"), (0, 0.5, "windowSeconds"), (3601, 0.5, "windowSeconds"), (10, 0.7, "windowOverlap"), (10, -0.1, "windowOverlap"), (10, .nan, "windowOverlap")] {
            var p = CameraHeartRate.Parameters()
            p.windowSeconds = seconds
            p.windowOverlap = overlap
            #expect(p.problem?.hasPrefix(key) == true, "\(seconds) \(overlap): \(p.problem ?? "none")")
        }
        #expect(CameraHeartRate.Parameters().problem == nil)
    }

    /// At one frame a second every acf window's best lag is 0: a rate of +∞ (null) with a
    /// confidence of 1, which the summary reported as its confidence beside a null heart rate.
    @Test("the summary's confidence counts only windows with a heart rate: 1 frame/s gives neither (the windows' rates +∞, their confidences 1); at 60 frames/s the median of the chosen channel's confidences")
    func summaryConfidence() throws {
        let slow = Self.ours(Self.pulse(seconds: 300, frameRate: 1, bpm: 70))
        let red = try #require(slow.red)
        #expect(!red.hr.isEmpty && red.hr.allSatisfy { $0 == .infinity } && red.confidence.allSatisfy { $0 == 1 }, "\(red.hr.prefix(3)) \(red.confidence.prefix(3))")
        let summary = CameraHeartRateSummary(slow)
        #expect(summary.heartRateBeatsPerMinute == nil && summary.confidence == nil)
        let normal = Self.ours(Self.pulse(seconds: 30, frameRate: 60, bpm: 70))
        let chosen = CameraHeartRateSummary(normal)
        let channel = try #require([("red", normal.red), ("green", normal.green), ("blue", normal.blue)].first { $0.0 == chosen.channel }?.1)
        let sorted = channel.confidence.sorted()
        let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        #expect(chosen.confidence == median && abs((chosen.heartRateBeatsPerMinute ?? 0) - 70) < 3, "\(chosen)")
    }
}
