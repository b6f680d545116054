// Whole paths with hostile numbers (docs/reliability.md): the input chooses a recording kind and
// a stream of numbers — NaN, ±∞, ±1e308, subnormals, −0, 1e-20, repeated and decreasing values,
// or any raw Double — that becomes a valid file of that kind (a float WAV at any header rate,
// accelerometer items, taps, SPL readings, a dB HL result, a range-of-motion step's device motion
// and result, a walk test's location fixes and timed-walk result, a tremor step's device motion,
// camera frames) and
// the scorer's options; the file goes
// through the scorer and the HTML page with its charts, as `score … --html` does.
import Analysis
import Scoring
import FuzzSupport
import Glibc
import Reports

@main
enum FuzzAnalysis {
    static func main() { FuzzDriver.run(fuzzAnalysis) }
}

/// Numbers drawn from the input: one byte picks a hostile value or, for 0xF0 and above, the next
/// eight bytes are a raw Double.
struct HostileNumbers {
    static let palette: [Double] = [
        .nan, .infinity, -.infinity, 0, -0.0, 1e308, -1e308, .greatestFiniteMagnitude, 5e-324, 1e-308, 1e-20, -1e-20,
        1, -1, 0.5, 2, 100, 1e6, 1e300, -1e300, 44_100, 48_000, 8_000, 1e9, 768_001, 20, 20_000, 35, 0.001,
    ]
    var bytes: [UInt8]
    var position = 0

    mutating func byte() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }

    mutating func next() -> Double {
        let choice = byte()
        if choice >= 0xF0 {
            var raw: UInt64 = 0
            for _ in 0..<8 { raw = raw << 8 | UInt64(byte()) }
            return Double(bitPattern: raw)
        }
        return Self.palette[Int(choice) % Self.palette.count]
    }

    var exhausted: Bool { position >= bytes.count }
}

/// A JSON number for `value`: ±∞ as an overflowing literal (how serializers spell them), NaN as 1e400.
func json(_ value: Double) -> String {
    if value.isNaN || value == .infinity { return "1e400" }
    if value == -.infinity { return "-1e400" }
    return "\(value)"
}

func fuzzAnalysis(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var numbers = HostileNumbers(bytes: FuzzInput.bytes(data, count))
    let kind = numbers.byte() % 9
    var values: [Double] = []
    while !numbers.exhausted, values.count < 4_096 { values.append(numbers.next()) }
    let options = (values.first ?? 1, values.dropFirst().first ?? 35)
    switch kind {
    case 0: audio(values, &numbers, options)
    case 1: motion(values)
    case 2: taps(values)
    case 3: readings(values, options)
    case 4: rangeOfMotion(values)
    case 5: walkTest(values)
    case 6: tremor(values)
    case 8: camera(values, options)
    default: audiogram(values)
    }
    return 0
}

/// Scores, then draws the page as `score --html` does (charts drawn from the score).
func scoreAndDraw(_ path: String, _ analyzer: Analyzer, _ parameters: AnalyzerParameters = AnalyzerParameters()) {
    FuzzInput.expectClearError(about: path) { () throws(ScoringError) in
        _ = HTMLReport.recording(try parameters.score(analyzer, file: path))
    }
}

func audio(_ values: [Double], _ numbers: inout HostileNumbers, _ options: (Double, Double)) {
    let rate = UInt32(truncatingIfNeeded: Int(clamping: numbers.byte()) * 3_001 + 1)  // 1 Hz … 765 kHz, and 0 below
    let channels = UInt16(numbers.byte() % 3)  // 0, 1 or 2
    var samples = values.map { Float($0) }
    if channels == 2, samples.count % 2 == 1 { samples.removeLast() }
    let dataBytes = UInt32(samples.count * 4)
    var header: [UInt8] = Array("RIFF".utf8) + le(36 + dataBytes) + Array("WAVEfmt ".utf8) + le(UInt32(16))
    header += le(UInt16(3)) + le(channels) + le(rate) + le(rate &* UInt32(channels) &* 4) + le(channels &* 4) + le(UInt16(32))
    header += Array("data".utf8) + le(dataBytes)
    let body = samples.withUnsafeBytes { Array($0) }
    let bytes = header + body
    bytes.withUnsafeBufferPointer { buffer in
        FuzzInput.withFile(buffer.baseAddress, buffer.count, suffix: ".wav") { path in
            var parameters = AnalyzerParameters()
            parameters.voice.maximumSamples = 1 << 16
            scoreAndDraw(path, .voice, parameters)
            parameters.spl.intervalSeconds = options.0
            parameters.spl.thresholdDecibels = options.1
            scoreAndDraw(path, .spl, parameters)
            parameters.spl.intervalSeconds = 0.1
            scoreAndDraw(path, .spl, parameters)
            scoreAndDraw(path, .loudness)
        }
    }
}

