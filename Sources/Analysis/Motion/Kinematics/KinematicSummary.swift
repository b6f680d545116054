import SensorData

/// One recording's mhealthtools kinematic features as the wide tables hold them (docs/analyses.md
/// §7.3): per sensor, axis and IMF each feature under `<sensor>.<axis>.<feature>` (no EMD) or
/// `<sensor>.<axis>.IMF<k>.<feature>` (the median over its windows, type 7, of the finite
/// values); with EMD on device motion the gravity windows and those mhealthtools tags "Phone
/// rotated within window" (`gravityWindowCount`, `phoneRotatedWindowCount`); then mhealthtools'
/// `error` when it extracted nothing. The rows themselves, one per
/// window, are ``MhealthtoolsKinematics/rows``.
public struct KinematicSummary: Sendable, Hashable, Encodable {
    /// The feature names, `<sensor>.<axis>[.IMF<k>].<mhealthtools' name>`.
    public var names: [String] = []
    /// Their values, in the unit of the mhealthtools feature (NaN: undefined, null in outputs).
    public var values: [Double] = []
    /// mhealthtools' error when it extracted nothing (`Malformed accelerometer data`, …).
    public var error: String?
    /// Windows of the gravity samples (EMD tasks on device motion), count.
    public var gravityWindowCount: Int?
    /// Those windows in which an axis of gravity changes sign ("Phone rotated within window"), count.
    public var phoneRotatedWindowCount: Int?

    public init(_ kinematics: MhealthtoolsKinematics) {
        error = kinematics.error
        gravityWindowCount = kinematics.rotatedWindows?.count
        phoneRotatedWindowCount = kinematics.rotatedWindows?.filter { $0 }.count
        var groups: [String] = []
        var members: [String: [KinematicFeatures]] = [:]
        for row in kinematics.rows {
            let group = "\(row.sensor.rawValue).\(row.axis)" + (row.mode.map { ".IMF\($0)" } ?? "")
            if members[group] == nil { groups.append(group) }
            members[group, default: []].append(row.features)
        }
        let featureNames = KinematicFeatures.names
        var column: [Double] = []
        for group in groups {
            let rows = members[group]!.map(\.values)
            for (index, name) in featureNames.enumerated() {
                names.append("\(group).\(name)")
                column.removeAll(keepingCapacity: true)
                for row in rows where row[index].isFinite { column.append(row[index]) }
                column.sort()
                values.append(column.isEmpty ? .nan : RArithmetic.quantile7(sorted: column, 0.5))
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FeatureName.self)
        for (name, value) in zip(names, values) { try container.encode(value, forKey: FeatureName(name)) }
        if let gravityWindowCount, let phoneRotatedWindowCount {
            try container.encode(gravityWindowCount, forKey: FeatureName("gravityWindowCount"))
            try container.encode(phoneRotatedWindowCount, forKey: FeatureName("phoneRotatedWindowCount"))
        }
        if let error { try container.encode(error, forKey: FeatureName("error")) }
    }
}

extension MhealthtoolsKinematics.Triaxial {
    /// The sensors mhealthtools reads from a recorder file: a device-motion file's
    /// `userAcceleration` (accelerometer), `rotationRate` (gyroscope) and `gravity`; an
    /// accelerometer file's x, y, z (accelerometer only); nil for any other.
    public static func sensors(of series: SensorSeries) -> (accelerometer: Self?, gyroscope: Self?, gravity: Self?) {
        let t = series.time
        func triaxial(_ prefix: String) -> Self? {
            guard let x = series[prefix + "x"], let y = series[prefix + "y"], let z = series[prefix + "z"] else { return nil }
            return Self(t: t, x: x, y: y, z: z)
        }
        switch series.kind {
        case .deviceMotion: return (triaxial("userAcceleration."), triaxial("rotationRate."), triaxial("gravity."))
        case .accelerometer: return (triaxial(""), nil, nil)
        default: return (nil, nil, nil)
        }
    }
}

extension KinematicSummary {
    /// The set `name` of mhealthtools' `task` features of a recorder file, and the warnings
    /// (prefixed `mhealthtools:`).
    public static func set(_ task: MhealthtoolsKinematics.Task, _ series: SensorSeries, name: String) -> (set: FeatureSet, warnings: [String]) {
        let sensors = MhealthtoolsKinematics.Triaxial.sensors(of: series)
        let kinematics = MhealthtoolsKinematics(task: task, accelerometer: sensors.accelerometer, gyroscope: sensors.gyroscope, gravity: sensors.gravity)
        // The error repeats the first warning when no sensor gave rows: said once.
        let said = kinematics.warnings + [kinematics.error].compactMap { $0 }.filter { !kinematics.warnings.contains($0) }
        let warnings = said.map { "mhealthtools: " + $0 }
        return (FeatureSet(name: name, features: KinematicSummary(kinematics)), warnings)
    }
}
