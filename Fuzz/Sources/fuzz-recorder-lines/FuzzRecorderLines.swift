// The recorders' line sources (`activetask record --input stdin|socket`): JSON and CSV item lines
// for every recorder kind. A bad line must stop the decoding with an error naming its line.
import FuzzSupport
import Recording
import SensorData

@main
enum FuzzRecorderLines {
    static func main() { FuzzDriver.run(fuzzRecorderLines) }
}

func fuzzRecorderLines(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, count)
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
    for format in [LineFormat.json, .csv] {
        for kind in RecorderKind.allCases {
            guard var decoder = try? LineDecoder(format: format, kind: kind, name: "stdin") else { continue }
            let decoded = decoder.decode(lines)
            if let error = decoded.error, !error.description.contains("stdin") {
                fatalError("error message does not name the source: \(error.description)")
            }
            _ = decoded.items.count
        }
    }
    return 0
}
