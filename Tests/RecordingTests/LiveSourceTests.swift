import Foundation
import Testing
import TestSupport
@testable import Recording
@testable import SensorData

@Suite struct LiveSourceTests {
    static func lines(_ text: String) -> [[UInt8]] { text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) } }

    @Test("CSV lines decode to the same items as JSON lines; dotted names nest; empty cells are absent fields")
    func csvEqualsJSON() throws {
        var csv = try LineDecoder(format: .csv, kind: .accelerometer, name: "stdin")
        var json = try LineDecoder(format: .json, kind: .accelerometer, name: "stdin")
        let fromCSV = csv.decode(Self.lines("timestamp, x, y, z\n1.00,0.1,-1,0\n\n1.01,0.25,-0.98,\"0.5\""))
        let fromJSON = json.decode(Self.lines(#"{"timestamp":1.00,"x":0.1,"y":-1,"z":0}"# + "\n" + #"{"timestamp":1.01,"x":0.25,"y":-0.98,"z":0.5}"#))
        #expect(fromCSV.error == nil && fromJSON.error == nil)
        #expect(fromCSV.items == fromJSON.items && fromCSV.items.count == 2)
        #expect(csv.lineNumber == 4)

        var location = try LineDecoder(format: .csv, kind: .location, name: "tcp:5000")
        let fixes = location.decode(Self.lines("timestamp,coordinate.latitude,coordinate.longitude,speed,floor\n2023-11-14T22:13:20.000+0000,51.75,-1.25,1.3,"))
        #expect(fixes.error == nil)
        #expect(fixes.items["coordinate.latitude"] == [51.75] && fixes.items["coordinate.longitude"] == [-1.25] && fixes.items["speed"] == [1.3])
        #expect(fixes.items["floor"]?.first?.isNaN == true)

        // RFC 8259 numbers stay numbers; anything else is a string (which the reader then refuses for a number field).
        for (text, isNumber) in [("0", true), ("-1.5e-3", true), ("12E+2", true), ("01", false), (".5", false), ("1.", false), ("nan", false), ("inf", false), ("+1", false), ("1e", false)] {
            #expect(CSVHeader.isJSONNumber(Array(text.utf8)[...]) == isNumber, "\(text)")
        }
        let header = CSVHeader(["type", "coordinate.latitude", "value", "coordinate.longitude"])
        #expect(String(decoding: header.jsonObject(["a \"b\"\u{1}", "51.5", "", "-1"].map { Array($0.utf8)[...] }), as: UTF8.self)
            == #"{"type":"a \"b\"\u0001","coordinate":{"latitude":51.5,"longitude":-1}}"#)
    }

    @Test("a CSV row with the wrong number of fields, and a bad JSON line, are named by line; the items before them are kept")
    func badLines() throws {
        var csv = try LineDecoder(format: .csv, kind: .accelerometer, name: "stdin")
        let first = csv.decode(Self.lines("timestamp,x,y,z\n1.00,0.1,-1,0"))
        #expect(first.items.count == 1 && first.error == nil)
        let second = csv.decode(Self.lines("1.01,0.2,-1,0\n1.02,0.3,-1"))
        #expect(second.items["x"] == [0.2])
        #expect(second.error?.description == "stdin:4: 3 field(s), the header names 4")
        var json = try LineDecoder(format: .json, kind: .accelerometer, name: "stdin")
        let decoded = json.decode(Self.lines(#"{"timestamp":1,"x":0,"y":0,"z":0}"# + "\n\n" + #"{"timestamp":"soon","x":0,"y":0,"z":0}"#))
        #expect(decoded.items.count == 1)
        #expect(decoded.error?.description.hasPrefix("stdin:3: ") == true, "\(String(describing: decoded.error))")
        #expect(throws: RecordingError.self) { try LineDecoder(format: .gattHex, kind: .accelerometer, name: "stdin") }
    }

    @Test("gatt-hex: the heart rate, and RR intervals ending at the arrival time (1/1024 s units)")
    func rrIntervals() throws {
        var decoder = try LineDecoder(format: .gattHex, kind: .healthQuantity, name: "stdin")
        // Flags 0x10 (RR present), 75 bpm, RR 0x0400 = 1024 → 1 s and 0x0300 = 768 → 0.75 s.
        let decoded = decoder.decode(Self.lines("10 4B 00 04 00 03"))
        #expect(decoded.items["value"] == [75])
        #expect(decoded.rrIntervals["value"] == [1, 0.75] && decoded.rrIntervals.textColumn("unit") == ["s", "s"])
        let start = try #require(decoded.rrIntervals["startDate"]), end = try #require(decoded.rrIntervals["endDate"])
        let arrival = try #require(decoded.items["startDate"]?.first)
        #expect(abs(end[1] - arrival) < 1e-6 && abs(end[0] - (arrival - 0.75)) < 1e-6 && abs(start[0] - (arrival - 1.75)) < 1e-6)
    }

    @Test("rate check: 50 Hz items under a 100-Hz configuration are reported with their lines; 95 Hz (within 10 %) is not")
    func rateMonitor() {
        func warnings(rateHz: Double) -> [String] {
            var monitor = RateMonitor(expectedHz: 100)
            // Chunks of 50 lines, one item per line.
            for chunk in 0..<10 {
                let times = (0..<50).map { Double(chunk * 50 + $0) / rateHz }
                monitor.observe(times, lines: (chunk * 50 + 1)...(chunk * 50 + 50))
            }
            return monitor.warnings
        }
        let slow = warnings(rateHz: 50)
        // The first window spans lines 1–150 (times 0 … 2.98 s: 149 intervals in 2.98 s = 50.0 Hz).
        #expect(slow.first == "lines 1–150: items arrive at 50.0 Hz, the recorder is configured for 100 Hz", "\(slow)")
        #expect(slow.count == RateMonitor.maximumWarnings && slow.last!.hasSuffix("(further rate warnings left out)"))
        #expect(warnings(rateHz: 95).isEmpty)
        #expect(warnings(rateHz: 100).isEmpty)
    }

    /// `count` accelerometer items, with a source error when `error`.
    @Sendable static func chunk(_ count: Int, error: Bool = false) -> LineDecoder.Decoded {
        var items = SensorSeries(kind: .accelerometer)
        for i in 0..<count { items.append(numbers: [Double(i), .nan, 0, 0, 0]) }
        return LineDecoder.Decoded(items: items, rrIntervals: SensorSeries(kind: .healthQuantity),
                                   error: error ? RecordingError(file: "stdin", reason: .source(line: 9, message: "bad")) : nil)
    }

    @Test("drop policy: a chunk that would overfill the queue is dropped whole and counted; an error chunk always gets through")
    func dropPolicy() {
        let queue = SampleQueue(capacityItems: 100)
        #expect(queue.push(Self.chunk(150), lines: 1...150, policy: .drop))  // an empty queue takes any chunk
        #expect(!queue.push(Self.chunk(60), lines: 151...210, policy: .drop))
        #expect(!queue.push(Self.chunk(10), lines: 211...220, policy: .drop))
        #expect(queue.drops == SampleQueue.Drops(items: 70, chunks: 2, firstLines: 151...210))
        #expect(queue.take().chunks.map(\.items.count) == [150])
        #expect(queue.push(Self.chunk(60), lines: 221...280, policy: .drop) && queue.push(Self.chunk(40), lines: 281...320, policy: .drop))
        #expect(queue.push(Self.chunk(5, error: true), lines: 321...321, policy: .drop))
        queue.finish()
        let (chunks, finished) = queue.take()
        #expect(chunks.map(\.items.count) == [60, 40, 5] && finished && chunks.last?.error != nil)
    }

    @Test("block policy: a push into a full queue waits until the consumer takes; nothing is dropped; closing the queue releases it")
    func blockPolicy() async throws {
        let queue = SampleQueue(capacityItems: 10)
        #expect(queue.push(Self.chunk(8), lines: 1...8, policy: .block))
        let pushed = StopSignal()
        let producer = Thread {
            queue.push(Self.chunk(8), lines: 9...16, policy: .block)
            pushed.stop()
        }
        producer.start()
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(!pushed.isStopped)  // still waiting for room
        #expect(queue.take().chunks.map(\.items.count) == [8])
        for _ in 0..<1000 where !pushed.isStopped { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(queue.take().chunks.map(\.items.count) == [8] && queue.drops.items == 0)
        #expect(queue.push(Self.chunk(8), lines: 17...24, policy: .block))
        queue.close()
        #expect(!queue.push(Self.chunk(8), lines: 25...32, policy: .block))  // returns at once, not counted as dropped
        #expect(queue.drops.items == 0)
    }

    @Test("a step with a live Unix-socket accelerometer and a simulated heart rate (as fast as possible): the sender's items are written up to its bad line, which ends the live recorder long before the 30-s duration")
    func liveStep() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socketPath = folder.path("acc.sock")
        let step = try ActiveStepConfiguration(json: try JSONValue.parse(Array("""
            {"identifier": "live", "duration": 30, "realTime": false,
             "recorders": [{"kind": "accelerometer", "frequency": 100, "source": "unix:\(socketPath)", "flushInterval": 0.1},
                           {"kind": "heartRate", "source": "simulate"}]}
            """.utf8), file: "step.json"), file: "step.json")
        let sender = Thread {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in socketPath.utf8.enumerated() { raw[index] = byte }
            }
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            let lines = (0..<300).map { #"{"timestamp":\#(Double($0) / 100),"x":\#($0),"y":-1,"z":0}"# }.joined(separator: "\n")
                + "\n{\"timestamp\":3.00,\"x\":\n"
            _ = lines.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
            close(fd)
        }
        sender.start()  // the socket is bound when the configuration is read, so the sender can connect now
        let result = try await ActiveStep.run(step, outputDirectory: folder.url.path)
        let accelerometer = try #require(result.reports.first)
        #expect(accelerometer.itemsWritten == 300 && accelerometer.itemsDropped == 0 && accelerometer.warnings.isEmpty, "\(accelerometer)")
        #expect(accelerometer.sourceError?.description.hasPrefix("unix:\(socketPath):301: ") == true, "\(String(describing: accelerometer.sourceError))")
        let series = try #require(try JSONContents.read(folder.path(result.fileResults[0].fileName)).series.first?.series)
        #expect(series["x"] == (0..<300).map(Double.init))
        #expect(result.fileResults.map(\.identifier) == ["accelerometer", "heartRate"] && result.itemsWritten["heartRate"] == 30)
    }

    @Test("a WAV stream is checked against the recorder's rate and channels before any sample is read")
    func wavStream() throws {
        func pipeWith(_ bytes: [UInt8]) -> Int32 {
            var fds: [Int32] = [0, 0]
            pipe(&fds)
            _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
            close(fds[1])
            return fds[0]
        }
        func wav(rate: UInt32, channels: UInt16, samples: [Int16]) -> [UInt8] {
            func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
            let data = samples.flatMap { le($0) }
            return Array("RIFF".utf8) + le(UInt32(36 + data.count)) + Array("WAVEfmt ".utf8) + le(UInt32(16)) + le(UInt16(1)) + le(channels)
                + le(rate) + le(rate * UInt32(channels) * 2) + le(UInt16(channels * 2)) + le(UInt16(16)) + Array("data".utf8) + le(UInt32(data.count)) + data
        }
        let wrong = pipeWith(wav(rate: 22_050, channels: 1, samples: [0, 1]))
        defer { close(wrong) }
        #expect(throws: RecordingError(file: "stdin", reason: .sample(
            "the WAV stream is 22050 Hz, 1 channel(s); the recorder is set to 44100 Hz, 1 channel(s) (its sampleRateHz, channels); nothing was recorded"))) {
            try PCMStreamReader(descriptor: wrong, name: "stdin", sampleRateHz: 44_100, channels: 1, format: .f32le)
        }
        let right = pipeWith(wav(rate: 44_100, channels: 2, samples: [16_384, -32_768, 1, 0]) + [7])
        defer { close(right) }
        let reader = try PCMStreamReader(descriptor: right, name: "stdin", sampleRateHz: 44_100, channels: 2, format: .f32le)
        #expect(reader.isWAV && reader.format == .s16le)  // the header's encoding, not the asked one
        #expect(try reader.nextSamples(maximumFrames: 100) == [0.5, -1, 1 / 32_768, 0])
        #expect(try reader.nextSamples(maximumFrames: 100) == nil && reader.trailingBytes == 1)
        let raw = pipeWith([0, 64, 0, 192])
        defer { close(raw) }
        let rawReader = try PCMStreamReader(descriptor: raw, name: "stdin", sampleRateHz: 8_000, channels: 1, format: .s16le)
        #expect(!rawReader.isWAV)
        #expect(try rawReader.nextSamples(maximumFrames: 10) == [0.5, -0.5])
    }

    @Test("tapper: began/ended pairs 0.1 s apart alternate between the two buttons at the tap rate; any window is the same taps")
    func tapper() {
        let all = Simulator.tapperTouches(fromSeconds: 0, toSeconds: 2, tapsPerSecond: 5)
        #expect(all.count == 20)
        let phase = all["phase"]!, x = all["x"]!, time = all["timestamp"]!
        #expect(zip(phase, phase.dropFirst()).allSatisfy { $0 != $1 })
        let began = (0..<all.count).filter { phase[$0] == 0 }
        #expect(began.count == 10)
        for (k, index) in began.enumerated() {
            let target: Double = k % 2 == 0 ? 96 : 224
            #expect(abs(x[index] - target) <= 8)
        }
        #expect(abs((time[began.last!] - time[began.first!]) / 9 - 0.2) < 0.003)
        let split = Simulator.tapperTouches(fromSeconds: 0, toSeconds: 0.75, tapsPerSecond: 5)
        var joined = split
        joined.append(contentsOf: Simulator.tapperTouches(fromSeconds: 0.75, toSeconds: 2, tapsPerSecond: 5))
        #expect(joined == all)
    }

    @Test("walker location: fixes 1 s apart, 1.3 m apart on the 45° course (equirectangular distance)")
    func location() {
        let fixes = Simulator.walkerLocation(first: 0, count: 3, startSeconds: 1_700_000_000)
        let lat = fixes["coordinate.latitude"]!, lon = fixes["coordinate.longitude"]!
        let north = (lat[1] - lat[0]) * 111_320, east = (lon[1] - lon[0]) * 111_320 * cos(lat[0] * .pi / 180)
        #expect(abs((north * north + east * east).squareRoot() - 1.3 * 0.707 * 2.0.squareRoot()) < 1e-6)
        #expect(fixes["timestamp"] == [1_700_000_000, 1_700_000_001, 1_700_000_002])
    }
}

