// Upload archives (.zip with info.json, docs/formats.md §8.1) read in place: what `info`, `score` and
// `batch` do with one — list and classify its entries, then score the upload with every analyzer
// on the entry it would choose. Hostile archives must end in a clear error naming the archive.
import Scoring
import FuzzSupport

@main
enum FuzzArchive {
    static func main() { FuzzDriver.run(fuzzArchive) }
}

func fuzzArchive(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.withFile(data, count, suffix: ".zip") { path in
        // A 16 MiB inflation bound: a bomb stops there (the default, 1 GiB, is beyond libFuzzer's memory limit).
        UploadArchive.$maximumBytes.withValue(16 << 20) {
            FuzzInput.expectClearError(about: path) { () throws(ScoringError) in _ = try FileDescription.describe(path) }
            for analyzer in Analyzer.allCases {
                FuzzInput.expectClearError(about: path) { () throws(ScoringError) in _ = try AnalyzerParameters().score(analyzer, file: path) }
            }
        }
    }
    return 0
}
