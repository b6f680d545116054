/// `ORKTimedWalkResult` (docs/formats.md §10.5): one trial of ResearchKit's timed walk
/// (`timed.walk.trial1`, `timed.walk.turn.around`, `timed.walk.trial2`).
public struct TimedWalkResult: Sendable, Hashable {
    /// The step's identifier.
    public var identifier: String?
    /// When the step began, as recorded.
    public var startDate: DateString?
    /// When the step ended, as recorded.
    public var endDate: DateString?
    /// The distance the task asked for (not measured), m.
    public var distanceInMeters: Double
    /// The trial's time limit, s (ResearchKit writes CGFLOAT_MAX for none).
    public var timeLimitSeconds: Double
    /// The time the trial took, s.
    public var durationSeconds: Double

    public init(identifier: String? = nil, startDate: DateString? = nil, endDate: DateString? = nil,
                distanceInMeters: Double, timeLimitSeconds: Double, durationSeconds: Double) {
        self.identifier = identifier
        self.startDate = startDate
        self.endDate = endDate
        self.distanceInMeters = distanceInMeters
        self.timeLimitSeconds = timeLimitSeconds
        self.durationSeconds = durationSeconds
    }

    /// The distance a timed walk asks for, m (ResearchKit's default is 100 ft): 100 km is no
    /// walk test's, nor 1e300 m or −1 m.
    public static let plausibleMeters: ClosedRange<Double> = 0...100_000
    /// The time a trial took, s (ResearchKit's default limit is 180 s): a day holds any.
    public static let plausibleSeconds: ClosedRange<Double> = 0...86_400

    /// Distance and duration within their plausible ranges; a time limit not negative and finite,
    /// possibly ResearchKit's "none" (CGFLOAT_MAX), else refused naming the key.
    static func decode(_ object: JSONObject, path: String, reader: ObjectReader) throws(ReadError) -> TimedWalkResult {
        func value(_ key: String, _ what: String, _ range: ClosedRange<Double>, _ unit: String) throws(ReadError) -> Double {
            try reader.plausible(reader.number(object[key], path + key), path + key, what, range, unit)
        }
        return TimedWalkResult(
            identifier: try reader.optionalString(object["identifier"], path + "identifier"),
            startDate: try reader.optionalDate(object["startDate"], path + "startDate"),
            endDate: try reader.optionalDate(object["endDate"], path + "endDate"),
            distanceInMeters: try value("distanceInMeters", "distance", plausibleMeters, " m"),
            timeLimitSeconds: try value("timeLimit", "time limit", 0...Double.greatestFiniteMagnitude, " s"),
            durationSeconds: try value("duration", "duration", plausibleSeconds, " s"))
    }

    /// `ORKTimedWalkResult` in dialect A.
    public var researchKitJSON: JSONValue {
        var object = JSONObject()
        object.append("_class", .string("ORKTimedWalkResult"))
        object.append("identifier", .string(identifier ?? ""))
        object.append("startDate", startDate.map { .string($0.researchKitText) })
        object.append("endDate", endDate.map { .string($0.researchKitText) })
        object.append("userInfo", .object(JSONObject()))
        object.append("distanceInMeters", .number(distanceInMeters))
        object.append("timeLimit", .number(timeLimitSeconds))
        object.append("duration", .number(durationSeconds))
        return .object(object)
    }
}

/// A form answer of a task (docs/formats.md §10.5): an `ORKScaleQuestionResult`,
/// `ORKBooleanQuestionResult` or `ORKChoiceQuestionResult`, by its question's identifier.
public struct QuestionAnswer: Sendable, Hashable {
    public enum Answer: Sendable, Hashable {
        /// `scaleAnswer`.
        case number(Double)
        /// `booleanAnswer`.
        case bool(Bool)
        /// `choiceAnswers`, each as its text (a number choice written as JSON writes it).
        case choices([String])
    }

    /// The question's identifier (`6mwt.fatigue`, `timed.walk.form.afo`).
    public var identifier: String
    /// The answer; nil when the participant skipped the question.
    public var answer: Answer?

    public init(identifier: String, answer: Answer?) {
        self.identifier = identifier
        self.answer = answer
    }

    static func decode(_ className: String, _ object: JSONObject, path: String, reader: ObjectReader) throws(ReadError) -> QuestionAnswer {
        let identifier = try reader.optionalString(object["identifier"], path + "identifier") ?? ""
        switch className {
        case "ORKScaleQuestionResult":
            let value = try reader.optionalNumber(object["scaleAnswer"], path + "scaleAnswer")
            if let value, !value.isFinite { throw reader.error(.invalidValue("scaleAnswer must be a finite number, found \(value)"), path + "scaleAnswer") }
            return QuestionAnswer(identifier: identifier, answer: value.map(Answer.number))
        case "ORKBooleanQuestionResult":
            // The serializer writes an NSNumber: 0 or 1 (ResearchKit's own sample has 123: any non-zero is yes).
            switch object["booleanAnswer"] {
            case nil, .null?: return QuestionAnswer(identifier: identifier, answer: nil)
            case .bool(let flag)?: return QuestionAnswer(identifier: identifier, answer: .bool(flag))
            case .number(let number)? where number.isFinite: return QuestionAnswer(identifier: identifier, answer: .bool(number != 0))
            case let other?: throw reader.error(.invalidValue("booleanAnswer must be true, false or a finite number, found \(JSONWriter().string(other))"), path + "booleanAnswer")
            }
        default:
            guard let values = object["choiceAnswers"], values != .null else { return QuestionAnswer(identifier: identifier, answer: nil) }
            var choices: [String] = []
            for (index, value) in try reader.array(values, path + "choiceAnswers").enumerated() {
                switch value {
                case .string(let text): choices.append(text)
                case .number(let number) where number.isFinite: choices.append(JSONWriter.number(number))
                default: throw reader.error(.invalidValue("a choice answer must be a string or a finite number, found \(JSONWriter().string(value))"), "\(path)choiceAnswers[\(index)]")
                }
            }
            return QuestionAnswer(identifier: identifier, answer: .choices(choices))
        }
    }

    /// The answer as its ResearchKit result in dialect A.
    public var researchKitJSON: JSONValue {
        var object = JSONObject()
        switch answer {
        case .number(let value)?:
            object.append("_class", .string("ORKScaleQuestionResult"))
            object.append("scaleAnswer", .number(value))
        case .bool(let flag)?:
            object.append("_class", .string("ORKBooleanQuestionResult"))
            object.append("booleanAnswer", .number(flag ? 1 : 0))
        case .choices(let choices)?:
            object.append("_class", .string("ORKChoiceQuestionResult"))
            object.append("choiceAnswers", .array(choices.map { .string($0) }))
        case nil:
            object.append("_class", .string("ORKChoiceQuestionResult"))
            object.append("choiceAnswers", .null)
        }
        object.append("identifier", .string(identifier))
        object.append("userInfo", .object(JSONObject()))
        return .object(object)
    }
}
