import Foundation
import Glibc
import Testing
import TestSupport

/// Waits on devices and buses that never end: an ALSA `type file` PCM whose `infile` is a FIFO
/// (nobody writes it: `open` blocks; a writer holds it open and writes nothing: every read
/// blocks) and a "system bus" that accepts connections and never says a word (libdbus waits for
/// its authentication and `Hello`). Each command ends by its deadline (`--open-timeout-seconds`,
/// the step's duration) and at once on SIGTERM. Every run goes through `timeout -s KILL 60`, so a
/// wait without its deadline fails the test (status 137) instead of hanging it.
@Suite struct DeviceDeadlineTests {
    /// A folder with an asoundrc whose `mic` reads the FIFO `mic.fifo`, and a listening socket `bus`.
    final class Rig {
        let folder: String
        private(set) var bus: Int32 = -1
        var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["ALSA_CONFIG_PATH"] = "/usr/share/alsa/alsa.conf:\(folder)/asoundrc"
            environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(folder)/bus"
            return environment
        }
        var fifo: String { folder + "/mic.fifo" }

        init() throws {
            folder = NSTemporaryDirectory() + "atk-deadline-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            guard mkfifo(fifo, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
            try """
                pcm.mic { type file slave.pcm "null" file "/dev/null" infile "\(fifo)" format "raw" }
                """.write(toFile: folder + "/asoundrc", atomically: true, encoding: .utf8)
        }

