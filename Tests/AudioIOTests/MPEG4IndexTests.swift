import Testing
@testable import AudioIO

/// Why an MPEG-4 file FFmpeg cannot open is unreadable, from its top-level boxes (MPEG4Index.swift).
struct MPEG4IndexTests {
    /// A box: a 32-bit size counting the 8-byte header (or `size32` as given), the type, `body` bytes.
    static func box(_ type: String, body: Int, size32: UInt32? = nil) -> [UInt8] {
        let size = size32 ?? UInt32(8 + body)
        return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: size >> $0) } + Array(type.utf8) + [UInt8](repeating: 0, count: body)
    }

    static func problem(_ bytes: [UInt8]) -> String? { MPEG4Index.problem(path: "f.m4a", bytes: bytes) }

    @Test("a finished file says nothing; media data without moov, cut short or whole, is said with the box, its byte and the shortfall; a size below 8 and a 64-bit size beyond any file are named; size 0 runs to the end")
    func boxes() {
        let ftyp = Self.box("ftyp", body: 12)  // 20 bytes
        #expect(Self.problem(ftyp + Self.box("moov", body: 100) + Self.box("mdat", body: 1000)) == nil)
        #expect(Self.problem(ftyp + Self.box("mdat", body: 1000) + Self.box("moov", body: 100)) == nil)
        // mdat declares 1,008 bytes from byte 20; the file holds 20 + 508.
        #expect(Self.problem(ftyp + Array(Self.box("mdat", body: 1000).prefix(508)))
            == "its mdat box at byte 20 declares 1008 bytes, 500 past the end of the 528-byte file: the file was cut short; no moov box (the index a recorder writes when it stops) before it")
        #expect(Self.problem(ftyp + Self.box("moov", body: 100) + Array(Self.box("mdat", body: 1000).prefix(100)))
            == "its mdat box at byte 128 declares 1008 bytes, 908 past the end of the 228-byte file: the file was cut short")
        #expect(Self.problem(ftyp + Self.box("mdat", body: 1000))
            == "it has media data (mdat) but no moov box, the index a recorder writes when it stops: the recording was not finished")
        #expect(Self.problem(ftyp + Self.box("mdat", body: 10, size32: 4)) == "its mdat box at byte 20 declares 4 bytes, less than its own header")
        // A type of control and non-ASCII bytes is shown as "?", not written to the terminal.
        #expect(Self.problem(ftyp + [0, 0, 0, 2, 0x1B, 0x5B, 0xFF, 0x41]) == "its ?[?A box at byte 20 declares 2 bytes, less than its own header")
        // Size 0: to the end of the file (here without moov).
        #expect(Self.problem(ftyp + Self.box("mdat", body: 10, size32: 0))?.hasPrefix("it has media data (mdat) but no moov box") == true)
        // Size 1: a 64-bit size follows the type.
        let large = [0, 0, 0, 1] + Array("mdat".utf8) + [0xFF, 0, 0, 0, 0, 0, 0, 0] as [UInt8]
        #expect(Self.problem(ftyp + large) == "its mdat box at byte 20 declares 18374686479671623680 bytes, beyond any file")
        let sixteen = [0, 0, 0, 1] + Array("moov".utf8) + [0, 0, 0, 0, 0, 0, 0, 16] as [UInt8]
        #expect(Self.problem(ftyp + sixteen + Self.box("mdat", body: 4)) == nil)
        // A header cut inside: nothing more to say; an empty file neither.
        #expect(Self.problem(ftyp + [0, 0]) == nil && Self.problem([]) == nil)
    }
}
