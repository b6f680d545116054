import InputGuards
import AudioIO
import SensorData

/// What a file is and holds: the answer of `activetask info` (and later, batch's inventory).
public struct FileDescription: Sendable {
    public var file: String
    /// `accelerometer`, `tapping result`, `audio`, `flattened archive`, …
    public var kind: String
    /// Layout or dialect: `data logger {"items":[…]}`, `AppCore`, `WAV FLOAT`, …
    public var dialect: String?
    /// Items, taps, frames, rows — whatever the kind counts.
    public var samples: Int?
    public var durationSeconds: Double?
    /// Median sampling rate from timestamps, or the audio rate, Hz.
    public var samplingRateHz: Double?
    public var channels: Int?
    /// What a result contains, one phrase each.
    public var contents: [String] = []
    /// Parts of a container (archive entries, results inside a task result).
    public var parts: [FileDescription] = []
    public var warnings: [String] = []

    public init(file: String, kind: String, dialect: String? = nil) {
        self.file = file
        self.kind = kind
        self.dialect = dialect
    }

    /// Describes the file at `path` (read once, ``LoadedInput``).
    ///
    /// - Parameter lenient: JSON with a torn tail keeps its complete items, with a warning.
    public static func describe(_ path: String, lenient: Bool = false) throws(ScoringError) -> FileDescription {
        try describe(LoadedInput.load(path, lenient: lenient))
    }

    /// Describes a loaded file.
    public static func describe(_ input: LoadedInput) throws(ScoringError) -> FileDescription {
        let path = input.path
        switch input.kind {
        case .json(let contents):
            return describe(contents)
        case .audio(let source):
            return try describeAudio(source)
        case .table(let table, let kind):
            do { return try describe(table, kind, file: path) } catch { throw .input(error) }
        case .text(let lines):
            var description = FileDescription(file: path, kind: "text document", dialect: "UTF-8 text, not a recording")
            description.samples = lines
            description.contents = ["\(lines) line(s)"]
            return description
        case .archive(let archive):
            var description = FileDescription(file: path, kind: "upload archive", dialect: "ZIP")
            description.samples = archive.entries.count
            description.contents = ["\(archive.entries.count) entries: \(archive.entries.map(\.name).joined(separator: ", "))"]
            description.parts = try archive.entries.map { entry throws(ScoringError) in try describe(entry.input) }
            return description
        case .binary:
            throw .input(ReadError(file: path, reason: .unrecognisedLayout(input.kind.summary), offset: 0))
        }
    }

    // MARK: - Audio

    static func describeAudio(_ source: AudioSource) throws(ScoringError) -> FileDescription {
        let decoder = try source.open()
        var format = decoder.format
        if format.frames == nil {
            // Containers decoded by FFmpeg: count the decoded frames (priming already trimmed).
            var frames: Int64 = 0
            do { try decoder.forEachBlock { _, count in frames += Int64(count) } } catch { throw ScoringError(.invalidInput, String(describing: error)) }
            format.frames = frames
        }
        var description = FileDescription(file: source.path, kind: "audio", dialect: "\(format.container) \(format.encoding)")
        description.samples = format.frames.map(Int.init)
        description.durationSeconds = format.durationSeconds
        description.samplingRateHz = format.sampleRateHz
        description.channels = format.channels
        description.warnings = AudioScoring.warnings(decoder)
        return description
    }

    // MARK: - CSV

