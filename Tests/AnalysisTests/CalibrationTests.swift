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

    @Test("dBFS to amplitude: 0 → 1, −6.0206 → 0.5, −20 → 0.1")
    func amplitude() {
        #expect(Decibels.amplitude(dbfs: 0) == 1)
        #expect(abs(Decibels.amplitude(dbfs: 20 * log10(0.5)) - 0.5) < 1e-15 && abs(Decibels.amplitude(dbfs: -20) - 0.1) < 1e-15)
    }
}
