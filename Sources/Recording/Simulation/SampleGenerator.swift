import InputGuards
import AudioIO
import Foundation
import SensorData
import SignalProcessing

/// The sample recordings: a 10 s walk, a 5 s standing device-motion record, pedometer, heart
/// rate, location, touch, tapping results in both dialects, an SPL-meter result, a dB HL result,
/// a CSV walk in the Oxford layout, a knee range-of-motion task, a timed walk and a 3 s synthetic "aaah".
public struct SampleGenerator: Sendable {
    /// Writes `SampleData/`: one deterministic recording per kind into `folder` (created if
    /// missing): every file or none, none replacing a file of other content (a folder written
    /// before with the same seed is left as it is). Same seed → byte-identical files.
    public static func writeSampleData(to folder: String, seed: UInt64) throws {
        try FileSystem.makeDirectories(folder)
        var generator = SampleGenerator(seed: seed)
        var files: [OutputFile] = []
        for (name, bytes) in try generator.jsonFiles() {
            let file = try OutputFile(folder + "/" + name, inputs: [])
            files.append(file)
            try file.write(bytes)
        }
        files.append(try generator.voiceFile(folder + "/voice_aaah.wav"))
        try OutputFile.commitAll(files)
    }

    public var random: SplitMix64
    /// 2026-01-01T12:00:00+0100.
    let start = DateString(secondsSince1970: 1_767_265_200, utcOffsetSeconds: 3600)
    /// Seconds since boot at the start.
    let uptime = 86_400.0

    public init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    mutating func uuid() -> String {
        let hex = (0..<2).map { _ in String(random.next(), radix: 16, uppercase: true) }
            .map { String(repeating: "0", count: 16 - $0.count) + $0 }.joined()
        let c = Array(hex)
        return "\(String(c[0..<8]))-\(String(c[8..<12]))-\(String(c[12..<16]))-\(String(c[16..<20]))-\(String(c[20..<32]))"
    }

    mutating func fileName(_ type: String, stampSeconds: Double) -> String {
        let id = uuid().replacingOccurrences(of: "-", with: "_")
        let local = DateString(secondsSince1970: start.secondsSince1970 + stampSeconds, utcOffsetSeconds: start.utcOffsetSeconds).researchKitText
        let stamp = local.prefix(19).filter(\.isNumber)
        return "\(type)_\(id)-\(stamp).json"
    }

    /// The JSON and CSV files of `SampleData/`: (file name, bytes).
    public mutating func jsonFiles() throws -> [(String, [UInt8])] {
        var files: [(String, [UInt8])] = []
        let walk = walkSeries(seconds: 10, cadenceStepsPerMinute: 108)
        files.append((fileName("accel", stampSeconds: 10), try RecorderItemEncoder(kind: .accelerometer).document(walk)))
        files.append((fileName("deviceMotion", stampSeconds: 5), try RecorderItemEncoder(kind: .deviceMotion).document(standingMotion(seconds: 5))))
        files.append((fileName("pedometer", stampSeconds: 10), try RecorderItemEncoder(kind: .pedometer).document(pedometer(seconds: 10, cadence: 108))))
        files.append((fileName("HKQuantityTypeIdentifierHeartRate", stampSeconds: 60), try RecorderItemEncoder(kind: .healthQuantity).document(heartRate())))
        files.append((fileName("location", stampSeconds: 10), try RecorderItemEncoder(kind: .location).document(location())))
        files.append((fileName("touch", stampSeconds: 2), try RecorderItemEncoder(kind: .touch).document(touches())))
        let tapping = tappingResult()
        let writer = JSONWriter()
        files.append(("tapping_results.json", JSONWriter(indent: 2).bytes(tapping.appCoreJSON)))
        files.append(("tapping_task_result.json", writer.bytes(taskResult(tapping))))
        files.append(("spl_meter_result.json", writer.bytes(splResult().researchKitJSON)))
        files.append(("dbhl_tone_audiometry_result.json", writer.bytes(dBHLResult().researchKitJSON)))
        files.append(("walk_accelerometer.csv", oxfordCSV(walk)))
        files += try rangeOfMotionTask()
        files += try timedWalkTask()
        files += try tremorTask()
        files.append(("heartRate_before_recorder.json", try cameraHeartRate()))
        return files
    }

