import Foundation
import Testing
@testable import SignalProcessing

/// Zero-phase Butterworth filtering against SciPy 1.13.1 (`signal.butter(…, output='sos')`,
/// `signal.sosfiltfilt(…, padtype='odd', padlen=…)`, run on the same formula in
/// Benchmarks/.peers-venv; the script is in the test's comment), and the filter split over
/// vector lanes against the sequential one.
@Suite struct ButterworthTests {
    /// 9.8 + a 1.8-Hz "step" sine, a slow 0.1-Hz drift, a 7-Hz tremor and a chirp-like wobble,
    /// at 100 Hz: an accelerometer axis, computable the same way in NumPy.
    static func axis(_ count: Int) -> [Double] {
        (0..<count).map { n in
            let i = Double(n)
            return 9.8 + sin(2 * .pi * 1.8 * i / 100) + 0.5 * sin(2 * .pi * 0.1 * i / 100) + 0.2 * cos(2 * .pi * 7 * i / 100)
                + 0.05 * sin((0.37 * i * i).truncatingRemainder(dividingBy: 17))
        }
    }

    /// The filtfilt of `BiquadCascade.filtfilt` with the sequential `process`: odd reflection of
    /// `pad` samples, each pass started in the steady state of its first value.
    static func sequentialFiltfilt(_ filter: BiquadCascade, _ x: [Double], pad: Int) -> [Double] {
        let n = x.count
        var e = (0..<pad).map { 2 * x[0] - x[pad - $0] } + x + (0..<pad).map { 2 * x[n - 1] - x[n - 2 - $0] }
        for _ in 0..<2 {
            var f = filter
            f.startSteady(at: e[0])
            f.process(&e)
            e.reverse()
        }
        return Array(e[pad..<(pad + n)])
    }

    // import numpy as np; from scipy import signal
    // i = np.arange(n); x = 9.8 + np.sin(2*np.pi*1.8*i/100) + 0.5*np.sin(2*np.pi*0.1*i/100)
    //     + 0.2*np.cos(2*np.pi*7*i/100) + 0.05*np.sin(0.37*i*i % 17)
    // signal.sosfiltfilt(signal.butter(2, 0.3, fs=100, output='sos'), x, padtype='odd', padlen=333)  (and the others)
    /// Per filter: its padding and, per signal length (3,000 and 60,000 samples), SciPy's output at some indices.
    static let scipy: [(name: String, filter: BiquadCascade, pad: Int, values: [Int: [Int: Double]])] = [
        ("low-pass 0.3 Hz, order 2, 100 Hz", Butterworth.lowPass(order: 2, cutoffHz: 0.3, sampleRateHz: 100), 333, [
            3000: [0: 9.998633323639858, 1: 9.999177315269739, 428: 10.02042039994994, 1000: 9.800150022664452, 1500: 9.800939941117955,
                   2998: 9.896850118543894, 2999: 9.901316270465703],
            60000: [0: 9.998633323640572, 1: 9.999177315270455, 8571: 9.588442445343286, 20000: 9.804785866896783, 30000: 9.802447544515314,
                    59998: 9.90501485874647, 59999: 9.909597654287982],
        ]),
        ("high-pass 1 Hz, order 2, 100 Hz", Butterworth.highPass(order: 2, cutoffHz: 1, sampleRateHz: 100), 100, [
            3000: [0: 0.00021229030714814412, 1: 0.11103590352005471, 428: -0.699400864628387, 1000: 0.17420883184631752,
                   1500: 0.17360414747151653, 2998: -0.2313138566166616, 2999: 0.004317415841192829],
            60000: [0: 0.00021229030714814412, 1: 0.11103590352005471, 8571: 1.078617371497445, 20000: 0.18338558613224376,
                    30000: 0.1487829115396483, 59998: -0.19511764424481737, 59999: 0.00454876458411313],
        ]),
        ("low-pass 40 Hz, order 4, 400 Hz", Butterworth.lowPass(order: 4, cutoffHz: 40, sampleRateHz: 400), 400, [
            3000: [0: 10.000000000000007, 1: 10.064920641691932, 428: 9.227866872980563, 1000: 9.98144247525179, 1500: 9.984743023867962,
                   2998: 9.681448190376315, 2999: 9.900961452525454],
            60000: [0: 10.000000000000007, 1: 10.064920641691932, 8571: 10.73146060225281, 20000: 9.976685475807637, 30000: 9.995826489170382,
                    59998: 9.706142180323008, 59999: 9.909224919572685],
        ]),
    ]

    @Test("filtfilt equals SciPy's sosfiltfilt (odd padding, lfilter_zi start) within 1e-11 (1e-12 of the input's 11.5 m/s²; the sections' coefficients come from other formulas) on a 100-Hz accelerometer-like axis: low-pass 0.3 Hz and high-pass 1 Hz of order 2, low-pass 40 Hz of order 4 at 400 Hz; 3,000 samples (one lane segment) and 60,000 (split over the lanes)")
    func matchesScipy() {
        for (name, filter, pad, byCount) in Self.scipy {
            for (count, values) in byCount.sorted(by: { $0.key < $1.key }) {
                let y = filter.filtfilt(Self.axis(count), padding: pad)
                for (index, expected) in values.sorted(by: { $0.key < $1.key }) {
                    #expect(abs(y[index] - expected) <= 1e-11, "\(name), \(count) samples, [\(index)]: \(y[index]) vs SciPy \(expected)")
                }
            }
        }
    }

    @Test("filtfilt over the vector lanes equals the sequential forward-backward recurrence: bit for bit when the padded signal is shorter than three warm-ups (13,506 samples for the 0.3-Hz low-pass: a 30-s walk), within 1e-12 of the largest output when split (1 h at 100 Hz), for the gait analysis's filters")
    func lanesAgainstSequential() {
        let filters = [Butterworth.lowPass(order: 2, cutoffHz: 0.3, sampleRateHz: 100), Butterworth.highPass(order: 2, cutoffHz: 1, sampleRateHz: 100),
                       Butterworth.bandPass(lowHz: 0.5, highHz: 3, sampleRateHz: 100), Butterworth.lowPass(cutoffHz: 20, sampleRateHz: 100)]
        for filter in filters {
            let warmUp = filter.warmUpSamples!
            for count in [3000, 3 * warmUp - 1, 360_000] {
                let x = Self.axis(count)
                let pad = min(count - 1, 333)
                let lanes = filter.filtfilt(x, padding: pad), sequential = Self.sequentialFiltfilt(filter, x, pad: pad)
                if count + 2 * pad < 3 * warmUp {
                    #expect(lanes == sequential, "\(filter.sections.count) sections, \(count) samples: not identical")
                } else {
                    let size = sequential.map(abs).max()!
                    let error = zip(lanes, sequential).map { abs($0 - $1) }.max()!
                    #expect(error <= 1e-12 * size, "\(filter.sections.count) sections, \(count) samples: \(error) of \(size)")
                }
            }
        }
    }
}
