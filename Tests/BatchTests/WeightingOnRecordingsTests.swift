import Analysis
import AudioIO
import Foundation
import SignalProcessing
import Testing
import TestSupport

/// A and C weighting on the real recordings in `../shared/data` (voice at 44.1 kHz, the mPower
/// phonation `.m4a`, the calibrator): L_A − L_Z and L_C − L_Z of the default meter against the
/// exact IEC 61672-1 Annex E response integrated over each file's own spectrum (one FFT of the
/// whole channel, Parseval), within 0.1 dB.
@Suite(.enabled(if: SharedData.runs, SharedData.skipMessage))
struct WeightingOnRecordingsTests {
    static let files = SharedData.files(in: "voice") + [SharedData.path("mpower/pdscores_phonation.m4a"), SharedData.path("spl/calibrator_94dB_1kHz.wav")]

    @Test("default meter within 0.1 dB of the analogue A and C curves over each recording's spectrum", arguments: files)
    func recording(path: String) throws {
        let decoder = try AudioInput.open(path)
        let channels = decoder.format.channels, rate = decoder.format.sampleRateHz
        let interleaved = try decoder.readAllDouble()
        let x = stride(from: 0, to: interleaved.count, by: channels).map { interleaved[$0] }
        var meter = SoundLevelMeter(sampleRateHz: rate, calibrationOffsetDecibels: 0)
        meter.process(x)
        let result = meter.result
        // Exact: Σ |X(k)|²·|W(f_k)|² / Σ |X(k)|² over the bins of one zero-padded FFT.
        var size = 1
        while size < x.count { size *= 2 }
        let fft = try FFT(size: size)
        var input = x + [Double](repeating: 0, count: size - x.count)
        var output = [Double](repeating: 0, count: 2 * fft.realBins)
        input.withUnsafeBufferPointer { i in output.withUnsafeMutableBufferPointer { fft.forward(i, into: $0) } }
        input = []
        for weighting in [FrequencyWeighting.a, .c] {
            var weighted = 0.0, flat = 0.0
            for k in 1..<fft.realBins {
                let power = output[2 * k] * output[2 * k] + output[2 * k + 1] * output[2 * k + 1]
                let f = Double(k) * rate / Double(size)
                weighted += power * pow(10, weighting.analogueDecibels(atFrequencyHz: f) / 10)
                flat += power
            }
            let exact = 10 * log10(weighted / flat)
            let measured = (weighting == .a ? result.laeqDecibels : result.lceqDecibels) - result.lzeqDecibels
            #expect(abs(measured - exact) <= 0.1, "\((path as NSString).lastPathComponent) \(weighting): meter \(measured), exact \(exact)")
        }
    }
}
