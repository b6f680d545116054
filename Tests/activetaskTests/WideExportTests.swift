import Foundation
import Testing
import TestSupport

/// Typed values end to end and the tidy wide table (issue 17, items 3 and 4): every `score --json`
/// and every export holds numbers or null, booleans as booleans, categories as text in fields of
/// their own; `batch export --wide` gives one row per recording with one typed column per
/// feature, read by pandas (and R's read.csv when installed) with numeric types, and equal to
/// the store's `wide_<analyzer>` view.
@Suite(.serialized) struct WideExportTests {
    /// Strings that would be a number, a boolean or a missing value written as text.
    static let mistypedStrings: Set<String> = ["true", "false", "NaN", "nan", "Infinity", "-Infinity", "inf", "no response", "None", "NA", "null", ""]

    /// Every string leaf of a JSON value that is a mistyped number or boolean, with its path.
    static func mistyped(_ value: Any, path: String = "") -> [String] {
        switch value {
        case let object as [String: Any]:
            return object.flatMap { key, item in
                // Free text (messages, file names, parameters) may say anything.
                ["file", "warnings", "error", "dialect", "recording", "parameters"].contains(key) ? [] : mistyped(item, path: path + "." + key)
            }
        case let array as [Any]: return array.flatMap { mistyped($0, path: path + "[]") }
        case let text as String: return mistypedStrings.contains(text) ? ["\(path) = \"\(text)\""] : []
        default: return []
        }
    }

    static func sample(_ name: String) -> String { SharedData.sampleData.appendingPathComponent(name).path }

    @Test("score --json of every kind: no boolean, NaN, infinity or no-response as a string")
    func scoreJSONIsTyped() throws {
        var commands: [[String]] = [
            ["score", "tapping", Self.sample("tapping_results.json")],
            ["score", "voice", Self.sample("voice_aaah.wav")],
            ["score", "loudness", Self.sample("voice_aaah.wav")],
            ["score", "spl", Self.sample("spl_meter_result.json")],
            ["score", "spl", Self.sample("voice_aaah.wav")],
            ["score", "gait", Self.sample("accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json")],
        ]
        if SharedData.runs {
            commands += SharedData.files(in: "audiometry").filter { $0.hasSuffix(".json") }.prefix(3).map { ["score", "audiometry", $0] }
            commands += SharedData.files(in: "mpower").filter { $0.contains("tapping") }.prefix(2).map { ["score", "tapping", $0] }
        }
        for command in commands {
            let run = try Run(command + ["--json"])
            #expect(run.status == 0 || run.status == 1, "\(command): \(run.stderr)")
            let json = try #require(run.json, "\(command): \(run.stdout.prefix(300))")
            #expect(Self.mistyped(json).isEmpty, "\(command): \(Self.mistyped(json))")
        }
    }

