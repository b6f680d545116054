import InputGuards
import Glibc

/// The RIFF/WAVE chunk sizes, checked before libsndfile opens a file.
///
/// A recorder that never closed its file leaves the `data` chunk's size at 0 (written before the
/// first sample) or 0xFFFFFFFF (the streaming "unknown"), and a copy cut short leaves it larger
/// than the file. libsndfile, soundfile and Praat read what is there; so does the toolkit — the
/// whole frames present, through a header corrected in memory (``UnfinishedHeader``), with a
/// warning naming both sizes. A header is refused only when not one whole frame follows it.
enum RIFFHeader {
    /// Looks at the chunks of `descriptor` (read with `pread`, so its offset is unchanged). Nil
    /// when the file is not little-endian RIFF/WAVE or its data size is consistent.
    static func inspect(_ path: String, descriptor: Int32) throws(AudioError) -> UnfinishedHeader? {
        guard let status = try? FileSystem.status(descriptor: descriptor, path: path) else { return nil }
        return try inspect(path, size: UInt64(max(0, status.size))) { count, offset in
            var buffer = [UInt8](repeating: 0, count: count)
            let got = (try? FileSystem.read(descriptor, path: path, into: &buffer, at: Int64(clamping: offset))) ?? -1
            return got == count ? buffer : nil
        }
    }

    /// The same for a file already in memory.
    static func inspect(_ path: String, bytes: [UInt8]) throws(AudioError) -> UnfinishedHeader? {
        try inspect(path, size: UInt64(bytes.count)) { count, offset in
            offset + UInt64(count) <= UInt64(bytes.count) ? Array(bytes[Int(offset)..<Int(offset) + count]) : nil
        }
    }

    /// The chunks of a file of `fileSize` bytes, read through `readAt(count, offset)` (nil: fewer bytes there).
    private static func inspect(_ path: String, size fileSize: UInt64, _ readAt: (Int, UInt64) -> [UInt8]?) throws(AudioError) -> UnfinishedHeader? {
        guard let header = read(12, at: 0, readAt), header[8..<12] == [0x57, 0x41, 0x56, 0x45] else { return nil }  // WAVE
        let bigEndian: Bool, rf64: Bool
        switch header[0..<4] {
        case [0x52, 0x49, 0x46, 0x46]: (bigEndian, rf64) = (false, false)  // RIFF
        case [0x52, 0x49, 0x46, 0x58]: (bigEndian, rf64) = (true, false)  // RIFX
        case [0x52, 0x46, 0x36, 0x34]: (bigEndian, rf64) = (false, true)  // RF64
        default: return nil
        }
        let unfinished = bigEndian || rf64 ? nil : try unfinishedData(path, size: fileSize, readAt)
        try checkLists(path, size: fileSize, bigEndian: bigEndian, rf64: rf64, read: readAt) { offset, declared in
            unfinished.map { $0.chunkOffset == offset ? $0.header.readBytes : declared } ?? declared
        }
        return unfinished?.header
    }

    /// The first data chunk of a little-endian RIFF/WAVE, when its size was never finished.
    private static func unfinishedData(
        _ path: String, size fileSize: UInt64, _ readAt: (Int, UInt64) -> [UInt8]?
    ) throws(AudioError) -> (header: UnfinishedHeader, chunkOffset: UInt64)? {
        var offset: UInt64 = 12
        var blockAlign: UInt64 = 0
        for _ in 0..<1024 {  // chunk count bound against crafted loops
            guard let chunk = read(8, at: offset, readAt) else { return nil }
            let size = uint32(chunk, 4, bigEndian: false)
            if chunk[0..<4] == [0x66, 0x6D, 0x74, 0x20], let format = read(14, at: offset + 8, readAt) {  // "fmt "
                blockAlign = UInt64(format[12]) | UInt64(format[13]) << 8
            }
            if chunk[0..<4] == [0x64, 0x61, 0x74, 0x61] {  // data
                let start = offset + 8
                let available = fileSize - min(fileSize, start)
                let unfinished: Bool
                switch size {
                case 0xFFFF_FFFF: unfinished = available > 0
                case 0: unfinished = available > 0 && !looksLikeChunk(read(8, at: start, readAt), remaining: available)
                default: unfinished = size > available
                }
                guard unfinished, blockAlign > 0 else { return nil }
                let whole = min(available, 0xFFFF_FFFF) / blockAlign * blockAlign
                guard whole > 0 else {
                    throw AudioError(file: path, reason: .headerSizeMismatch(declaredBytes: size, availableBytes: available, chunkOffset: Int(offset)))
                }
                let header = UnfinishedHeader(
                    declaredBytes: size, availableBytes: available, readBytes: whole,
                    patches: [(4, le32(min(start + whole - 8, 0xFFFF_FFFF))), (offset + 4, le32(whole))])
                return (header, offset)
            }
            offset += 8 + size + (size & 1)
            if offset >= fileSize { return nil }
        }
        return nil
    }

