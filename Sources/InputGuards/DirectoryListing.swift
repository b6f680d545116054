import Glibc

/// The names in a folder, as bytes-faithful strings (``FileName``), without `.` and `..`.
public enum DirectoryListing {
    public struct Listing: Sendable {
        public var names: [String]
        /// The system's message when reading stopped before the end (the names are those read).
        public var interruption: String?
    }

    /// The folder's entries, or the system's message when it cannot be opened.
    public static func names(in folder: String) -> Result<Listing, RegularFile.Refusal> {
        guard let directory = FileName.withCString(folder, { opendir($0) }) else {
            return .failure(RegularFile.Refusal(description: String(cString: strerror(errno))))
        }
        defer { closedir(directory) }
        var listing = Listing(names: [], interruption: nil)
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { listing.interruption = String(cString: strerror(errno)) }
                return .success(listing)
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { FileName.string(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != ".", name != ".." { listing.names.append(name) }
        }
    }
}
