import Foundation

/// mhealthtools' kinematic feature extraction (`get_walk_features`, `get_balance_features`,
/// `get_tremor_features`, `get_kinetic_tremor_features` of Sage-Bionetworks/mhealthtools 4340b82
/// with their defaults; docs/analyses.md §7.3): per sensor (accelerometer as `acceleration`,
/// gyroscope as `velocity`) and axis, the series in time order from 0 s, then either the whole
/// series (IMF 1) or its first IMFs by EMD cut into Hamming windows of 256 samples overlapping by
/// half; ``KinematicFeatures`` of each. The rate is mhealthtools' n / (last − first time) in the
/// file's order.
public struct MhealthtoolsKinematics: Sendable, Hashable {
    /// The four entry points, by their default number of IMFs.
    public enum Task: String, Sendable, Hashable, CaseIterable, Codable {
        case walk, balance, restTremor, kineticTremor

        /// mhealthtools' default `IMF`: 2 for walk and kinetic tremor, 1 (no EMD) otherwise.
        public var modes: Int { self == .walk || self == .kineticTremor ? 2 : 1 }
    }

    /// One sensor's samples: time (s) and the three axes, in the file's order.
    public struct Triaxial: Sendable, Hashable {
        public var t: [Double], x: [Double], y: [Double], z: [Double]
        public init(t: [Double], x: [Double], y: [Double], z: [Double]) {
            precondition(x.count == t.count && y.count == t.count && z.count == t.count, "Triaxial: columns of unequal lengths")
            (self.t, self.x, self.y, self.z) = (t, x, y, z)
        }
        var axes: [(name: String, values: [Double])] { [("x", x), ("y", y), ("z", z)] }
        var allFinite: Bool { [t, x, y, z].allSatisfy { $0.allSatisfy(\.isFinite) } }

        /// The rows whose three values lie within ±`bound`, and how many were left out.
        func within(_ bound: Double) -> (rows: Triaxial, leftOut: Int) {
            let inside = { (i: Int) in abs(self.x[i]) <= bound && abs(self.y[i]) <= bound && abs(self.z[i]) <= bound }
            guard !t.indices.allSatisfy(inside) else { return (self, 0) }  // the usual case, without an index list
            let kept = t.indices.filter(inside)
            return (Triaxial(t: kept.map { t[$0] }, x: kept.map { x[$0] }, y: kept.map { y[$0] }, z: kept.map { z[$0] }), t.count - kept.count)
        }
    }

    public enum Sensor: String, Sendable, Hashable, Codable {
        case accelerometer, gyroscope
        /// mhealthtools' `measurementType`.
        public var measurementType: String { self == .accelerometer ? "acceleration" : "velocity" }
    }

    /// One row of mhealthtools' `extracted_features`.
    public struct Row: Sendable, Hashable {
        public var sensor: Sensor
        public var axis: String
        /// The IMF (from 1) and window (from 1), nil without EMD.
        public var mode: Int?
        public var window: Int?
        public var features: KinematicFeatures
    }

    public var rows: [Row] = []
    /// Per window of the gravity samples (EMD tasks with a gravity series: device motion), whether
    /// the phone rotated in it — mhealthtools' `tag_outlier_windows(gravity, 256, 0.5)`, "Phone
    /// rotated within window" when an axis of gravity changes sign.
    public var rotatedWindows: [Bool]?
    /// mhealthtools' error for the whole recording (`Malformed accelerometer data`, …), nil when
    /// features were extracted.
    public var error: String?
    /// What could not be computed as mhealthtools would (it stops with an R error there).
    public var warnings: [String] = []

    public static let windowLength = 256
    public static let windowOverlap = 0.5

    public init(task: Task, accelerometer: Triaxial?, gyroscope: Triaxial?, gravity: Triaxial? = nil) {
        if let accelerometer, !accelerometer.allFinite { error = "Malformed accelerometer data"; return }
        if let gyroscope, !gyroscope.allFinite { error = "Malformed gyroscope data"; return }
        // Rows no phone sensor measures are left out, as gait's are (MotionPreprocessing): one
        // value of 1e300 g would otherwise be every feature of its axis.
        let accelerometer = accelerometer?.within(MotionPreprocessing.largestAcceleration / standardGravity)
        let gyroscope = gyroscope?.within(MotionPreprocessing.largestRotationRate)
        let implausible = (accelerometer?.leftOut ?? 0) + (gyroscope?.leftOut ?? 0)
        if implausible > 0 { warnings.append(GaitAnalysis.implausibleRowsWarning(implausible)) }
        if task.modes > 1, let gravity { rotatedWindows = Self.rotatedWindows(gravity: gravity) }
        for (sensor, data) in [(Sensor.accelerometer, accelerometer?.rows), (.gyroscope, gyroscope?.rows)] {
            guard let data else { continue }
            extract(sensor, data, modes: task.modes)
        }
        if rows.isEmpty && error == nil { error = warnings.first ?? "No sensor data" }
    }

