import Glibc

/// A check of RIFF/WAVE chunk sizes before libsndfile opens a file. libsndfile silently
/// shortens a `data` chunk whose declared size exceeds the file; a WAV whose header lies about
/// its size is corrupt input and must be reported (issue: bad input gets a clear error).
enum RIFFHeader {
    /// Throws `headerSizeMismatch` when the `data` chunk declares more bytes than follow it.
    /// Files that are not little-endian RIFF/WAVE are left to libsndfile. A declared size of
    /// 0xFFFFFFFF (streaming writers' "unknown") is accepted.
    static func check(_ path: String) throws(AudioError) {
        guard let file = fopen(path, "rb") else { return }  // libsndfile reports the open error
        defer { fclose(file) }
        guard fseeko(file, 0, SEEK_END) == 0 else { return }
        let fileSize = UInt64(max(0, ftello(file)))
        rewind(file)
        var header = [UInt8](repeating: 0, count: 12)
        guard fread(&header, 1, 12, file) == 12, header[0..<4] == [0x52, 0x49, 0x46, 0x46],  // RIFF
            header[8..<12] == [0x57, 0x41, 0x56, 0x45]  // WAVE
        else { return }
        var offset: UInt64 = 12
        var chunk = [UInt8](repeating: 0, count: 8)
        for _ in 0..<1024 {  // chunk count bound against crafted loops
            guard fseeko(file, off_t(offset), SEEK_SET) == 0, fread(&chunk, 1, 8, file) == 8 else { return }
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
