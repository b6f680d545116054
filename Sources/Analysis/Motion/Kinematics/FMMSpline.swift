/// The interpolating cubic spline of Forsythe, Malcolm & Moler ("Computer Methods for
/// Mathematical Computations", 1977, §4.4): end conditions from the third divided differences
/// at either end — R's `splinefun(x, y)` (method "fmm"), which EMD's envelopes use. As
/// `splinefun`, the knots are first sorted (stably) and tied abscissae merged into the mean of
/// their ordinates (`regularize.values` with `ties = mean`).
struct FMMSpline {
    private(set) var x: [Double]
    private(set) var y: [Double]
    private var b: [Double] = [], c: [Double] = [], d: [Double] = []

    /// Nil without a knot.
    init?(x knots: [Double], y values: [Double]) {
        precondition(knots.count == values.count, "FMMSpline: abscissae and ordinates of unequal lengths")
        guard !knots.isEmpty else { return nil }
        var x = knots, y = values
        if zip(x, x.dropFirst()).contains(where: { $0 > $1 }) {
            let order = x.indices.sorted { x[$0] < x[$1] || (x[$0] == x[$1] && $0 < $1) }
            x = order.map { knots[$0] }
            y = order.map { values[$0] }
        }
        if zip(x, x.dropFirst()).contains(where: { $0 == $1 }) {
            var ux: [Double] = [], uy: [Double] = []
            var i = 0
            while i < x.count {
                var j = i + 1
                while j < x.count, x[j] == x[i] { j += 1 }
                ux.append(x[i])
                uy.append(RArithmetic.mean(y[i..<j]))
                i = j
            }
            x = ux
            y = uy
        }
        self.x = x
        self.y = y
        fit()
    }

    private mutating func fit() {
        let n = x.count
        b = Array(repeating: 0, count: n)
        c = Array(repeating: 0, count: n)
        d = Array(repeating: 0, count: n)
        guard n >= 2 else { return }
        if n < 3 {
            b[0] = (y[1] - y[0]) / (x[1] - x[0])
            b[1] = b[0]
            return
        }
        x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                b.withUnsafeMutableBufferPointer { b in
                    c.withUnsafeMutableBufferPointer { c in
                        d.withUnsafeMutableBufferPointer { d in Self.fit(x, y, b, c, d) }
                    }
                }
            }
        }
    }

    /// The coefficients of ``fit()`` for n ≥ 3 knots, over unchecked buffers.
    private static func fit(_ x: UnsafeBufferPointer<Double>, _ y: UnsafeBufferPointer<Double>, _ b: UnsafeMutableBufferPointer<Double>,
                            _ c: UnsafeMutableBufferPointer<Double>, _ d: UnsafeMutableBufferPointer<Double>) {
        let n = x.count
        // The tridiagonal system: b the diagonal, d the off-diagonal, c the right-hand side.
        d[0] = x[1] - x[0]
        c[1] = (y[1] - y[0]) / d[0]
        for i in 1..<(n - 1) {
            d[i] = x[i + 1] - x[i]
            b[i] = 2 * (d[i - 1] + d[i])
            c[i + 1] = (y[i + 1] - y[i]) / d[i]
            c[i] = c[i + 1] - c[i]
        }
        b[0] = -d[0]
        b[n - 1] = -d[n - 2]
        c[0] = 0
        c[n - 1] = 0
        if n > 3 {
            c[0] = c[2] / (x[3] - x[1]) - c[1] / (x[2] - x[0])
            c[n - 1] = c[n - 2] / (x[n - 1] - x[n - 3]) - c[n - 3] / (x[n - 2] - x[n - 4])
            c[0] = c[0] * d[0] * d[0] / (x[3] - x[0])
            c[n - 1] = -c[n - 1] * d[n - 2] * d[n - 2] / (x[n - 1] - x[n - 4])
        }
        for i in 1..<n {
            let t = d[i - 1] / b[i - 1]
            b[i] -= t * d[i - 1]
            c[i] -= t * c[i - 1]
        }
        c[n - 1] /= b[n - 1]
        for i in stride(from: n - 2, through: 0, by: -1) { c[i] = (c[i] - d[i] * c[i + 1]) / b[i] }
        b[n - 1] = (y[n - 1] - y[n - 2]) / d[n - 2] + d[n - 2] * (c[n - 2] + 2 * c[n - 1])
        for i in 0..<(n - 1) {
            b[i] = (y[i + 1] - y[i]) / d[i] - d[i] * (c[i + 1] + 2 * c[i])
            d[i] = (c[i + 1] - c[i]) / d[i]
            c[i] = 3 * c[i]
        }
        c[n - 1] = 3 * c[n - 1]
        d[n - 1] = d[n - 2]
    }

    /// The spline at each of `points` (cubic extrapolation beyond the knots), searching the
    /// interval from the previous point's as R's `spline_eval` does (a point in the next
    /// interval takes it without the search).
    func evaluate(_ points: [Double]) -> [Double] {
        let n = x.count
        return [Double](unsafeUninitializedCapacity: points.count) { out, initialized in
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    b.withUnsafeBufferPointer { b in
                        c.withUnsafeBufferPointer { c in
                            d.withUnsafeBufferPointer { d in
                                var i = 0
                                for (p, u) in points.enumerated() {
                                    if u < x[i] || (i < n - 1 && x[i + 1] <= u) {
                                        if u >= x[i], i + 2 == n || u < x[i + 2] {
                                            // Past the next knot (the condition's second part)
                                            // but not the one after: the next interval, where the
                                            // search would end (the knots increase strictly).
                                            i += 1
                                        } else {
                                            i = 0
                                            var j = n
                                            repeat {
                                                let k = (i + j) / 2
                                                if u < x[k] { j = k } else { i = k }
                                            } while j > i + 1
                                        }
                                    }
                                    let dx = u - x[i]
                                    out.initializeElement(at: p, to: y[i] + dx * (b[i] + dx * (c[i] + dx * d[i])))
                                }
                            }
                        }
                    }
                }
            }
            initialized = points.count
        }
    }
}
