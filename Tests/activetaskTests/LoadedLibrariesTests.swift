import Foundation
import Testing
import TestSupport

/// libsndfile and libasound are loaded when a command first opens an audio file or an ALSA device
/// (Sources/CSndFile, Sources/CAlsa), as libdbus-1 and FFmpeg are: the command does not link
/// them, so a command that needs none starts without mapping them, and one whose library cannot
/// be loaded says which and why.
@Suite struct LoadedLibrariesTests {
    @Test("activetask links none of libsndfile, libasound, libdbus-1 or FFmpeg's libraries")
    func notLinked() throws {
        let dynamic = try Run([], launcher: ["/bin/sh", "-c", "exec readelf --dynamic \"$0\""])
        #expect(dynamic.status == 0, "\(dynamic.stderr)")
        let needed = dynamic.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("[libc.so.6]") }, "\(dynamic.stdout)")
        for library in ["libsndfile", "libasound", "libdbus", "libavformat", "libavcodec", "libswresample", "libavutil"] {
            #expect(!needed.contains { $0.contains(library) }, "\(library) in \(needed)")
        }
    }

    @Test("with a libsndfile.so.1 and a libasound.so.2 that lack their functions: tapping scores; score spl decodes through FFmpeg, or without it exits naming libsndfile; record audio and --list-devices exit naming the library")
    func unloadable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atk-libraries-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/lib", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Found first by the loader (LD_LIBRARY_PATH): a shared library (zlib's, which the command
        // links) that loads but has none of the functions.
        let zlib = try #require(["/lib/x86_64-linux-gnu/libz.so.1", "/lib/aarch64-linux-gnu/libz.so.1"].first { FileManager.default.fileExists(atPath: $0) })
        for library in ["libsndfile.so.1", "libasound.so.2"] {
            try FileManager.default.createSymbolicLink(atPath: folder + "/lib/" + library, withDestinationPath: zlib)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["LD_LIBRARY_PATH"] = folder + "/lib"
        let sample = { (name: String) in SharedData.packageRoot.appendingPathComponent("SampleData/" + name).path }

        let tapping = try Run(["score", "tapping", "--json", sample("tapping_results.json")], environment: environment)
        #expect(tapping.status == 0, "\(tapping.stderr)")
        #expect(tapping.stdout.contains("\"meanTapInter\""))

        // A WAV libsndfile cannot open is decoded by FFmpeg (AudioInput.open): the same level.
        let wav = sample("voice_aaah.wav")
        func laeq(_ run: Run) throws -> Double? {
            let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            return ((object?["features"] as? [String: Any])?["atk"] as? [String: Any])?["laeqDecibels"] as? Double
        }
        let direct = try Run(["score", "spl", "--json", wav])
        let fallback = try Run(["score", "spl", "--json", wav], environment: environment)
        #expect(direct.status == 0 && fallback.status == 0, "\(fallback.stderr)")
        #expect(try laeq(fallback) != nil && laeq(fallback) == laeq(direct))
        // Without FFmpeg's libraries and tool either, the WAV cannot be decoded: libsndfile's failure is said.
        let libraries = (zlib as NSString).deletingLastPathComponent
        for name in try FileManager.default.contentsOfDirectory(atPath: libraries)
        where name.range(of: #"^lib(avutil|avcodec|avformat|swresample)\.so\.[0-9]+$"#, options: .regularExpression) != nil {
            try FileManager.default.createSymbolicLink(atPath: folder + "/lib/" + name, withDestinationPath: zlib)
        }
        var noFFmpeg = environment
        noFFmpeg["PATH"] = folder + "/lib"
        let spl = try Run(["score", "spl", wav], environment: noFFmpeg)
        #expect(spl.status == 3)
        #expect(spl.stderr.contains("\(wav): cannot open audio: libsndfile.so.1 has no sf_open"), "\(spl.stderr)")

        let out = folder + "/rec"
        let record = try Run(["record", "audio", "--source", "alsa:default", "--out", out], environment: environment)
        #expect(record.status == 3)
        #expect(record.stderr.contains("alsa:default: cannot open audio: libasound.so.2 has no snd_strerror"), "\(record.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).isEmpty)

        let list = try Run(["record", "audio", "--list-devices"], environment: environment)
        #expect(list.status != 0)
        #expect(list.stderr.contains("libasound.so.2 has no snd_strerror"), "\(list.stderr)")
    }
}
