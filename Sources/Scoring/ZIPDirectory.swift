import CZlib

/// The central directory of a ZIP archive held in memory, and its entries' contents — PKWARE's
/// APPNOTE.TXT 6.3.10: the end of central directory record (§4.3.16) and its ZIP64 form
/// (§4.3.14–15), central directory headers (§4.3.12), local headers (§4.3.7), the ZIP64 extra
/// field (§4.5.3); methods 0 (stored) and 8 (deflate, RFC 1951, inflated by zlib). Spanned,
/// encrypted and otherwise compressed archives are refused.
///
/// Every offset, size and count is read as the unsigned number it is and compared with the
/// bytes' length before it becomes an `Int`; the only loops driven by the archive are over its
/// entries (at most the directory's bytes / 46) and over inflated chunks (bounded by the
/// caller's byte bound).
struct ZIPDirectory {
    struct Entry {
        let name: String
        /// Where the name's bytes are in the central directory (the local header must repeat them).
        let nameBytes: Range<Int>
        let isDirectory: Bool
        let isSymbolicLink: Bool
        let flags: UInt16
        let method: UInt16
        let crc32: UInt32
        let compressedSize: UInt64
        let uncompressedSize: UInt64
        let localHeaderOffset: UInt64
    }

    /// What is wrong, said about the archive as a whole or about the entry being read.
    enum Failure: Error {
        case archive(String)
        case entry(String)
        /// The entry inflates to more than the bound the caller gave.
        case beyondBound

        var reason: String {
            switch self {
            case .archive(let what), .entry(let what): what
            case .beyondBound: "inflates beyond the bound"
            }
        }
    }

    private let bytes: [UInt8]
    /// The number of entries the end record declares.
    let entryCount: UInt64
    private let directoryOffset: Int
    private let directoryEnd: Int

    private static let endRecordBytes = 22
    private static let headerBytes = 46
    private static let localHeaderBytes = 30

    /// Finds the end record within the last 22 + 65,535 bytes (the longest comment), the last
    /// one whose comment ends within the bytes, and the directory it points to.
    init(_ bytes: [UInt8]) throws(Failure) {
        self.bytes = bytes
        let lowest = max(0, bytes.count - Self.endRecordBytes - 0xFFFF)
        var found: Int?
        if bytes.count >= Self.endRecordBytes {
            for offset in stride(from: bytes.count - Self.endRecordBytes, through: lowest, by: -1)
            where Self.u32(bytes, offset) == 0x0605_4B50 && offset + Self.endRecordBytes + Int(Self.u16(bytes, offset + 20)) <= bytes.count {
                found = offset
                break
            }
        }
        guard let end = found else {
            throw .archive("no end of central directory record in its last 65,557 bytes: truncated or not a ZIP")
        }
        guard Self.u16(bytes, end + 4) == 0, Self.u16(bytes, end + 6) == 0 else {
            throw .archive("a spanned (multi-disk) archive")
        }
        var count = UInt64(Self.u16(bytes, end + 10))
        var size = UInt64(Self.u32(bytes, end + 12))
        var offset = UInt64(Self.u32(bytes, end + 16))
        // ZIP64: a locator just before the end record points to the ZIP64 end record.
        if end >= 20, Self.u32(bytes, end - 20) == 0x0706_4B50 {
            let record = Self.u64(bytes, end - 20 + 8)
            guard end - 20 >= 56, record <= UInt64(end - 20 - 56), Self.u32(bytes, Int(record)) == 0x0606_4B50 else {
                throw .archive("its ZIP64 locator points to no ZIP64 end of central directory record")
            }
            count = Self.u64(bytes, Int(record) + 32)
            size = Self.u64(bytes, Int(record) + 40)
            offset = Self.u64(bytes, Int(record) + 48)
        }
        guard offset <= UInt64(end), size <= UInt64(end) - offset else {
            throw .archive("its central directory (\(size) bytes at byte \(offset)) lies outside the archive's \(bytes.count) bytes")
        }
        guard count <= size / UInt64(Self.headerBytes) else {
            throw .archive("its end record declares \(count) entries, more than its \(size)-byte central directory can hold")
        }
        entryCount = count
        directoryOffset = Int(offset)
        directoryEnd = Int(offset + size)
    }