    private mutating func extract(_ sensor: Sensor, _ data: Triaxial, modes: Int) {
        let n = data.t.count
        guard n >= 2 else { warnings.append("\(sensor.rawValue): \(n) sample(s), no rate"); return }
        let rate = Double(n) / (data.t[n - 1] - data.t[0])
        guard rate.isFinite, rate > 0 else {
            warnings.append("\(sensor.rawValue): the first and last times give no positive rate"); return
        }
        let t0 = data.t[0]
        let order = data.t.indices.sorted { data.t[$0] < data.t[$1] || (data.t[$0] == data.t[$1] && $0 < $1) }
        let t = order.map { data.t[$0] - t0 }
        guard t.allSatisfy(\.isFinite) else { warnings.append("\(sensor.rawValue): times span beyond the double range"); return }
        var undefinedSpectra = 0
        func features(_ values: [Double]) -> KinematicFeatures {
            let (features, spectrum) = KinematicFeatures.compute(values, rateHz: rate)
            if !spectrum { undefinedSpectra += 1 }
            return features
        }
        if modes == 1 {
            for (axis, raw) in data.axes {
                rows.append(Row(sensor: sensor, axis: axis, features: features(order.map { raw[$0] })))
            }
        } else {
            guard zip(t, t.dropFirst()).allSatisfy({ $0 < $1 }) else {
                warnings.append("\(sensor.rawValue): repeated times (mhealthtools cannot spread the axes for EMD)"); return
            }
            for (axis, raw) in data.axes {
                let imfs = EmpiricalModeDecomposition.decompose(order.map { raw[$0] }, at: t, maximum: modes)
                if imfs.count < modes {
                    warnings.append("\(sensor.rawValue) \(axis): \(imfs.count) of \(modes) IMFs (the residue has two extrema or fewer)")
                }
                for (m, imf) in imfs.enumerated() {
                    for (w, window) in Self.windows(imf, shape: .hamming).enumerated() {
                        rows.append(Row(sensor: sensor, axis: axis, mode: m + 1, window: w + 1, features: features(window)))
                    }
                }
            }
        }
        if undefinedSpectra > 0 {
            warnings.append("\(sensor.rawValue): \(undefinedSpectra) series constant or too short for an AR spectrum (mhealthtools stops there; its spectral features are null)")
        }
    }

    enum WindowShape { case hamming, rectangle }

    /// mhealthtools' `window_signal`: windows of `length` samples (256 unless given) every
    /// round(length·(1 − overlap)) that end within the series; a series shorter than a window
    /// gives one window of the series repeated to `length` samples (R's recycling), as
    /// mhealthtools does. Needs length ≥ 2 and 0 ≤ overlap ≤ ½.
    static func windows(_ values: [Double], shape: WindowShape, length: Int = windowLength, overlap: Double = windowOverlap) -> [[Double]] {
        precondition(length >= 2 && overlap >= 0 && overlap <= 0.5, "window length < 2 or overlap outside [0, ½]")
        let n = values.count
        guard n > 0 else { return [] }
        let taper: [Double] = shape == .rectangle
            ? Array(repeating: 1, count: length)
            : (0..<length).map { 0.54 - 0.46 * cos(2 * Double.pi * Double($0) / Double(length - 1)) }
        guard n >= length else { return [(0..<length).map { values[$0 % n] * taper[$0] }] }
        let step = Int(RArithmetic.round(Double(length) * (1 - overlap)))
        return stride(from: 0, through: n - length, by: step).map { start in (0..<length).map { values[start + $0] * taper[$0] } }
    }

    /// mhealthtools' `tag_outlier_windows(gravity, 256, 0.5)`: per window of the gravity
    /// samples in file order, whether an axis changes sign ("Phone rotated within window").
    static func rotatedWindows(gravity: Triaxial) -> [Bool] {
        let axes = [gravity.x, gravity.y, gravity.z].map { windows($0, shape: .rectangle) }
        return (0..<(axes[0].count)).map { w in
            axes.contains { axis in
                let window = axis[w]
                // R's max and min: NaN wins; sign(NaN) != sign(NaN) is NA, dropped by any(na.rm = TRUE).
                guard !window.contains(where: \.isNaN) else { return false }
                let sign = { (v: Double) -> Double in v > 0 ? 1 : (v < 0 ? -1 : 0) }
                return sign(window.max()!) != sign(window.min()!)
            }
        }
    }
}
