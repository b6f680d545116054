import InputGuards
import SensorData
import SignalProcessing

/// Standard gravity, m/s² (CGPM 1901; ResearchKit's g → m/s²).
public let standardGravity = 9.80665

/// Acceleration of a phone as columns: time (s) and total acceleration in m/s² (gravity
/// included), optionally the gravity estimate the device reported (Core Motion's `gravity`).
public struct MotionSignal: Sendable {
    public var time: [Double]
    public var x: [Double], y: [Double], z: [Double]
    /// Device-reported gravity, m/s², when the source is device motion.
    public var gravity: (x: [Double], y: [Double], z: [Double])?
    /// Device rotation rate, rad/s, when the source is device motion.
    public var rotationRate: (x: [Double], y: [Double], z: [Double])?

    public init(time: [Double], x: [Double], y: [Double], z: [Double]) {
        self.time = time
        self.x = x
        self.y = y
        self.z = z
    }

    public var count: Int { time.count }

    /// Accelerometer (g, gravity included) or device motion (userAcceleration + gravity, g) →
    /// m/s². Device-motion totals are gravity + userAcceleration (Apple's convention, docs/analyses.md
    /// §2.1). Nil for other recorder kinds.
    public init?(_ series: SensorSeries) {
        let g = standardGravity
        switch series.kind {
        case .accelerometer:
            guard let x = series["x"], let y = series["y"], let z = series["z"] else { return nil }
            self.init(time: series.time, x: x.map { $0 * g }, y: y.map { $0 * g }, z: z.map { $0 * g })
        case .deviceMotion:
            guard let ux = series["userAcceleration.x"], let uy = series["userAcceleration.y"], let uz = series["userAcceleration.z"],
                let gx = series["gravity.x"], let gy = series["gravity.y"], let gz = series["gravity.z"]
            else { return nil }
            self.init(time: series.time, x: zip(ux, gx).map { ($0 + $1) * g }, y: zip(uy, gy).map { ($0 + $1) * g },
                      z: zip(uz, gz).map { ($0 + $1) * g })
            gravity = (gx.map { $0 * g }, gy.map { $0 * g }, gz.map { $0 * g })
            if let rx = series["rotationRate.x"], let ry = series["rotationRate.y"], let rz = series["rotationRate.z"] {
                rotationRate = (rx, ry, rz)
            }
        default:
            return nil
        }
    }

    /// The samples `range`.
    public func slice(_ range: Range<Int>) -> MotionSignal {
        var part = MotionSignal(time: Array(time[range]), x: Array(x[range]), y: Array(y[range]), z: Array(z[range]))
        if let gravity { part.gravity = (Array(gravity.x[range]), Array(gravity.y[range]), Array(gravity.z[range])) }
        if let rotationRate { part.rotationRate = (Array(rotationRate.x[range]), Array(rotationRate.y[range]), Array(rotationRate.z[range])) }
        return part
    }
}

/// A motion signal cleaned and resampled onto a uniform grid, with its decompositions
/// (docs/analyses.md §2.3).
struct UniformMotion {
    let rateHz: Double
    /// The recording's own rate before resampling (samples over its span), Hz.
    var sourceRateHz: Double = .nan
    /// Time of sample 0, s.
    let start: Double
    /// Total acceleration, m/s².
    var x: [Double], y: [Double], z: [Double]
    /// Gravity estimate ā, m/s².
    var gx: [Double] = [], gy: [Double] = [], gz: [Double] = []
    var rotation: (x: [Double], y: [Double], z: [Double])?

    var count: Int { x.count }
    func time(_ index: Double) -> Double { start + index / rateHz }
}

enum MotionPreprocessing {
    /// Timestamps closer than this (10 µs) are one instant.
    static let minimumIntervalSeconds = 1e-5
    /// The largest acceleration read as a measurement, m/s²: 1,000 g (phone accelerometers
    /// saturate at 2–32 g; crash sensors reach a few hundred g).
    static let largestAcceleration = 1000 * standardGravity
    /// The largest rotation rate read as a measurement, rad/s (phone gyroscopes saturate near
    /// 35 rad/s, 2,000 °/s).
    static let largestRotationRate = 1000.0

