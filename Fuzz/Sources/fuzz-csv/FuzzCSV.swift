// CSV inputs (docs/formats.md §5): motion CSV scored for gait with the detected layout and with the
// Oxford layout, and the AUXU audiometry table, as `score gait` and `score audiometry` read them.
import Scoring
import FuzzSupport

@main
enum FuzzCSV {
    static func main() { FuzzDriver.run(fuzzCSV) }
}

func fuzzCSV(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.withFile(data, count, suffix: ".csv") { path in
        for oxford in [false, true] {
            var parameters = AnalyzerParameters()
            parameters.gait.csv.oxford = oxford
            FuzzInput.expectClearError(about: path) { () throws(ScoringError) in _ = try parameters.score(.gait, file: path) }
        }
        FuzzInput.expectClearError(about: path) { () throws(ScoringError) in _ = try AnalyzerParameters().score(.audiometry, file: path) }
    }
    return 0
}