    /// mPower 2's camera heart-rate recording (docs/analyses.md §7.5), as CardiorespiratoryFitness'
    /// recorder writes it: a bare array whose first item marks the step (times, no colours), then
    /// 30 s of frames at 60 frames/s from 0.4 s on with the mean red, green and blue of a finger
    /// over the flash: a pulse of 75 beats/min (a systolic bump and a smaller dicrotic one), a
    /// breathing drift of 0.25 Hz and noise. The noise has a generator of its own.
    func cameraHeartRate() throws -> [UInt8] {
        var random = SplitMix64(seed: 0x4EA2_7BEA)
        var series = SensorSeries(kind: .camera)
        series.append(numbers: [0, uptime] + Array(repeating: .nan, count: 7))
        for frame in 0..<1_800 {
            let t = 0.4 + Double(frame) / 60
            let phase = (t * 75 / 60).truncatingRemainder(dividingBy: 1)
            let beat = exp(-pow((phase - 0.25) / 0.08, 2)) + 0.4 * exp(-pow((phase - 0.55) / 0.1, 2))
            let drift = 0.02 * sin(2 * .pi * 0.25 * t)
            series.append(numbers: [
                rounded(t, 6), rounded(uptime + t, 6),
                rounded(0.9 - 0.01 * beat + drift + 0.002 * random.normal(), 6),
                rounded(0.2 - 0.02 * beat + drift / 2 + 0.002 * random.normal(), 6),
                rounded(0.1 - 0.015 * beat + drift / 3 + 0.002 * random.normal(), 6),
                .nan, .nan, .nan, .nan,
            ])
        }
        let encoder = RecorderItemEncoder(kind: .camera)
        let items = try (0..<series.count).map { index throws(RecorderItemEncoder.EncodingError) in try encoder.item(index, of: series) }
        var marker = items[0].object!
        marker.append("stepPath", .string("Heart Rate Measurement/heartRate_before"))
        return JSONWriter().bytes(.array([.object(marker)] + items.dropFirst()))
    }

    /// ResearchKit's tremor task for the right hand (docs/analyses.md §7.4): its five 10-s
    /// device-motion recordings at 100 Hz (`ac1_motion` … `ac5_motion`), each with a tremor of
    /// known frequency on the user acceleration (0.02 g) and rotation rate (0.3 rad/s) — 5 Hz in
    /// the lap, 6 Hz at shoulder length, 6.5 Hz with the elbow bent, 4.5 Hz to the nose and 5.5 Hz
    /// in the queen wave, the two moving positions also with a 0.5-Hz arm movement — sensor noise,
    /// and the task result whose steps tremor.<position>.right name the files. The noise has a
    /// generator of its own: the files made after these are the same with or without them.
    func tremorTask() throws -> [(String, [UInt8])] {
        var random = SplitMix64(seed: 0x7E3A_0D1C)
        let positions: [(step: String, tremorHz: Double, moving: Bool)] = [
            ("handInLap", 5, false), ("handAtShoulderLength", 6, false), ("handAtShoulderLengthWithElbowBent", 6.5, false),
            ("handToNose", 4.5, true), ("handQueenWave", 5.5, true),
        ]
        var files: [(String, [UInt8])] = []
        var steps: [JSONValue] = []
        for (index, position) in positions.enumerated() {
            let offset = 60 + 15 * Double(index)
            var series = SensorSeries(kind: .deviceMotion)
            for i in 0..<1_000 {
                let t = Double(i) / 100
                let tremor = sin(2 * .pi * position.tremorHz * t), arm = position.moving ? sin(2 * .pi * 0.5 * t) : 0
                series.append(numbers: [
                    rounded(uptime + offset + t, 6), rounded(start.secondsSince1970 + offset + t, 6),
                    0, 0, 0, 1,
                    rounded(0.3 * tremor + 0.01 * random.normal(), 5), rounded(0.15 * tremor + 1.2 * arm, 5), rounded(0.01 * random.normal(), 5),
                    0, rounded(-0.2 * arm, 5), -1,
                    rounded(0.02 * tremor + 0.002 * random.normal(), 6), rounded(0.01 * tremor + 0.1 * arm, 6), rounded(0.002 * random.normal(), 6),
                    0, 0, 0, -1,
                ])
            }
            let fileName = "ac\(index + 1)_motion_right.json"
            files.append((fileName, try RecorderItemEncoder(kind: .deviceMotion).document(series)))
            let begin = DateString(secondsSince1970: start.secondsSince1970 + offset, utcOffsetSeconds: start.utcOffsetSeconds).researchKitText
            let end = DateString(secondsSince1970: start.secondsSince1970 + offset + 10, utcOffsetSeconds: start.utcOffsetSeconds).researchKitText
            let file = JSONValue.object(JSONObject([
                "_class": .string("ORKFileResult"), "identifier": .string("ac\(index + 1)_motion"),
                "startDate": .string(begin), "endDate": .string(end), "userInfo": .object(JSONObject()),
                "contentType": .string("application/json"), "fileName": .string(fileName),
            ]))
            steps.append(.object(JSONObject([
                "_class": .string("ORKStepResult"), "identifier": .string("tremor.\(position.step).right"),
                "startDate": .string(begin), "endDate": .string(end), "userInfo": .object(JSONObject()),
                "isPreviousResult": .bool(false), "results": .array([file]),
            ])))
        }
        let begin = DateString(secondsSince1970: start.secondsSince1970 + 60, utcOffsetSeconds: start.utcOffsetSeconds).researchKitText
        let end = DateString(secondsSince1970: start.secondsSince1970 + 130, utcOffsetSeconds: start.utcOffsetSeconds).researchKitText
        let task = JSONValue.object(JSONObject([
            "_class": .string("ORKTaskResult"), "identifier": .string("tremorTest"),
            "taskRunUUID": .string("5A3D2C1B-0000-4000-8000-00000000C0D1"), "startDate": .string(begin), "endDate": .string(end),
            "userInfo": .object(JSONObject()), "results": .array(steps),
        ]))
        return files + [("tremor_task_result.json", JSONWriter().bytes(task))]
    }

