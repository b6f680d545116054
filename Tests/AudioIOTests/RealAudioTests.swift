import Foundation
import Testing
import TestSupport
@testable import AudioIO

/// Real recordings: frame counts and rates as ffprobe 5.1 reports them.
@Suite(.enabled(if: SharedData.runs, SharedData.skipMessage))
struct RealAudioTests {
    @Test("WAVE_FORMAT_EXTENSIBLE float voice recordings", arguments: [
        ("voice/AH_064F_7AB034C9-72E4-438B-A9B3-AD7FDA1596C5.wav", 29_911),
        ("voice/AH_114S_A89F3548-0B61-4770-B800-2E26AB3908B6.wav", 18_139),
        ("voice/AH_545616858-3A749CBC-3FEB-4D35-820E-E45C3E5B9B6A.wav", 43_903),
        ("voice/AH_545622717-461DFFFE-54AF-42AF-BA78-528BD505D624.wav", 24_226),
    ])
    func voice(file: String, frames: Int) throws {
        let decoder = try SoundFile(reading: SharedData.path(file))
        #expect(decoder.format.frames == Int64(frames))
        #expect(decoder.format.sampleRateHz == 8000)
        #expect(decoder.format.channels == 1)
        #expect(decoder.format.encoding == "32 bit float")
        let samples = try decoder.readAll()
        #expect(samples.count == frames)
        #expect(samples.allSatisfy { $0.isFinite && abs($0) <= 1 })
    }

    @Test("24-bit stereo calibrator recording")
    func calibrator() throws {
        let decoder = try SoundFile(reading: SharedData.path("spl/calibrator_94dB_1kHz.wav"))
        #expect(decoder.format.frames == 313_344)
        #expect(decoder.format.channels == 2)
        #expect(decoder.format.sampleRateHz == 44_100)
        #expect(decoder.format.encoding == "Signed 24 bit PCM")
    }

    /// The ResearchKit voice-task format: ALAC in MPEG-4. ffprobe: 443,392 frames at 44.1 kHz,
    /// mono. ALAC has no priming, so the count is exact on every backend.
    @Test("ALAC .m4a decodes through every available FFmpeg backend to the same samples")
    func m4a() throws {
        let path = SharedData.path("mpower/pdscores_phonation.m4a")
        let backends = AudioInput.availableBackends.filter { $0 != .libsndfile }
        try #require(!backends.isEmpty, "CI installs ffmpeg; without it .m4a cannot be decoded")
        var decodedByBackend: [[Float]] = []
        for backend in backends {
            let decoder = try AudioInput.open(path, backend: backend)
            #expect(decoder.format.sampleRateHz == 44_100)
            #expect(decoder.format.channels == 1)
            #expect(decoder.format.encoding == "ALAC")
            let samples = try decoder.readAll()
            #expect(samples.count == 443_392, "\(backend)")
            #expect(decoder.format.frames == 443_392, "\(backend)")
            decodedByBackend.append(samples)
            // Double reads widen the same samples.
            let again = try AudioInput.open(path, backend: backend)
            var doubles = [Double](repeating: 0, count: 4096)
            let frames = try doubles.withUnsafeMutableBufferPointer { buffer throws(AudioError) in try again.read(into: buffer) }
            #expect(frames == 4096)
            #expect(doubles == samples.prefix(4096).map(Double.init))
        }
        #expect(Set(decodedByBackend.map { $0.map(\.bitPattern) }).count == 1)
        #expect(throws: AudioError.self) { try SoundFile(reading: path) }
    }

    /// A recorder that stopped mid-file leaves the container's length behind its packets.
    @Test(".m4a cut short at 20,000 and 300,000 bytes: the frames the ffmpeg tool decodes from the same bytes, the same samples, and a warning with the declared and the decoded length and where the packets stop, by either FFmpeg backend; none for the whole file")
    func truncatedM4A() throws {
        let path = SharedData.path("mpower/pdscores_phonation.m4a")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        try #require(AudioInput.availableBackends.contains(.ffmpegLibrary) && AudioInput.availableBackends.contains(.ffmpegTool), "CI installs ffmpeg and builds the FFmpeg trait")
        let whole = try AudioInput.open(path, backend: .ffmpegLibrary)
        _ = try whole.readAll()
        #expect(whole.truncation == nil)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for cut in [20_000, 300_000] {
            let file = try folder.write("cut\(cut).m4a", Array(bytes.prefix(cut)))
            let library = try AudioInput.open(file, backend: .ffmpegLibrary)
            let samples = try library.readAll()
            // The peer: ffmpeg's own tool, which decodes what the packets hold, says "partial
            // file" and stops (with status 0 after frames, an error without).
            let ffmpeg = Process()
            ffmpeg.executableURL = URL(fileURLWithPath: try #require(FFmpegToolDecoder.tools?.ffmpeg))
            ffmpeg.arguments = ["-v", "quiet", "-i", file, "-f", "f32le", "-y", folder.path("cut\(cut).f32")]
            try ffmpeg.run()
            ffmpeg.waitUntilExit()
            let raw = try Data(contentsOf: URL(fileURLWithPath: folder.path("cut\(cut).f32")))
            let tool = raw.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            #expect(samples.map(\.bitPattern) == tool.map(\.bitPattern), "\(cut): \(samples.count) against ffmpeg's \(tool.count)")
            let warning = try #require(library.truncation, "\(cut)")
            #expect(warning.hasPrefix("truncated: the container declares 443392 frames (10.054 s); its packets end after \(samples.count) ("), "\(warning)")
            // The packet the file's end cut lies before that end.
            let byte = try #require(warning.split(separator: " at byte ").last.flatMap { Int($0.prefix { $0.isNumber }) }, "\(warning)")
            #expect(byte < cut && byte >= 16_376, "\(warning)")
            // The tool backend: the same frames, and the same warning but for where ffmpeg says
            // the packets were cut (its message in place of the packet's byte).
            let byTool = try AudioInput.open(file, backend: .ffmpegTool)
            let toolSamples = try byTool.readAll()
            #expect(toolSamples.map(\.bitPattern) == samples.map(\.bitPattern), "\(cut)")
            let toolWarning = try #require(byTool.truncation, "\(cut)")
            let said = try #require(warning.range(of: ", the last cut off")).lowerBound
            #expect(toolWarning.hasPrefix(warning[..<said] + ", ffmpeg: stream 0, offset 0x") && toolWarning.hasSuffix(": partial file; the frames present are analysed"), "\(toolWarning)")
        }
        let wholeByTool = try AudioInput.open(path, backend: .ffmpegTool)
        _ = try wholeByTool.readAll()
        #expect(wholeByTool.truncation == nil)
        // Cut inside its index (the moov box from byte 28): nothing to decode, and the error says why.
        let inIndex = try folder.write("cut100.m4a", Array(bytes.prefix(100)))
        #expect(throws: AudioError.self) { try AudioInput.open(inIndex, backend: .ffmpegLibrary) }
        do { _ = try AudioInput.open(inIndex, backend: .ffmpegLibrary) } catch {
            #expect("\(error)".hasSuffix("; its moov box at byte 28 declares 1066 bytes, 994 past the end of the 100-byte file: the file was cut short"), "\(error)")
        }
    }
}
