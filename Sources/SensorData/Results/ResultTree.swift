/// An `ORKFileResult` found in a result tree: a recorder file of the same upload
/// (docs/formats.md §6–7; the file URL is not serialized, only its last path component).
public struct FileResultReference: Sendable, Hashable {
    /// Configuration identifier (`accelerometer`, `deviceMotion`, `audio`, …).
    public var identifier: String
    /// Identifier of the enclosing step result (`tapping.right`, `walking.outbound`, …).
    public var stepIdentifier: String?
    public var contentType: String?
    public var fileName: String?
}

/// AppCore's archive manifest `info.json` (docs/formats.md §8.1).
public struct ArchiveManifest: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public var filename: String
        public var timestamp: DateString?
        public var contentType: String?
    }

    /// The task run's UUID (`taskRun`; SageResearch: `taskRunUUID`).
    public var taskRun: String?
    /// AppCore's task name (`"Voice Activity"`).
    public var item: String?
    /// SageResearch/Bridge v2's task identifier (`"Tapping"`, `"WalkAndBalance"`).
    public var taskIdentifier: String?
    public var appName: String?
    public var appVersion: String?
    /// The phone model as the app reported it (`"iPhone 6"`).
    public var phoneInfo: String?
    public var files: [Entry]

    /// The task's name: `item`, else `taskIdentifier`.
    public var task: String? { item ?? taskIdentifier }

    static func decode(_ object: JSONObject, path: String, reader: ObjectReader) throws(ReadError) -> ArchiveManifest {
        var files: [Entry] = []
        for (index, value) in try reader.array(object["files"], path + "files").enumerated() {
            let at = "\(path)files[\(index)]"
            let entry = try reader.object(value, at)
            files.append(Entry(
                filename: try reader.string(entry["filename"], at + ".filename"),
                timestamp: try reader.optionalDate(entry["timestamp"], at + ".timestamp"),
                contentType: try reader.optionalString(entry["contentType"], at + ".contentType")))
        }
        let taskRunUUID = try reader.optionalString(object["taskRunUUID"], path + "taskRunUUID")
        return ArchiveManifest(
            taskRun: try reader.optionalString(object["taskRun"], path + "taskRun") ?? taskRunUUID,
            item: try reader.optionalString(object["item"], path + "item"),
            taskIdentifier: try reader.optionalString(object["taskIdentifier"], path + "taskIdentifier"),
            appName: try reader.optionalString(object["appName"], path + "appName"),
            appVersion: try reader.optionalString(object["appVersion"], path + "appVersion"),
            phoneInfo: try reader.optionalString(object["phoneInfo"], path + "phoneInfo"),
            files: files)
    }
}

/// Walks a dialect-A result tree (docs/formats.md §7): every object with a `results` array is
/// descended into, results are selected by `_class`, unknown classes are listed and walked.
struct ResultTreeWalker {
    let reader: ObjectReader
    var contents: JSONContents

    mutating func walk(_ value: JSONValue, path: String, step: String?) throws(ReadError) {
        switch value {
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                try walk(element, path: "\(path)[\(index)]", step: step)
            }
        case .object(let object):
            try visit(object, path: path, step: step)
        default:
            break
        }
    }

    private mutating func visit(_ object: JSONObject, path: String, step: String?) throws(ReadError) {
        let className = try reader.optionalString(object["_class"], prefix(path) + "_class")
        let at = prefix(path)
        var step = step
        switch className {
        case "ORKTappingIntervalResult":
            var result = try TappingResult.researchKit(object, path: at, reader: reader)
            if let step { result.identifier = step }
            contents.tappingResults.append(result)
        case "ORKEnvironmentSPLMeterResult":
            contents.splMeterResults.append(try SPLMeterResult.decode(object, path: at, reader: reader))
        case "ORKRangeOfMotionResult":
            var result = try RangeOfMotionResult.decode(object, path: at, reader: reader)
            if result.identifier?.isEmpty != false, let step { result.identifier = step }
            contents.rangeOfMotionResults.append(result)
        case "ORKTimedWalkResult":
            var result = try TimedWalkResult.decode(object, path: at, reader: reader)
            if result.identifier?.isEmpty != false, let step { result.identifier = step }
            contents.timedWalkResults.append(result)
        case "ORKScaleQuestionResult", "ORKBooleanQuestionResult", "ORKChoiceQuestionResult":
            contents.questionAnswers.append(try QuestionAnswer.decode(className ?? "", object, path: at, reader: reader))
        case "ORKdBHLToneAudiometryResult":
            contents.dBHLResults.append(try DBHLToneAudiometryResult.decode(object, path: at, reader: reader))
        case "ORKToneAudiometryResult":
            contents.toneAudiometryResults.append(try ToneAudiometryResult.decode(object, path: at, reader: reader))
        case "ORKFileResult":
            contents.fileResults.append(FileResultReference(
                identifier: try reader.optionalString(object["identifier"], at + "identifier") ?? "",
                stepIdentifier: step,
                contentType: try reader.optionalString(object["contentType"], at + "contentType"),
                fileName: try reader.optionalString(object["fileName"], at + "fileName")))
        case "ORKStepResult":
            step = try reader.optionalString(object["identifier"], at + "identifier")
            contents.otherClasses.append("ORKStepResult")
        case let name?:
            contents.otherClasses.append(name)
        case nil:
            break
        }
        if let results = object["results"], results != .null {
            try walk(.array(try reader.array(results, at + "results")), path: at + "results", step: step)
        }
    }

    private func prefix(_ path: String) -> String { path.isEmpty ? "" : path + "." }
}