    /// ResearchKit's timed walk (docs/analyses.md §7.2), made without randomness: two 25-ft
    /// (7.62 m) trials of 6 and 6.5 s, each with 100-Hz accelerometer items (110 steps/min),
    /// pedometer updates once a second (cumulative, 0.7 m a step) and location fixes once a second
    /// walking due north along a meridian (5 m accuracy; one fix of trial 2 at 65 m, which the
    /// default 20-m limit leaves out) so that the fixes span exactly 7.62 m; the task result holds
    /// the two ORKTimedWalkResults and the form's answers (no ankle-foot orthosis, no assistance).
    func timedWalkTask() throws -> [(String, [UInt8])] {
        var files: [(String, [UInt8])] = []
        var stepResults: [JSONValue] = []
        let metersPerDegree = Earth.meanRadiusMeters * .pi / 180
        for (trial, (offset, duration)) in [(30.0, 6.0), (60.0, 6.5)].enumerated() {
            let number = trial + 1
            let begin = start.secondsSince1970 + 60 + offset
            var motion = SensorSeries(kind: .accelerometer)
            for i in 0...Int(duration * 100) {
                let t = Double(i) / 100, phase = 2 * .pi * 110 / 60 * t
                motion.append(numbers: [uptime + 60 + offset + t, begin + t, 0.05 * sin(phase / 2), 0, -1 + 0.3 * sin(phase)])
            }
            var pedometer = SensorSeries(kind: .pedometer, utcOffsetSeconds: start.utcOffsetSeconds)
            for second in 1...Int(duration) {
                let steps = (110.0 / 60 * Double(second)).rounded(.down)
                pedometer.append(numbers: [begin, begin + Double(second), steps, steps * 0.7, .nan, .nan])
            }
            var location = SensorSeries(kind: .location, utcOffsetSeconds: start.utcOffsetSeconds)
            let fixes = Int(duration.rounded(.up))
            for fix in 0...fixes {
                let north = 7.62 * Double(fix) / Double(fixes)
                let accuracy = number == 2 && fix == 3 ? 65.0 : 5.0
                location.append(numbers: [begin + Double(fix) * duration / Double(fixes), 51.75 + north / metersPerDegree, -1.25, accuracy, 60, 4, 0, 1.27, .nan])
            }
            let names = [("accel", motion, "accelerometer"), ("pedometer", pedometer, "pedometer"), ("location", location, "location")].map { type, series, identifier in
                (name: "timed_walk_trial\(number)_\(type).json", series: series, identifier: identifier)
            }
            for file in names { files.append((file.name, try RecorderItemEncoder(kind: file.series.kind).document(file.series))) }
            let from = DateString(secondsSince1970: begin, utcOffsetSeconds: start.utcOffsetSeconds).researchKitText
            let to = DateString(secondsSince1970: begin + duration, utcOffsetSeconds: start.utcOffsetSeconds).researchKitText
            let identifier = "timed.walk.trial\(number)"
            let fileResults = names.map { file in
                JSONValue.object(JSONObject([
                    "_class": .string("ORKFileResult"), "identifier": .string(file.identifier), "startDate": .string(from), "endDate": .string(to),
                    "userInfo": .object(JSONObject()), "contentType": .string("application/json"), "fileName": .string(file.name),
                ]))
            }
            let result = TimedWalkResult(identifier: identifier, startDate: DateString(from), endDate: DateString(to),
                                         distanceInMeters: 7.62, timeLimitSeconds: 180, durationSeconds: duration)
            stepResults.append(.object(JSONObject([
                "_class": .string("ORKStepResult"), "identifier": .string(identifier), "startDate": .string(from), "endDate": .string(to),
                "userInfo": .object(JSONObject()), "isPreviousResult": .bool(false), "results": .array(fileResults + [result.researchKitJSON]),
            ])))
        }
        let form = JSONValue.object(JSONObject([
            "_class": .string("ORKStepResult"), "identifier": .string("timed.walk.form"), "userInfo": .object(JSONObject()),
            "isPreviousResult": .bool(false),
            "results": .array([QuestionAnswer(identifier: "timed.walk.form.afo", answer: .bool(false)).researchKitJSON,
                               QuestionAnswer(identifier: "timed.walk.form.assistance", answer: .choices(["TIMED_WALK_QUESTION_2_CHOICE"])).researchKitJSON]),
        ]))
        let task = JSONValue.object(JSONObject([
            "_class": .string("ORKTaskResult"), "identifier": .string("timedWalk"),
            "taskRunUUID": .string("5A3D2C1B-0000-4000-8000-00000000A0B2"), "userInfo": .object(JSONObject()), "results": .array([form] + stepResults),
        ]))
        files.append(("timed_walk_task_result.json", JSONWriter().bytes(task)))
        return files
    }

