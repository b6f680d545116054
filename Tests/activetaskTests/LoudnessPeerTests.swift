import Foundation
import Testing
import TestSupport

/// `score loudness` against libebur128 1.2.6 (the reference implementation of EBU R 128 in C,
/// Debian `libebur128-dev`) on the same files, at 8, 16, 44.1 and 48 kHz, mono and stereo. The
/// peer is `Tests/Peers/ebur128-peer.c`, compiled here with gcc (`scripts/setup.sh` installs both).
///
/// - Programme-like noise whose level wanders every 2 s: integrated loudness and the momentary
///   and short-term maxima to ±0.05 LU.
/// - Tones in 10-s steps of level: also loudness range to ±0.05 LU and true peak to ±0.05 dB.
///   On fluctuating programme the two LRAs differ by design: libebur128 samples short-term
///   loudness once a second (the 2-s overlap of Tech 3342's first edition) and takes nearest-rank
///   percentiles, the toolkit every 100 ms as Tech 3342 (2016) requires (≥ 10 Hz) with
///   interpolated percentiles; their true peaks near Nyquist differ with the interpolating filter.
@Suite struct LoudnessPeerTests {
    /// Interleaved 32-bit float WAV.
    static func floatWAV(_ samples: [Float], channels: Int, rate: Int) -> [UInt8] {
        func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
        let data = samples.withUnsafeBytes { Array($0) }
        return Array("RIFF".utf8) + le(UInt32(36 + data.count)) + Array("WAVEfmt ".utf8) + le(UInt32(16)) + le(UInt16(3))
            + le(UInt16(channels)) + le(UInt32(rate)) + le(UInt32(rate * 4 * channels)) + le(UInt16(4 * channels)) + le(UInt16(32))
            + Array("data".utf8) + le(UInt32(data.count)) + data
    }

    /// 24 s of programme-like sound: noise low-passed by a one-pole filter in 2-s segments whose
    /// levels wander over 30 dB, a 3-s pause, and a tone; the channels differ (stereo).
    static func programme(rate: Int, channels: Int, seed: UInt64) -> [Float] {
        var random = SeededRandom(seed: seed)
        var samples: [Float] = []
        var state = [Double](repeating: 0, count: channels)
        let frames = 24 * rate
        var gain = 0.1
        for n in 0..<frames {
            if n % (2 * rate) == 0 { gain = pow(10, -(5 + 30 * random.unit()) / 20) }
            let second = n / rate
            for c in 0..<channels {
                let white = 2 * random.unit() - 1
                state[c] = 0.7 * state[c] + 0.3 * white
                var value = gain * state[c] * (c == 1 ? 0.6 : 1)
                if (12..<15).contains(second) { value = 0 }
                if second >= 20 { value = 0.3 * sin(2 * Double.pi * 440 * Double(n) / Double(rate)) }
                samples.append(Float(value))
            }
        }
        return samples
    }

    /// 50 s of a 997-Hz tone in 10-s steps of −20, −30, −25, −40 and −22 dBFS (the second channel
    /// 3 dB lower), each step with a 20-ms raised-cosine ramp.
    static func steps(rate: Int, channels: Int) -> [Float] {
        let levels = [-20.0, -30, -25, -40, -22]
        var samples: [Float] = []
        for n in 0..<(50 * rate) {
            let position = Double(n) / Double(rate)
            let step = min(levels.count - 1, Int(position / 10))
            let ramp = min(1, (position - Double(step) * 10) / 0.02)
            let previous = step == 0 ? levels[0] : levels[step - 1]
            let mix = 0.5 - 0.5 * cos(Double.pi * ramp)
            let level = previous + (levels[step] - previous) * mix
            let value = pow(10, level / 20) * sin(2 * Double.pi * 997 * Double(n) / Double(rate))
            for c in 0..<channels { samples.append(Float(value * (c == 1 ? pow(10, -3.0 / 20) : 1))) }
        }
        return samples
    }

    @Test("score loudness agrees with libebur128: I, max M, max S on programme noise and also LRA and true peak on level steps, ±0.05, at 8/16/44.1/48 kHz, mono and stereo",
          .enabled(if: Peer.ebur128.runs, Peer.ebur128.skipMessage))
    func againstLibebur128() throws {
        guard Peer.ebur128.require() != nil else { return }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tool = folder.path("ebur128-peer")
        let source = SharedData.packageRoot.appendingPathComponent("Tests/Peers/ebur128-peer.c").path
        let gcc = Process()
        gcc.executableURL = URL(fileURLWithPath: "/usr/bin/gcc")
        gcc.arguments = ["-O2", "-o", tool, source, "-lebur128", "-lsndfile", "-lm"]
        try gcc.run()
        gcc.waitUntilExit()
        #expect(gcc.terminationStatus == 0)
        func peer(_ path: String) throws -> [Double] {
            let output = Pipe()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = [path]
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text.split(separator: "\n").compactMap { Double($0) }
        }
        let names = ["integratedLufs", "loudnessRangeLu", "momentaryMaxLufs", "shortTermMaxLufs", "truePeakDbtp"]
        for rate in [8_000, 16_000, 44_100, 48_000] {
            for channels in [1, 2] {
                let signals: [(name: String, samples: [Float], compared: Set<String>)] = [
                    ("programme", Self.programme(rate: rate, channels: channels, seed: UInt64(rate + channels)),
                     ["integratedLufs", "momentaryMaxLufs", "shortTermMaxLufs"]),
                    ("steps", Self.steps(rate: rate, channels: channels), Set(names)),
                ]
                for signal in signals {
                    let path = try folder.write("\(signal.name)-\(rate)-\(channels).wav", Self.floatWAV(signal.samples, channels: channels, rate: rate))
                    let ours = try Run(["score", "loudness", "--json", path])
                    #expect(ours.status == 0, "\(ours.stderr)")
                    let features = try #require((ours.json?["features"] as? [String: Any])?["bs1770"] as? [String: Any])
                    let theirs = try peer(path)
                    try #require(theirs.count == 5, "peer printed \(theirs)")
                    for (k, name) in names.enumerated() where signal.compared.contains(name) {
                        let value = try #require(features[name] as? Double, "\(name), \(signal.name) at \(rate) Hz, \(channels) ch")
                        #expect(abs(value - theirs[k]) <= 0.05, "\(name), \(signal.name) at \(rate) Hz, \(channels) ch: \(value) vs libebur128 \(theirs[k])")
                    }
                }
            }
        }
    }
}
