import Foundation
import SensorData
import Testing

/// ORKTimedWalkResult and the form's question results as a task result holds them
/// (docs/formats.md §10.5): read back as written, the serializer's spellings included.
@Suite struct WalkTestResultTests {
    /// The task result's text, ±∞ written as overflowing literals (how serializers spell them).
    static func decode(_ results: [JSONValue], step: String = "timed.walk.trial1") throws -> JSONContents {
        var stepResult = JSONObject()
        stepResult.append("_class", .string("ORKStepResult"))
        stepResult.append("identifier", .string(step))
        stepResult.append("results", .array(results))
        var task = JSONObject()
        task.append("_class", .string("ORKTaskResult"))
        task.append("results", .array([.object(stepResult)]))
        let text = JSONWriter().string(.object(task)).replacingOccurrences(of: #""-Infinity""#, with: "-1e400").replacingOccurrences(of: #""Infinity""#, with: "1e400")
        return try JSONContents.decode(Array(text.utf8), file: "task.json")
    }

    @Test("an ORKTimedWalkResult and scale, yes/no and choice answers read back as written")
    func roundTrip() throws {
        let walk = TimedWalkResult(identifier: "", distanceInMeters: 7.62, timeLimitSeconds: 180, durationSeconds: 6.25)
        let answers = [QuestionAnswer(identifier: "6mwt.fatigue", answer: .number(7)), QuestionAnswer(identifier: "timed.walk.form.afo", answer: .bool(true)),
                       QuestionAnswer(identifier: "timed.walk.form.assistance", answer: .choices(["TIMED_WALK_QUESTION_2_CHOICE_3"])),
                       QuestionAnswer(identifier: "skipped", answer: nil)]
        let contents = try Self.decode([walk.researchKitJSON] + answers.map(\.researchKitJSON))
        var expected = walk
        expected.identifier = "timed.walk.trial1"  // an empty identifier takes its step's
        #expect(contents.timedWalkResults == [expected])
        #expect(contents.questionAnswers == answers)
    }

    @Test("the serializer's spellings: booleanAnswer a number (any non-zero is yes), choices numbers; non-finite values refused with their path")
    func spellings() throws {
        let yes = try Self.decode([.object(JSONObject(["_class": .string("ORKBooleanQuestionResult"), "identifier": .string("q"), "booleanAnswer": .number(123)]))])
        #expect(yes.questionAnswers == [QuestionAnswer(identifier: "q", answer: .bool(true))])
        let numbers = try Self.decode([.object(JSONObject(["_class": .string("ORKChoiceQuestionResult"), "identifier": .string("q"), "choiceAnswers": .array([.number(2), .string("b")])]))])
        #expect(numbers.questionAnswers == [QuestionAnswer(identifier: "q", answer: .choices(["2", "b"]))])
        let bad: [(JSONObject, String)] = [
            (JSONObject(["_class": .string("ORKTimedWalkResult"), "distanceInMeters": .number(.infinity), "timeLimit": .number(1), "duration": .number(1)]), "distance inf m is outside 0–100000 m"),
            (JSONObject(["_class": .string("ORKTimedWalkResult"), "distanceInMeters": .number(1), "timeLimit": .number(1)]), "duration"),
            (JSONObject(["_class": .string("ORKScaleQuestionResult"), "scaleAnswer": .number(-.infinity)]), "scaleAnswer must be a finite number"),
            (JSONObject(["_class": .string("ORKBooleanQuestionResult"), "booleanAnswer": .string("yes")]), "booleanAnswer must be true, false or a finite number"),
            (JSONObject(["_class": .string("ORKChoiceQuestionResult"), "choiceAnswers": .array([.object(JSONObject())])]), "choiceAnswers[0]"),
        ]
        for (object, message) in bad {
            #expect {
                _ = try Self.decode([.object(object)])
            } throws: { error in
                "\(error)".contains(message)
            }
        }
    }
}