        /// A Unix socket on `bus` that takes connections (the kernel completes them from the
        /// backlog) and never reads or writes.
        func listen() throws {
            bus = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in (folder + "/bus").utf8.enumerated() { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(bus, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0, Glibc.listen(bus, 16) == 0 else { throw CocoaError(.fileWriteUnknown) }
        }

        deinit {
            if bus >= 0 { close(bus) }
            try? FileManager.default.removeItem(atPath: folder)
        }

        /// `activetask ARGUMENTS` under `timeout -s KILL 60`, SIGTERM sent after `terminateAfter`
        /// seconds when given: its status, stderr and how long it took.
        func run(_ arguments: [String], terminateAfter: Double? = nil) throws -> (status: Int32, stderr: String, seconds: Double) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
            process.arguments = ["-s", "KILL", "60", Run.executable.path] + arguments
            process.environment = environment
            let err = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = err
            let start = Date()
            try process.run()
            if let terminateAfter {
                usleep(UInt32(terminateAfter * 1e6))
                // To activetask itself (timeout's child): timeout inherits the test thread's
                // signal mask, on which SIGTERM may be blocked.
                let children = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/task/\(process.processIdentifier)/children",
                                             encoding: .utf8)) ?? ""
                for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, SIGTERM) }
            }
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, stderr, Date().timeIntervalSince(start))
        }

        /// `record audio --source alsa:mic` at 16 kHz while a writer holds the FIFO open and
        /// writes nothing (every read blocks): the run, and the WAV files it left.
        func recordFromSilentMicrophone(duration: String, terminateAfter: Double? = nil) throws
            -> (run: (status: Int32, stderr: String, seconds: Double), wavs: [(name: String, dataBytes: Int, fileBytes: Int)]) {
            let writer = open(fifo, O_RDWR)
            defer { close(writer) }
            let out = folder + "/out"
            let run = try self.run(["record", "audio", "--source", "alsa:mic", "--sample-rate", "16000", "--duration", duration, "--out", out],
                                   terminateAfter: terminateAfter)
            return (run, try wavs(out))
        }

        /// The WAV files under `out` (in its recorder folders), each with its data chunk's size (from the RIFF header).
        func wavs(_ out: String) throws -> [(name: String, dataBytes: Int, fileBytes: Int)] {
            let names = FileManager.default.subpaths(atPath: out) ?? []
            return try names.filter { $0.hasSuffix(".wav") }.map { name in
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)))
                let size = bytes.count >= 44 ? Int(bytes[40]) | Int(bytes[41]) << 8 | Int(bytes[42]) << 16 | Int(bytes[43]) << 24 : -1
                return (name, size, bytes.count)
            }
        }
    }

    @Test("alsa: an infile FIFO nobody writes: the open is abandoned at --open-timeout-seconds with an error naming the device, and no file is left")
    func alsaOpenDeadline() throws {
        let rig = try Rig()
        let run = try rig.run(["record", "audio", "--source", "alsa:mic", "--sample-rate", "16000", "--duration", "1",
                               "--open-timeout-seconds", "1", "--out", rig.folder + "/out"])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("alsa:mic: the device did not open within 1 s"), "\(run.stderr)")
        #expect(run.seconds < 15)
        #expect(try rig.wavs(rig.folder + "/out").isEmpty)
    }

    @Test("alsa: SIGTERM while the open waits ends the command at once, not at --open-timeout-seconds")
    func alsaOpenSignal() throws {
        let rig = try Rig()
        let run = try rig.run(["record", "audio", "--source", "alsa:mic", "--duration", "1", "--open-timeout-seconds", "50",
                               "--out", rig.folder + "/out"], terminateAfter: 1)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("alsa:mic: stopped by a signal while waiting for the device to open"), "\(run.stderr)")
        #expect(run.seconds < 15)
    }

    @Test("alsa: a writer holds the FIFO open and writes nothing: the recording ends at its duration plus the stated lag with a source error, and the WAV is whole (0 frames)")
    func alsaSilentDeviceEndsAtDuration() throws {
        let (run, wavs) = try Rig().recordFromSilentMicrophone(duration: "1")
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("alsa:mic: the device delivered 0 of 16000 frames within the step's 1 s and 2 s more"), "\(run.stderr)")
        #expect(run.seconds < 20)
        #expect(wavs.count == 1 && wavs[0].dataBytes == 0 && wavs[0].fileBytes == 44, "\(wavs)")
    }

    @Test("alsa: SIGTERM while every read blocks ends the recording at once with a whole WAV")
    func alsaReadSignal() throws {
        let (run, wavs) = try Rig().recordFromSilentMicrophone(duration: "50", terminateAfter: 1.5)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.seconds < 15)
        #expect(wavs.count == 1 && wavs[0].dataBytes == 0 && wavs[0].fileBytes == 44, "\(wavs)")
    }

    @Test("ble: a bus that accepts and never answers: opening ends at --open-timeout-seconds plus --reconnect-seconds with an error naming the source; --list-devices at --open-timeout-seconds")
    func busThatNeverAnswers() throws {
        let rig = try Rig()
        try rig.listen()
        let run = try rig.run(["record", "heartRate", "--source", "ble:C0:FF:EE:00:00:01", "--duration", "2", "--open-timeout-seconds", "1",
                               "--reconnect-seconds", "1", "--out", rig.folder + "/out"])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("ble:C0:FF:EE:00:00:01: the device did not answer within 2 s"), "\(run.stderr)")
        #expect(run.seconds < 15)
        let list = try rig.run(["record", "heartRate", "--list-devices", "--open-timeout-seconds", "1"])
        #expect(list.status == 3, "\(list.stderr)")
        #expect(list.stderr.contains("ble:: the device did not answer within 1 s"), "\(list.stderr)")
        #expect(list.seconds < 15)
    }

    @Test("ble: SIGTERM while the bus keeps silent ends the command at once")
    func busSignal() throws {
        let rig = try Rig()
        try rig.listen()
        let run = try rig.run(["record", "heartRate", "--source", "ble:C0:FF:EE:00:00:01", "--open-timeout-seconds", "50",
                               "--out", rig.folder + "/out"], terminateAfter: 1)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("stopped by a signal while waiting for the device to answer"), "\(run.stderr)")
        #expect(run.seconds < 15)
    }
}
