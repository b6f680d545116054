import Foundation
import Testing
import TestSupport
@testable import AudioIO

@Suite struct AudioRoundTripTests {
    /// Every representable 16-bit value k/32768 and random 24-bit values k/2^23, interleaved
    /// stereo, written and read back.
    @Test("PCM 16/24-bit and float WAV round trips are bit-exact", arguments: WAVWriter.Encoding.allCases)
    func roundTrip(encoding: WAVWriter.Encoding) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var random = SeededRandom(seed: 3)
        let samples: [Double]
        switch encoding {
        case .pcm16: samples = (-32768..<32768).map { Double($0) / 32768 }
        case .pcm24: samples = (0..<50_000).map { _ in Double(random.below(1 << 24) - (1 << 23)) / Double(1 << 23) }
        case .float32: samples = (0..<50_000).map { _ in Double(Float(random.unit() * 2 - 1)) }
        }
        let path = folder.path("x.wav")
        let writer = try WAVWriter(path: path, sampleRateHz: 48_000, channels: 2, encoding: encoding)
        try writer.write(samples)
        try writer.close()
        let reader = try SoundFile(reading: path)
        #expect(reader.format.channels == 2)
        #expect(reader.format.sampleRateHz == 48_000)
        #expect(reader.format.frames == Int64(samples.count / 2))
        var read = [Double](repeating: 0, count: samples.count)
        let frames = try read.withUnsafeMutableBufferPointer { buffer throws(AudioError) in try reader.read(into: buffer) }
        #expect(frames == samples.count / 2)
        #expect(read == samples)
    }

    @Test("16-bit PCM in a little-endian WAV and a big-endian AIFF, read as Float and as Double in blocks of 1, 20,000 and 40,000 frames (across the reader's chunks): every value k/32768 exactly, as libsndfile converts it")
    func pcm16Reads() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let values = (-32768..<32768).map { Int16($0) }  // 32,768 stereo frames
        let wav = folder.path("x.wav")
        let writer = try WAVWriter(path: wav, sampleRateHz: 8000, channels: 2, encoding: .pcm16)
        try writer.write(values.map { Double($0) / 32768 })
        try writer.close()
        // AIFF (big-endian): FORM, COMM (2 channels, frames, 16 bits, 8000 Hz as an 80-bit extended), SSND.
        func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        let data = values.flatMap { bigEndian($0) }
        let comm = bigEndian(Int16(2)) + bigEndian(UInt32(values.count / 2)) + bigEndian(Int16(16)) + [0x40, 0x0B, 0xFA, 0, 0, 0, 0, 0, 0, 0]
        let ssnd = bigEndian(UInt32(0)) + bigEndian(UInt32(0)) + data
        let body = Array("AIFF".utf8) + Array("COMM".utf8) + bigEndian(UInt32(comm.count)) + comm + Array("SSND".utf8) + bigEndian(UInt32(ssnd.count)) + ssnd
        let aiff = folder.path("x.aiff")
        try Data(Array("FORM".utf8) + bigEndian(UInt32(body.count)) + body).write(to: URL(fileURLWithPath: aiff))
        func readAll<T: BinaryFloatingPoint>(_ path: String, block: Int, _ read: (SoundFile, UnsafeMutableBufferPointer<T>) throws -> Int) throws -> [T] {
            let reader = try SoundFile(reading: path)
            #expect(reader.format.channels == 2 && reader.format.sampleRateHz == 8000)
            var all: [T] = [], buffer = [T](repeating: .nan, count: 2 * block)
            while true {
                let frames = try buffer.withUnsafeMutableBufferPointer { try read(reader, $0) }
                if frames == 0 { return all }
                all += buffer[0..<(2 * frames)]
            }
        }
        for path in [wav, aiff] {
            for block in [1, 20_000, 40_000] {
                let doubles = try readAll(path, block: block) { (file, buffer: UnsafeMutableBufferPointer<Double>) in try file.read(into: buffer) }
                let floats = try readAll(path, block: block) { (file, buffer: UnsafeMutableBufferPointer<Float>) in try file.read(into: buffer) }
                #expect(doubles == values.map { Double($0) / 32768 }, "\(path), Double, blocks of \(block)")
                #expect(floats == values.map { Float($0) / 32768 }, "\(path), Float, blocks of \(block)")
            }
        }
    }

    @Test("block reads of any size concatenate to the whole file")
    func blocks() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let samples = (0..<10_001).map { Float(($0 % 200) - 100) / 128 }
        let path = folder.path("b.wav")
        let writer = try WAVWriter(path: path, sampleRateHz: 8000, channels: 1, encoding: .float32)
        try writer.write(samples)
        try writer.close()
        var collected: [Float] = []
        var blockCount = 0
        try AudioInput.open(path).forEachBlock(frames: 997) { block, count in
            collected += block
            blockCount += 1
            #expect(block.count == count)
        }
        #expect(collected == samples)
        #expect(blockCount == 11)
    }

    @Test("a WAV whose header claims more data than the file holds is read up to its end, with the sizes")
    func lyingHeader() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("lie.wav")
        let writer = try WAVWriter(path: path, sampleRateHz: 8000, channels: 1, encoding: .pcm16)
        try writer.write([Float](repeating: 0.25, count: 100))
        try writer.close()
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // libsndfile writes a 44-byte header: the data chunk's size is at bytes 40–43.
        #expect(Array(bytes[36..<40]) == Array("data".utf8))
        bytes[40] = 0x40; bytes[41] = 0x42; bytes[42] = 0x0F; bytes[43] = 0x00  // 1,000,000 bytes
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        // The frames present are read (as libsndfile, soundfile and Praat read them), with the sizes.
        let decoder = try SoundFile(reading: path)
        let header = try #require(decoder.unfinishedHeader)
        #expect([header.declaredBytes, header.availableBytes, header.readBytes] == [1_000_000, 200, 200])
        #expect(try decoder.readAll() == [Float](repeating: 0.25, count: 100))
    }

    /// A 16-bit mono WAV header (44 bytes) with the given RIFF and data sizes, then `frames`.
    static func wav(dataSize: UInt32, riffSize: UInt32, frames: [Int16], rate: UInt32 = 8_000) -> [UInt8] {
        func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
        return Array("RIFF".utf8) + le(riffSize) + Array("WAVEfmt ".utf8) + le(UInt32(16)) + le(UInt16(1)) + le(UInt16(1))
            + le(rate) + le(rate * 2) + le(UInt16(2)) + le(UInt16(16)) + Array("data".utf8) + le(dataSize)
            + frames.flatMap { le($0) }
    }

    @Test("unfinished WAVs (data size 0, 0xFFFFFFFF, larger than the file, a torn last frame) read every whole frame present with a warning naming both sizes; no whole frame is an error")
    func unfinishedWAVs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let frames: [Int16] = (0..<1_000).map { Int16(truncatingIfNeeded: $0 * 37 - 16_000) }
        let expected = frames.map { Float($0) / 32_768 }
        let cases: [(name: String, bytes: [UInt8], declared: UInt64, available: UInt64, read: UInt64)] = [
            ("zero.wav", Self.wav(dataSize: 0, riffSize: 0, frames: frames), 0, 2_000, 2_000),
            ("unknown.wav", Self.wav(dataSize: 0xFFFF_FFFF, riffSize: 0xFFFF_FFFF, frames: frames), 0xFFFF_FFFF, 2_000, 2_000),
            ("long.wav", Self.wav(dataSize: 4_000_000, riffSize: 4_000_036, frames: frames), 4_000_000, 2_000, 2_000),
            ("torn.wav", Array(Self.wav(dataSize: 0, riffSize: 0, frames: frames).dropLast()), 0, 1_999, 1_998),
        ]
        for (name, bytes, declared, available, read) in cases {
            let path = try folder.write(name, bytes)
            let decoder = try SoundFile(reading: path)
            let header = try #require(decoder.unfinishedHeader, "\(name)")
            #expect([header.declaredBytes, header.availableBytes, header.readBytes] == [declared, available, read], "\(name)")
            #expect(header.warning.contains("declares \(declared == 0xFFFF_FFFF ? "0xFFFFFFFF (unknown)" : String(declared)) data bytes, the file holds \(available)"))
            let samples = try decoder.readAll()
            #expect(samples == Array(expected.prefix(Int(read) / 2)), "\(name): \(samples.count) samples")
        }
        // A finished file and a real empty data chunk followed by another chunk: no warning.
        let finished = try folder.write("ok.wav", Self.wav(dataSize: 2_000, riffSize: 2_036, frames: frames))
        #expect(try SoundFile(reading: finished).unfinishedHeader == nil)
        let empty = try folder.write("empty.wav", Self.wav(dataSize: 0, riffSize: 48, frames: []) + Array("LIST".utf8) + [4, 0, 0, 0] + Array("INFO".utf8))
        let emptyDecoder = try SoundFile(reading: empty)
        #expect(emptyDecoder.unfinishedHeader == nil)
        #expect(try emptyDecoder.readAll().isEmpty)
        // Not one whole frame: refused, naming both sizes.
        let none = try folder.write("none.wav", Self.wav(dataSize: 0, riffSize: 0, frames: []) + [0x01])
        #expect(throws: AudioError(file: none, reason: .headerSizeMismatch(declaredBytes: 0, availableBytes: 1, chunkOffset: 36))) {
            try SoundFile(reading: none)
        }
    }

    @Test("a LIST sub-chunk whose size wraps libsndfile's 32-bit count (a hang in sf_open) is refused with both offsets, before or after the data, in RIFF, RF64 and RIFX; an oversized one that does not wrap is read")
    func wrappingListSubchunk() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        func le(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
        let frames: [Int16] = (0..<100).map { Int16($0 * 300) }
        // A LIST of 28 bytes: "adtl", then a sub-chunk "lab\x96" declaring `size` bytes.
        func list(_ size: UInt32) -> [UInt8] { Array("LIST".utf8) + le(28) + Array("adtl".utf8) + [0x6C, 0x61, 0x62, 0x96] + le(size) + [UInt8](repeating: 0, count: 16) }
        let audio = Self.wav(dataSize: 200, riffSize: 236, frames: frames)
        // Before the data: the LIST goes between the fmt chunk (ending at byte 36) and the data.
        let before = Array(audio[0..<36]) + list(0xFFFF_FFF3) + Array(audio[36...])
        let after = audio + list(0xFFFF_FFF3)
        for (name, bytes, listOffset) in [("before.wav", before, 36), ("after.wav", after, 244)] {
            let path = try folder.write(name, bytes)
            let expected = AudioError(file: path, reason: .corruptList(
                listOffset: listOffset, subchunk: "lab\\x96", subchunkOffset: listOffset + 12, declaredBytes: 0xFFFF_FFF3, listBytes: 28))
            #expect(throws: expected) { try SoundFile(reading: path) }
            #expect(throws: expected) { try SoundFile(bytes: bytes, path: path) }
            #expect(expected.description.contains("sub-chunk 'lab\\x96' at byte \(listOffset + 12) declaring 4294967283 bytes"))
        }
        // RF64 (rf64_read_header calls the same list parser; the data skipped by ds64's size) and
        // big-endian RIFX hang libsndfile the same way.
        func rf64(before: [UInt8], after: [UInt8]) -> [UInt8] {
            let ds64 = Array("ds64".utf8) + le(28) + [UInt8](repeating: 0, count: 8) + withUnsafeBytes(of: UInt64(200).littleEndian) { Array($0) }
                + [UInt8](repeating: 0, count: 12)
            let body = Array("WAVE".utf8) + ds64 + Array(audio[12..<36]) + before + Array("data".utf8) + le(0xFFFF_FFFF) + Array(audio[44...]) + after
            return Array("RF64".utf8) + le(0xFFFF_FFFF) + body
        }
        func be(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }
        let rifxList = Array("LIST".utf8) + be(28) + Array("adtl".utf8) + [0x6C, 0x61, 0x62, 0x96] + be(0xFFFF_FFF3) + [UInt8](repeating: 0, count: 16)
        let rifxBody = Array("WAVEfmt ".utf8) + be(16) + [0, 1, 0, 1] + be(8_000) + be(16_000) + [0, 2, 0, 16] + Array("data".utf8) + be(200)
            + frames.flatMap { withUnsafeBytes(of: $0.bigEndian) { Array($0) } } + rifxList
        for (name, bytes, listOffset) in [("rf64-before.wav", rf64(before: list(0xFFFF_FFF3), after: []), 72),
                                          ("rf64-after.wav", rf64(before: [], after: list(0xFFFF_FFF3)), 280),
                                          ("rifx.wav", Array("RIFX".utf8) + be(UInt32(rifxBody.count)) + rifxBody, 244)] {
            let path = try folder.write(name, bytes)
            #expect(throws: AudioError(file: path, reason: .corruptList(
                listOffset: listOffset, subchunk: "lab\\x96", subchunkOffset: listOffset + 12, declaredBytes: 0xFFFF_FFF3, listBytes: 28))) {
                try SoundFile(reading: path)
            }
        }
        let plainRF64 = try folder.write("plain-rf64.wav", rf64(before: [], after: []))
        #expect(try SoundFile(reading: plainRF64).readAll() == frames.map { Float($0) / 32_768 })
        // 1,000 bytes pass the list's end without wrapping: libsndfile stops reading the list and
        // the audio is read as it is.
        let oversized = try folder.write("oversized.wav", audio + list(1_000))
        #expect(try SoundFile(reading: oversized).readAll() == frames.map { Float($0) / 32_768 })
    }

    @Test("unreadable and non-audio files give a clear error, not a crash")
    func badFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let garbage = try folder.write("g.wav", (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        #expect(throws: AudioError.self) { try SoundFile(reading: garbage) }
        #expect(throws: AudioError.self) { try SoundFile(reading: folder.path("missing.wav")) }
    }

    @Test("FLAC, Ogg Vorbis and MP3 made by ffmpeg read through libsndfile", .enabled(if: FFmpegToolDecoder.tools != nil, "needs the ffmpeg tool"))
    func otherContainers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = folder.path("s.wav")
        let tone = (0..<44_100).map { i in 0.5 * sin(2 * Double.pi * 440 * Double(i) / 44_100) }
        let writer = try WAVWriter(path: source, sampleRateHz: 44_100, channels: 1, encoding: .pcm16)
        try writer.write(tone)
        try writer.close()
        let original = try SoundFile(reading: source).readAll()
        for (name, codec) in [("t.flac", "flac"), ("t.ogg", "libvorbis"), ("t.mp3", "libmp3lame")] {
            let target = folder.path(name)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: FFmpegToolDecoder.tools!.ffmpeg)
            process.arguments = ["-v", "error", "-y", "-i", source, "-c:a", codec, target]
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { Issue.record("ffmpeg could not encode \(codec)"); continue }
            let decoder = try AudioInput.open(target)
            #expect(decoder is SoundFile, "\(name)")
            #expect(decoder.format.sampleRateHz == 44_100)
            let decoded = try decoder.readAll()
            if codec == "flac" {
                #expect(decoded == original)  // lossless
            } else {
                // Lossy: same length within one codec frame, and the same RMS within 0.5 dB.
                #expect(abs(decoded.count - original.count) <= 2304, "\(name): \(decoded.count)")
                let rms = { (x: [Float]) in (x.reduce(0) { $0 + Double($1 * $1) } / Double(x.count)).squareRoot() }
                #expect(abs(20 * log10(rms(decoded) / rms(original))) < 0.5, "\(name)")
            }
        }
    }

    /// AAC carries encoder priming that the MP4 edit list removes (docs/formats.md §5.2): the decoded
    /// length must be the source's within ±1024 frames; ALAC is lossless and exact.
    @Test("AAC and ALAC .m4a made by ffmpeg decode with priming trimmed", .enabled(if: FFmpegToolDecoder.tools != nil, "needs the ffmpeg tool"),
          arguments: AudioInput.Backend.allCases.filter { $0 != .libsndfile && AudioInput.availableBackends.contains($0) })
    func mpeg4(backend: AudioInput.Backend) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = folder.path("s.wav")
        let tone = (0..<32_000).map { i in 0.5 * sin(2 * Double.pi * 1000 * Double(i) / 16_000) }
        let writer = try WAVWriter(path: source, sampleRateHz: 16_000, channels: 1, encoding: .pcm16)
        try writer.write(tone)
        try writer.close()
        let original = try SoundFile(reading: source).readAll()
        for codec in ["aac", "alac"] {
            let target = folder.path("t-\(codec).m4a")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: FFmpegToolDecoder.tools!.ffmpeg)
            process.arguments = ["-v", "error", "-y", "-i", source, "-c:a", codec, target]
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0)
            let decoded = try AudioInput.open(target, backend: backend).readAll()
            if codec == "alac" {
                #expect(decoded == original, "\(backend)")
            } else {
                #expect(abs(decoded.count - 32_000) <= 1024, "\(backend): \(decoded.count) frames")
                // The container's duration trims the end padding too: FFmpeg's encoder records it.
                #expect(decoded.count == 32_000, "\(backend): \(decoded.count) frames")
            }
        }
    }
}