    static func describe(_ table: CSVTable, _ kind: TableKind, file: String) throws(ReadError) -> FileDescription {
        switch kind {
        case .motion(let layout):
            let (series, warnings) = try SensorSeries.accelerometer(from: table, layout: layout, file: file)
            var description = describe(series, file: file, dialect: layout.summary)
            description.warnings = warnings.map(\.description)
            return description
        case .stepGroundTruth(let steps):
            var description = FileDescription(file: file, kind: "step ground truth", dialect: "CSV (Oxford step-counter layout: ns, foot contacts)")
            description.samples = table.rowCount
            description.durationSeconds = steps.durationSeconds
            description.contents = ["\(steps.stepCount) steps (0→1 transitions of either foot)"]
            return description
        case .audiogram(let audiograms):
            var description = FileDescription(file: file, kind: "audiogram table", dialect: "CSV (NHANES AUX columns)")
            description.samples = table.rowCount
            let frequencies = Set(audiograms.header.compactMap(AudiogramTable.frequencyHz(ofColumn:))).sorted().map { $0.compactDescription }
            description.contents = ["\(table.rowCount) audiogram row(s), frequencies \(frequencies.joined(separator: ", ")) Hz, dB HL"]
            return description
        case .other:
            break
        }
        var description = FileDescription(file: file, kind: "table", dialect: "CSV")
        description.samples = table.rowCount
        let names = table.header ?? table.columns.indices.map { "column \($0 + 1)" }
        description.contents = ["\(table.rowCount) row(s) × \(table.columns.count) column(s): \(names.joined(separator: ", "))"]
        return description
    }

    // MARK: - JSON

    public static func describe(_ contents: JSONContents) -> FileDescription {
        let layout = contents.layout
        var description: FileDescription
        switch layout {
        case .recorderLog, .bareItemArray:
            if let named = contents.series.first {
                description = describe(named.series, file: contents.file, dialect: layout.name)
            } else {
                description = FileDescription(file: contents.file, kind: "recorder items (empty)", dialect: layout.name)
                description.samples = 0
            }
        case .bareTappingSamples, .appCoreTappingResult:
            description = describe(contents.tappingResults.first ?? TappingResult(dialect: .appCore), file: contents.file)
            description.dialect = layout.name
        case .archiveManifest:
            description = describe(contents.manifest, file: contents.file)
        case .audiogramTable:
            description = FileDescription(file: contents.file, kind: "audiogram table", dialect: layout.name)
            let table = contents.audiograms
            description.samples = table?.rows.count
            let frequencies = Set(table?.columns.compactMap(AudiogramTable.frequencyHz(ofColumn:)) ?? []).sorted().map { $0.compactDescription }
            description.contents = ["\(table?.rows.count ?? 0) audiogram(s), columns \(table?.columns.joined(separator: ", ") ?? ""), frequencies \(frequencies.joined(separator: ", ")) Hz, dB HL"]
        case .flattenedArchive, .researchKitResult:
            let parts = contents.entries.isEmpty ? partsOf(contents) : contents.entries.map(describe)
            if parts.count == 1, case .researchKitResult = layout {
                description = parts[0]
                description.dialect = layout.name
            } else {
                let kind: String
                if case .researchKitResult(let root) = layout {
                    kind = parts.isEmpty ? "ResearchKit object (\(root))" : "ResearchKit result tree (\(root))"
                } else {
                    kind = "flattened archive"
                }
                description = FileDescription(file: contents.file, kind: kind, dialect: layout.name)
                description.parts = parts
                description.samples = parts.isEmpty ? nil : parts.count
                if !contents.archiveEntries.isEmpty {
                    description.contents.append("\(contents.archiveEntries.count) entries: \(contents.archiveEntries.joined(separator: ", "))")
                }
            }
            let classes = Dictionary(grouping: contents.otherClasses, by: { $0 }).map { "\($0.key)×\($0.value.count)" }.sorted()
            if !classes.isEmpty { description.contents.append("other classes: \(classes.joined(separator: ", "))") }
            for file in contents.fileResults {
                description.contents.append("file result \(file.identifier)\(file.stepIdentifier.map { " in step \($0)" } ?? ""): \(file.fileName ?? "?") (\(file.contentType ?? "?"))")
            }
        }
        description.warnings += contents.warnings.map(\.description)
        if case .flattenedArchive = layout {} else {
            description.warnings += contents.series.flatMap(\.warnings).map(\.description)
        }
        return description
    }

