// Study manifests (`batch --manifest`, a Synapse table as CSV; Hardening 3): RFC 4180 quoting,
// BOMs, CRLF, repeated columns, NUL bytes and rows of any shape must end in an error naming the
// manifest; a manifest that reads becomes units whose files (SampleData's, by relative path)
// are analysed into a store — the whole path: bytes → records → units → store.
import Batch
import FuzzBatchSupport
import FuzzSupport

@main
enum FuzzManifest {
    static func main() { FuzzDriver.run(fuzzManifest) }
}

func fuzzManifest(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.withFile(data, count, suffix: ".csv") { path in
        var options = BatchOptions(toolkitVersion: "fuzz")
        options.jobs = 1
        do { options.manifest = try StudyManifest.read(path, base: FuzzBatch.sampleData) } catch {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            if !"\(error)".contains(name) { fatalError("error message does not name the file \(name): \"\(error)\"") }
            return
        }
        // Records are few in a fuzz input; a huge one is still bounded by the input's size.
        FuzzBatch.run([], options: options, about: path)
    }
    return 0
}