    /// ResearchKit's knee range-of-motion task (docs/analyses.md §7.1), made without randomness:
    /// 8 s of device motion at 100 Hz, the phone on the shin at a pitch of 85°, the knee bending
    /// to 110° from the start (a cosine ease over 1–4 s), held, and straightening to 100° (6–8 s):
    /// relative pitch 0 … −110 … −100. Its task result holds the step's file result and the
    /// `ORKRangeOfMotionResult` those angles give by the step's rules, worked by hand: start
    /// 90 − 85 = 5, finish 5 − (−100) = 105, minimum 5 − 0 = 5, maximum 5 − (−110) = 115, range 110.
    func rangeOfMotionTask() throws -> [(String, [UInt8])] {
        var series = SensorSeries(kind: .deviceMotion)
        for i in 0...800 {
            let t = Double(i) / 100
            let relative = t <= 1 ? 0 : t <= 4 ? -55 * (1 - cos(.pi * (t - 1) / 3)) : t <= 6 ? -110 : -110 + 5 * (1 - cos(.pi * (t - 6) / 2))
            let rate = t <= 1 || (t > 4 && t <= 6) ? 0 : t <= 4 ? -55 * .pi / 3 * sin(.pi * (t - 1) / 3) : 5 * .pi / 2 * sin(.pi * (t - 6) / 2)
            let pitch = (85 + relative) * .pi / 180
            series.append(numbers: [
                uptime + 30 + t, start.secondsSince1970 + 30 + t,
                sin(pitch / 2), 0, 0, cos(pitch / 2),
                rate * .pi / 180, 0, 0,
                0, -sin(pitch), -cos(pitch),
                0, 0, 0,
                0, 0, 0, -1,
            ])
        }
        let motionFile = "range_of_motion_deviceMotion.json"
        let begin = DateString(secondsSince1970: start.secondsSince1970 + 30, utcOffsetSeconds: start.utcOffsetSeconds).researchKitText
        let end = DateString(secondsSince1970: start.secondsSince1970 + 38, utcOffsetSeconds: start.utcOffsetSeconds).researchKitText
        let file = JSONValue.object(JSONObject([
            "_class": .string("ORKFileResult"), "identifier": .string("deviceMotion"),
            "startDate": .string(begin), "endDate": .string(end), "userInfo": .object(JSONObject()),
            "contentType": .string("application/json"), "fileName": .string(motionFile),
        ]))
        let result = RangeOfMotionResult(identifier: "knee.range.of.motion", startDate: DateString(begin), endDate: DateString(end),
                                         startDegrees: 5, finishDegrees: 105, minimumDegrees: 5, maximumDegrees: 115, rangeDegrees: 110)
        let step = JSONValue.object(JSONObject([
            "_class": .string("ORKStepResult"), "identifier": .string("knee.range.of.motion"),
            "startDate": .string(begin), "endDate": .string(end), "userInfo": .object(JSONObject()),
            "isPreviousResult": .bool(false), "results": .array([file, result.researchKitJSON]),
        ]))
        let task = JSONValue.object(JSONObject([
            "_class": .string("ORKTaskResult"), "identifier": .string("kneeRangeOfMotion"),
            "taskRunUUID": .string("5A3D2C1B-0000-4000-8000-00000000A0B1"), "startDate": .string(begin), "endDate": .string(end),
            "userInfo": .object(JSONObject()), "results": .array([step]),
        ]))
        return [(motionFile, try RecorderItemEncoder(kind: .deviceMotion).document(series)),
                ("range_of_motion_task_result.json", JSONWriter().bytes(task))]
    }

