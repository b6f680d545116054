import Foundation
import Testing
import TestSupport

/// `scripts/lint-sources.sh`: the source rules the compiler does not check (one file-system
/// layer, a thin executable, features read as fields).
@Suite struct SourceRulesTests {
    static func lint(_ sources: String? = nil, docs: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [SharedData.packageRoot.appendingPathComponent("scripts/lint-sources.sh").path] + (sources.map { [$0] } ?? []) + (docs.map { [$0] } ?? [])
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test("the package's sources keep the rules")
    func packageSources() throws {
        let result = try Self.lint()
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("each rule fails on a planted violation and names it; the layer itself and doc comments are allowed",
          arguments: [
              ("Batch/Walk.swift", "var info = stat()\nlet ok = stat(path, &info) == 0", "system calls outside"),
              ("Recording/Log.swift", "let fd = open(path, O_WRONLY | O_CREAT, 0o644)", "system calls outside"),
              ("Scoring/Read.swift", "let n = read(descriptor, buffer, 10)", "system calls outside"),
              ("activetask/Calibrate.swift", "let level = 10 * log10(total / n)", "level arithmetic"),
              ("activetask/Loop.swift", "for value in block { total += value * value }", "level arithmetic"),
              ("Scoring/Gait.swift", "let cadence = pedometer.features[\"cadencePedometerStepsPerMinute\"]", "a feature read back by name"),
              ("Scoring/New.swift", "public struct StepFeatures: Encodable {\n    /// Steps, count.\n    public var stepCount: Int\n    public var cadence: Double\n}", "a stored property of a feature, result or spec type without a doc comment"),
              ("Recording/Spec.swift", "public struct ProbeSpec: Sendable {\n    /// The device, alsa:NAME.\n    public var device = \"alsa:default\"\n    public var sampleRateHz = 48_000\n}", "a stored property of a feature, result or spec type without a doc comment"),
              ("Scoring/Result.swift", "public struct EchoResult {\n    /// Echo delay, s.\n    public private(set) var delaySeconds: Double\n    public let gainDecibels: Double\n    /// Computed: no comment needed.\n    public var delayMilliseconds: Double { delaySeconds * 1000 }\n}", "a stored property of a feature, result or spec type without a doc comment"),
              ("Recording/Pace.swift", "var now = timespec()\nclock_gettime(CLOCK_MONOTONIC, &now)", "the clock read outside InputGuards/SystemClock.swift"),
              ("activetask/Out.swift", "try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)", "Foundation's file APIs outside InputGuards"),
              ("Batch/Peek.swift", "let text = try String(contentsOfFile: path, encoding: .utf8)", "Foundation's file APIs outside InputGuards"),
              ("Recording/Listen.swift", "let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)", "sockets outside InputGuards/Sockets.swift"),
              ("Recording/Close.swift", "_ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))", "sockets outside InputGuards/Sockets.swift"),
              ("Recording/SocketListener.swift", "guard getsockname(fd, pointer, &length) == 0 else { return nil }", "sockets outside InputGuards/Sockets.swift"),
              ("Scoring/Cite.swift", "/// The quiet-room rule (" + "analysis" + ".md §3.6).", "a comment citing a page outside the repository"),
              ("Scoring/Section.swift", "/// Bad inputs (docs/formats.md §12).", "does not resolve to a page and section"),
              ("Scoring/Page.swift", "/// The plan (docs/" + "plans" + ".md §1).", "does not resolve to a page and section"),
          ])
    func plantedViolation(file: String, line: String, rule: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for sub in ["InputGuards", "Batch", "Recording", "Scoring", "activetask"] {
            try FileManager.default.createDirectory(atPath: folder.path(sub), withIntermediateDirectories: true)
        }
        _ = try folder.write("InputGuards/FileSystem.swift", "var info = stat()\nlet fd = open(path, O_RDONLY)\nFileManager.default.fileExists(atPath: path)\n")
        _ = try folder.write("InputGuards/SystemClock.swift", "clock_gettime(clock, &now)\n")
        _ = try folder.write("InputGuards/Sockets.swift", "let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)\n")
        _ = try folder.write("Batch/Doc.swift", "/// calls stat(2) through the layer; bad inputs (docs/formats.md §11, docs/formats.md §4.8)\n")
        try FileManager.default.createDirectory(atPath: folder.path("docs"), withIntermediateDirectories: true)
        _ = try folder.write("docs/formats.md", "# Formats\n## 4. Items\n### 4.8 Dates\n## 11. Bad inputs\n")
        let docs = folder.path("docs")
        #expect(try Self.lint(folder.url.path, docs: docs).status == 0)
        _ = try folder.write(file, line + "\n")
        let result = try Self.lint(folder.url.path, docs: docs)
        #expect(result.status == 1 && result.output.contains(rule) && result.output.contains(file), "\(result.output)")
    }
}