    /// Sorts by time, drops non-finite rows and repeated timestamps (keeping the first), and
    /// splits at gaps longer than max(0.1 s, 5 × the median interval): never interpolate across
    /// a gap (docs/analyses.md §2.3, step 1). Returns index ranges of the cleaned signal.
    ///
    /// The gap limit is at most 1 s: gait needs ≥ 5 Hz sampling (steps near 2 Hz), and the cap
    /// keeps resampling proportional to the samples (≤ 1 s of grid per sample), whatever the
    /// timestamps claim.
    ///
    /// Samples closer than ``minimumIntervalSeconds`` to the last kept one count as repeated: no
    /// motion sensor samples faster than 100 kHz, and timestamps 1e-20 s apart would otherwise
    /// claim a rate of 10^20 Hz.
    ///
    /// Rows holding an acceleration (total or gravity) beyond ±``largestAcceleration`` or a
    /// rotation rate beyond ±``largestRotationRate`` are left out as the non-finite ones are, and
    /// counted (`implausible`): no phone sensor measures them, and one such spike would otherwise
    /// swamp every filter, spectrum and peak of the recording.
    ///
    /// With `parallel`, the usual case's median interval is found on a second thread while the
    /// checks run (and found again on the cleaned rows when they fail).
    static func clean(_ signal: MotionSignal, parallel: Bool = false) -> (signal: MotionSignal, ranges: [Range<Int>], implausible: Int) {
        let time = signal.time
        let accelerations = [signal.x, signal.y, signal.z] + (signal.gravity.map { [$0.x, $0.y, $0.z] } ?? [])
        let columns = accelerations.map { ($0, largestAcceleration) }
            + (signal.rotationRate.map { [$0.x, $0.y, $0.z] } ?? []).map { ($0, largestRotationRate) }
        // The usual case, checked in a pass per column: every row finite and within the sensors'
        // ranges, in time order, spaced by at least the minimum interval. Then every row is kept,
        // as it is.
        let (usual, usualLimit) = Parallel.pair(parallel: parallel) {
            isOrdered(time) && columns.allSatisfy { within($0.0, $0.1) }
        } _: {
            parallel ? gapLimit(time) : nil
        }
        var cleaned = signal, implausible = 0
        if !usual {
            let finite = { (i: Int) in time[i].isFinite && columns.allSatisfy { $0.0[i].isFinite } }
            let usable = { (i: Int) in time[i].isFinite && columns.allSatisfy { abs($0.0[i]) <= $0.1 } }
            implausible = time.indices.reduce(0) { $0 + (finite($1) && !usable($1) ? 1 : 0) }
            let order = time.indices.filter(usable).sorted { time[$0] < time[$1] || (time[$0] == time[$1] && $0 < $1) }
            var kept: [Int] = []
            for i in order where kept.last.map({ time[i] - time[$0] >= minimumIntervalSeconds }) ?? true { kept.append(i) }
            cleaned = MotionSignal(time: kept.map { time[$0] }, x: kept.map { signal.x[$0] }, y: kept.map { signal.y[$0] }, z: kept.map { signal.z[$0] })
            if let g = signal.gravity { cleaned.gravity = (kept.map { g.x[$0] }, kept.map { g.y[$0] }, kept.map { g.z[$0] }) }
            if let r = signal.rotationRate { cleaned.rotationRate = (kept.map { r.x[$0] }, kept.map { r.y[$0] }, kept.map { r.z[$0] }) }
        }
        guard cleaned.count >= 2, let limit = (usual ? usualLimit : nil) ?? gapLimit(cleaned.time) else {
            return (cleaned, cleaned.count == 1 ? [0..<1] : [], implausible)
        }
        var ranges: [Range<Int>] = []
        var start = 0
        cleaned.time.withUnsafeBufferPointer { t in
            for i in 1..<t.count where t[i] - t[i - 1] > limit {
                ranges.append(start..<i)
                start = i
            }
        }
        ranges.append(start..<cleaned.count)
        return (cleaned, ranges, implausible)
    }

    /// The gap limit max(0.1, min(1, 5 × the median interval)) s of times in order; nil for fewer
    /// than two. When more than half the intervals are at most 0.019 s (a sensor at 53 Hz or
    /// more), the median is too and 5 × it is below 0.1: the limit is 0.1 after one counting pass
    /// instead of a selection.
    static func gapLimit(_ time: [Double]) -> Double? {
        guard time.count >= 2 else { return nil }
        let short = time.withUnsafeBufferPointer { t in
            var count = 0
            for i in 1..<t.count { count &+= t[i] - t[i - 1] <= 0.019 ? 1 : 0 }
            return count
        }
        // The median is the sorted intervals' element (time.count − 1)/2: at most 0.019 s when
        // more than that many intervals are.
        if short > (time.count - 1) / 2 { return 0.1 }
        return medianInterval(time).map { max(0.1, min(1, 5 * $0)) }
    }

