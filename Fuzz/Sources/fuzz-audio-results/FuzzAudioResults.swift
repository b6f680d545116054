// Audiometry and SPL-meter results (docs/formats.md §11): read and scored as `score audiometry` and
// `score spl` do (audiogram, volume correction, ResearchKit's SPL decision).
import Scoring
import FuzzSupport

@main
enum FuzzAudioResults {
    static func main() { FuzzDriver.run(fuzzAudioResults) }
}

func fuzzAudioResults(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.withFile(data, count, suffix: ".json") { path in
        FuzzInput.expectClearError(about: path) { () throws(ScoringError) in _ = try AnalyzerParameters().score(.audiometry, file: path) }
        FuzzInput.expectClearError(about: path) { () throws(ScoringError) in _ = try AnalyzerParameters().score(.spl, file: path) }
    }
    return 0
}