    /// Phone in a trouser pocket: gravity on −z, a vertical bounce at the step frequency, a
    /// lateral sway at half of it, sensor noise; 100 Hz with ±1 ms jitter.
    mutating func walkSeries(seconds: Double, cadenceStepsPerMinute: Double) -> SensorSeries {
        var series = SensorSeries(kind: .accelerometer)
        let stepHz = cadenceStepsPerMinute / 60
        for i in 0..<Int(clamping: seconds * 100, to: 0...Int.max) {
            let t = Double(i) / 100 + 0.001 * (random.unit() - 0.5)
            let bounce = 0.28 * sin(2 * .pi * stepHz * t) + 0.08 * sin(4 * .pi * stepHz * t + 0.6)
            let sway = 0.06 * sin(.pi * stepHz * t)
            series.append(numbers: [
                rounded(uptime + t, 6), rounded(start.secondsSince1970 + t, 6),
                rounded(sway + 0.01 * random.normal(), 5), rounded(0.02 * random.normal(), 5),
                rounded(-1 + bounce + 0.01 * random.normal(), 5),
            ])
        }
        return series
    }

    mutating func standingMotion(seconds: Double) -> SensorSeries {
        var series = SensorSeries(kind: .deviceMotion)
        for i in 0..<Int(clamping: seconds * 100, to: 0...Int.max) {
            let t = Double(i) / 100
            let tilt = 0.002 * sin(2 * .pi * 0.3 * t)
            series.append(numbers: [
                rounded(uptime + t, 6), rounded(start.secondsSince1970 + t, 6),
                tilt, 0, 0, (1 - tilt * tilt).squareRoot(),
                rounded(0.01 * random.normal(), 5), rounded(0.01 * random.normal(), 5), rounded(0.01 * random.normal(), 5),
                0, rounded(-2 * tilt, 6), -1,
                rounded(0.005 * random.normal(), 5), rounded(0.005 * random.normal(), 5), rounded(0.005 * random.normal(), 5),
                0, 0, 0, -1,
            ])
        }
        return series
    }

    func pedometer(seconds: Int, cadence: Double) -> SensorSeries {
        var series = SensorSeries(kind: .pedometer, utcOffsetSeconds: start.utcOffsetSeconds)
        for second in 1...seconds {
            let steps = (cadence / 60 * Double(second)).rounded(.down)
            series.append(numbers: [start.secondsSince1970, start.secondsSince1970 + Double(second), steps, steps * 0.7, .nan, .nan])
        }
        return series
    }

    mutating func heartRate() -> SensorSeries {
        var series = SensorSeries(kind: .healthQuantity, utcOffsetSeconds: start.utcOffsetSeconds)
        for k in 0..<12 {
            let t = start.secondsSince1970 + Double(5 * k)
            series.append(numbers: [.nan, t, t, .nan, (72 + 4 * sin(Double(k) / 2) + random.normal()).rounded()],
                          strings: ["HKQuantityTypeIdentifierHeartRate", nil, nil, "count/min", nil, "ActiveTaskKit simulator"])
        }
        return series
    }

