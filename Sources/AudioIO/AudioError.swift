import InputGuards

/// Why an audio file could not be read or written. `description` is one line naming the file.
public struct AudioError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The library or tool could not open the file (its message).
        case open(String)
        /// Decoding failed part-way (its message).
        case decode(String)
        /// Writing failed (the library's message).
        case write(String)
        /// A sound device failed while capturing or playing (what failed and the library's message).
        case device(String)
        /// A RIFF/WAVE data chunk that was never finished (size 0, 0xFFFFFFFF or beyond the file)
        /// and holds not one whole frame.
        case headerSizeMismatch(declaredBytes: UInt64, availableBytes: UInt64, chunkOffset: Int)
        /// A RIFF LIST chunk with a sub-chunk whose size passes the list's end by so much that
        /// libsndfile's 32-bit byte count wraps (its parse would never end).
        case corruptList(listOffset: Int, subchunk: String, subchunkOffset: Int, declaredBytes: UInt64, listBytes: UInt64)
        /// The container needs a decoder that is not available here; the text says how to enable one.
        case decoderUnavailable(String)
        /// A parameter the writer or reader cannot honour.
        case unsupported(String)
        /// The header states an impossible format (a sample rate of 0 or 1 GHz, no channels).
        case invalidFormat(String)
        /// More samples (frames × channels) than a reader that holds the whole recording takes;
        /// `frames` from the header, or nil when found while reading.
        case tooLong(frames: Int64?, channels: Int, limit: Int)
    }

    public var file: String
    public var reason: Reason

    public init(file: String, reason: Reason) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(FileName.display(file)): \(message)" }

    /// What went wrong, without the file's name.
    public var message: String {
        switch reason {
        case .open(let message): "cannot open audio: \(message)"
        case .decode(let message): "audio decoding failed: \(message)"
        case .write(let message): "cannot write audio: \(message)"
        case .device(let message): message
        case .headerSizeMismatch(let declared, let available, let offset):
            "WAV header declares \(declared) data bytes but only \(available) follow the data chunk at byte \(offset): not one whole frame"
        case .corruptList(let list, let subchunk, let at, let declared, let length):
            "corrupt WAV header: the LIST chunk at byte \(list) holds a sub-chunk '\(subchunk)' at byte \(at) declaring \(declared) bytes, more than the list's \(length)"
        case .decoderUnavailable(let message): message
        case .unsupported(let message): message
        case .invalidFormat(let message): "invalid audio header: \(message)"
        case .tooLong(let frames?, let channels, let limit):
            "\(frames) frames × \(channels) channels exceed the limit of \(limit) samples of an analysis that holds the whole recording"
        case .tooLong(nil, _, let limit):
            "more than \(limit) samples (frames × channels) exceed the limit of an analysis that holds the whole recording"
        }
    }
}