func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

func write(_ text: String, suffix: String, _ body: (String) -> Void) {
    let bytes = Array(text.utf8)
    bytes.withUnsafeBufferPointer { FuzzInput.withFile($0.baseAddress, $0.count, suffix: suffix, body) }
}

/// Accelerometer items: time, x, y, z from the numbers (times repeated, decreasing, 1e-20 apart …).
func motion(_ values: [Double]) {
    var items: [String] = []
    var i = 0
    while i + 4 <= values.count {
        items.append(#"{"timestamp":\#(json(values[i])),"x":\#(json(values[i + 1])),"y":\#(json(values[i + 2])),"z":\#(json(values[i + 3]))}"#)
        i += 4
    }
    write(#"{"items":[\#(items.joined(separator: ","))]}"#, suffix: "-accel.json") { path in
        scoreAndDraw(path, .gait)
    }
}

/// Device-motion items (time and attitude from the numbers) of a range-of-motion step, scored in
/// both orientations; an ORKRangeOfMotionResult with the first five numbers as its angles.
func rangeOfMotion(_ values: [Double]) {
    var items: [String] = []
    var i = 0
    while i + 5 <= values.count {
        let (x, y, z, w) = (json(values[i + 1]), json(values[i + 2]), json(values[i + 3]), json(values[i + 4]))
        items.append(#"{"timestamp":\#(json(values[i])),"attitude":{"x":\#(x),"y":\#(y),"z":\#(z),"w":\#(w)},"rotationRate":{"x":0,"y":0,"z":0},"gravity":{"x":0,"y":0,"z":-1},"userAcceleration":{"x":0,"y":0,"z":0}}"#)
        i += 5
    }
    write("[\(items.joined(separator: ","))]", suffix: "-deviceMotion_range.of.motion.json") { path in
        var parameters = AnalyzerParameters()
        for orientation in RangeOfMotion.Orientation.allCases {
            parameters.rangeOfMotion.orientation = orientation
            scoreAndDraw(path, .rangeOfMotion, parameters)
        }
    }
    let angles = (0..<5).map { values.indices.contains($0) ? json(values[$0]) : "0" }
    write(#"{"_class":"ORKRangeOfMotionResult","identifier":"knee.range.of.motion","start":\#(angles[0]),"finish":\#(angles[1]),"minimum":\#(angles[2]),"maximum":\#(angles[3]),"range":\#(angles[4])}"#,
          suffix: "-rom.json") { path in
        scoreAndDraw(path, .rangeOfMotion)
    }
}

/// A six-minute walk's location fixes (latitude, longitude, accuracy from the numbers) and a timed
/// walk's ORKTimedWalkResult (distance, limit, duration from the first three), in one task result
/// that names the fixes, scored by walkTest.
func walkTest(_ values: [Double]) {
    var fixes: [String] = []
    var i = 0
    while i + 3 <= values.count {
        fixes.append(#"{"timestamp":"2026-01-01T12:00:00+0100","coordinate":{"latitude":\#(json(values[i])),"longitude":\#(json(values[i + 1]))},"horizontalAccuracy":\#(json(values[i + 2]))}"#)
        i += 3
    }
    let (distance, limit, duration) = (values.first.map(json) ?? "0", values.dropFirst().first.map(json) ?? "0", values.dropFirst(2).first.map(json) ?? "0")
    write("[\(fixes.joined(separator: ","))]", suffix: "-location.json") { fixesPath in
        let name = fixesPath.split(separator: "/").last.map(String.init) ?? fixesPath
        let task = #"{"_class":"ORKTaskResult","results":[{"_class":"ORKStepResult","identifier":"6mwt","results":[{"_class":"ORKFileResult","identifier":"location","fileName":"\#(name)"}]},"#
            + #"{"_class":"ORKStepResult","identifier":"timed.walk.trial1","results":[{"_class":"ORKTimedWalkResult","distanceInMeters":\#(distance),"timeLimit":\#(limit),"duration":\#(duration)}]}]}"#
        write(task, suffix: "-walk.json") { path in
            var parameters = AnalyzerParameters()
            parameters.walkTest.maximumHorizontalAccuracyMeters = values.dropFirst(3).first ?? 20
            scoreAndDraw(path, .walkTest, parameters)
        }
    }
}

/// Device-motion items (time, user acceleration, rotation rate, gravity from the numbers) of a
/// tremor step, scored by tremor as the moving hand-to-nose position (mhealthtools' EMD) and as
/// the still hand-in-lap one, and by balance (its mhealthtools set).
func tremor(_ values: [Double]) {
    var items: [String] = []
    var i = 0
    while i + 10 <= values.count {
        let v = values[i..<(i + 10)].map(json)
        items.append(#"{"timestamp":\#(v[0]),"attitude":{"x":0,"y":0,"z":0,"w":1},"userAcceleration":{"x":\#(v[1]),"y":\#(v[2]),"z":\#(v[3])},"rotationRate":{"x":\#(v[4]),"y":\#(v[5]),"z":\#(v[6])},"gravity":{"x":\#(v[7]),"y":\#(v[8]),"z":\#(v[9])}}"#)
        i += 10
    }
    write("[\(items.joined(separator: ","))]", suffix: "-tremor-motion.json") { motionPath in
        let name = motionPath.split(separator: "/").last.map(String.init) ?? motionPath
        for position in ["handToNose", "handInLap"] {
            let task = #"{"_class":"ORKTaskResult","results":[{"_class":"ORKStepResult","identifier":"tremor.\#(position).left","results":[{"_class":"ORKFileResult","identifier":"ac1_motion","fileName":"\#(name)"}]}]}"#
            write(task, suffix: "-tremor.json") { path in scoreAndDraw(path, .tremor) }
        }
        scoreAndDraw(motionPath, .balance)
    }
}

/// Camera frames (time, red, green, blue from the numbers) as mPower 2's heart snapshot writes
/// them, scored by heartRate with each method and a window length from the numbers.
func camera(_ values: [Double], _ options: (Double, Double)) {
    var items: [String] = []
    var i = 0
    while i + 4 <= values.count {
        let v = values[i..<(i + 4)].map(json)
        items.append(#"{"timestamp":\#(v[0]),"red":\#(v[1]),"green":\#(v[2]),"blue":\#(v[3])}"#)
        i += 4
    }
    write("[\(items.joined(separator: ","))]", suffix: "-heartRate.json") { path in
        for method in CameraHeartRate.Method.allCases {
            var parameters = AnalyzerParameters()
            parameters.heartRate.analysis.method = method
            scoreAndDraw(path, .heartRate, parameters)
            parameters.heartRate.analysis.windowSeconds = options.0
            scoreAndDraw(path, .heartRate, parameters)
        }
    }
}

/// AppCore tapping samples: time and coordinates from the numbers.
func taps(_ values: [Double]) {
    var items: [String] = []
    var i = 0
    while i + 3 <= values.count {
        let button = items.count % 2 == 0 ? "TappedButtonLeft" : "TappedButtonRight"
        items.append(#"{"TapTimeStamp":\#(json(values[i])),"TapCoordinate":"{\#(json(values[i + 1])), \#(json(values[i + 2]))}","TappedButtonId":"\#(button)"}"#)
        i += 3
    }
    write(#"{"TappingViewSize":"{320, 504}","ButtonRectLeft":"{{38, 358}, {104, 104}}","ButtonRectRight":"{{178, 358}, {104, 104}}","TappingSamples":[\#(items.joined(separator: ","))]}"#,
          suffix: "-tapping.json") { path in
        scoreAndDraw(path, .tapping)
    }
}

/// An ORKEnvironmentSPLMeterResult with the numbers as readings, the decision under fuzzed options.
func readings(_ values: [Double], _ options: (Double, Double)) {
    let list = values.map(json).joined(separator: ",")
    write(#"{"_class":"ORKEnvironmentSPLMeterResult","identifier":"splMeter","sensitivityOffset":\#(json(options.0)),"recordedSPLMeterSamples":[\#(list)]}"#,
          suffix: "-spl.json") { path in
        var parameters = AnalyzerParameters()
        parameters.spl.thresholdDecibels = options.1
        scoreAndDraw(path, .spl, parameters)
    }
}

/// A dB HL result: frequency, channel, threshold and one unit level per sample from the numbers.
func audiogram(_ values: [Double]) {
    var samples: [String] = []
    var i = 0
    while i + 3 <= values.count {
        samples.append(#"{"_class":"ORKdBHLToneAudiometryFrequencySample","frequency":\#(json(values[i])),"channel":\#(samples.count % 2),"calculatedThreshold":\#(json(values[i + 1])),"units":[{"_class":"ORKdBHLToneAudiometryUnit","dBHLValue":\#(json(values[i + 2]))}]}"#)
        i += 3
    }
    write(#"{"_class":"ORKdBHLToneAudiometryResult","identifier":"dBHL","outputVolume":\#(json(values.first ?? 1)),"headphoneType":"AIRPODSV1","samples":[\#(samples.joined(separator: ","))]}"#,
          suffix: "-dbhl.json") { path in
        scoreAndDraw(path, .audiometry)
    }
}
