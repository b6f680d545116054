internal import CAlsa
internal import CSndFile

/// The C libraries AudioIO loads on first use instead of linking (CSndFile.h, CAlsa.h): a
/// command that reads no audio and opens no device starts without them.
enum LoadedLibraries {
    /// libsndfile's functions, or why they cannot be loaded, naming `file`.
    static func sndfile(_ file: String) throws(AudioError) -> atk_sndfile {
        var reason: UnsafePointer<CChar>?
        guard let table = atk_sndfile_load(&reason) else {
            throw AudioError(file: file, reason: .open(reason.map { String(cString: $0) } ?? "cannot load libsndfile.so.1"))
        }
        return table.pointee
    }

    /// libasound's functions, or why they cannot be loaded, naming `file`.
    static func alsa(_ file: String) throws(AudioError) -> atk_alsa {
        var reason: UnsafePointer<CChar>?
        guard let table = atk_alsa_load(&reason) else {
            throw AudioError(file: file, reason: .open(reason.map { String(cString: $0) } ?? "cannot load libasound.so.2"))
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
