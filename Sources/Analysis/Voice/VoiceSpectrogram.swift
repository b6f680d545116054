import Glibc
import SignalProcessing

/// A coarse spectrogram for the formant chart: `columns` Hann-windowed 1024-sample (or shorter)
/// frames spread evenly over the recording, their power pooled into `rows` equal bands from 0 Hz
/// to `topHz`, in dB re full scale (10·lg of the band's mean power, −300 dB for none). Small by
/// construction (columns × rows values), whatever the recording's length.
public struct VoiceSpectrogram: Sendable, Hashable {
    /// Column edges, s (columns + 1).
    public var timeEdgesSeconds: [Double]
    /// Row edges, Hz (rows + 1).
    public var frequencyEdgesHz: [Double]
    /// levelDb[column][row], dB.
    public var levelDb: [[Double]]

    public init(_ samples: [Double], sampleRateHz: Double, topHz: Double, columns: Int = 100, rows: Int = 40) {
        let length = min(1024, max(2, samples.count))
        let top = min(topHz, sampleRateHz / 2)
        let duration = Double(samples.count) / sampleRateHz
        timeEdgesSeconds = (0...columns).map { duration * Double($0) / Double(columns) }
        frequencyEdgesHz = (0...rows).map { top * Double($0) / Double(rows) }
        guard samples.count >= 2, top > 0, let fft = try? FFT(size: length) else {
            levelDb = []
            return
        }
        let window = (0..<length).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(length)) }
        var frame = [Double](repeating: 0, count: length)
        levelDb = (0..<columns).map { column in
            let centre = Int(clamping: (Double(column) + 0.5) / Double(columns) * Double(samples.count), rounding: .down, to: 0...samples.count)
            let start = min(max(0, centre - length / 2), samples.count - length)
            for j in 0..<length { frame[j] = samples[start + j] * window[j] }
            let spectrum = fft.forward(frame)
            var power = [Double](repeating: 0, count: rows), count = [Int](repeating: 0, count: rows)
            for k in 0...length / 2 {
                let f = Double(k) * sampleRateHz / Double(length)
                guard f < top else { break }
                let row = Int(clamping: f / top * Double(rows), rounding: .down, to: 0...rows - 1)
                power[row] += (spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1]) / Double(length * length)
                count[row] += 1
            }
            return (0..<rows).map { (row: Int) -> Double in count[row] > 0 && power[row] > 0 ? 10 * log10(power[row] / Double(count[row])) : -300 }
        }
    }
}
