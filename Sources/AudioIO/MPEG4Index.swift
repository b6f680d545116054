import InputGuards

/// The top-level boxes of an MPEG-4 file (ISO/IEC 14496-12 §4.2: a 32-bit big-endian size that
/// counts the 8-byte header, 1 for a 64-bit size after the type, 0 for "to the end of the file";
/// then a four-letter type), walked to say why a file FFmpeg cannot open is unreadable: a
/// recorder stopped before it wrote its index (`moov`, written when a recording ends unless the
/// file was laid out for streaming) leaves media data that nothing can decode.
enum MPEG4Index {
    /// The reason to add to FFmpeg's message when the file at `path` (`size` bytes, read through
    /// `read(offset, count)`) has `mdat` but no `moov` among its top-level boxes, or a box that
    /// runs past the end; nil when the boxes say nothing more. At most 1,000 boxes are read.
    static func problem(size: Int64, read: (Int64, Int) -> [UInt8]) -> String? {
        var offset: Int64 = 0, types: [String] = []
        while offset + 8 <= size, types.count < 1_000 {
            let header = read(offset, 16)
            guard header.count >= 8 else { break }
            let size32 = header[0..<4].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            // The four-letter type as printable ASCII (a damaged file's bytes become "?").
            let type = String(header[4..<8].map { (0x20...0x7E).contains($0) ? Character(UnicodeScalar($0)) : "?" })
            var length = size32
            if size32 == 1 {
                guard header.count >= 16 else { break }
                let size64 = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard size64 <= UInt64(Int64.max) else { return "its \(type) box at byte \(offset) declares \(size64) bytes, beyond any file" }
                length = Int64(size64)
            } else if size32 == 0 {
                length = size - offset
            }
            guard length >= 8 else { return "its \(type) box at byte \(offset) declares \(length) bytes, less than its own header" }
            types.append(type)
            if length > size - offset {
                let index = types.contains("moov") ? "" : "; no moov box (the index a recorder writes when it stops) before it"
                return "its \(type) box at byte \(offset) declares \(length) bytes, \(length - (size - offset)) past the end of the \(size)-byte file: the file was cut short\(index)"
            }
            offset += length
        }
        if types.contains("mdat"), !types.contains("moov") {
            return "it has media data (mdat) but no moov box, the index a recorder writes when it stops: the recording was not finished"
        }
        return nil
    }

    /// ``problem(size:read:)`` of the file at `path`, or of `bytes` when given.
    static func problem(path: String, bytes: [UInt8]?) -> String? {
        if let bytes {
            return problem(size: Int64(bytes.count)) { offset, count in
                let start = Int(offset)
                return Array(bytes[start..<min(bytes.count, start + count)])
            }
        }
        guard let descriptor = try? RegularFile.openForReading(path) else { return nil }
        defer { FileSystem.close(descriptor) }
        guard let status = try? FileSystem.status(descriptor: descriptor, path: path) else { return nil }
        return problem(size: status.size) { offset, count in
            var buffer = [UInt8](repeating: 0, count: count)
            let read = (try? FileSystem.read(descriptor, path: path, into: &buffer, at: offset)) ?? 0
            return Array(buffer.prefix(read))
        }
    }
}
