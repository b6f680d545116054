import Glibc
import Testing
@testable import Analysis

/// docs/analyses.md §3.5: the calibration offset from a calibrator recording.
@Suite struct CalibrationTests {
    static let rate = 8_000.0

    static func sine(rms: Double, seconds: Double) -> [Double] {
        (0..<Int(seconds * rate)).map { rms * 2.0.squareRoot() * sin(2 * Double.pi * 1000 * Double($0) / rate) }
    }

    @Test("a 3-s recording: 0.5 s at each end left out (full-scale handling noise there), the 2-s 94-dB tone at RMS 0.1 gives −20 dBFS and offset 114 dB, in blocks of any size")
    func trimmed() throws {
        let loud = [Double](repeating: 1, count: Int(0.5 * Self.rate))
        let recording = loud + Self.sine(rms: 0.1, seconds: 2) + loud
        for blockSize in [1, 997, 4_000, recording.count] {
            var meter = CalibratorLevel(sampleRateHz: Self.rate)
            var start = 0
            while start < recording.count {
                meter.process(Array(recording[start..<min(recording.count, start + blockSize)]))
                start += blockSize
            }
            // 8 kHz, 1 kHz: eight samples per period, 2,000 whole periods; the mean square of the sine is 0.01 to rounding.
            let level = try #require(meter.levelDbfs)
            #expect(abs(level + 20) < 1e-9, "\(blockSize): \(level)")
            #expect(abs(try #require(meter.offsetDecibels(reference: 94)) - 114) < 1e-9)
        }
    }

    @Test("under 2 s the whole recording is measured; a silent or empty one has no level")
    func shortAndSilent() throws {
        var short = CalibratorLevel(sampleRateHz: Self.rate)
        short.process([Double](repeating: 0.5, count: Int(1.9 * Self.rate)))
        #expect(abs(try #require(short.levelDbfs) - 20 * log10(0.5)) < 1e-12)
        var silent = CalibratorLevel(sampleRateHz: Self.rate)
        silent.process([Double](repeating: 0, count: 30_000))
        #expect(silent.levelDbfs == nil && CalibratorLevel(sampleRateHz: Self.rate).levelDbfs == nil)
    }

    /// `calibrate` gave an offset of 857 dB for a tone at 1e-38 full scale (a file `score spl`
    /// then refused), 100 dB for a constant 0.5 and 104 dB for one sample.
    @Test("no calibrator's tone: under 1 s measured, a constant holding over a tenth of the power, an offset beyond ±400 dB; a 1-s tone with a small DC, and one at −390 dB offset, are tones",
          arguments: [("0.5 s", false), ("1 sample", false), ("DC 0.5", false), ("tone + DC 0.3 × RMS", true), ("1e-38 full scale", false),
                      ("1 s", true), ("offset 390 dB", true), ("2 kHz", false), ("2.001 kHz", true)])
    func noTone(name: String, usable: Bool) throws {
        let signal: [Double] = switch name {
        case "0.5 s": Self.sine(rms: 0.1, seconds: 0.5)
        case "1 sample": [0.3]
        case "DC 0.5": [Double](repeating: 0.5, count: Int(3 * Self.rate))
        case "tone + DC 0.3 × RMS": Self.sine(rms: 0.1, seconds: 3).map { $0 + 0.03 }  // DC share 0.09 / 1.09
        case "1e-38 full scale": Self.sine(rms: 1e-38, seconds: 3)
        case "offset 390 dB": Self.sine(rms: pow(10, -296.0 / 20), seconds: 3)  // −296 dBFS, 94 + 296 = 390 dB
        case "2 kHz", "2.001 kHz": (0..<6000).map { 0.1 * 2.0.squareRoot() * sin(0.7 * Double($0)) }
        default: Self.sine(rms: 0.1, seconds: 1)
        }
        // A tone of 0.1 RMS, 3 s at 2 kHz (a 10-Hz recording read 108.6 dB) or just above it.
        let rate = name == "2 kHz" ? 2000 : name == "2.001 kHz" ? 2001 : Self.rate
        var meter = CalibratorLevel(sampleRateHz: rate)
        meter.process(signal)
        let problem = meter.problem(reference: 94)
        #expect((problem == nil) == usable, "\(name): \(problem ?? "nil")")
        if name == "1e-38 full scale" { #expect(problem == "a level of -760 dBFS gives an offset of 854 dB, outside ±400 dB: no calibrator's tone of 94 dB SPL") }
        if name == "DC 0.5" { #expect(problem == "a constant (DC) of 0.5 holds 100 % of the power: no calibrator's tone") }
        if name == "2 kHz" { #expect(problem == "a sample rate of 2000 Hz cannot hold a calibrator's 1-kHz tone (score spl, which reads the offset, meters above 2000 Hz)") }
        if name == "0.5 s" { #expect(problem == "0.5 s measured; a calibrator's tone needs at least 1 s") }
    }

    @Test("dBFS to amplitude: 0 → 1, −6.0206 → 0.5, −20 → 0.1")
    func amplitude() {
        #expect(Decibels.amplitude(dbfs: 0) == 1)
        #expect(abs(Decibels.amplitude(dbfs: 20 * log10(0.5)) - 0.5) < 1e-15 && abs(Decibels.amplitude(dbfs: -20) - 0.1) < 1e-15)
    }
}
