// JSON recorder files (docs/formats.md §3–4: `{"items": […]}`, bare arrays, both item dialects, flattened
// archives): what `activetask info` and `score gait` do with a file — describe it, then score it.
import Scoring
import FuzzSupport

@main
enum FuzzJSONItems {
    static func main() { FuzzDriver.run(fuzzJSONItems) }
}

func fuzzJSONItems(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.withFile(data, count, suffix: ".json") { path in
        FuzzInput.expectClearError(about: path) { () throws(ScoringError) in _ = try FileDescription.describe(path) }
        FuzzInput.expectClearError(about: path) { () throws(ScoringError) in _ = try AnalyzerParameters().score(.gait, file: path) }
    }
    return 0
}