    /// Walking north-east at 1.3 m/s from Oxford's Radcliffe Camera (the simulator's walker), coordinates rounded to 1e-7°.
    mutating func location() -> SensorSeries {
        var series = SensorSeries(kind: .location, utcOffsetSeconds: start.utcOffsetSeconds)
        let walk = Simulator.walkerLocation(first: 0, count: 10, startSeconds: start.secondsSince1970)
        let time = walk.time, latitude = walk["coordinate.latitude"]!, longitude = walk["coordinate.longitude"]!
        for k in time.indices {
            series.append(numbers: [time[k], rounded(latitude[k], 7), rounded(longitude[k], 7), 5, 70, 8, 45, 1.3, .nan])
        }
        return series
    }

    func touches() -> SensorSeries {
        var series = SensorSeries(kind: .touch)
        for (k, phase) in [0.0, 1, 1, 3].enumerated() {
            series.append(numbers: [uptime + 0.05 * Double(k), phase, 0, 100 + 5 * Double(k), 300 - 2 * Double(k), 375, 667])
        }
        return series
    }

    /// 20 s of alternating two-finger tapping at ~5 Hz on the mPower layout (320×504 view,
    /// 104-point buttons), with a few outside taps.
    mutating func tappingResult() -> TappingResult {
        var result = TappingResult(dialect: .researchKit, identifier: "tapping.right")
        result.stepViewSize = Size(width: 320, height: 504)
        result.buttonRectLeft = Rect(origin: Point(x: 44, y: 364), size: Size(width: 104, height: 104))
        result.buttonRectRight = Rect(origin: Point(x: 172, y: 364), size: Size(width: 104, height: 104))
        result.startDate = start
        result.endDate = DateString(secondsSince1970: start.secondsSince1970 + 20, utcOffsetSeconds: start.utcOffsetSeconds)
        var t = 0.0
        var k = 0
        while t < 20 {
            let outside = k % 37 == 36
            let left = k % 2 == 0
            let rect = left ? result.buttonRectLeft! : result.buttonRectRight!
            let x = outside ? 160 + 10 * random.normal() : rect.center.x + 12 * random.normal()
            let y = outside ? 250 + 10 * random.normal() : rect.center.y + 12 * random.normal()
            result.append(timestamp: rounded(t, 6), x: rounded(x, 1), y: rounded(y, 1),
                          button: outside ? .none : (left ? .left : .right),
                          duration: outside ? 0 : rounded(0.08 + 0.02 * random.unit(), 4))
            t += 0.2 + 0.03 * random.normal()
            k += 1
        }
        return result
    }

    /// A task result holding the tapping step: the accelerometer file result first, the
    /// tapping result last (docs/formats.md §7).
    mutating func taskResult(_ tapping: TappingResult) -> JSONValue {
        let end = tapping.endDate!.researchKitText
        let file = JSONValue.object(JSONObject([
            "_class": .string("ORKFileResult"), "identifier": .string("accelerometer"),
            "startDate": .string(start.researchKitText), "endDate": .string(end), "userInfo": .object(JSONObject()),
            "contentType": .string("application/json"),
            "fileName": .string("accel_\(uuid().replacingOccurrences(of: "-", with: "_"))-20260101120020.json"),
        ]))
        let step = JSONValue.object(JSONObject([
            "_class": .string("ORKStepResult"), "identifier": .string("tapping.right"),
            "startDate": .string(start.researchKitText), "endDate": .string(end), "userInfo": .object(JSONObject()),
            "isPreviousResult": .bool(false), "results": .array([file, tapping.researchKitJSON]),
        ]))
        return .object(JSONObject([
            "_class": .string("ORKTaskResult"), "identifier": .string("twoFingerTappingIntervalTask"),
            "taskRunUUID": .string(uuid()), "startDate": .string(start.researchKitText), "endDate": .string(end),
            "userInfo": .object(JSONObject()),
            "device": .object(JSONObject(["_class": .string("ORKDevice"), "product": .string("ActiveTaskKit"),
                                          "osVersion": .string("Debian 12"), "osBuild": .string(""), "platform": .string("Linux")])),
            "results": .array([step]),
        ]))
    }

    /// A quiet room: levels around 31 dB with one door slam, so the 5-below-35 rule passes late.
    mutating func splResult() -> SPLMeterResult {
        var levels: [Double] = []
        for k in 0..<12 { levels.append(rounded((k == 3 ? 52 : 31) + 1.5 * random.normal(), 2)) }
        return SPLMeterResult(identifier: "splMeter", startDate: start,
                              endDate: DateString(secondsSince1970: start.secondsSince1970 + 13, utcOffsetSeconds: start.utcOffsetSeconds),
                              sensitivityOffsetDecibels: -23.3, recordedSPLMeterSamplesDecibels: levels)
    }

