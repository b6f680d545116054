import Glibc
import InputGuards

/// The files under a folder, recursively, in name order: symbolic links are followed, every
/// folder is listed once (by device and inode, so a link back to an ancestor ends instead of
/// looping, and a second link to a folder adds nothing), and what cannot be listed or read as a
/// regular file is reported with the reason instead of being left out silently.
struct FolderWalk {
    /// Regular files (and names that vanished or dangle: reading them reports why).
    private(set) var files: [String] = []
    /// The version of each regular file as the walk found it (its status was read anyway): the
    /// inventory compares it with the stored one instead of reading the status again.
    private(set) var versions: [String: FileVersion] = [:]
    /// Folders that could not be listed, and FIFOs, sockets and devices (reading one could block
    /// forever), with the reason.
    private(set) var refused: [(path: String, reason: String)] = []
    private var listed = Set<FileID>()
    private let includeHidden: Bool

    private struct FileID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// Walks `folder`; with `includeHidden` false, entries named `.…` (and everything under
    /// hidden folders) are left out.
    init(_ folder: String, includeHidden: Bool) {
        self.includeHidden = includeHidden
        walk(folder)
    }

    /// Walks `folder`, whose status the listing of its parent may have read already.
    private mutating func walk(_ folder: String, status known: FileSystem.Status? = nil) {
        let info: FileSystem.Status
        if let known { info = known } else {
            do { info = try FileSystem.status(folder) } catch {
                refused.append((folder, "cannot be listed: \(error.reason)"))
                return
            }
        }
        guard listed.insert(FileID(device: info.device, inode: info.inode)).inserted else { return }
        let listing: DirectoryListing.Listing
        switch DirectoryListing.names(in: folder) {
        case .success(let found): listing = found
        case .failure(let refusal): refused.append((folder, "cannot be listed: \(refusal.description)")); return
        }
        if let interruption = listing.interruption { refused.append((folder, "cannot be listed completely: \(interruption)")) }
        for name in listing.names.sorted() where includeHidden || !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            guard let entry = FileSystem.statusIfAny(path) else {
                files.append(path)  // vanished, or a dangling link: its unit reports the reason
                continue
            }
            if entry.isDirectory {
                walk(path, status: entry)
            } else if entry.isRegularFile {
                files.append(path)
                versions[path] = FileVersion(entry)
            } else {
                refused.append((path, "is not a regular file (a FIFO, socket or device); not read"))
            }
        }
    }
}