    /// One description per series and result in a container.
    static func partsOf(_ contents: JSONContents) -> [FileDescription] {
        var parts: [FileDescription] = []
        if let manifest = contents.manifest { parts.append(describe(manifest, file: contents.file)) }
        for named in contents.series {
            var part = describe(named.series, file: named.file, dialect: "recorder items")
            part.warnings = named.warnings.map(\.description) + part.warnings
            parts.append(part)
        }
        for result in contents.tappingResults { parts.append(describe(result, file: contents.file)) }
        for result in contents.splMeterResults {
            var part = FileDescription(file: contents.file, kind: "environment SPL meter result", dialect: "ORKEnvironmentSPLMeterResult")
            let levels = result.recordedSPLMeterSamplesDecibels
            part.samples = levels.count
            part.contents = ["\(levels.count) level(s)" + (levels.isEmpty ? "" : " \(format(levels.min()!))…\(format(levels.max()!)) dB"),
                             "sensitivity offset \(result.sensitivityOffsetDecibels.map(format) ?? "absent") dB"]
            parts.append(part)
        }
        for result in contents.rangeOfMotionResults {
            var part = FileDescription(file: contents.file, kind: "range of motion result", dialect: "ORKRangeOfMotionResult")
            part.contents = ["\(result.identifier.map { $0.isEmpty ? "(no identifier)" : $0 } ?? "(no identifier)"): start \(format(result.startDegrees))°, "
                + "finish \(format(result.finishDegrees))°, minimum \(format(result.minimumDegrees))°, maximum \(format(result.maximumDegrees))°, range \(format(result.rangeDegrees))°"]
            parts.append(part)
        }
        for result in contents.timedWalkResults {
            var part = FileDescription(file: contents.file, kind: "timed walk result", dialect: "ORKTimedWalkResult")
            part.contents = ["\(result.identifier.map { $0.isEmpty ? "(no identifier)" : $0 } ?? "(no identifier)"): \(format(result.distanceInMeters)) m asked, "
                + "\(format(result.durationSeconds)) s taken, limit \(result.timeLimitSeconds < 1e30 ? format(result.timeLimitSeconds) + " s" : "none")"]
            parts.append(part)
        }
        if !contents.questionAnswers.isEmpty {
            var part = FileDescription(file: contents.file, kind: "form answers", dialect: "ORK…QuestionResult")
            part.samples = contents.questionAnswers.count
            part.contents = contents.questionAnswers.map { answer in
                let value = switch answer.answer {
                case .number(let number)?: format(number)
                case .bool(let flag)?: flag ? "yes" : "no"
                case .choices(let choices)?: choices.joined(separator: ", ")
                case nil: "(skipped)"
                }
                return "\(answer.identifier.isEmpty ? "(no identifier)" : answer.identifier): \(value)"
            }
            parts.append(part)
        }
        for result in contents.dBHLResults {
            var part = FileDescription(file: contents.file, kind: "dB HL tone audiometry result", dialect: "ORKdBHLToneAudiometryResult")
            part.samples = result.samples.count
            part.contents = ["headphone \(result.headphoneType.map { $0.isEmpty ? "(empty)" : $0 } ?? "absent"), output volume \(result.outputVolume.map(format) ?? "absent")"]
            part.contents += result.samples.map { sample in
                "\(format(sample.frequencyHz)) Hz \(sample.channel == 0 ? "left" : "right"): "
                    + "\(sample.calculatedThresholdDecibelsHL.map { format($0) + " dB HL" } ?? "no threshold"), \(sample.units.count) presentation(s)"
            }
            parts.append(part)
        }
        for result in contents.toneAudiometryResults {
            var part = FileDescription(file: contents.file, kind: "tone audiometry result", dialect: "ORKToneAudiometryResult")
            part.samples = result.samples.count
            part.contents = ["output volume \(result.outputVolume.map(format) ?? "absent"), \(result.samples.count) sample(s)"]
            parts.append(part)
        }
        return parts
    }

