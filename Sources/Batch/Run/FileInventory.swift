import InputGuards
import Scoring
import SensorData

/// `activetask info`: what each file under some paths is (folders expanded to their files).
public struct FileInventory: Sendable {
    /// One description per file read.
    public var descriptions: [FileDescription] = []
    /// One message per file that could not be read or described, or that a folder walk refused.
    public var failures: [(file: String, message: String)] = []

    /// Describes every file of `paths` (``Discovery/expand(_:)``), each read once.
    public init(_ paths: [String], lenient: Bool) {
        let (files, refused) = Discovery.expand(paths)
        failures = refused.map { (file: $0.path, message: "\(FileName.display($0.path)): \($0.reason)") }
        for path in files {
            do {
                descriptions.append(try FileDescription.describe(path, lenient: lenient))
            } catch {
                failures.append((path, String(describing: error)))
            }
        }
    }

    /// As `info --json` prints it: the files and the errors.
    public var json: JSONValue {
        var root = JSONObject()
        root.append("files", .array(descriptions.map(\.jsonValue)))
        root.append("errors", .array(failures.map { .object(JSONObject(["file": .string($0.file), "error": .string($0.message)])) }))
        return .object(root)
    }
}