    /// A store over the sample data (and shared/data's mPower and audiometry files when present),
    /// audio scored as both voice and room noise.
    static func store(_ folder: TemporaryFolder) throws -> String {
        let db = folder.path("s.sqlite")
        var inputs = [SharedData.sampleData.path]
        if SharedData.runs { inputs += [SharedData.path("mpower"), SharedData.path("audiometry")] }
        let run = try Run(["batch"] + inputs + ["--db", db, "--audio", "both", "--jobs", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        return db
    }

    @Test("--wide --jsonl and --csv: one row per result, identifiers first, the same typed values; JSONL has no mistyped strings")
    func wideTables() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let db = try Self.store(folder)
        let long = try Run(["batch", "export", "--db", db, "--jsonl"])
        for line in long.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Self.mistyped(object["features"] ?? [:]).isEmpty, "\(Self.mistyped(object["features"] ?? [:]))")
        }
        for analyzer in ["tapping", "gait", "voice", "spl", "audiometry"] {
            let jsonl = try Run(["batch", "export", "--db", db, "--wide", "--analyzer", analyzer, "--jsonl"])
            let csv = try Run(["batch", "export", "--db", db, "--wide", "--analyzer", analyzer, "--csv"])
            #expect(jsonl.status == 0 && csv.status == 0, "\(jsonl.stderr)\(csv.stderr)")
            let rows = try jsonl.stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            let longRows = long.stdout.split(separator: "\n").filter { $0.contains(#""analyzer":"\#(analyzer)""#) }
            #expect(rows.count == longRows.count && !rows.isEmpty, "\(analyzer): \(rows.count) wide rows, \(longRows.count) results")
            for row in rows { #expect(Self.mistyped(row).isEmpty, "\(analyzer): \(Self.mistyped(row))") }
            let header = try #require(csv.stdout.split(separator: "\n").first).split(separator: ",").map(String.init)
            #expect(Array(header.prefix(7)) == ["recording", "paths", "content_sha256", "analyzer_version", "parameters", "status", "error"])
            #expect(header.dropFirst(7).allSatisfy { $0.contains(".") }, "\(header)")
            #expect(csv.stdout.split(separator: "\n").count == rows.count + 1)
        }
        // Without --analyzer: one file per analyzer into --out DIR.
        let all = try Run(["batch", "export", "--db", db, "--wide", "--csv", "--out", folder.path("wide")])
        #expect(all.status == 0, "\(all.stderr)")
        let tables: Set<String> = ["audiometry.csv", "gait.csv", "heartRate.csv", "rangeOfMotion.csv", "spl.csv", "tapping.csv", "tremor.csv", "voice.csv", "walkTest.csv"]
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path("wide"))) == tables)
        let missing = try Run(["batch", "export", "--db", db, "--wide", "--csv"])
        #expect(missing.status == 2 && missing.stderr.contains("--out DIR"))
        let stray = try Run(["batch", "export", "--db", db, "--analyzer", "gait", "--csv"])
        #expect(stray.status == 2 && stray.stderr.contains("--wide"))
        let unknown = try Run(["batch", "export", "--db", db, "--wide", "--analyzer", "walking", "--csv"])
        #expect(unknown.status == 2 && unknown.stderr.contains("tapping"))
    }

    @Test("pandas reads the wide CSV with numeric, boolean and text columns, equal to the JSONL and to pandas.read_sql of the wide_<analyzer> view; R's read.csv gives the same types",
          .enabled(if: Peer.python.runs && Peer.r.runs, Peer.python.skipMessage))
    func peersReadTheWideTable() throws {
        guard let python = Peer.python.require(), Peer.r.require() != nil else { return }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let db = try Self.store(folder)
        #expect(try Run(["batch", "export", "--db", db, "--wide", "--csv", "--out", folder.path("csv")]).status == 0)
        #expect(try Run(["batch", "export", "--db", db, "--wide", "--jsonl", "--out", folder.path("jsonl")]).status == 0)
        let script = try folder.write("check.py", """
            import json, math, sqlite3, sys
            import pandas as pd
            folder, db = sys.argv[1], sys.argv[2]
            problems = []
            for analyzer in ["tapping", "gait", "voice", "spl", "audiometry"]:
                frame = pd.read_csv(f"{folder}/csv/{analyzer}.csv")
                lines = [json.loads(l) for l in open(f"{folder}/jsonl/{analyzer}.jsonl")]
                view = pd.read_sql(f"SELECT * FROM wide_{analyzer}", sqlite3.connect(db))
                if list(view.columns) != list(frame.columns) or len(view) != len(frame):
                    problems.append(f"{analyzer}: view {view.shape} vs csv {frame.shape}")
                for column in frame.columns[6:]:
                    values = [line.get(column) for line in lines]
                    typed = {type(v).__name__ for v in values if v is not None}
                    dtype = str(frame[column].dtype)
                    if typed <= {"int", "float"} and typed and not dtype.startswith(("int", "float")):
                        problems.append(f"{analyzer}.{column}: numbers in JSONL, {dtype} in pandas")
                    if typed == {"bool"} and dtype != "bool" and not (frame[column].isna().any() and dtype == "object"):
                        problems.append(f"{analyzer}.{column}: booleans in JSONL, {dtype} in pandas")
                    if typed == {"str"} and dtype.startswith(("int", "float", "bool")):
                        problems.append(f"{analyzer}.{column}: text in JSONL, {dtype} in pandas")
                    cells, viewCells = frame[column].tolist(), view[column].tolist()
                    for index, value in enumerate(values):
                        cell = cells[index]
                        if value is None:
                            if not pd.isna(cell): problems.append(f"{analyzer}.{column}[{index}]: null in JSONL, {cell!r} in CSV")
                        elif isinstance(value, (int, float)) and not isinstance(value, bool):
                            if pd.isna(cell) or float(cell) != float(value): problems.append(f"{analyzer}.{column}[{index}]: {value} vs {cell!r}")
                            viewCell = viewCells[index]
                            if pd.isna(viewCell) or float(viewCell) != float(value): problems.append(f"{analyzer}.{column}[{index}]: {value} vs view {viewCell!r}")
                        elif isinstance(value, bool):
                            if bool(cell) != value: problems.append(f"{analyzer}.{column}[{index}]: {value} vs {cell!r}")
                            if int(viewCells[index]) != int(value): problems.append(f"{analyzer}.{column}[{index}]: {value} vs view (0/1)")
            # R's read.csv: each column's class agrees with its JSON values' type.
            import subprocess
            if True:
                for analyzer in ["tapping", "gait", "voice", "spl", "audiometry"]:
                    code = ('frame <- read.csv(commandArgs(TRUE)[1], check.names = FALSE); '
                            'classes <- sapply(frame, class); cat(paste(names(classes), classes, sep = "\\\\t"), sep = "\\\\n")')
                    out = subprocess.run(["/usr/bin/Rscript", "-e", code, f"{folder}/csv/{analyzer}.csv"], capture_output=True, text=True)
                    classes = dict(line.rsplit("\t", 1) for line in out.stdout.splitlines() if "\t" in line)
                    if not classes: problems.append(f"R read nothing of {analyzer}.csv: {out.stderr[-300:]}")
                    lines = [json.loads(l) for l in open(f"{folder}/jsonl/{analyzer}.jsonl")]
                    for column in list(classes)[6:]:
                        typed = {type(line.get(column)).__name__ for line in lines if line.get(column) is not None}
                        expected = {"int": {"integer", "numeric"}, "float": {"numeric", "integer"}, "bool": {"logical"}, "str": {"character"}}
                        allowed = set.union(*[expected[t] for t in typed]) if typed else {"logical"}
                        if typed == {"int", "float"}: allowed = {"numeric"}
                        if classes[column] not in allowed: problems.append(f"R {analyzer}.{column}: {typed} in JSONL, {classes[column]} in R")
                    print("R checked", analyzer, len(classes), file=sys.stderr)
            print(json.dumps(problems))
            """)
        let output = try PandasPeer.run(python, [script, folder.url.path, db], mergingErrors: false).output
        let problems = try #require((try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String], "\(output)")
        #expect(problems.isEmpty, "\(problems.prefix(10))")

    }
}