    /// The entries, in directory order.
    func entries() throws(Failure) -> [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(Int(entryCount))
        var at = directoryOffset
        for index in 0 ..< Int(entryCount) {
            let place = "central directory header #\(index + 1) (byte \(at))"
            guard directoryEnd - at >= Self.headerBytes, Self.u32(bytes, at) == 0x0201_4B50 else {
                throw .archive("\(place) is missing or has no header signature")
            }
            let nameLength = Int(Self.u16(bytes, at + 28)), extraLength = Int(Self.u16(bytes, at + 30))
            let commentLength = Int(Self.u16(bytes, at + 32))
            let next = at + Self.headerBytes + nameLength + extraLength + commentLength
            guard next <= directoryEnd else { throw .archive("\(place) runs past the end of the central directory") }
            let flags = Self.u16(bytes, at + 8)
            let nameBytes = bytes[at + Self.headerBytes ..< at + Self.headerBytes + nameLength]
            let name = Self.decodeName(nameBytes, utf8: flags & 0x0800 != 0)
            var compressed = UInt64(Self.u32(bytes, at + 20))
            var uncompressed = UInt64(Self.u32(bytes, at + 24))
            var local = UInt64(Self.u32(bytes, at + 42))
            // The ZIP64 extra field holds, in this order, the values whose header field is 0xFFFFFFFF.
            var extra = at + Self.headerBytes + nameLength
            let extraEnd = extra + extraLength
            while extraEnd - extra >= 4 {
                let id = Self.u16(bytes, extra), length = Int(Self.u16(bytes, extra + 2))
                guard length <= extraEnd - extra - 4 else { break }
                if id == 0x0001 {
                    var field = extra + 4
                    let fieldEnd = field + length
                    func widen(_ value: inout UInt64) throws(Failure) {
                        guard value == 0xFFFF_FFFF else { return }
                        guard fieldEnd - field >= 8 else { throw .archive("\(place) has a ZIP64 extra field too short for its sizes") }
                        value = Self.u64(bytes, field)
                        field += 8
                    }
                    try widen(&uncompressed)
                    try widen(&compressed)
                    try widen(&local)
                }
                extra += 4 + length
            }
            let madeBy = Self.u16(bytes, at + 4)
            let mode = Self.u32(bytes, at + 38) >> 16
            entries.append(Entry(
                name: name, nameBytes: at + Self.headerBytes ..< at + Self.headerBytes + nameLength, isDirectory: name.hasSuffix("/"),
                isSymbolicLink: madeBy >> 8 == 3 && mode & 0xF000 == 0xA000,
                flags: flags, method: Self.u16(bytes, at + 10), crc32: Self.u32(bytes, at + 16),
                compressedSize: compressed, uncompressedSize: uncompressed, localHeaderOffset: local))
            at = next
        }
        return entries
    }

