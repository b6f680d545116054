// JSON recorder files (formats.md §3–4: `{"items": […]}`, bare arrays, both item dialects, flattened
// archives): what `activetask info` and `score gait` do with a file — describe it, then score it.
import Batch
import FuzzSupport

@main
enum FuzzJSONItems {
    static func main() { FuzzDriver.run(fuzzJSONItems) }
}

func fuzzJSONItems(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.withFile(data, count, suffix: ".json") { path in
        FuzzInput.expectClearError(about: path) { () throws(DescribeError) in
            do { _ = try FileDescription.describe(path) } catch { throw DescribeError(description: "\(error)") }
        }
        FuzzInput.expectClearError(about: path) { () throws(ScoringError) in _ = try GaitScorer.score(path) }
    }
    return 0
}

/// `FileDescription.describe` throws untyped errors; their text is what `info` prints.
struct DescribeError: Error, CustomStringConvertible {
    var description: String
}
