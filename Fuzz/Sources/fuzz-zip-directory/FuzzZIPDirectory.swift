// ZIP central directories (Hardening 3) through the batch: an upload archive is discovered,
// its directory and local headers read (duplicate names, names that differ between the two,
// ZIP64 fields, lying sizes, CRC-32s), its entries grouped into one upload and analysed into a
// store — the whole path: bytes → entries → unit → store, every error row naming the archive.
import Batch
import FuzzBatchSupport
import FuzzSupport
import Scoring

@main
enum FuzzZIPDirectory {
    static func main() { FuzzDriver.run(fuzzZIPDirectory) }
}

func fuzzZIPDirectory(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.withFile(data, count, suffix: ".zip") { path in
        var options = BatchOptions(toolkitVersion: "fuzz")
        options.jobs = 1
        // A 16 MiB inflation bound: a bomb stops there (the default, 1 GiB, is beyond libFuzzer's memory limit).
        UploadArchive.$maximumBytes.withValue(16 << 20) {
            FuzzBatch.run([path], options: options, about: path)
        }
    }
    return 0
}