/// docs/reliability.md §5, class 5: a recorder's TCP socket listens on loopback unless an address is given;
/// a Unix socket path never deletes what is there.
@Suite struct SocketExposureTests {
    @Test("tcp:PORT binds 127.0.0.1; tcp:HOST:PORT binds where asked (IPv4 any, IPv6 loopback)")
    func tcpBindsLoopbackByDefault() throws {
        #expect(try SocketListener("tcp:0").host == "127.0.0.1")
        #expect(try SocketListener("tcp:0.0.0.0:0").host == "0.0.0.0")
        if let v6 = try? SocketListener("tcp:[::1]:0") { #expect(v6.host == "::1") }
        #expect(throws: RecordingError.self) { try SocketListener("tcp:127.0.0.1:99999") }
    }

    @Test("unix:PATH over a regular file or a folder is refused and leaves it; a stale socket is replaced; a live one is refused")
    func unixPathIsNeverDestroyed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("precious.json", "{\"keep\": true}")
        #expect(throws: RecordingError.self) { try SocketListener("unix:" + file) }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "{\"keep\": true}")
        #expect(throws: RecordingError.self) { try SocketListener("unix:" + folder.path("")) }
        let socketPath = folder.path("s.sock")
        var live: SocketListener? = try SocketListener("unix:" + socketPath)
        #expect(throws: RecordingError.self) { try SocketListener("unix:" + socketPath) }  // someone listens there
        _ = live
        live = nil
        // A socket file nobody listens on (left by a killed recorder) is replaced.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in socketPath.utf8.enumerated() { raw[i] = b } }
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(stale)
        #expect(FileManager.default.fileExists(atPath: socketPath))
        _ = try SocketListener("unix:" + socketPath)
    }
}
