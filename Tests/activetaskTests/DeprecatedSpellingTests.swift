import Foundation
import Testing
import TestSupport

/// Option spellings renamed after the configuration keys still work, with a note on stderr
/// (DeprecatedSpellings.swift): each old spelling gives exactly what today's spelling gives.
@Suite struct DeprecatedSpellingTests {
    static let wav = SharedData.sampleData.appendingPathComponent("voice_aaah.wav").path
    static let walk = SharedData.sampleData.appendingPathComponent("walk_accelerometer.csv").path

    @Test("each old spelling: the same --json as today's spelling, and a one-line note naming both", arguments: [
        (["score", "spl", wav, "--json"], "--calibration-offset", "--calibration-offset-decibels", "100"),
        (["score", "spl", wav, "--json"], "--threshold", "--threshold-decibels", "40"),
        (["score", "spl", wav, "--json"], "--interval", "--interval-seconds", "2"),
        (["score", "spl", wav, "--json"], "--required", "--required-intervals", "3"),
        (["score", "voice", wav, "--json"], "--calibration-offset", "--calibration-offset-decibels", "100"),
        (["score", "voice", wav, "--json"], "--pitch-floor", "--pitch-floor-hz", "70"),
        (["score", "voice", wav, "--json"], "--pitch-ceiling", "--pitch-ceiling-hz", "500"),
        (["score", "voice", wav, "--json"], "--max-voice-samples", "--maximum-samples", "100000000"),
    ])
    func alias(command: [String], old: String, new: String, value: String) throws {
        let today = try Run(command + [new, value])
        let separate = try Run(command + [old, value])
        let joined = try Run(command + ["\(old)=\(value)"])
        #expect(today.status == 0 && !today.stdout.isEmpty, "\(today.stderr)")
        #expect(separate.status == today.status && separate.stdout == today.stdout)
        #expect(joined.status == today.status && joined.stdout == today.stdout)
        #expect(separate.stderr.contains("\(old) is deprecated and goes in version 0.3.0; use \(new)"), "\(separate.stderr)")
        #expect(!today.stderr.contains("deprecated"))
    }

    @Test("--csv-layout auto and oxford: today's --no-oxford and --oxford")
    func csvLayout() throws {
        let today = try Run(["score", "gait", Self.walk, "--json", "--no-oxford"])
        let old = try Run(["score", "gait", Self.walk, "--json", "--csv-layout", "auto"])
        #expect(today.status == 0 && old.stdout == today.stdout && old.stderr.contains("--csv-layout auto is deprecated"), "\(old.stderr)")
        let oxfordToday = try Run(["score", "gait", Self.walk, "--json", "--oxford"])
        let oxfordOld = try Run(["score", "gait", Self.walk, "--json", "--csv-layout=oxford"])
        #expect(oxfordOld.status == oxfordToday.status && oxfordOld.stdout == oxfordToday.stdout && oxfordOld.stderr.contains("use --oxford"))
    }

    @Test("old spellings are rewritten only in their own subcommand and only before --")
    func scope() throws {
        // score voice has no --threshold: refused as unknown, as before.
        let foreign = try Run(["score", "voice", Self.wav, "--threshold", "40"])
        #expect(foreign.status == 2 && !foreign.stderr.contains("deprecated"), "\(foreign.stderr)")
        // After --, "--pitch-floor" is a file name, not an option.
        let literal = try Run(["score", "voice", "--", "--pitch-floor"])
        #expect(literal.status == 3 && !literal.stderr.contains("deprecated"), "\(literal.stderr)")
    }
}