    static func describe(_ series: SensorSeries, file: String, dialect: String) -> FileDescription {
        var description = FileDescription(file: file, kind: kindName(series.kind), dialect: dialect)
        description.samples = series.count
        description.durationSeconds = series.count > 1 ? series.durationSeconds : nil
        if [.accelerometer, .deviceMotion, .camera].contains(series.kind) {
            description.samplingRateHz = series.medianSamplingRateHz
        }
        if series.kind.isContinuous, let problem = series.detachedTimes {
            description.warnings.append("detachedTimes: \(problem); the analyzers refuse this file")
        }
        switch series.kind {
        case .pedometer:
            if let steps = series["numberOfSteps"]?.max() { description.contents.append("\(steps.compactDescription) steps (cumulative)") }
        case .healthQuantity:
            let units = Set(series.textColumn("unit")?.compactMap { $0 } ?? []).sorted()
            let types = Set(series.textColumn("type")?.compactMap { $0 } ?? []).sorted()
            description.contents.append("\(types.joined(separator: ", ")) in \(units.joined(separator: ", "))")
        case .location:
            let fixes = series["coordinate.latitude"]?.filter { !$0.isNaN }.count ?? 0
            description.contents.append("\(fixes) fix(es) with coordinates")
        default:
            break
        }
        return description
    }

    static func describe(_ result: TappingResult, file: String) -> FileDescription {
        var description = FileDescription(file: file, kind: "tapping result", dialect: result.dialect == .appCore ? "AppCore" : "ResearchKit serializer")
        description.samples = result.count
        if result.count > 1, let first = result.timestamp.min(), let last = result.timestamp.max() {
            description.durationSeconds = last - first
        }
        let counts = TapButton.allCases.map { button in "\(button.researchKitName) \(result.button.filter { $0 == button }.count)" }
        var line = "\(result.count) taps (\(counts.joined(separator: ", ")))"
        if let identifier = result.identifier { line += ", step \(identifier)" }
        description.contents.append(line)
        if let size = result.stepViewSize { description.contents.append("view \(format(size.width))×\(format(size.height)) pt") }
        if let left = result.buttonRectLeft, let right = result.buttonRectRight {
            description.contents.append("buttons left \(rect(left)), right \(rect(right))")
        }
        if result.duration.contains(where: { !$0.isNaN }) { description.contents.append("tap durations present") }
        let decreasing = result.decreasingTimestampPairs
        if decreasing > 0 { description.warnings.append(ReadWarning.unsortedTimestamps(count: decreasing).description + " (kept in recorded order for analysis)") }
        return description
    }

    static func describe(_ manifest: ArchiveManifest?, file: String) -> FileDescription {
        var description = FileDescription(file: file, kind: "archive manifest", dialect: "AppCore info.json")
        guard let manifest else { return description }
        description.samples = manifest.files.count
        description.contents.append("task run \(manifest.taskRun ?? "?"), item \"\(manifest.item ?? "?")\"")
        description.contents += manifest.files.map { "file \($0.filename) (\($0.contentType ?? "?"))" }
        return description
    }

    static func kindName(_ kind: RecorderKind) -> String {
        switch kind {
        case .accelerometer: "accelerometer"
        case .deviceMotion: "device motion"
        case .pedometer: "pedometer"
        case .healthQuantity: "health quantity"
        case .location: "location"
        case .touch: "touch"
        case .camera: "camera colour"
        }
    }

    static func rect(_ r: Rect) -> String {
        "{{\(format(r.origin.x)), \(format(r.origin.y))}, {\(format(r.size.width)), \(format(r.size.height))}}"
    }

    /// `value` to 4 decimals, trailing zeros removed (as it is from 1e15 on, where no decimal is
    /// left and the scaling would overflow beyond 1.8e304); `inf`, `-inf`, `nan` as the score
    /// tables print them.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
        return JSONWriter.number(abs(value) < 1e15 ? (value * 10_000).rounded() / 10_000 : value)
    }
}
