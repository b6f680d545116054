import Glibc

/// A check of RIFF/WAVE chunk sizes before libsndfile opens a file. libsndfile silently
/// shortens a `data` chunk whose declared size exceeds the file; a WAV whose header lies about
/// its size is corrupt input and must be reported (issue: bad input gets a clear error).
enum RIFFHeader {
    /// Throws `headerSizeMismatch` when the `data` chunk declares more bytes than follow it.
    /// Files that are not little-endian RIFF/WAVE are left to libsndfile. A declared size of
    /// 0xFFFFFFFF (streaming writers' "unknown") is accepted.
    /// `descriptor` is the open file (read with `pread`, so its offset is unchanged).
    static func check(_ path: String, descriptor: Int32) throws(AudioError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return }
        let fileSize = UInt64(max(0, status.st_size))
        func read(_ buffer: inout [UInt8], at offset: UInt64) -> Bool {
            guard offset < UInt64(Int64.max) else { return false }
            let count = buffer.count
            return buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) } == count
        }
        var header = [UInt8](repeating: 0, count: 12)
        guard read(&header, at: 0), header[0..<4] == [0x52, 0x49, 0x46, 0x46],  // RIFF
            header[8..<12] == [0x57, 0x41, 0x56, 0x45]  // WAVE
        else { return }
        var offset: UInt64 = 12
        var chunk = [UInt8](repeating: 0, count: 8)
        for _ in 0..<1024 {  // chunk count bound against crafted loops
            guard read(&chunk, at: offset) else { return }
            let size = UInt64(chunk[4]) | UInt64(chunk[5]) << 8 | UInt64(chunk[6]) << 16 | UInt64(chunk[7]) << 24
            if chunk[0..<4] == [0x64, 0x61, 0x74, 0x61] {  // data
                let available = fileSize - min(fileSize, offset + 8)
                if size != 0xFFFF_FFFF, size > available {
                    throw AudioError(
                        file: path,
                        reason: .headerSizeMismatch(declaredBytes: size, availableBytes: available, chunkOffset: Int(offset)))
                }
                return
            }
            offset += 8 + size + (size & 1)
            if offset >= fileSize { return }
        }
    }
}
