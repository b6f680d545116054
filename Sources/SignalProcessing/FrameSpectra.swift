import CKernels

/// The loops of frame-by-frame spectral analysis at the processor's vector width (CKernels'
/// spectra.c): each value rounds as the scalar expression in its documented order, so the results
/// are the same bits on every instruction set.
public enum FrameSpectra {
    /// out[j] = x[j]·w[j] for j < count.
    public static func window(_ x: UnsafePointer<Double>, by w: UnsafePointer<Double>, into out: UnsafeMutablePointer<Double>, count: Int) {
        atk_windowed(x, w, out, count)
    }

    /// out[k·stride] = re² + im² for each bin k < bins of `spectrum`, (re, im) pairs as a real
    /// transform gives them.
    public static func power(_ spectrum: UnsafePointer<Double>, bins: Int, into out: UnsafeMutablePointer<Double>, stride: Int) {
        atk_power(spectrum, bins, out, stride)
    }

    /// lanes[8k + l] = re² + im² for each bin k < bins of spectra[l], l < 8 (eight transforms'
    /// outputs, (re, im) pairs): eight frames' power spectra side by side, as ``BandWeights`` reads them.
    public static func powerLanes(_ spectra: UnsafePointer<UnsafePointer<Double>?>, bins: Int, into lanes: UnsafeMutablePointer<Double>) {
        atk_power_lanes(spectra, bins, lanes)
    }
}

/// A filter bank over the bins of a spectrum, each band's weights non-zero over one run of bins
/// (a mel bank's triangles), applied to eight frames at once: each band's sum Σ w·x over its run
/// in bin order, from 0.
public struct BandWeights: Sendable {
    public let bands: Int, bins: Int
    /// Band-major: band b's weight of bin k at b·bins + k.
    private let weights: [Double]
    /// Each band's run of bins: first, end (0, 0 for a band without weight).
    private let spans: [UInt]

    /// `weights` band-major, bands × bins values.
    public init(weights: [Double], bands: Int, bins: Int) {
        precondition(bands >= 0 && bins >= 0 && weights.count == bands * bins, "band weights: bands × bins values")
        (self.weights, self.bands, self.bins) = (weights, bands, bins)
        // Each band's first and last nonzero weight, over unchecked buffers (bands × bins values).
        spans = [UInt](unsafeUninitializedCapacity: 2 * bands) { spans, initialized in
            weights.withUnsafeBufferPointer { w in
                for band in 0..<bands {
                    let row = band * bins
                    var first = 0, end = bins
                    while first < bins, w[row + first] == 0 { first += 1 }
                    while end > first, w[row + end - 1] == 0 { end -= 1 }
                    (spans[2 * band], spans[2 * band + 1]) = first < end ? (UInt(first), UInt(end)) : (0, 0)
                }
            }
            initialized = 2 * bands
        }
    }

    /// The band sums of eight frames: `lanes` holds 8·bins values, frame l's bin k at 8k + l;
    /// band b's sum of frame l goes to out[8b + l] (8·bands values).
    public func sums(_ lanes: UnsafePointer<Double>, into out: UnsafeMutablePointer<Double>) {
        weights.withUnsafeBufferPointer { weights in
            spans.withUnsafeBufferPointer { spans in
                atk_band_sums(lanes, weights.baseAddress, bins, spans.baseAddress, bands, out)
            }
        }
    }
}

/// A matrix (`rows` × `columns`) applied to frames of `columns` values, its rows eight side by
/// side: each output the row's Σ m·x in column order, from 0.
public struct LaneMatrix: Sendable {
    public let rows: Int, columns: Int
    /// Groups of eight rows; rows past `rows` are zero.
    public var groups: Int { (rows + 7) / 8 }
    /// Group g's column n, eight rows: at (g·columns + n)·8.
    private let packed: [Double]

    /// `values` row-major, rows × columns.
    public init(rows: Int, columns: Int, _ values: [Double]) {
        precondition(rows >= 0 && columns >= 0 && values.count == rows * columns, "lane matrix: rows × columns values")
        (self.rows, self.columns) = (rows, columns)
        var packed = [Double](repeating: 0, count: (rows + 7) / 8 * 8 * columns)
        for r in 0..<rows {
            for n in 0..<columns { packed[((r / 8) * columns + n) * 8 + r % 8] = values[r * columns + n] }
        }
        self.packed = packed
    }

    /// Row r of frame f (frames[f·columns…]) goes to out[f·8·groups + r], `count` frames.
    public func apply(_ frames: UnsafePointer<Double>, count: Int, into out: UnsafeMutablePointer<Double>) {
        packed.withUnsafeBufferPointer { atk_matrix_rows(frames, count, columns, $0.baseAddress, groups, out) }
    }
}
