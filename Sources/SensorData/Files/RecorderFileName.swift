/// A ResearchKit recorder file name (docs/formats.md §3):
/// `<type>_<id>[-<yyyyMMddHHmmss>[-NN]][.json]`, the pattern
/// `^([A-Za-z]+)_([A-Za-z0-9_.]+?)(?:-(\d{14})(?:-(\d{2}))?)?(?:\.json)?$` applied to the last
/// path component (or to an archive entry's key). Names are hints: the content decides.
public struct RecorderFileName: Sendable, Hashable {
    /// `accel`, `deviceMotion`, `pedometer`, `HKQuantityTypeIdentifierHeartRate`, … (or an AppCore
    /// prefix such as `accelerometer`).
    public var recorderType: String
    /// The configuration identifier, step identifier or UUID with `_` (naming era dependent).
    public var identifier: String
    /// `yyyyMMddHHmmss` device-local wall time of the finish; nil for a current (unfinished) log.
    public var stamp: String?
    /// Rollover counter `NN` when several files finished in the same second.
    public var sequence: Int?
    public var hasJSONExtension: Bool

    /// True for the name a recorder writes to before finishing (no stamp).
    public var isCurrentLog: Bool { stamp == nil }

    /// The recorder kind the prefix names, if any.
    public var kind: RecorderKind? {
        switch recorderType {
        case "accel", "accelerometer": .accelerometer
        case "deviceMotion": .deviceMotion
        case "pedometer": .pedometer
        case "location": .location
        case "touch": .touch
        case "heartRate": .camera
        case let type where type.hasPrefix("HKQuantityTypeIdentifier"): .healthQuantity
        default: nil
        }
    }

    public init?(_ path: String) {
        var name = path.split(separator: " › ").last ?? Substring(path)
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        hasJSONExtension = name.hasSuffix(".json")
        if hasJSONExtension { name = name.dropLast(5) }
        if let nn = Self.digitsSuffix(of: name, 2), Self.digitsSuffix(of: name.dropLast(3), 14) != nil {
            sequence = Int(nn)
            name = name.dropLast(3)
        }
        if let stamp = Self.digitsSuffix(of: name, 14) {
            self.stamp = String(stamp)
            name = name.dropLast(15)
        }
        guard let underscore = name.firstIndex(of: "_") else { return nil }
        let type = name[..<underscore]
        let identifier = name[name.index(after: underscore)...]
        guard !type.isEmpty, type.allSatisfy({ $0.isASCII && $0.isLetter }), !identifier.isEmpty,
            identifier.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") })
        else { return nil }
        recorderType = String(type)
        self.identifier = String(identifier)
    }

    /// The `count` digits after a final `-`, if `name` ends that way.
    private static func digitsSuffix(of name: Substring, _ count: Int) -> Substring? {
        guard name.count > count + 1 else { return nil }
        let suffix = name.suffix(count)
        guard name.dropLast(count).last == "-", suffix.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return suffix
    }
}