/// docs/batch.md's three lines from a Synapse-style table to a data frame keyed by recordId
/// (issue 18, item 1), run as written, with pandas.
@Suite(.enabled(if: SharedData.runs, SharedData.skipMessage)) struct ManifestToDataFrameTests {
    @Test("batch --manifest, export --wide, pandas.read_csv(index_col=\"recordId\"): one row per record with its metadata and typed features",
          .enabled(if: Peer.python.runs, Peer.python.skipMessage))
    func threeLines() throws {
        guard let python = Peer.python.require() else { return }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let manifest = try folder.write("walking.csv", """
            recordId,healthCode,createdOn,accel_walking_outbound.json.items,deviceMotion_walking_rest.json.items
            w1,hc-1,1426000000000,pdkit_mpower_gait.json,mhealthtools_device_motion.json
            w2,hc-2,1426000300000,pdkit_mpower_tremor.json,

            """)
        let batch = try Run(["batch", "--manifest", manifest, "--base", SharedData.path("mpower"), "--db", folder.path("mpower.sqlite")])
        #expect(batch.status == 0, "\(batch.stderr)")
        let export = try Run(["batch", "export", "--db", folder.path("mpower.sqlite"), "--wide", "--analyzer", "gait", "--csv", "--out", folder.path("gait.csv")])
        #expect(export.status == 0, "\(export.stderr)")
        let (status, output) = try PandasPeer.run(python, ["-c", """
            import pandas as pd, sys
            gait = pd.read_csv(sys.argv[1], index_col="recordId")
            assert list(gait.index) == ["w1", "w2"], list(gait.index)
            assert list(gait.columns[:2]) == ["healthCode", "createdOn"], list(gait.columns[:3])
            assert gait.loc["w1", "healthCode"] == "hc-1" and gait["createdOn"].dtype.kind == "i"
            assert gait["atk.stepCount"].dtype.kind in "if" and gait.loc["w1", "atk.stepCount"] >= 0, gait.filter(like="stepCount")
            assert not any(c.startswith("atk.rest.") for c in gait.columns), "the rest part is balance's, not gait's"
            print("ok")
            """, folder.path("gait.csv")], mergingErrors: true)
        #expect(status == 0 && output.hasSuffix("ok\n"), "\(output)")
    }
}