    /// Reads `count` bytes at `offset` (nil past the end, or at an offset no file has).
    static func read(_ count: Int, at offset: UInt64, _ readAt: (Int, UInt64) -> [UInt8]?) -> [UInt8]? {
        offset < UInt64(Int64.max) ? readAt(count, offset) : nil
    }

    static func uint32(_ bytes: [UInt8], _ at: Int, bigEndian: Bool) -> UInt64 {
        let value = (0..<4).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * $1) }
        return bigEndian ? UInt64(UInt32(truncatingIfNeeded: value).byteSwapped) : value
    }

    /// Whether `bytes` start another chunk (a four-character code and a size that fits): then a
    /// data size of 0 is a real empty chunk, not an unfinished one.
    private static func looksLikeChunk(_ bytes: [UInt8]?, remaining: UInt64) -> Bool {
        guard let bytes, bytes[0..<4].allSatisfy(isPrintable) else { return false }
        return 8 + uint32(bytes, 4, bigEndian: false) <= remaining
    }

    private static func le32(_ value: UInt64) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

/// A WAV whose `data` size was not finished (0, 0xFFFFFFFF, or more than the file holds): what the
/// header said, what the file holds, and the whole frames read.
public struct UnfinishedHeader: Sendable, Equatable {
    public var declaredBytes: UInt64
    public var availableBytes: UInt64
    /// The bytes read as audio: the whole frames of `availableBytes`.
    public var readBytes: UInt64
    /// Header bytes replaced in memory (file offset, bytes): the RIFF and data sizes.
    var patches: [(offset: UInt64, bytes: [UInt8])]

    public static func == (a: Self, b: Self) -> Bool {
        (a.declaredBytes, a.availableBytes, a.readBytes) == (b.declaredBytes, b.availableBytes, b.readBytes)
    }

    /// The warning the scorers show.
    public var warning: String {
        let declared = declaredBytes == 0xFFFF_FFFF ? "0xFFFFFFFF (unknown)" : "\(declaredBytes)"
        return "unfinishedHeader: the WAV header declares \(declared) data bytes, the file holds \(availableBytes); "
            + "the \(readBytes) bytes of whole frames were read (a recording whose header was never completed)"
    }
}

/// A file for libsndfile's virtual I/O: read from a descriptor (which it owns and closes) or
/// from bytes in memory, with a corrected header's patched bytes laid over it.
final class PatchedFile {
    enum Source {
        case descriptor(Int32, path: String)
        case bytes([UInt8])
    }

    let source: Source
    let length: Int64
    var position: Int64 = 0
    let patches: [(offset: UInt64, bytes: [UInt8])]

    init(_ source: Source, patches: [(offset: UInt64, bytes: [UInt8])]) {
        self.source = source
        switch source {
        case .descriptor(let descriptor, let path):
            length = (try? FileSystem.status(descriptor: descriptor, path: path))?.size ?? 0
        case .bytes(let bytes):
            length = Int64(bytes.count)
        }
        self.patches = patches
    }

    deinit {
        if case .descriptor(let descriptor, _) = source { FileSystem.close(descriptor) }
    }

    func read(into pointer: UnsafeMutableRawPointer, count: Int64) -> Int64 {
        guard count > 0, position >= 0, position < length else { return 0 }
        let wanted = Int(min(count, length - position))
        let got: Int
        switch source {
        case .descriptor(let descriptor, let path):
            got = (try? FileSystem.read(descriptor, path: path, into: UnsafeMutableRawBufferPointer(start: pointer, count: wanted), at: position)) ?? 0
        case .bytes(let bytes):
            bytes.withUnsafeBytes { pointer.copyMemory(from: $0.baseAddress! + Int(position), byteCount: wanted) }
            got = wanted
        }
        guard got > 0 else { return 0 }
        let bytes = pointer.assumingMemoryBound(to: UInt8.self)
        for (offset, patch) in patches {
            for (k, byte) in patch.enumerated() {
                let at = Int64(offset) + Int64(k) - position
                if at >= 0, at < Int64(got) { bytes[Int(at)] = byte }
            }
        }
        position += Int64(got)
        return Int64(got)
    }

    /// Offsets derive from the file's chunk sizes: the sums are checked (an overflow is a failed seek).
    func seek(_ offset: Int64, whence: Int32) -> Int64 {
        let (target, overflow): (Int64, Bool)
        switch whence {
        case SEEK_SET: (target, overflow) = (offset, false)
        case SEEK_CUR: (target, overflow) = position.addingReportingOverflow(offset)
        case SEEK_END: (target, overflow) = length.addingReportingOverflow(offset)
        default: return -1
        }
        guard !overflow, target >= 0 else { return -1 }
        position = target
        return position
    }
}
