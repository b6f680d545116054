import ArgumentParser
import InputGuards
import SensorData

/// Range checks for numeric options (docs/reliability.md, "Rules now in the code"): NaN,
/// ±∞ and values outside the stated range are a bad invocation (exit 2) naming the flag, before
/// any of them reaches a size, a loop bound or a conversion.
enum OptionCheck {
    static func require(_ value: Double?, _ flag: String, in range: ClosedRange<Double>, _ unit: String = "") throws {
        guard let value else { return }
        guard value.isFinite, range.contains(value) else {
            throw ValidationError("\(flag) must be a number in \(range.lowerBound.compactDescription)…\(range.upperBound.compactDescription)\(unit.isEmpty ? "" : " " + unit); got \(value)")
        }
    }

    static func require(_ value: Int?, _ flag: String, in range: ClosedRange<Int>) throws {
        guard let value else { return }
        guard range.contains(value) else { throw ValidationError("\(flag) must be in \(range.lowerBound)…\(range.upperBound); got \(value)") }
    }
}

/// `--max-file-bytes`, shared by the commands that read JSON and CSV files whole.
struct FileLimitOptions: ParsableArguments {
    @Option(name: .long, help: "The largest JSON or CSV file read (they are held in memory with their columns), bytes.") var maxFileBytes: Int = FileBytes.defaultMaximumBytes

    func validate() throws {
        try OptionCheck.require(maxFileBytes, "--max-file-bytes", in: 1...(1 << 40))
    }

    /// Runs `body` with the bound in force for every read it makes (and the tasks it starts).
    func applied<T>(_ body: () throws -> T) rethrows -> T {
        try FileBytes.$maximumBytes.withValue(maxFileBytes, operation: body)
    }
}
