import Foundation
import GRDB
import Testing
import TestSupport
@testable import Batch
@testable import Scoring

/// Upload archives read in place (issue 18, item 2) and a recording's identity by its content
/// (item 4). The archives are built in the test by Python's `zipfile` — an independent writer —
/// including the hostile ones (names leaving the folder, links, lying sizes, corrupt data).
@Suite struct UploadArchiveTests {
    static let accel = SharedData.sampleData.appendingPathComponent("accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json").path
    static let motion = SharedData.sampleData.appendingPathComponent("deviceMotion_FBB0F82D_B546_0A40_4F1C_E3D85E934F5F-20260101120005.json").path

    /// A walking upload: `info.json` (with the fields stored as metadata), the outbound
    /// accelerometer and the rest device motion of the sample data.
    static let info = """
        {"taskRun":"3F2C6B1E-0000-4000-8000-000000000001","item":"Walking Activity","appName":"mPower","appVersion":"version 1.0.5, build 12",
         "phoneInfo":"iPhone 6","files":[{"filename":"accel_walking.outbound.json","timestamp":"2015-03-10T14:00:00-0500","contentType":"text/json"},
         {"filename":"deviceMotion_walking.rest.json","timestamp":"2015-03-10T14:00:30.250-0500","contentType":"text/json"}]}
        """

