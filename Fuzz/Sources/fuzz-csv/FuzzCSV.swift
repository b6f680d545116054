// CSV inputs (formats.md §5): motion CSV scored for gait with the detected layout and with the
// Oxford layout, and the AUXU audiometry table, as `score gait` and `score audiometry` read them.
import Batch
import FuzzSupport

@main
enum FuzzCSV {
    static func main() { FuzzDriver.run(fuzzCSV) }
}

func fuzzCSV(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.withFile(data, count, suffix: ".csv") { path in
        for oxford in [false, true] {
            var parameters = GaitScorer.Parameters()
            parameters.csv.oxford = oxford
            FuzzInput.expectClearError(about: path) { () throws(ScoringError) in _ = try GaitScorer.score(path, parameters) }
        }
        FuzzInput.expectClearError(about: path) { () throws(ScoringError) in _ = try AudiometryScorer.score(path) }
    }
    return 0
}
