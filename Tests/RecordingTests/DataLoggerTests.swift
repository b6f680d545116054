import Foundation
import Testing
import TestSupport
@testable import Recording
@testable import SensorData

/// A clock the test moves by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Double
    init(_ start: Double = 1_700_000_000) { value = start }
    var now: Double { lock.withLock { value } }
    func advance(_ seconds: Double) { lock.withLock { value += seconds } }
    var function: @Sendable () -> Double { { [self] in now } }
}

func isValidJSON(_ path: String) -> Bool {
    guard let data = FileManager.default.contents(atPath: path) else { return false }
    return (try? JSONSerialization.jsonObject(with: data)) != nil
}

/// docs/formats.md §2: the data logger's byte protocol, buffering, rollover and names.
@Suite struct DataLoggerTests {
    @Test("§2.2 bytes: nothing until the first append, then a complete document after every append; no file for no items")
    func protocolBytes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var configuration = DataLogger.Configuration(directory: folder.url.path, logName: "accel_A_B")
        configuration.flushIntervalSeconds = 0
        let clock = ManualClock()
        let logger = try DataLogger(configuration, clock: clock.function)
        let path = logger.currentPath
        #expect(path.hasSuffix("/accel_A_B.json"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
        try logger.append(Array(#"{"x":1}"#.utf8))
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self) == #"{"items":[{"x":1}]}"#)
        try logger.append(Array(#"{"x":2}"#.utf8))
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self) == #"{"items":[{"x":1},{"x":2}]}"#)
        clock.advance(5)
        let files = try logger.finish()
        #expect(files.count == 1 && files[0].items == 2 && files[0].bytes == 27)
        #expect(files[0].fileName == "accel_A_B-\(DataLogger.localStamp(clock.now)).json")
        #expect(files[0].endSeconds - files[0].startSeconds == 5)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(RecorderFileName(files[0].fileName)?.stamp != nil)  // the foundation reader's name pattern

        let empty = try DataLogger(DataLogger.Configuration(directory: folder.url.path, logName: "touch_C"), clock: clock.function)
        #expect(try empty.finish().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: empty.currentPath))
    }

    @Test("buffering: items reach the file when the flush interval has passed; the file is valid JSON throughout")
    func buffering() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var configuration = DataLogger.Configuration(directory: folder.url.path, logName: "accel_D")
        configuration.flushIntervalSeconds = 1
        let clock = ManualClock()
        let logger = try DataLogger(configuration, clock: clock.function)
        for i in 0..<10 {
            clock.advance(0.25)
            try logger.append(Array(#"{"i":\#(i)}"#.utf8))
            // At 1.0, 2.0 and 2.5 s (items 3, 7) the buffer went out; in between the file lags by ≤ 1 s of items.
            let written = logger.itemsWritten
            #expect(written == [0, 0, 0, 4, 4, 4, 4, 8, 8, 8][i], "item \(i)")
            #expect(written == 0 || isValidJSON(logger.currentPath))
        }
        #expect(logger.itemsBuffered == 2)
        let files = try logger.finish()
        #expect(files.first?.items == 10)
    }

    @Test("§2.3 rollover by size and by age, -NN on a repeated stamp, legacy names without .json")
    func rollover() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var configuration = DataLogger.Configuration(directory: folder.url.path, logName: "deviceMotion_E")
        configuration.flushIntervalSeconds = 0
        configuration.rolloverBytes = 40
        let clock = ManualClock()
        let logger = try DataLogger(configuration, clock: clock.function)
        for i in 0..<10 { try logger.append(Array(#"{"i":\#(i)}"#.utf8)) }  // 19, 27, 35, 43 bytes: the 4th item reaches 40
        let files = try logger.finish()
        #expect(files.map(\.items) == [4, 4, 2])
        let stamp = DataLogger.localStamp(clock.now)
        #expect(files.map(\.fileName) == ["deviceMotion_E-\(stamp).json", "deviceMotion_E-\(stamp)-01.json", "deviceMotion_E-\(stamp)-02.json"])
        #expect(files.allSatisfy { isValidJSON($0.path) })

        var aging = DataLogger.Configuration(directory: folder.url.path, logName: "pedometer_F")
        aging.flushIntervalSeconds = 0
        aging.rolloverSeconds = 60
        aging.jsonExtension = false
        let timed = try DataLogger(aging, clock: clock.function)
        for _ in 0..<5 {
            try timed.append(Array(#"{"n":1}"#.utf8))
            clock.advance(30)
        }
        let timedFiles = try timed.finish()
        #expect(timedFiles.map(\.items) == [3, 2])  // appends at 0, 30, 60 s: the third reaches the age
        #expect(timedFiles.allSatisfy { !$0.fileName.hasSuffix(".json") })
    }

    @Test("a failed write is an error naming the file and the call (/dev/full: ENOSPC)")
    func failedWrite() throws {
        var configuration = DataLogger.Configuration(directory: "/dev", logName: "full")
        configuration.jsonExtension = false
        configuration.flushIntervalSeconds = 0
        let logger = try DataLogger(configuration)
        do {
            try logger.append(Array(#"{"x":1}"#.utf8))
            Issue.record("the write to /dev/full succeeded")
        } catch {
            #expect(error.description.hasPrefix("/dev/full: pwrite failed: "), "\(error)")
        }
        #expect(logger.itemsWritten == 0)
    }
}
