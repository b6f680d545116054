internal import CAlsa
internal import CSndFile

/// The C libraries AudioIO loads on first use instead of linking (CSndFile.h, CAlsa.h): a
/// command that reads no audio and opens no device starts without them.
enum LoadedLibraries {
    /// libsndfile's functions, or why they cannot be loaded, naming `file`.
    static func sndfile(_ file: String) throws(AudioError) -> atk_sndfile { try table(atk_sndfile_load, file) }

    /// libasound's functions, or why they cannot be loaded, naming `file`.
    static func alsa(_ file: String) throws(AudioError) -> atk_alsa { try table(atk_alsa_load, file) }

    /// The table `load` gives (a loader of LibraryLoader.h), or its reason as `file`'s open error.
    private static func table<Table>(_ load: (UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> UnsafePointer<Table>?,
                                     _ file: String) throws(AudioError) -> Table {
        var reason: UnsafePointer<CChar>?
        guard let table = load(&reason) else {
            throw AudioError(file: file, reason: .open(reason.map { String(cString: $0) } ?? "cannot load a library"))
        }
        return table.pointee
    }
}

extension atk_sndfile {
    /// libsndfile's message for `handle`'s last error (nil: the last failed open's).
    func message(_ handle: OpaquePointer?) -> String {
        sf_strerror!(handle).map { String(cString: $0) } ?? "libsndfile gave no message"
    }
}