    /// The median of the intervals between consecutive times (the upper one of an even count), s;
    /// nil for fewer than two times.
    static func medianInterval(_ time: [Double]) -> Double? {
        guard time.count >= 2 else { return nil }
        var intervals = [Double](unsafeUninitializedCapacity: time.count - 1) { d, initialized in
            time.withUnsafeBufferPointer { t in for i in 0..<(t.count - 1) { d[i] = t[i + 1] - t[i] } }
            initialized = time.count - 1
        }
        return Selection.sortedElement(intervals.count / 2, of: &intervals)
    }

    /// Whether every time is finite, in order and at least ``minimumIntervalSeconds`` after the
    /// one before (one pass over an unchecked buffer, the failures counted without branches so
    /// that the loop vectorises).
    static func isOrdered(_ time: [Double]) -> Bool {
        time.withUnsafeBufferPointer { t in
            guard let first = t.first else { return true }
            var failures = first.isFinite ? 0 : 1
            for i in 1..<max(1, t.count) {
                failures &+= (abs(t[i]) < .infinity ? 0 : 1) &+ (t[i] - t[i - 1] >= minimumIntervalSeconds ? 0 : 1)
            }
            return failures == 0
        }
    }

    /// Whether every value of `column` lies within ±`bound` (false for NaN and ±∞): every value
    /// finite and the largest |value| within the bound (Statistics' vector passes).
    static func within(_ column: [Double], _ bound: Double) -> Bool {
        column.withUnsafeBufferPointer { Statistics.allFinite($0) && Statistics.peakDeviation($0) <= bound }
    }

    /// Resamples one gap-free segment onto `rateHz` (low-passing at 0.4·rate first, zero-phase,
    /// when the source is faster than twice the target) and estimates gravity: the device's own
    /// estimate when present, else a zero-phase 2nd-order Butterworth low-pass at
    /// `gravityCutoffHz` (docs/analyses.md §2.3, steps 2–3). Segments of `parallelFrom` samples or more
    /// resample and low-pass on two threads.
    static func uniform(_ segment: MotionSignal, rateHz: Double, gravityCutoffHz: Double, parallelFrom: Int = .max) -> UniformMotion? {
        guard segment.count >= 4, let first = segment.time.first, let last = segment.time.last, last > first else { return nil }
        var columns = [segment.x, segment.y, segment.z]
        if let g = segment.gravity { columns += [g.x, g.y, g.z] }
        if let r = segment.rotationRate { columns += [r.x, r.y, r.z] }
        let sourceRate = Double(segment.count - 1) / (last - first)
        if sourceRate > 2 * rateHz {
            let antiAlias = Butterworth.lowPass(order: 4, cutoffHz: 0.4 * rateHz, sampleRateHz: sourceRate)
            columns = columns.map { antiAlias.filtfilt($0, padding: Int(clamping: sourceRate, to: 0...segment.count)) }
        }
        let (start, resampled) = Resampling.linear(time: segment.time, columns: columns, rateHz: rateHz, parallel: segment.count >= parallelFrom)
        guard resampled[0].count >= 4 else { return nil }
        var motion = UniformMotion(rateHz: rateHz, sourceRateHz: sourceRate, start: start, x: resampled[0], y: resampled[1], z: resampled[2])
        var next = 3
        if segment.gravity != nil {
            (motion.gx, motion.gy, motion.gz) = (resampled[3], resampled[4], resampled[5])
            next = 6
        } else {
            let lowPass = Butterworth.lowPass(order: 2, cutoffHz: gravityCutoffHz, sampleRateHz: rateHz)
            let padding = Int(clamping: rateHz / gravityCutoffHz, to: 0...motion.count)
            let axes = [motion.x, motion.y, motion.z]
            let gravity = Parallel.map(3, parallel: motion.count >= parallelFrom) { lowPass.filtfilt(axes[$0], padding: padding) }
            (motion.gx, motion.gy, motion.gz) = (gravity[0], gravity[1], gravity[2])
        }
        if segment.rotationRate != nil { motion.rotation = (resampled[next], resampled[next + 1], resampled[next + 2]) }
        return motion
    }

