import SensorData

extension FileFacts {
    /// The facts as ``ResultStore/commitFileFacts(_:)`` stores them (``encode(to:)``: a fact at
    /// its default left out) or stored them before (every key present), read from the project's
    /// JSON model. A rerun reads every file's facts, and Foundation's JSONDecoder took a fifth of
    /// a fully stored rerun of 2,000 task runs. A fact absent or null is its default; nil for a
    /// missing hash, size or category or a value of another type, as the decoder refuses them
    /// (those files are then read again); `StoredFileFactsTests` holds this reading to the
    /// decoder's.
    init?(stored value: JSONValue) {
        guard let object = value.object,
              let sha256 = object["sha256"]?.string, let bytes = Self.integer(object["bytes"]),
              let category = object["category"]?.string.flatMap(Category.init(rawValue:)),
              let uploadManifest = Self.optional(object["uploadManifest"], \.bool),
              let motion = Self.optional(object["motion"], \.bool), let camera = Self.optional(object["camera"], \.bool),
              let splResult = Self.optional(object["splResult"], \.bool), let dBHLResult = Self.optional(object["dBHLResult"], \.bool),
              let rangeOfMotionResult = Self.optional(object["rangeOfMotionResult"], \.bool),
              let timedWalkResult = Self.optional(object["timedWalkResult"], \.bool),
              let audiogramRows = Self.optional(object["audiogramRows"], { Self.integer($0) }),
              let kindName = Self.optional(object["kindName"], \.string), let detail = Self.optional(object["detail"], \.string),
              let uploadItem = Self.optional(object["uploadItem"], \.string),
              let loadError = Self.optional(object["loadError"], \.string),
              let loadNeedsMemory = Self.optional(object["loadNeedsMemory"], \.bool),
              let uploadMetadata = Self.array(object["uploadMetadata"], { item -> StudyManifest.Metadata? in
                  guard let column = item["column"]?.string, let value = item["value"]?.string else { return nil }
                  return StudyManifest.Metadata(column: column, value: value)
              }),
              let archiveEntries = Self.array(object["archiveEntries"], \.string),
              let namedFiles = Self.array(object["namedFiles"], { item -> NamedFile? in
                  guard let name = item["name"]?.string, let step = Self.optional(item["step"], \.string),
                        let identifier = Self.optional(item["identifier"], \.string) else { return nil }
                  return NamedFile(name: name, step: step, identifier: identifier)
              }),
              let tappingIdentifiers = Self.array(object["tappingIdentifiers"], { Self.optional($0, \.string) })
        else { return nil }
        self.init(sha256: sha256, bytes: bytes, error: "")
        (self.category, self.loadError, self.loadNeedsMemory) = (category, loadError, loadNeedsMemory)
        (self.uploadManifest, self.uploadItem, self.uploadMetadata) = (uploadManifest ?? false, uploadItem, uploadMetadata)
        (self.archiveEntries, self.namedFiles, self.tappingIdentifiers) = (archiveEntries, namedFiles, tappingIdentifiers)
        (self.motion, self.camera, self.splResult, self.dBHLResult) = (motion ?? false, camera ?? false, splResult ?? false, dBHLResult ?? false)
        (self.rangeOfMotionResult, self.timedWalkResult, self.audiogramRows) = (rangeOfMotionResult ?? false, timedWalkResult ?? false, audiogramRows ?? 0)
        (self.kindName, self.detail) = (kindName ?? "", detail ?? "")
    }

    /// A whole number that an `Int` holds exactly.
    private static func integer(_ value: JSONValue?) -> Int? {
        value?.number.flatMap { Int(exactly: $0) }
    }

    /// `.some(nil)` for an absent key or null, `.some(x)` when `read` takes the value, nil when it
    /// does not (the decoder's `decodeIfPresent`).
    private static func optional<T>(_ value: JSONValue?, _ read: (JSONValue) -> T?) -> T?? {
        guard let value, value != .null else { return .some(nil) }
        return read(value).map { .some($0) } ?? .none
    }

    /// Every element read by `read` (none for an absent key or null), or nil when the value is not
    /// an array or one element is not read.
    private static func array<T>(_ value: JSONValue?, _ read: (JSONValue) -> T?) -> [T]? {
        guard let value, value != .null else { return [] }
        guard let elements = value.array else { return nil }
        var result: [T] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            guard let item = read(element) else { return nil }
            result.append(item)
        }
        return result
    }
}
