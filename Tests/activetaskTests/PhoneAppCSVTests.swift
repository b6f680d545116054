import Foundation
import Testing
import TestSupport

/// Phone-app CSV exports (issue 16, point 6), generated in each app's header layout from one
/// known walk: 30 s at 100 Hz whose vertical acceleration is sin(2π·1.8t) + 0.5·sin(π·1.8t + 0.3)
/// m/s² — 108 steps/min, 54 steps (docs/analyses.md §5 G1). Every export must give that cadence,
/// with gravity (total acceleration) and without it (linear acceleration).
@Suite struct PhoneAppCSVTests {
    static let rate = 100.0
    static let g0 = 9.80665

    /// Vertical dynamic acceleration, m/s².
    static func v(_ t: Double) -> Double { sin(2 * .pi * 1.8 * t) + 0.5 * sin(.pi * 1.8 * t + 0.3) }

    /// Rows of (t s, x, y, z m/s²): the phone upright in a pocket, gravity along +y when `gravity`.
    static func rows(gravity: Bool) -> [(Double, Double, Double, Double)] {
        (0..<Int(30 * rate)).map { i in
            let t = Double(i) / rate
            let vertical = v(t) + (gravity ? g0 : 0)
            return (t, 0.02 * sin(2 * .pi * 0.9 * t), vertical, 0.1 * sin(2 * .pi * 1.8 * t + 1))
        }
    }

    static func csv(_ header: String, _ lines: [String]) -> String { ([header] + lines).joined(separator: "\n") + "\n" }

    static func score(_ path: String, _ extra: [String] = []) throws -> (cadence: Double?, steps: Double?, dialect: String, warnings: [String], run: Run) {
        let run = try Run(["score", "gait", "--json", path] + extra)
        let json = run.json
        let atk = (json?["features"] as? [String: Any])?["atk"] as? [String: Any]
        return (atk?["cadenceStepsPerMinute"] as? Double, atk?["stepCount"] as? Double, json?["dialect"] as? String ?? "",
                json?["warnings"] as? [String] ?? [], run)
    }