    /// Vertical dynamic acceleration v = a_d · ā/|ā| (up-positive for both Apple's and Android's
    /// sign conventions, since ā points along the measured gravity reaction), the horizontal
    /// remainder's principal components H1 (larger variance) and H2, and |a_d|
    /// (docs/analyses.md §2.3, step 4). The source had gravity removed (e.g. Android's linear
    /// acceleration, Core Motion's userAcceleration alone) when the low-passed acceleration
    /// averages under 0.2 g, as the decomposition's Σ|ā| (in sample order) says: then
    /// `noVertical` is true.
    static func decompose(_ m: UniformMotion) -> (v: [Double], h1: [Double], h2: [Double], dynamicMagnitude: [Double], noVertical: Bool) {
        let n = m.count
        let split = GravityDecomposition.split(x: m.x, y: m.y, z: m.z, gx: m.gx, gy: m.gy, gz: m.gz)
        if n > 0, split.gravityMagnitudeSum / Double(n) < 0.2 * standardGravity {
            // Linear acceleration: no vertical reference, so the axis of largest variance stands
            // in for the vertical.
            let (p1, p2) = principalComponents(m.x, m.y, m.z)
            var magnitude = [Double](repeating: 0, count: n)
            for i in 0..<n {
                let squared = m.x[i] * m.x[i] + m.y[i] * m.y[i] + m.z[i] * m.z[i]
                magnitude[i] = squared.squareRoot()
            }
            return (p1, p2, [Double](repeating: 0, count: n), magnitude, true)
        }
        let (h1, h2) = principalComponents(split.hx, split.hy, split.hz, sums: split.horizontalSums)
        return (split.vertical, h1, h2, split.dynamicMagnitude, false)
    }

    /// Projections on the two largest principal axes of 3-D points (power iteration on the
    /// covariance matrix, then deflation). `sums`, when given, are Σx, Σy, Σz summed in order,
    /// as this would sum them (``GravityDecomposition`` returns them).
    static func principalComponents(_ x: [Double], _ y: [Double], _ z: [Double], sums: (Double, Double, Double)? = nil) -> ([Double], [Double]) {
        precondition(y.count == x.count && z.count == x.count, "coordinates of unequal length")
        let n = Double(max(1, x.count))
        var mx = 0.0, my = 0.0, mz = 0.0
        var sxx = 0.0, sxy = 0.0, sxz = 0.0, syy = 0.0, syz = 0.0, szz = 0.0
        x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in z.withUnsafeBufferPointer { z in
            // The three sums in one pass (three independent chains, each in increasing order).
            if let sums {
                (mx, my, mz) = sums
            } else {
                for i in 0..<x.count {
                    mx += x[i]
                    my += y[i]
                    mz += z[i]
                }
            }
            (mx, my, mz) = (mx / n, my / n, mz / n)
            for i in 0..<x.count {
                let dx = x[i] - mx, dy = y[i] - my, dz = z[i] - mz
                sxx += dx * dx; sxy += dx * dy; sxz += dx * dz
                syy += dy * dy; syz += dy * dz; szz += dz * dz
            }
        } } }
        let c = [[sxx, sxy, sxz], [sxy, syy, syz], [sxz, syz, szz]]
        func dominant(_ m: [[Double]]) -> [Double] {
            var vector = [0.577, 0.577, 0.577]
            for _ in 0..<100 {
                var next = (0..<3).map { r in (0..<3).reduce(0) { $0 + m[r][$1] * vector[$1] } }
                let norm = next.reduce(0) { $0 + $1 * $1 }.squareRoot()
                guard norm > 0 else { return vector }
                next = next.map { $0 / norm }
                vector = next
            }
            return vector
        }
        let e1 = dominant(c)
        let lambda1 = (0..<3).reduce(0.0) { (sum: Double, r: Int) -> Double in sum + e1[r] * (0..<3).reduce(0.0) { (row: Double, s: Int) -> Double in row + c[r][s] * e1[s] } }
        var deflated = c
        for r in 0..<3 { for s in 0..<3 { deflated[r][s] -= lambda1 * e1[r] * e1[s] } }
        var e2 = dominant(deflated)
        let dot = e2[0] * e1[0] + e2[1] * e1[1] + e2[2] * e1[2]
        e2 = (0..<3).map { e2[$0] - dot * e1[$0] }
        let norm2 = e2.reduce(0) { $0 + $1 * $1 }.squareRoot()
        if norm2 > 0 { e2 = e2.map { $0 / norm2 } }
        let (a1, b1, c1, a2, b2, c2) = (e1[0], e1[1], e1[2], e2[0], e2[1], e2[2])
        // Both projections written in one pass into arrays made uninitialised (every value is written).
        var h2: [Double] = []
        let h1 = x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in z.withUnsafeBufferPointer { z in
            [Double](unsafeUninitializedCapacity: x.count) { h1, written1 in
                h2 = [Double](unsafeUninitializedCapacity: x.count) { h2, written2 in
                    for i in 0..<x.count {
                        let dx = x[i] - mx, dy = y[i] - my, dz = z[i] - mz
                        h1[i] = dx * a1 + dy * b1 + dz * c1
                        h2[i] = dx * a2 + dy * b2 + dz * c2
                    }
                    written2 = x.count
                }
                written1 = x.count
            }
        } } }
        return (h1, h2)
    }
}
