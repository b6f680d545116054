// TOML configurations (`batch --config`, Hardening 3): parsed into every analyzer's parameters —
// deep nesting, dotted keys, inline tables, dates, wrong types and ranges must end in an error
// naming the file — and a configuration that parses is used for a batch over SampleData's
// tapping and walking files into a store (the whole path: bytes → parameters → results).
import Batch
import FuzzBatchSupport
import FuzzSupport

@main
enum FuzzConfig {
    static func main() { FuzzDriver.run(fuzzConfig) }
}

func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.withFile(data, count, suffix: ".toml") { path in
        let configuration: BatchConfiguration
        do { configuration = try BatchConfiguration.read(path) } catch {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            if !"\(error)".contains(name) { fatalError("error message does not name the file \(name): \"\(error)\"") }
            return
        }
        var options = BatchOptions(toolkitVersion: "fuzz")
        options.jobs = 1
        options.configuration = configuration
        FuzzBatch.run([FuzzBatch.sampleData + "/tapping_results.json", FuzzBatch.sampleData + "/walk_accelerometer.csv"], options: options, about: path)
    }
    return 0
}