    @Test("phyphox (total and linear, and with semicolons and decimal commas), Sensor Logger (ns epoch, seconds_elapsed, z,y,x), Physics Toolbox (gF in g, clock times) and a named layout: 108 steps/min each")
    func exports() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        func f(_ x: Double) -> String { String(format: "%.6f", x) }
        let total = Self.rows(gravity: true), linear = Self.rows(gravity: false)
        let epoch = 1_700_000_000_000_000_000.0
        let files: [(name: String, text: String, extra: [String], dialect: String, inferred: [String])] = [
            ("phyphox.csv", Self.csv(#""Time (s)","Acceleration x (m/s^2)","Acceleration y (m/s^2)","Acceleration z (m/s^2)""#,
                                     total.map { "\(f($0.0)),\(f($0.1)),\(f($0.2)),\(f($0.3))" }), [], "CSV (phyphox): time s, acceleration m/s2", []),
            ("phyphox-linear.csv", Self.csv(#""Time (s)","Linear Acceleration x (m/s^2)","Linear Acceleration y (m/s^2)","Linear Acceleration z (m/s^2)""#,
                                            linear.map { "\(f($0.0)),\(f($0.1)),\(f($0.2)),\(f($0.3))" }), [], "gravity removed", []),
            ("phyphox-tabs.csv", Self.csv("Time (s)\tAcceleration x (m/s^2)\tAcceleration y (m/s^2)\tAcceleration z (m/s^2)",
                                          total.map { "\(f($0.0))\t\(f($0.1))\t\(f($0.2))\t\(f($0.3))" }), [], "phyphox", []),
            // phyphox's "CSV (Semicolon, decimal comma)" export, in its exponent notation.
            ("phyphox-decimal-comma.csv", Self.csv(#""Time (s)";"Acceleration x (m/s^2)";"Acceleration y (m/s^2)";"Acceleration z (m/s^2)""#,
                                                   total.map { row in [row.0, row.1, row.2, row.3].map { String(format: "%.9E", $0).replacing(".", with: ",") }.joined(separator: ";") }),
             [], "phyphox", []),
            ("TotalAcceleration.csv", Self.csv("time,seconds_elapsed,z,y,x",
                                               total.map { String(format: "%.0f", epoch + $0.0 * 1e9) + ",\(f($0.0)),\(f($0.3)),\(f($0.2)),\(f($0.1))" }),
             [], "CSV (Sensor Logger): time s", ["acceleration"]),
            ("Accelerometer.csv", Self.csv("time,seconds_elapsed,z,y,x",
                                           linear.map { String(format: "%.0f", epoch + $0.0 * 1e9) + ",\(f($0.0)),\(f($0.3)),\(f($0.2)),\(f($0.1))" }),
             ["--acceleration-unit", "m/s2"], "Sensor Logger", []),
            ("physics-toolbox.csv", Self.csv("time,gFx,gFy,gFz,TgF",
                                             total.map { "\(f($0.0)),\(f($0.1 / Self.g0)),\(f($0.2 / Self.g0)),\(f($0.3 / Self.g0)),1.0" }),
             [], "CSV (Physics Toolbox): time s, acceleration g", ["time"]),
            ("physics-toolbox-clock.csv", Self.csv("time,gFx,gFy,gFz,TgF",
                                                   total.map { t in
                                                       let ms = Int((t.0 * 1000).rounded()) + (23 * 3600 + 59 * 60 + 50) * 1000  // across midnight
                                                       let clock = String(format: "%d:%02d:%02d:%03d", (ms / 3_600_000) % 24, (ms / 60_000) % 60, (ms / 1000) % 60, ms % 1000)
                                                       return "\(clock),\(f(t.1 / Self.g0)),\(f(t.2 / Self.g0)),\(f(t.3 / Self.g0)),1.0"
                                                   }), [], "Physics Toolbox", []),
            ("named.csv", Self.csv("t_ms;raw_a;raw_b;raw_c",
                                   total.map { "\(String(format: "%.0f", $0.0 * 1000));\(f($0.1 / Self.g0));\(f($0.2 / Self.g0));\(f($0.3 / Self.g0))" }),
             ["--time-column", "t_ms", "--x-column", "2", "--y-column", "raw_b", "--z-column", "4", "--acceleration-unit", "g"], "time ms, acceleration g", []),
        ]
        for file in files {
            let path = try folder.write(file.name, file.text)
            let scored = try Self.score(path, file.extra)
            #expect(scored.run.status == 0, "\(file.name): \(scored.run.stderr)")
            #expect(abs((scored.cadence ?? 0) - 108) <= 1, "\(file.name): cadence \(scored.cadence ?? .nan)")
            #expect(abs((scored.steps ?? 0) - 54) <= 1, "\(file.name): steps \(scored.steps ?? .nan)")
            #expect(scored.dialect.contains(file.dialect), "\(file.name): \(scored.dialect)")
            let inferred = ["time", "acceleration"].filter { column in scored.warnings.contains { $0.hasPrefix("unitInferred: the \(column) unit") } }
            #expect(inferred == file.inferred, "\(file.name): \(scored.warnings)")
        }
        // Unrecognised headers say which flags name the columns; a flag naming no column says so.
        let unknown = try folder.write("unknown.csv", Self.csv("t_ms;raw_a;raw_b;raw_c", ["1;2;3;4", "2;3;4;5"]))
        let refused = try Run(["score", "gait", unknown])
        #expect(refused.status == 3 && refused.stderr.contains("timeColumn, xColumn, yColumn, zColumn") && refused.stderr.contains("[options: --time-column, --x-column, --y-column, --z-column, --oxford]"), "\(refused.stderr)")
        let wrong = try Run(["score", "gait", unknown, "--time-column", "nope", "--x-column", "2", "--y-column", "3", "--z-column", "4"])
        #expect(wrong.status == 3 && wrong.stderr.contains(#"timeColumn "nope" names no column"#) && wrong.stderr.contains("[options: --time-column]"), "\(wrong.stderr)")
        let bogus = try Run(["score", "gait", unknown, "--time-unit", "bogus"])
        #expect(bogus.status == 2, "\(bogus.stderr)")
    }
}
