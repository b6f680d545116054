// Tapping results in either dialect (docs/formats.md §9–10), alone, in task results or flattened
// archives: read and scored under every convention, as `score tapping` does.
import Analysis
import Scoring
import FuzzSupport

@main
enum FuzzTapping {
    static func main() { FuzzDriver.run(fuzzTapping) }
}

func fuzzTapping(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.withFile(data, count, suffix: ".json") { path in
        for convention in TappingAnalysis.Convention.allCases {
            var parameters = AnalyzerParameters()
            parameters.tapping.convention = convention
            FuzzInput.expectClearError(about: path) { () throws(ScoringError) in _ = try parameters.score(.tapping, file: path) }
        }
    }
    return 0
}