    static func makeUploadFolder(_ folder: TemporaryFolder, _ name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder.path(name), withIntermediateDirectories: true)
        _ = try folder.write(name + "/info.json", info)
        try FileManager.default.copyItem(atPath: accel, toPath: folder.path(name + "/accel_walking.outbound.json"))
        try FileManager.default.copyItem(atPath: motion, toPath: folder.path(name + "/deviceMotion_walking.rest.json"))
        return folder.path(name)
    }

    /// Writes a ZIP with Python's `zipfile`: entries `[name, source file or nil, text or nil]`,
    /// `links` as symbolic-link entries, and `script` run after (with `z` the path) to damage it.
    static func zip(_ path: String, files: [(String, String)], texts: [(String, String)] = [], links: [(String, String)] = [], after script: String = "") throws {
        let spec = try JSONSerialization.data(withJSONObject: [
            "path": path, "files": files.map { [$0.0, $0.1] }, "texts": texts.map { [$0.0, $0.1] }, "links": links.map { [$0.0, $0.1] },
        ])
        let program = """
            import json, sys, zipfile
            s = json.loads(sys.stdin.read()); z = s["path"]
            with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as archive:
                for name, source in s["files"]:  # ZipInfo keeps the name as given (write() would clean it)
                    entry = zipfile.ZipInfo(name); entry.compress_type = zipfile.ZIP_DEFLATED
                    archive.writestr(entry, open(source, "rb").read())
                for name, text in s["texts"]: archive.writestr(name, text)
                for name, target in s["links"]:
                    entry = zipfile.ZipInfo(name); entry.create_system = 3; entry.external_attr = (0o120777 << 16)
                    archive.writestr(entry, target)
            \(script)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", program]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(spec)
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3 zipfile failed for \(path)")
    }

    @Test("a .zip upload is scored in place like its unpacked folder: same content key, same features, the info.json fields as metadata")
    func zipEqualsFolder() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let upload = try Self.makeUploadFolder(folder, "walk")
        let archive = folder.path("walk.zip")
        try Self.zip(archive, files: ["info.json", "accel_walking.outbound.json", "deviceMotion_walking.rest.json"].map { ($0, upload + "/" + $0) })

        // `score` reads the archive without unpacking it, and gives the folder's numbers.
        let fromZip = try AnalyzerParameters().score(.gait, file: archive).report
        let fromFolder = try AnalyzerParameters().score(.gait, file: upload).report
        #expect(fromZip.sets.map(\.values) == fromFolder.sets.map(\.values))
        #expect(fromZip.sets.first?.values.isEmpty == false)
        let balance = try AnalyzerParameters().score(.balance, file: archive).report
        #expect(balance.unusable == nil && balance.kind == "balance")

        // Nothing was written next to the archive.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["walk", "walk.zip"])

        let store = try ResultStore(path: folder.path("r.sqlite"))
        let counts = try await BatchRunner.run([archive], store: store, options: BatchOptions(toolkitVersion: "test"))
        #expect(counts.errors == 0 && counts.computed == 2, "gait (outbound) and balance (rest)")
        let rows = try store.resultRows()
        #expect(rows.map(\.key.analyzer).sorted() == ["balance", "gait"])
        // The metadata: info.json's fields, timestamps in UTC (14:00:00-0500 is 19:00:00Z).
        let (columns, values) = try store.recordingMetadata()
        #expect(columns == ["taskRun", "item", "appName", "appVersion", "phoneInfo", "listedFiles", "firstFileTimestamp", "lastFileTimestamp"])
        #expect(values[archive]?["phoneInfo"] == "iPhone 6" && values[archive]?["listedFiles"] == "2")
        #expect(values[archive]?["firstFileTimestamp"] == "2015-03-10T19:00:00.000Z")
        #expect(values[archive]?["lastFileTimestamp"] == "2015-03-10T19:00:30.250Z")
        // The key of the archive's unit is the folder's: the same names and bytes.
        let folderUnits = await Discovery.units([upload]).units
        let zipUnits = await Discovery.units([archive])
        #expect(zipUnits.units.map(\.members.count) == [3])
        #expect(try BatchRunner.contentKey(folderUnits[0], await Discovery.units([upload]).inventory.facts).get()
            == BatchRunner.contentKey(zipUnits.units[0], zipUnits.inventory.facts).get())
    }

    @Test("one recording reached by three paths (a folder, a link to it, its .zip) is analysed once and exported as one row listing its paths")
    func identityByContent() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let upload = try Self.makeUploadFolder(folder, "walk")
        try FileManager.default.createSymbolicLink(atPath: folder.path("again"), withDestinationPath: upload)
        let archive = folder.path("walk.zip")
        try Self.zip(archive, files: ["info.json", "accel_walking.outbound.json", "deviceMotion_walking.rest.json"].map { ($0, upload + "/" + $0) })
        // A loose file linked under a second name: one recording too.
        try FileManager.default.copyItem(atPath: Self.accel, toPath: folder.path("loose.json"))
        try FileManager.default.linkItem(atPath: folder.path("loose.json"), toPath: folder.path("hardlink.json"))

        let storeFolder = try TemporaryFolder()
        defer { storeFolder.remove() }
        let store = try ResultStore(path: storeFolder.path("r.sqlite"))
        // Each argument is walked on its own, so the link is a second path to the same folder.
        let arguments = [upload, folder.path("again"), archive, folder.path("loose.json"), folder.path("hardlink.json")]
        let counts = try await BatchRunner.run(arguments, store: store, options: BatchOptions(toolkitVersion: "test"))
        #expect(counts.computed == 3, "gait and balance of the upload once, gait of the loose file once")
        let rows = try store.resultRows()
        #expect(rows.count == 3)
        let upload3 = rows.filter { $0.key.analyzer == "balance" }
        #expect(upload3.map(\.paths) == [[folder.path("again"), upload, archive].sorted()])
        let loose = try #require(rows.first { $0.paths.contains(folder.path("loose.json")) })
        #expect(loose.paths == [folder.path("hardlink.json"), folder.path("loose.json")])
        #expect(loose.recording == folder.path("hardlink.json"), "the first path names the recording")

        // Every export: one line per result, the paths in a column of their own.
        let wide = try WideTable(analyzer: "gait", store: store)
        var lines = 0
        try store.forEachResult(analyzer: "gait") { row in
            lines += 1
            let json = try #require(try JSONSerialization.jsonObject(with: Data(wide.jsonLine(row).utf8)) as? [String: Any])
            #expect((json["paths"] as? [String])?.count == row.paths.count)
        }
        #expect(lines == 2)
        let view = try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM wide_gait") }
        #expect(view == 2)
        // A rerun over the same paths reads nothing new and stores nothing new.
        let again = try await BatchRunner.run(arguments, store: store, options: BatchOptions(toolkitVersion: "test"))
        #expect(again.computed == 0 && again.alreadyStored == 3)
    }

    @Test("hostile and broken archives are error rows naming the archive and the entry; nothing is written, the batch goes on")
    func hostileArchives() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let accel = Self.accel
        try Self.zip(folder.path("dotdot.zip"), files: [("../escape.json", accel)])
        try Self.zip(folder.path("absolute.zip"), files: [("/tmp/absolute.json", accel)])
        try Self.zip(folder.path("backslash.zip"), files: [("..\\escape.json", accel)])
        try Self.zip(folder.path("link.zip"), files: [("info.json", accel)], links: [("accel.json", "/etc/passwd")])
        // A flipped byte in the deflated data: a CRC-32 (or inflate) failure.
        try Self.zip(folder.path("corrupt.zip"), files: [("accel.json", accel)], after: """
            b = bytearray(open(z, "rb").read()); b[200] ^= 0xFF; open(z, "wb").write(b)
            """)
        // Cut in half: no end of central directory.
        try Self.zip(folder.path("truncated.zip"), files: [("accel.json", accel)], after: """
            b = open(z, "rb").read(); open(z, "wb").write(b[: len(b) // 2])
            """)
        // 4 MiB of zeros: beyond a 1 MiB bound by its header, and by inflating when the header lies.
        try Self.zip(folder.path("bomb.zip"), files: [], texts: [("zeros.json", String(repeating: " ", count: 4 << 20))])
        try Self.zip(folder.path("liar.zip"), files: [], texts: [("zeros.json", String(repeating: " ", count: 4 << 20))], after: """
            import struct
            b = bytearray(open(z, "rb").read())
            b[22:26] = struct.pack("<I", 100)  # local header: uncompressed size
            c = b.rfind(b"PK\\x01\\x02"); b[c + 24:c + 28] = struct.pack("<I", 100)  # central directory
            open(z, "wb").write(b)
            """)
        // Only the CRC-32 is wrong (in the central directory and the local header alike): the data inflate cleanly.
        try Self.zip(folder.path("crc.zip"), files: [("accel.json", accel)], after: """
            b = bytearray(open(z, "rb").read()); c = b.rfind(b"PK\\x01\\x02"); b[c + 16] ^= 0x01; b[14] ^= 0x01; open(z, "wb").write(b)
            """)
        // Ambiguous archives: two entries of one name; a central name unlike its local header's.
        try Self.zip(folder.path("twice.zip"), files: [("accel.json", accel), ("accel.json", Self.motion)])
        try Self.zip(folder.path("renamed.zip"), files: [("accel.json", accel)], after: """
            b = bytearray(open(z, "rb").read()); c = b.rfind(b"PK\\x01\\x02"); b[c + 46:c + 51] = b"motio"; open(z, "wb").write(b)
            """)
        // Local headers that disagree with the central directory (a streaming reader would read
        // other bytes): the method, the CRC-32, the compressed size.
        try Self.zip(folder.path("localmethod.zip"), files: [("accel.json", accel)], after: """
            b = bytearray(open(z, "rb").read()); b[8] = 0; open(z, "wb").write(b)
            """)
        try Self.zip(folder.path("localcrc.zip"), files: [("accel.json", accel)], after: """
            b = bytearray(open(z, "rb").read()); b[14] ^= 0x01; open(z, "wb").write(b)
            """)
        try Self.zip(folder.path("localsize.zip"), files: [("accel.json", accel)], after: """
            b = bytearray(open(z, "rb").read()); b[18] ^= 0x01; open(z, "wb").write(b)
            """)
        try FileManager.default.copyItem(atPath: accel, toPath: folder.path("good.json"))
        let before = Set(try FileManager.default.subpathsOfDirectory(atPath: folder.url.path))

        let storeFolder = try TemporaryFolder()
        defer { storeFolder.remove() }
        let store = try ResultStore(path: storeFolder.path("r.sqlite"))
        let counts = try await UploadArchive.$maximumBytes.withValue(1 << 20) {
            try await BatchRunner.run([folder.url.path], store: store, options: BatchOptions(toolkitVersion: "test"))
        }
        let errors = Dictionary(uniqueKeysWithValues: try store.resultRows().filter { $0.status == .error }.map {
            (TaskFiles.name(of: $0.recording), $0.error ?? "")
        })
        #expect(errors.count == 14 && counts.errors == 14, "\(errors)")
        for (name, what) in [("localmethod.zip", "compression method 0 vs 8"), ("localcrc.zip", "CRC-32"), ("localsize.zip", "sizes")] {
            #expect(errors[name]?.contains("disagrees with the central directory (\(what)") == true, "\(name): \(errors[name] ?? "")")
        }
        #expect(errors["crc.zip"]?.contains("fails its check (CRC-32") == true, "\(errors["crc.zip"] ?? "")")
        #expect(errors["twice.zip"]?.contains(#""accel.json" appears twice"#) == true, "\(errors["twice.zip"] ?? "")")
        #expect(errors["renamed.zip"]?.contains(#"entry "motio.json" has another name in its local header"#) == true, "\(errors["renamed.zip"] ?? "")")
        #expect(errors["dotdot.zip"]?.contains(#""../escape.json" is not a relative name"#) == true, "\(errors["dotdot.zip"] ?? "")")
        #expect(errors["absolute.zip"]?.contains(#""/tmp/absolute.json" is not a relative name"#) == true)
        #expect(errors["backslash.zip"]?.contains("is not a relative name") == true)
        #expect(errors["link.zip"]?.contains(#""accel.json" is a symbolic link"#) == true)
        #expect(errors["corrupt.zip"]?.contains("corrupt") == true, "\(errors["corrupt.zip"] ?? "")")
        #expect(errors["truncated.zip"]?.contains("not a readable ZIP archive") == true)
        #expect(errors["bomb.zip"]?.contains("says it inflates to 4194304 bytes, beyond the 1048576-byte bound") == true)
        #expect(errors["liar.zip"]?.contains("inflates beyond the 1048576-byte bound") == true, "\(errors["liar.zip"] ?? "")")
        for (name, message) in errors { #expect(message.hasPrefix(folder.path(name)), "the message names the archive: \(message)") }
        // The good file was scored; nothing was written but the store.
        let good = try store.resultRows().filter { $0.recording == folder.path("good.json") }
        #expect(good.map(\.key.analyzer) == ["gait"] && good.allSatisfy { $0.status != .error }, "\(good.map { "\($0.recording) \($0.status) \($0.error ?? "")" })")
        let after = Set(try FileManager.default.subpathsOfDirectory(atPath: folder.url.path))
        #expect(after == before)
        #expect(!FileManager.default.fileExists(atPath: folder.url.deletingLastPathComponent().appendingPathComponent("escape.json").path))
    }

    @Test("a manifest record naming upload archives (a Bridge rawData column): their entries are the record's files, info.json's fields follow its metadata, two records with the same archive stay two")
    func manifestOfArchives() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let upload = try Self.makeUploadFolder(folder, "walk")
        try Self.zip(folder.path("walk.zip"), files: ["info.json", "accel_walking.outbound.json", "deviceMotion_walking.rest.json"].map { ($0, upload + "/" + $0) })
        _ = try folder.write("table.csv", "recordId,healthCode,rawData\nr1,h1,walk.zip\nr2,h2,walk.zip\n")
        var options = BatchOptions(toolkitVersion: "test")
        options.manifest = try StudyManifest.read(folder.path("table.csv"))
        let store = try ResultStore(path: folder.path("r.sqlite"))
        let counts = try await BatchRunner.run([], store: store, options: options)
        #expect(counts.errors == 0 && counts.computed == 2, "gait and balance, computed once for the two records' same content")
        let wide = try WideTable(analyzer: "balance", store: store)
        #expect(Array(wide.metadataColumns.prefix(4)) == ["recordId", "healthCode", "taskRun", "item"])
        var records: [String] = []
        try store.forEachResult(analyzer: "balance") { row in
            let line = try #require(try JSONSerialization.jsonObject(with: Data(wide.jsonLine(row).utf8)) as? [String: Any])
            records.append("\(line["recordId"] ?? "") \(line["item"] ?? "") \(line["status"] ?? "")")
        }
        #expect(records == ["r1 Walking Activity ok", "r2 Walking Activity ok"])
    }

    @Test("the ZIP reader against Python's zipfile: stored and deflated entries, ZIP64 records and extra fields, an empty entry, a folder, CP437 and UTF-8 names")
    func zipReader() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("mixed.zip")
        // Python writes "é.txt" as UTF-8 with flag bit 11; byte 0x80 patched into a name with the
        // flag clear is CP437 "Ç"; lowered ZIP64 limits give ZIP64 extra fields and end records.
        let program = """
            import zipfile, sys
            z = sys.argv[1]
            with zipfile.ZipFile(z, "w") as a:
                a.writestr(zipfile.ZipInfo("stored.txt"), b"stored bytes")
                i = zipfile.ZipInfo("deflated.txt"); i.compress_type = zipfile.ZIP_DEFLATED
                a.writestr(i, b"abc" * 100000)
                a.writestr("empty.txt", b"")
                a.writestr("sub/", b"")
                a.writestr("\u{e9}.txt", b"utf8")
                with a.open("big64.txt", "w", force_zip64=True) as f: f.write(b"x" * 70000)
                # Lowered limits: the central directory gets ZIP64 extra fields and a ZIP64 end record.
                zipfile.ZIP64_LIMIT = 1000; zipfile.ZIP_FILECOUNT_LIMIT = 1
            # The classic end record's count and size made useless: only the ZIP64 record is right.
            b = bytearray(open(z, "rb").read()); e = b.rfind(b"PK\\x05\\x06")
            assert b.rfind(b"PK\\x06\\x06") > 0
            b[e + 8:e + 16] = b"\\xff" * 8; open(z, "wb").write(b)
            # a CP437 name: byte 0x80 is "\u{c7}" (flag bit 11 clear)
            b = bytearray(open(z, "rb").read())
            i = b.find(b"stored.txt"); b[i] = 0x80
            i = b.find(b"stored.txt", i + 1); b[i] = 0x80
            open(z, "wb").write(b)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", program, path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let directory = try ZIPDirectory(bytes)
        let entries = try directory.entries()
        #expect(entries.map(\.name) == ["\u{c7}tored.txt", "deflated.txt", "empty.txt", "sub/", "\u{e9}.txt", "big64.txt"])
        #expect(entries.map(\.isDirectory) == [false, false, false, true, false, false])
        #expect(entries.map(\.method) == [0, 8, 0, 0, 0, 0])
        let contents = try entries.map { try directory.contents(of: $0, atMost: 1 << 20) }
        #expect(contents.map(\.count) == [12, 300_000, 0, 0, 4, 70_000])
        #expect(contents[1] == Array(String(repeating: "abc", count: 100_000).utf8))
        #expect(throws: ZIPDirectory.Failure.self) { try directory.contents(of: entries[1], atMost: 299_999) }
        // Every truncation of the archive is refused or read consistently; none traps.
        for length in stride(from: 0, to: bytes.count, by: 97) {
            guard let cut = try? ZIPDirectory(Array(bytes[..<length])), let listed = try? cut.entries() else { continue }
            for entry in listed { _ = try? cut.contents(of: entry, atMost: 1 << 20) }
        }
    }

    @Test("entry names: relative names inside the archive only")
    func names() {
        for name in ["info.json", "recorder-1/accel.json", "a b.json"] { #expect(UploadArchive.isSafeName(name), "\(name)") }
        for name in ["", "/etc/passwd", "../x", "a/../../x", "a\\b", "C:x.json", "a/./b", "x\u{0}.json"] {
            #expect(!UploadArchive.isSafeName(name), "\(name)")
        }
    }
}