    /// Right ear, default frequency list, listener with a mild high-frequency loss (threshold k
    /// raised by `shiftsDecibels[k]` where given); the 8 kHz entry has no threshold.
    func dBHLResult(shiftsDecibels: [Double] = []) -> DBHLToneAudiometryResult {
        let thresholds: [(Double, Double?)] = [(1000, 15), (2000, 20), (3000, 25), (4000, 35), (8000, nil), (500, 10), (250, 10), (1000, 15)]
            .enumerated().map { k, entry in (entry.0, entry.1.map { $0 + (k < shiftsDecibels.count ? shiftsDecibels[k] : 0) }) }
        var time = 0.0
        let samples = thresholds.map { frequency, threshold in
            var units: [DBHLToneAudiometryResult.Unit] = []
            for level in stride(from: 30.0, through: threshold ?? 75, by: threshold.map { $0 < 30 ? -5 : 5 } ?? 15) {
                let heard = threshold.map { level >= $0 } ?? false
                units.append(.init(dBHLValue: level, startOfUnitTimeStamp: time, preStimulusDelay: 1.5,
                                   userTapTimeStamp: heard ? time + 2.0 : 0, timeoutTimeStamp: heard ? 0 : time + 3.5))
                time += 4
            }
            return DBHLToneAudiometryResult.FrequencySample(frequencyHz: frequency, channel: 1, calculatedThresholdDecibelsHL: threshold, units: units)
        }
        return DBHLToneAudiometryResult(identifier: "dBHL1.tone.audiometry", startDate: start,
                                        endDate: DateString(secondsSince1970: start.secondsSince1970 + time, utcOffsetSeconds: start.utcOffsetSeconds),
                                        outputVolume: 0.8125, tonePlaybackDurationSeconds: 1, postStimulusDelaySeconds: 1,
                                        headphoneType: "AIRPODSV1", samples: samples)
    }

    /// The walk in the Oxford Step Counter CSV layout: ns, accuracy, x, y, z in m/s².
    func oxfordCSV(_ walk: SensorSeries) -> [UInt8] {
        var text = ""
        let t = walk.time, x = walk["x"]!, y = walk["y"]!, z = walk["z"]!
        for i in t.indices {
            text += "\(Int64((t[i] * 1e9).rounded())),3,\(rounded(x[i] * 9.80665, 6)),\(rounded(y[i] * 9.80665, 6)),\(rounded(z[i] * 9.80665, 6))\n"
        }
        return Array(text.utf8)
    }

    /// `seconds` of a sustained /a/ at 44.1 kHz, 16-bit mono: F0 `f0Hz` with 0.5 % vibrato,
    /// harmonics falling 6 dB per octave, 0.2 s raised-cosine on- and offsets, peak −6 dBFS;
    /// written to a temporary file beside `path`, for the caller to commit (``OutputFile/commitAll(_:)``).
    public mutating func voiceFile(_ path: String, seconds: Int = 3, f0Hz: Double = 140) throws -> OutputFile {
        let rate = 44_100
        let length = Double(seconds)
        var samples = [Double](repeating: 0, count: seconds * rate)
        var phase = 0.0
        for i in samples.indices {
            let t = Double(i) / Double(rate)
            let f0 = f0Hz * (1 + 0.005 * sin(2 * .pi * 5 * t))
            phase += 2 * .pi * f0 / Double(rate)
            var value = 0.0
            for harmonic in 1...12 { value += sin(Double(harmonic) * phase) / Double(harmonic) }
            let ramp = min(1, t / 0.2, (length - t) / 0.2)
            samples[i] = 0.25 * value * (ramp < 1 ? 0.5 - 0.5 * cos(.pi * ramp) : 1) + 0.001 * random.normal()
        }
        let file = try OutputFile(path, inputs: [])
        file.closeForExternalWriter()
        let writer = try WAVWriter(path: file.temporaryPath, sampleRateHz: rate, channels: 1, encoding: .pcm16)
        try writer.write(samples)
        try writer.close()
        return file
    }

    private func rounded(_ value: Double, _ digits: Int) -> Double {
        let scale = pow(10, Double(digits))
        return (value * scale).rounded() / scale
    }
}
