import Foundation
import Testing
import TestSupport
@testable import Analysis
@testable import SensorData

/// mhealthtools' kinematic features against mhealthtools itself (docs/analyses.md §7.3): the R
/// code of Sage-Bionetworks/mhealthtools 4340b82 and the functions it calls from EMD 1.5.9,
/// seewave 2.2.4 and statcomp 0.1.0 (Tests/Peers/mhealthtools), with Debian's dplyr, tidyr,
/// purrr, e1071 1.7-13 and pracma 2.4.2, run by Rscript on the same samples.
@Suite struct MhealthtoolsKinematicsTests {
    typealias Triaxial = MhealthtoolsKinematics.Triaxial

    /// The peer's rows keyed "sensor axis IMF window" (IMF and window "-" without EMD): name → value;
    /// and its outlier-window tags (true: "Phone rotated within window").
    static func peer(_ task: MhealthtoolsKinematics.Task, accelerometer: Triaxial, gyroscope: Triaxial, gravity: Triaxial) throws -> (rows: [String: [String: Double]], rotated: [Bool]) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (name, data) in [("accelerometer", accelerometer), ("gyroscope", gyroscope), ("gravity", gravity)] {
            var text = "t,x,y,z\n"
            for i in data.t.indices { text += [data.t[i], data.x[i], data.y[i], data.z[i]].map { String(format: "%.17g", $0) }.joined(separator: ",") + "\n" }
            _ = try folder.write("\(name).csv", text)
        }
        let peers = SharedData.packageRoot.appendingPathComponent("Tests/Peers/mhealthtools")
        let library = try installed.get()
        let name = ["walk": "walk", "balance": "balance", "restTremor": "tremor", "kineticTremor": "kinetic_tremor"][task.rawValue]!
        try run("/usr/bin/Rscript", [peers.appendingPathComponent("run.R").path, library, name, folder.url.path, folder.path("out.csv")])
        let lines = try String(contentsOfFile: folder.path("out.csv"), encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = lines[0]
        var rows: [String: [String: Double]] = [:]
        for line in lines.dropFirst() {
            let cell = Dictionary(uniqueKeysWithValues: zip(header, line))
            let key = [cell["sensor"]!, cell["axis"]!, cell["IMF"] ?? "-", cell["window"] ?? "-"].joined(separator: " ")
            var values: [String: Double] = [:]
            for (column, text) in cell where !["sensor", "measurementType", "axis", "IMF", "window"].contains(column) {
                values[column] = text == "NA" || text == "NaN" ? .nan : Double(text)
            }
            rows[key] = values
        }
        // Rows "window","error" in the order of the window numbers as text (R groups the gathered names).
        let tags = try String(contentsOfFile: folder.path("out.csv.outliers.csv"), encoding: .utf8).split(separator: "\n").dropFirst()
            .map { line in (Int(line.split(separator: ",")[0]) ?? 0, line.contains("Phone rotated within window")) }
        return (rows, tags.sorted { $0.0 < $1.0 }.map(\.1))
    }

