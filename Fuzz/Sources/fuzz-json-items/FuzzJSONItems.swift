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
        do {
            _ = try FileDescription.describe(path)
        } catch {
            FuzzInput.checkMessage("\(error)", names: path)
        }
        do throws(ScoringError) {
            _ = try GaitScorer.score(path)
        } catch {
            FuzzInput.checkMessage(error.description, names: path)
        }
    }
    return 0
}
