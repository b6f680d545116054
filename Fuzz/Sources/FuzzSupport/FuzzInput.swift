import Glibc

/// One libFuzzer input as the toolkit's readers see it.
public enum FuzzInput {
    /// The input's bytes.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
        guard let data, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: count))
    }

    /// Writes the input to a file ending in `suffix` (in /dev/shm when it exists, one file per
    /// process, overwritten by every input) and passes its path to `body`: the scorers and
    /// decoders take paths, as the CLI and batch do.
    public static func withFile(_ data: UnsafePointer<UInt8>?, _ count: Int, suffix: String, _ body: (String) -> Void) {
        let folder = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        let path = "\(folder)/atk-fuzz-\(getpid())\(suffix)"
        guard let file = fopen(path, "wb") else { fatalError("cannot create \(path): \(String(cString: strerror(errno)))") }
        if let data, count > 0, fwrite(data, 1, count, file) != count { fatalError("cannot write \(path)") }
        fclose(file)
        body(path)
    }

    /// The fuzzing oracle for errors: runs `body`; an error it throws must name the file it is
    /// about (its last path component) and say something.
    public static func expectClearError<Failure: Error & CustomStringConvertible>(about path: String, _ body: () throws(Failure) -> Void) {
        do throws(Failure) {
            try body()
        } catch {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let message = error.description
            if message.isEmpty || !message.contains(name) {
                fatalError("error message does not name the file \(name): \"\(message)\"")
            }
        }
    }
}