    /// The cran/ subsets installed once per test process into .build/mhealthtools-r-library.
    static let installed: Result<String, PeerFailure> = {
        let peers = SharedData.packageRoot.appendingPathComponent("Tests/Peers/mhealthtools")
        let library = SharedData.packageRoot.appendingPathComponent(".build/mhealthtools-r-library").path
        do { try run("/bin/bash", [peers.appendingPathComponent("install.sh").path, library]) } catch { return .failure(error as? PeerFailure ?? PeerFailure(message: "\(error)")) }
        return .success(library)
    }()

    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw PeerFailure(message: "\(tool) \(arguments.last ?? ""): \(stderr.suffix(3000))") }
    }

    struct PeerFailure: Error { var message: String }

    /// The feature family of a name, for the report: time, frequency (AR spectrum), ewt, energy.
    static func family(_ name: String) -> String {
        name.hasPrefix("EnergyInBand") ? "energy" : name.hasPrefix("ewt.") ? "ewt" : name.hasSuffix(".tm") ? "time" : "frequency"
    }

    /// Compares every feature of every row; returns the largest relative difference and, by
    /// family, the largest.
    @discardableResult
    static func compare(_ ours: MhealthtoolsKinematics, _ peer: (rows: [String: [String: Double]], rotated: [Bool]), tolerance: Double = 1e-9) -> (Double, [String: Double]) {
        let theirs = peer.rows
        if let rotated = ours.rotatedWindows { #expect(rotated == peer.rotated, "outlier windows: \(rotated) here, \(peer.rotated) in mhealthtools") }
        #expect(ours.error == nil, "\(ours.error ?? "")")
        #expect(ours.rows.count == theirs.count, "rows: \(ours.rows.count) here, \(theirs.count) in mhealthtools")
        var worst = 0.0, reported = 0
        var families: [String: Double] = [:]
        for row in ours.rows {
            let key = [row.sensor.rawValue, row.axis, row.mode.map(String.init) ?? "-", row.window.map(String.init) ?? "-"].joined(separator: " ")
            guard let expected = theirs[key] else { Issue.record("no mhealthtools row \(key)"); continue }
            for (name, value) in zip(KinematicFeatures.names, row.features.values) {
                guard let reference = expected[name] else { Issue.record("mhealthtools has no \(name)"); continue }
                if reference.isNaN || value.isNaN {
                    if reference.isNaN != value.isNaN, reported < 20 { reported += 1; Issue.record("\(key) \(name): \(value) here, \(reference) in mhealthtools") }
                    continue
                }
                let difference = value == reference ? 0 : abs(value - reference) / max(abs(value), abs(reference))
                worst = max(worst, difference)
                families[family(name), default: 0] = max(families[family(name), default: 0], difference)
                if difference > tolerance, reported < 20 {
                    reported += 1
                    Issue.record("\(key) \(name): \(value) here, \(reference) in mhealthtools (relative \(difference))")
                }
            }
        }
        return (worst, families)
    }

    static func deviceMotion() throws -> (Triaxial, Triaxial, Triaxial) {
        let contents = try JSONContents.read(SharedData.path("mpower/mhealthtools_device_motion.json"))
        let series = try #require(contents.series.first?.series)
        func triaxial(_ prefix: String) -> Triaxial {
            Triaxial(t: series.time, x: series["\(prefix).x"]!, y: series["\(prefix).y"]!, z: series["\(prefix).z"]!)
        }
        return (triaxial("userAcceleration"), triaxial("rotationRate"), triaxial("gravity"))
    }

    @Test("mhealthtools' shared device-motion recording: every walk, balance, rest and kinetic tremor feature within 1e-9",
          .enabled(if: Peer.r.runs && SharedData.runs, Peer.r.skipMessage), arguments: MhealthtoolsKinematics.Task.allCases)
    func sharedRecording(task: MhealthtoolsKinematics.Task) throws {
        guard Peer.r.require() != nil else { return }
        let (accelerometer, gyroscope, gravity) = try Self.deviceMotion()
        let ours = MhealthtoolsKinematics(task: task, accelerometer: accelerometer, gyroscope: gyroscope, gravity: gravity)
        #expect((ours.rotatedWindows != nil) == (task.modes > 1))
        let worst = Self.compare(ours, try Self.peer(task, accelerometer: accelerometer, gyroscope: gyroscope, gravity: gravity))
        print("mhealthtools \(task) on mhealthtools_device_motion.json: \(ours.rows.count) rows, largest relative difference \(worst.0), by family \(worst.1.sorted { $0.key < $1.key })")
    }

    /// A simulated 30-s walk at about 100 Hz with jittered, out-of-order timestamps: steps at
    /// 1.8 Hz and their harmonic, a 5-Hz tremor, noise; the gyroscope likewise.
    static func simulatedWalk(seconds: Double = 30, rate: Double = 100, seed: UInt64 = 7) -> (Triaxial, Triaxial, Triaxial) {
        var random = SeededRandom(seed: seed)
        let n = Int(seconds * rate)
        var t = (0..<n).map { 1000 + Double($0) / rate + 0.002 * (random.unit() - 0.5) }
        t.swapAt(n / 3, n / 3 + 1)
        func axis(_ a: Double, _ phase: Double) -> [Double] {
            t.map { s in a * sin(2 * .pi * 1.8 * s + phase) + 0.4 * a * sin(2 * .pi * 3.6 * s) + 0.05 * sin(2 * .pi * 5 * s) + 0.02 * (random.unit() - 0.5) }
        }
        let accelerometer = Triaxial(t: t, x: axis(0.3, 0), y: axis(0.2, 1), z: axis(0.5, 2))
        let gyroscope = Triaxial(t: t, x: axis(1.1, 0.5), y: axis(0.7, 1.5), z: axis(0.4, 2.5))
        let gravity = Triaxial(t: t, x: t.map { 0.1 * sin($0 / 2) }, y: t.map { _ in -0.98 }, z: t.map { _ in 0.05 })
        return (accelerometer, gyroscope, gravity)
    }

    @Test("A simulated 30-s walk (jittered, one pair of samples out of order; gravity's x changes sign every 2π s) and a 1.5-s one (shorter than a window: R recycles it): every feature within 1e-9, the outlier windows as mhealthtools tags them",
          .enabled(if: Peer.r.runs, Peer.r.skipMessage), arguments: [30.0, 1.5])
    func simulatedWalks(seconds: Double) throws {
        guard Peer.r.require() != nil else { return }
        let (accelerometer, gyroscope, gravity) = Self.simulatedWalk(seconds: seconds)
        for task in [MhealthtoolsKinematics.Task.walk, .balance] {
            let ours = MhealthtoolsKinematics(task: task, accelerometer: accelerometer, gyroscope: gyroscope, gravity: gravity)
            if task == .walk, seconds > 10 { #expect(ours.rotatedWindows?.contains(true) == true && ours.rotatedWindows?.contains(false) == true) }
            let worst = Self.compare(ours, try Self.peer(task, accelerometer: accelerometer, gyroscope: gyroscope, gravity: gravity))
            print("mhealthtools \(task) on a simulated \(seconds)-s walk: \(ours.rows.count) rows, largest relative difference \(worst.0), by family \(worst.1.sorted { $0.key < $1.key })")
        }
    }

    /// The tremor tasks at other rates than the shared recording's, and the windows across a gap
    /// in the samples (the walk and kinetic tremor across the same gap, with EMD, agree within
    /// 1.6e-10 as well; left out for the test run's time).
    @Test("Rest tremor at 200 Hz, kinetic tremor (EMD) at 50 Hz, balance across a 2-s gap in the samples, simulated: every feature within 1e-9",
          .enabled(if: Peer.r.runs, Peer.r.skipMessage),
          arguments: [(MhealthtoolsKinematics.Task.restTremor, 200.0, false), (.kineticTremor, 50.0, false), (.balance, 100.0, true)])
    func otherRatesAndAGap(task: MhealthtoolsKinematics.Task, rate: Double, gap: Bool) throws {
        guard Peer.r.require() != nil else { return }
        var (accelerometer, gyroscope, gravity) = Self.simulatedWalk(seconds: 20, rate: rate, seed: 11)
        if gap {
            // The samples from 8 s to 10 s after the first are missing.
            let start = accelerometer.t[0]
            func cut(_ data: Triaxial) -> Triaxial {
                let kept = data.t.indices.filter { !(data.t[$0] - start >= 8 && data.t[$0] - start < 10) }
                return Triaxial(t: kept.map { data.t[$0] }, x: kept.map { data.x[$0] }, y: kept.map { data.y[$0] }, z: kept.map { data.z[$0] })
            }
            (accelerometer, gyroscope, gravity) = (cut(accelerometer), cut(gyroscope), cut(gravity))
        }
        let ours = MhealthtoolsKinematics(task: task, accelerometer: accelerometer, gyroscope: gyroscope, gravity: gravity)
        #expect(!ours.rows.isEmpty)
        let worst = Self.compare(ours, try Self.peer(task, accelerometer: accelerometer, gyroscope: gyroscope, gravity: gravity))
        print("mhealthtools \(task) on a simulated 20-s recording at \(rate) Hz\(gap ? " with a 2-s gap" : ""): \(ours.rows.count) rows, largest relative difference \(worst.0), by family \(worst.1.sorted { $0.key < $1.key })")
    }
}

/// Hostile samples (docs/reliability.md): numbers or null with a warning or mhealthtools' error,
/// never a crash. Each case is a guard of MhealthtoolsKinematics or its EMD and AR spectrum.
@Suite struct MhealthtoolsKinematicsHostileTests {
    typealias Triaxial = MhealthtoolsKinematics.Triaxial

    static func series(_ n: Int, time: (Int) -> Double = { Double($0) / 100 }, value: (Int) -> Double = { sin(Double($0) / 3) }) -> Triaxial {
        let t = (0..<n).map(time), v = (0..<n).map(value)
        return Triaxial(t: t, x: v, y: v.map { -$0 }, z: v.map { $0 * 0.5 })
    }

    @Test("a NaN in the accelerometer or the gyroscope: mhealthtools' own error, no rows")
    func notANumber() {
        var broken = Self.series(500)
        broken.y[100] = .nan
        let accelerometer = MhealthtoolsKinematics(task: .walk, accelerometer: broken, gyroscope: Self.series(500))
        #expect(accelerometer.error == "Malformed accelerometer data" && accelerometer.rows.isEmpty)
        let gyroscope = MhealthtoolsKinematics(task: .balance, accelerometer: Self.series(500), gyroscope: broken)
        #expect(gyroscope.error == "Malformed gyroscope data" && gyroscope.rows.isEmpty)
    }

    @Test("one sample, or all at one time: no rate, a warning and no rows")
    func noRate() {
        let one = MhealthtoolsKinematics(task: .walk, accelerometer: Self.series(1), gyroscope: nil)
        #expect(one.rows.isEmpty && one.warnings.contains { $0.contains("1 sample(s)") } && one.error != nil)
        let sameTime = MhealthtoolsKinematics(task: .balance, accelerometer: Self.series(300, time: { _ in 5 }), gyroscope: nil)
        #expect(sameTime.rows.isEmpty && sameTime.warnings.contains { $0.contains("no positive rate") })
        // The set's warnings say it once: the error is that same warning.
        var recorded = SensorSeries(kind: .accelerometer)
        for _ in 0..<300 { recorded.append(numbers: [5, .nan, 0.1, 0.2, -1]) }
        let said = KinematicSummary.set(.balance, recorded, name: "mhealthtools").warnings
        #expect(said == ["mhealthtools: accelerometer: the first and last times give no positive rate"], "\(said)")
    }

    @Test("times spanning beyond the double range (−1e308 … 1e308): a warning, no rows")
    func hugeTimes() {
        let huge = MhealthtoolsKinematics(task: .balance, accelerometer: Self.series(300, time: { $0 == 0 ? -1e308 : ($0 == 1 ? 1e308 : Double($0)) }), gyroscope: nil)
        #expect(huge.rows.isEmpty && huge.warnings.contains { $0.contains("beyond the double range") }, "\(huge.warnings)")
    }

    @Test("repeated times with EMD (mhealthtools cannot spread the axes): a warning, no rows; without EMD the features")
    func repeatedTimes() {
        let repeated = Self.series(600, time: { Double($0 / 2) / 100 })
        let walk = MhealthtoolsKinematics(task: .walk, accelerometer: repeated, gyroscope: nil)
        #expect(walk.rows.isEmpty && walk.warnings.contains { $0.contains("repeated times") })
        #expect(MhealthtoolsKinematics(task: .balance, accelerometer: repeated, gyroscope: nil).rows.count == 3)
    }

    @Test("a constant signal: EMD finds no IMF (a warning per axis), and without EMD the spectral features are null with a warning")
    func constant() {
        let still = Self.series(600, value: { _ in 0.25 })
        let walk = MhealthtoolsKinematics(task: .walk, accelerometer: still, gyroscope: nil)
        #expect(walk.rows.isEmpty && walk.warnings.filter { $0.contains("0 of 2 IMFs") }.count == 3, "\(walk.warnings)")
        let balance = MhealthtoolsKinematics(task: .balance, accelerometer: still, gyroscope: nil)
        #expect(balance.rows.count == 3 && balance.rows.allSatisfy { $0.features.frequency.allSatisfy(\.isNaN) && $0.features.energy.allSatisfy(\.isNaN) })
        #expect(balance.rows.map { $0.features.time[0] } == [0.25, -0.25, 0.125])
        #expect(balance.warnings.contains { $0.contains("3 series constant or too short for an AR spectrum") }, "\(balance.warnings)")
    }

    @Test("timestamps 1e-20 s apart: numbers or NaN, no crash; values of 1e300 g: every row but sin 0's left out, a warning, no rate")
    func extremes() {
        let tight = MhealthtoolsKinematics(task: .walk, accelerometer: Self.series(700, time: { Double($0) * 1e-20 }), gyroscope: nil)
        #expect(tight.error != nil || !tight.rows.isEmpty)
        let large = MhealthtoolsKinematics(task: .walk, accelerometer: Self.series(700, value: { 1e300 * sin(Double($0)) }), gyroscope: nil)
        #expect(large.rows.isEmpty && large.warnings.first?.hasPrefix("implausibleValues: 699 rows with an acceleration beyond ±1,000 g") == true, "\(large.warnings)")
    }

    /// One accelerometer row at 1e300 g made every feature of its axis about 1e297 (tremor and
    /// balance's mhealthtools sets, exit 0).
    @Test("rows beyond ±1,000 g or ±1,000 rad/s are left out with gait's warning: the features are those of the recording without them; ±1,000 itself is kept")
    func implausibleRows() {
        let accelerometer = Self.series(600), gyroscope = Self.series(600, value: { cos(Double($0) / 5) })
        var spiked = accelerometer, spun = gyroscope
        spiked.z[100] = 1e300
        spun.x[200] = -1000.5
        func without(_ data: Triaxial, _ row: Int) -> Triaxial {
            let kept = data.t.indices.filter { $0 != row }
            return Triaxial(t: kept.map { data.t[$0] }, x: kept.map { data.x[$0] }, y: kept.map { data.y[$0] }, z: kept.map { data.z[$0] })
        }
        let cleaned = MhealthtoolsKinematics(task: .restTremor, accelerometer: spiked, gyroscope: spun)
        let reference = MhealthtoolsKinematics(task: .restTremor, accelerometer: without(accelerometer, 100), gyroscope: without(gyroscope, 200))
        #expect("\(cleaned.rows)" == "\(reference.rows)" && !cleaned.rows.isEmpty)  // NaN features equal as text
        #expect(cleaned.warnings == [GaitAnalysis.implausibleRowsWarning(2)] + reference.warnings, "\(cleaned.warnings)")
        var edge = accelerometer
        edge.x[50] = 1000
        #expect(MhealthtoolsKinematics(task: .balance, accelerometer: edge, gyroscope: nil).warnings.allSatisfy { !$0.hasPrefix("implausibleValues") })
    }

    @Test("gravity with a NaN in a window whose other values change sign: not tagged (R's max and min give NaN, the comparison NA, dropped); the next window's sign change is")
    func gravityNaN() {
        var gravity = Self.series(600, value: { _ in -0.98 })
        gravity.x = (0..<600).map { $0 < 128 ? 0.1 : ($0 < 140 ? -0.1 : ($0 < 200 ? 0.1 : -0.1)) }
        gravity.x[10] = .nan
        let tags = MhealthtoolsKinematics(task: .walk, accelerometer: Self.series(600), gyroscope: nil, gravity: gravity).rotatedWindows
        #expect(tags == [false, true, false], "\(tags ?? [])")
    }

    @Test("EMD's extrema and spline on a hand example: a plateau maximum counts once with both ends; ties in the knots are merged to their mean")
    func emdPieces() {
        let found = EmpiricalModeDecomposition.extrema([0, 1, 1, 0, -1, 0, 2, 0][...])
        #expect(found.maxima == [1, 2, 6] && found.minima == [4] && found.count == 3)
        // Through (0,0), (1,1), (1,3) → (1,2), (2,0): a parabola-free FMM cubic of three knots is the
        // interpolant with the third divided differences' end conditions: at x = 1 it is 2.
        let spline = FMMSpline(x: [0, 1, 1, 2], y: [0, 1, 3, 0])!
        #expect(spline.x == [0, 1, 2] && spline.y == [0, 2, 0] && spline.evaluate([1])[0] == 2)
        // A NaN difference counts as no change (EMD's sign of NA): the maximum's plateau is the
        // samples equal to its value up to the next turn, here the one sample 1 (the one-pass
        // search, which takes a plateau's end from the signs alone, would give 3).
        let unordered = EmpiricalModeDecomposition.extrema([1, 2, .nan, 5, 3][...])
        #expect(unordered.maxima == [1] && unordered.minima.isEmpty && unordered.count == 1)
    }

    @Test("the FMM spline at points in any order (forwards by one interval and by several, backwards, beyond either end) equals R's splinefun to 1e-12",
          .enabled(if: Peer.r.runs, Peer.r.skipMessage))
    func splineAgainstR() throws {
        guard let rscript = Peer.r.require() else { return }
        let x: [Double] = [0, 1, 2, 3, 4, 5, 6, 7], y: [Double] = [0, 3, 1, 4, 1, 5, 9, 2]
        let points: [Double] = [0.2, 1.5, 7.5, 0.5, 3.7, 3.1, -1, 2.2, 5.5, 6.5, 6.9, 7.5, 8.3, 4.4, 1.2]
        func list(_ values: [Double]) -> String { "c(" + values.map { "\($0)" }.joined(separator: ",") + ")" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: rscript)
        process.arguments = ["-e", "cat(sprintf('%.17g', splinefun(\(list(x)), \(list(y)), method = 'fmm')(\(list(points)))), sep = '\\n')"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let theirs = text.split(separator: "\n").compactMap { Double($0) }
        try #require(theirs.count == points.count, "Rscript printed \(text)")
        let ours = FMMSpline(x: x, y: y)!.evaluate(points)
        for (k, (a, b)) in zip(ours, theirs).enumerated() {
            #expect(abs(a - b) <= 1e-12 * max(1, abs(b)), "at \(points[k]): \(a) here, \(b) in R")
        }
    }
}