    /// The entry's contents, inflated and checked against its size and CRC-32; at most `bound`
    /// bytes are inflated (``Failure/beyondBound`` beyond), 64 KiB at a time.
    func contents(of entry: Entry, atMost bound: Int) throws(Failure) -> [UInt8] {
        guard entry.flags & 0x0001 == 0 else { throw .entry("is encrypted; encrypted archives are not read") }
        guard entry.method == 0 || entry.method == 8 else {
            throw .entry("uses compression method \(entry.method); only stored (0) and deflated (8) entries are read")
        }
        let header = entry.localHeaderOffset
        guard header <= UInt64(bytes.count), UInt64(bytes.count) - header >= UInt64(Self.localHeaderBytes),
              Self.u32(bytes, Int(header)) == 0x0403_4B50 else {
            throw .entry("has no local header at byte \(header): the archive is corrupt or truncated")
        }
        let localName = Int(header) + Self.localHeaderBytes
        let localNameLength = Int(Self.u16(bytes, Int(header) + 26))
        let start = localName + localNameLength + Int(Self.u16(bytes, Int(header) + 28))
        // Readers that go by local headers (streaming unzip) would see another name: ambiguous.
        guard start <= bytes.count, bytes[localName ..< localName + localNameLength] == bytes[entry.nameBytes] else {
            throw .entry("has another name in its local header at byte \(header) than in the central directory: the archive is ambiguous, not read")
        }
        // A reader that goes by local headers would inflate, check or cut the data otherwise:
        // method, encryption, CRC-32 and sizes must agree with the central directory (APPNOTE
        // 4.3.7; with a data descriptor, bit 3, the local CRC and sizes are zero and not compared;
        // 0xFFFFFFFF sizes are in the local ZIP64 extra field, 4.5.3).
        let localFlags = Self.u16(bytes, Int(header) + 6), localMethod = Self.u16(bytes, Int(header) + 8)
        var disagreement: String?
        if localMethod != entry.method { disagreement = "compression method \(localMethod) vs \(entry.method)" }
        if localFlags & 0x0001 != entry.flags & 0x0001 { disagreement = "encryption" }
        if disagreement == nil, localFlags & 0x0008 == 0 {
            let localCRC = Self.u32(bytes, Int(header) + 14)
            var localCompressed = UInt64(Self.u32(bytes, Int(header) + 18)), localUncompressed = UInt64(Self.u32(bytes, Int(header) + 22))
            if localCompressed == 0xFFFF_FFFF || localUncompressed == 0xFFFF_FFFF,
               let sizes = Self.zip64Sizes(bytes, extra: localName + localNameLength ..< start) {
                (localUncompressed, localCompressed) = sizes
            }
            if localCRC != entry.crc32 { disagreement = "CRC-32 \(localCRC) vs \(entry.crc32)" }
            if localCompressed != entry.compressedSize || localUncompressed != entry.uncompressedSize {
                disagreement = "sizes \(localCompressed)/\(localUncompressed) vs \(entry.compressedSize)/\(entry.uncompressedSize) bytes (compressed/uncompressed)"
            }
        }
        if let disagreement {
            throw .entry("has a local header at byte \(header) that disagrees with the central directory (\(disagreement)): the archive is ambiguous, not read")
        }
        guard start <= bytes.count, entry.compressedSize <= UInt64(bytes.count - start) else {
            throw .entry("has \(entry.compressedSize) bytes of data at byte \(start), past the archive's end: the archive is corrupt or truncated")
        }
        let data = start ..< start + Int(entry.compressedSize)
        var content: [UInt8] = []
        content.reserveCapacity(Int(min(entry.uncompressedSize, UInt64(bound))))
        if entry.method == 0 {
            guard data.count <= bound else { throw .beyondBound }
            content += bytes[data]
        } else {
            try inflate(data, into: &content, atMost: bound)
        }
        let crc = content.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: crc32(0, $0.baseAddress, uInt($0.count))) }
        guard crc == entry.crc32, UInt64(content.count) == entry.uncompressedSize else {
            throw .entry("fails its check (CRC-32 \(crc) vs \(entry.crc32), \(content.count) vs \(entry.uncompressedSize) bytes): the archive is corrupt")
        }
        return content
    }

    /// The uncompressed and compressed sizes of a ZIP64 extended-information field (header 0x0001)
    /// among the extra fields in `extra`, when it holds both.
    static func zip64Sizes(_ bytes: [UInt8], extra: Range<Int>) -> (uncompressed: UInt64, compressed: UInt64)? {
        var at = extra.lowerBound
        while at + 4 <= extra.upperBound {
            let id = u16(bytes, at), size = Int(u16(bytes, at + 2))
            guard at + 4 + size <= extra.upperBound else { return nil }
            if id == 0x0001, size >= 16 {
                let low = { (offset: Int) in UInt64(u32(bytes, offset)) | UInt64(u32(bytes, offset + 4)) << 32 }
                return (low(at + 4), low(at + 12))
            }
            at += 4 + size
        }
        return nil
    }

    /// Raw deflate (RFC 1951) of `bytes[data]` appended to `content`, 64 KiB of output at a time.
    private func inflate(_ data: Range<Int>, into content: inout [UInt8], atMost bound: Int) throws(Failure) {
        var stream = z_stream()
        guard activetask_inflate_init_raw(&stream) == Z_OK else { throw .entry("cannot be inflated: zlib could not start") }
        defer { inflateEnd(&stream) }
        let chunk = 1 << 16
        var output = [UInt8](repeating: 0, count: chunk)
        var status = Z_OK
        var consumed = data.lowerBound
        try bytes.withUnsafeBufferPointer { (input) throws(Failure) in
            while status != Z_STREAM_END {
                // avail_in is 32 bits: the input is given in pieces of at most 1 GiB.
                if stream.avail_in == 0 {
                    let piece = min(data.upperBound - consumed, 1 << 30)
                    stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + consumed)
                    stream.avail_in = uInt(piece)
                    consumed += piece
                }
                let produced = output.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(chunk)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return chunk - Int(stream.avail_out)
                }
                // Z_BUF_ERROR: no progress was possible, the input is used up before the stream's end.
                guard status == Z_OK || status == Z_STREAM_END else {
                    let reason = status == Z_BUF_ERROR ? "the data ends early" : stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                    throw .entry("cannot be inflated (\(reason)): the archive is corrupt or truncated")
                }
                guard produced <= bound - content.count else { throw .beyondBound }
                content += output[..<produced]
            }
        }
    }

    /// A name in UTF-8 (flag bit 11, or bytes that are valid UTF-8, as Info-ZIP writes on Unix),
    /// else in IBM code page 437 (APPNOTE.TXT appendix D).
    private static func decodeName(_ name: ArraySlice<UInt8>, utf8: Bool) -> String {
        if utf8 || name.allSatisfy({ $0 < 0x80 }) { return String(decoding: name, as: UTF8.self) }
        if let text = String(validating: name, as: UTF8.self) { return text }
        return String(name.map { $0 < 0x80 ? Character(Unicode.Scalar($0)) : codePage437High[Int($0) - 0x80] })
    }

    private static let codePage437High = Array(
        "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{A0}")

    // Little-endian reads; callers have checked that the bytes exist.
    private static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    private static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 { UInt32(u16(bytes, at)) | UInt32(u16(bytes, at + 2)) << 16 }
    private static func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 { UInt64(u32(bytes, at)) | UInt64(u32(bytes, at + 4)) << 32 }
}
