// WAV (and other libsndfile) headers through AudioIO: the RIFF size checks, then libsndfile's
// decoder, reading every frame in 4,096-frame blocks as the analyzers stream them.
import AudioIO
import FuzzSupport

@main
enum FuzzWAV {
    static func main() { FuzzDriver.run(fuzzWAV) }
}

func fuzzWAV(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.withFile(data, count, suffix: ".wav") { path in
        FuzzInput.expectClearError(about: path) { () throws(AudioError) in
            let decoder = try AudioInput.open(path, backend: .libsndfile)
            let format = decoder.format
            guard format.channels > 0 else { fatalError("decoder opened \(path) with \(format.channels) channels") }
            var block = [Double](repeating: 0, count: 4096 * format.channels)
            // Compressed formats (MPEG, FLAC, Vorbis) legitimately decode to many more frames
            // than bytes; a decoder that never ends is caught by libFuzzer's -timeout.
            while try block.withUnsafeMutableBufferPointer({ buffer throws(AudioError) in try decoder.read(into: buffer) }) > 0 {}
        }
    }
    return 0
}
