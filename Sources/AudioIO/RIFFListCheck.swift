/// The LIST chunks of a RIFF, RIFX or RF64 WAVE, checked the way libsndfile 1.2 will parse them.
///
/// libsndfile's `wavlike_subchunk_parse` keeps the bytes it has read of a LIST in a 32-bit count
/// and skips an unknown sub-chunk only if `count + size` does not pass the list's end. A sub-chunk
/// size near 2³² (0xFFFFFFF3, say) wraps that sum below the end: the skip goes back instead of
/// forward and the parse never finishes (a hang inside `sf_open`, found by fuzzing). So before
/// libsndfile opens a WAV, its top-level chunks are walked as `wav_read_header` walks them, and a
/// list holding such a sub-chunk is refused with the offsets of both.
///
/// The walk follows libsndfile's own rules, so every list it will parse is seen: chunks are
/// padded to even sizes, the data chunk is skipped by its (corrected) size, an unknown
/// non-printable marker at an unaligned offset resynchronises three bytes back, and the walk ends
/// where libsndfile's ends. Each step moves forward by at least five bytes, and at most
/// ``chunkLimit`` chunks are walked.
extension RIFFHeader {
    /// More top-level chunks than any recorder writes; a file with more is refused, not walked on.
    static let chunkLimit = 65_536

    /// Walks the chunks after the 12-byte RIFF header of a file of `fileSize` bytes.
    /// `dataBytes(offset, declared)` is the size libsndfile will give the data chunk at `offset`.
    /// An RF64 file (`rf64`) is walked as `rf64_read_header` walks it, which calls the same list
    /// parser: no padding byte after odd chunks, and the data chunk skipped by the 64-bit size of
    /// the `ds64` chunk.
    static func checkLists(
        _ path: String, size fileSize: UInt64, bigEndian: Bool, rf64: Bool = false, read readAt: (Int, UInt64) -> [UInt8]?,
        dataBytes: (UInt64, UInt64) -> UInt64
    ) throws(AudioError) {
        func uint32(_ bytes: [UInt8], _ at: Int) -> UInt64 { Self.uint32(bytes, at, bigEndian: bigEndian) }
        var position: UInt64 = 12
        var previousSize: UInt64 = 0
        var ds64DataBytes: UInt64?
        for _ in 0..<chunkLimit {
            if !rf64 { position += previousSize & 1 }
            guard let header = read(8, at: position, readAt) else { return }
            let marker = Array(header[0..<4])
            var size = uint32(header, 4)
            if marker == [0, 0, 0, 0] { return }
            let chunkOffset = position
            position += 8
            switch marker {
            case Marker.data where rf64:
                // Not clamped to the file: a size past its end ends the walk.
                let length = ds64DataBytes ?? (size == 0xFFFF_FFFF ? 0 : size)
                position = length >= fileSize - min(fileSize, position) ? fileSize : position + length
                size = 0
            case Marker.data:
                let remaining = fileSize - min(fileSize, position)
                position += min(dataBytes(chunkOffset, size), remaining) + (size & 1)
                size = 0
            case Marker.ds64 where rf64:
                // RIFF size, then the data size: two little-endian 64-bit fields.
                if let fields = read(16, at: position, readAt) {
                    ds64DataBytes = uint32(fields, 8) | uint32(fields, 12) << 32  // RF64 is little-endian
                }
                position += size
            case Marker.list, Marker.info:
                position = try endOfList(path, at: chunkOffset, declaring: size, fileSize: fileSize, bigEndian: bigEndian, readAt)
            default:
                let printable = marker.allSatisfy(isPrintable)
                if !printable || size >= 0xFFFF_0000 {
                    // An unknown marker: libsndfile ends its walk there, or steps back three bytes
                    // to resynchronise when the marker is not four-byte aligned.
                    guard !printable, position & 3 != 0 else { return }
                    position -= 3
                } else {
                    position += size
                }
            }
            if size >= fileSize || position + 4 >= fileSize { return }
            previousSize = size
        }
        throw AudioError(file: path, reason: .invalidFormat("more than \(chunkLimit) RIFF chunks"))
    }

    /// Checks the sub-chunks of the LIST at `offset` as `wavlike_subchunk_parse` reads them and
    /// returns where libsndfile's walk goes on.
    private static func endOfList(
        _ path: String, at offset: UInt64, declaring declared: UInt64, fileSize: UInt64, bigEndian: Bool,
        _ readAt: (Int, UInt64) -> [UInt8]?
    ) throws(AudioError) -> UInt64 {
        let start = offset + 8
        guard declared > 8 else { return start + declared }  // libsndfile's case for PEAK's broken lists
        let length = min(declared, fileSize - min(fileSize, start))
        var count: UInt64 = 0  // libsndfile's 32-bit `bytesread`, kept without wrapping
        walk: while count < length {
            guard let marker = read(4, at: start + count, readAt) else { break }
            count += 4
            switch marker {
            case Marker.adtl, Marker.info: continue
            case Marker.exif, [0, 0, 0, 0]: break walk  // exif's own parse checks its sizes
            case Marker.data: return start + count - 4  // libsndfile backs out of the list there
            default: break
            }
            guard let sizeField = read(4, at: start + count, readAt) else { break }
            let subchunkOffset = start + count - 4
            count += 4
            let size = uint32(sizeField, 0, bigEndian: bigEndian)
            if Marker.notes.contains(marker) { break }  // libsndfile stops at these, whatever their size
            if Marker.text.contains(marker) || marker == Marker.label {
                // Sizes below 2,048 bytes only: these sums cannot wrap.
                var text = size
                if marker == Marker.label {
                    count += 4  // the cue point's id
                    text = (size &- 4) & 0xFFFF_FFFF
                }
                text += text & 1
                guard text < 2_048, count + text <= length, marker != Marker.label || text >= 1 else { break }
                count += text
            } else {
                let padded = (size + (size & 1)) & 0xFFFF_FFFF
                guard (count + padded) & 0xFFFF_FFFF <= length else { break }
                guard count + padded <= length else {
                    throw AudioError(file: path, reason: .corruptList(
                        listOffset: Int(clamping: offset), subchunk: display(marker), subchunkOffset: Int(clamping: subchunkOffset),
                        declaredBytes: size, listBytes: length))
                }
                count += padded
            }
        }
        return start + length
    }

    private enum Marker {
        static let data = Array("data".utf8), list = Array("LIST".utf8), info = Array("INFO".utf8), ds64 = Array("ds64".utf8)
        static let adtl = Array("adtl".utf8), exif = Array("exif".utf8), label = Array("labl".utf8)
        static let notes = ["DISP", "ltxt", "note"].map { Array($0.utf8) }
        static let text = ["ISFT", "ICOP", "IARL", "IART", "ICMT", "ICRD", "IENG", "IGNR", "INAM", "IPRD", "ISBJ", "ISRC", "IAUT", "ITRK"]
            .map { Array($0.utf8) }
    }

    /// libsndfile's `psf_isprint`: the ASCII space to tilde.
    static func isPrintable(_ byte: UInt8) -> Bool { (0x20...0x7E).contains(byte) }

    /// A four-character code for messages, non-printable bytes as `\xNN`.
    private static func display(_ marker: [UInt8]) -> String {
        marker.map { isPrintable($0) ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true) }.joined()
    }
}
