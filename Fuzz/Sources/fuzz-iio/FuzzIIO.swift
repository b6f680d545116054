// An IIO accelerometer laid out as the kernel's ABI describes it, every attribute value and the
// buffer's bytes from the input: sysfs text → IIODevice → IIOSource → an active step's recorder →
// the JSON file → the reader (the whole path to the result file). Input: 13 newline-terminated
// attribute values (sampling_frequency, sampling_frequency_available, in_accel_scale,
// in_accel_x_offset, the x, y, z and timestamp types, the x, y, z and timestamp indices,
// current_timestamp_clock), then the buffer's bytes. Either an error that names the device or one
// of its files, or files the reader takes, each item finite.
import Foundation
import FuzzSupport
import Glibc
import Recording
import SensorData

@main
enum FuzzIIO {
    static func main() { FuzzDriver.run(fuzzIIO) }
}

/// The attribute files the input's lines fill, in order.
let attributeFiles = ["sampling_frequency", "sampling_frequency_available", "in_accel_scale", "in_accel_x_offset",
                      "scan_elements/in_accel_x_type", "scan_elements/in_accel_y_type", "scan_elements/in_accel_z_type",
                      "scan_elements/in_timestamp_type", "scan_elements/in_accel_x_index", "scan_elements/in_accel_y_index",
                      "scan_elements/in_accel_z_index", "scan_elements/in_timestamp_index", "current_timestamp_clock"]

func fuzzIIO(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, count)
    let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    let root = "\(base)/atk-fuzz-iio-\(getpid())"
    try? FileManager.default.removeItem(atPath: root)
    let device = root + "/sys/bus/iio/devices/iio:device0"
    for folder in [device + "/scan_elements", device + "/buffer", root + "/dev", root + "/out"] {
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    var rest = bytes[...]
    var files = ["name": Array("accel_3d\n".utf8), "buffer/length": Array("0\n".utf8), "buffer/enable": Array("0\n".utf8)]
    for channel in ["in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"] { files["scan_elements/\(channel)_en"] = Array("0\n".utf8) }
    for name in attributeFiles {
        let line = rest.prefix { $0 != UInt8(ascii: "\n") }
        rest = rest.dropFirst(line.count + 1)
        files[name] = Array(line) + [UInt8(ascii: "\n")]
    }
    for (name, content) in files {
        guard FileManager.default.createFile(atPath: device + "/" + name, contents: Data(content)) else { fatalError("cannot write \(name)") }
    }
    guard FileManager.default.createFile(atPath: root + "/dev/iio:device0", contents: Data(rest)) else { fatalError("cannot write the buffer") }

    let source: IIOSource
    do throws(RecordingError) {
        source = try IIOSource(spec: "device0", root: root, kind: .accelerometer, frequencyHz: 100, capacityItems: 4_096)
    } catch {
        if !(error.file.hasPrefix("iio:") || error.file.hasPrefix(root)) || error.description.isEmpty {
            fatalError("error does not name the device: \(error.description)")
        }
        return 0
    }
    let configuration = RecorderConfiguration(identifier: "accelerometer", kind: .sensor(.accelerometer), frequencyHz: 100)
    let step = ActiveStepConfiguration(identifier: "fuzz", durationSeconds: 30,
                                       recorders: [RecorderPlan(source.configuration(configuration), source: .iio(source))], realTime: false)
    let done = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    Task {
        do { outcome.set(.success(try await ActiveStep.run(step, outputDirectory: root + "/out"))) } catch { outcome.set(.failure(error)) }
        done.signal()
    }
    done.wait()
    guard let result = outcome.value else { fatalError("no outcome") }
    let stepResult: StepResult
    switch result {
    case .success(let value): stepResult = value
    case .failure(let error): fatalError("the step failed: \(error)")
    }
    for report in stepResult.reports {
        if let error = report.sourceError, !(error.file.hasPrefix("iio:") || error.file.hasPrefix(root)) {
            fatalError("source error does not name the device: \(error.description)")
        }
    }
    for file in stepResult.fileResults {
        let path = root + "/out/" + file.fileName
        let contents: JSONContents
        do { contents = try JSONContents.read(path) } catch { fatalError("the recorder left a file the reader refuses: \(error)") }
        for named in contents.series {
            let columns = [("time", named.series.time)] + ["x", "y", "z"].map { ($0, named.series[$0] ?? []) }
            for (field, column) in columns where column.contains(where: { !$0.isFinite }) {
                fatalError("\(field) holds a non-finite value")
            }
        }
    }
    return 0
}

/// The step's result, handed from its task to the fuzz function.
final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<StepResult, any Error>?
    func set(_ result: Result<StepResult, any Error>) { lock.withLock { stored = result } }
    var value: Result<StepResult, any Error>? { lock.withLock { stored } }
}