/// `batch export --wide --per healthCode` (issue 18, item 5) against pandas' groupby on the
/// wide table itself (median, and quantile(0.75) − quantile(0.25), both linear = type 7).
@Suite(.enabled(if: SharedData.runs, SharedData.skipMessage)) struct PerParticipantTests {
    @Test("per-participant medians and IQRs equal pandas' groupby of the exported wide table; an unknown column exits 2",
          .enabled(if: Peer.python.runs, Peer.python.skipMessage))
    func equalsPandas() throws {
        guard let python = Peer.python.require() else { return }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sample = SharedData.sampleData.appendingPathComponent("tapping_results.json").path
        let manifest = try folder.write("tapping.csv", """
            recordId,healthCode,tapping_results.json.TappingSamples
            t1,hc-1,\(sample)
            t2,hc-1,\(SharedData.path("mpower/pdkit_mpower_finger_tapping.json"))
            t3,hc-1,\(SharedData.path("mpower/pdscores_tapping.json"))
            t4,hc-2,\(SharedData.path("mpower/pdscores_tapping.json"))

            """)
        let db = folder.path("t.sqlite")
        #expect(try Run(["batch", "--manifest", manifest, "--db", db]).status == 0)
        #expect(try Run(["batch", "export", "--db", db, "--wide", "--analyzer", "tapping", "--csv", "--out", folder.path("wide.csv")]).status == 0)
        let per = try Run(["batch", "export", "--db", db, "--wide", "--analyzer", "tapping", "--per", "healthCode", "--csv", "--out", folder.path("per.csv")])
        #expect(per.status == 0, "\(per.stderr)")
        let unknown = try Run(["batch", "export", "--db", db, "--wide", "--analyzer", "tapping", "--per", "nope", "--csv"])
        #expect(unknown.status == 2 && unknown.stderr.contains("healthCode"), "\(unknown.stderr)")
        let (status, output) = try PandasPeer.run(python, ["-c", """
            import math, sys
            import pandas as pd
            wide = pd.read_csv(sys.argv[1]); per = pd.read_csv(sys.argv[2], index_col="healthCode")
            ok = wide[wide["status"] == "ok"]
            assert list(per.index) == ["hc-1", "hc-2"] and list(per["records"]) == [3, 1], per["records"]
            numeric = [c for c in ok.columns[9:] if ok[c].dtype.kind in "if"]
            assert len(numeric) > 30, numeric
            problems = []
            for column in numeric:
                groups = ok.groupby("healthCode")[column]
                for name, median, iqr in zip(groups.median().index, groups.median(), groups.quantile(0.75) - groups.quantile(0.25)):
                    for kind, expected in (("median", median), ("iqr", iqr)):
                        got = per.loc[name, f"{column}.{kind}"]
                        if (pd.isna(expected) != pd.isna(got)) or (not pd.isna(expected) and not math.isclose(got, expected, rel_tol=1e-12, abs_tol=1e-12)):
                            problems.append(f"{name} {column}.{kind}: {got} vs pandas {expected}")
            assert not problems, problems[:5]
            print("ok", len(numeric))
            """, folder.path("wide.csv"), folder.path("per.csv")], mergingErrors: true)
        #expect(status == 0 && output.hasPrefix("ok"), "\(output)")
    }
}

/// The peers' Python (pandas, numpy, parselmouth) that scripts/setup.sh installs.
enum PandasPeer {
    /// Runs it with `arguments`: its status and standard output (with standard error when `mergingErrors`).
    static func run(_ python: String, _ arguments: [String], mergingErrors: Bool) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        if mergingErrors { process.standardError = pipe }
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
