import InputGuards
import ArgumentParser
import Batch
import Scoring
import Foundation
import SensorData

/// `activetask info FILE…`: what each file is.
struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Say what each file is: kind, dialect, samples, duration, rate, channels, and what results contain.",
        discussion: "Folders are expanded to the files under them. Exit status 3 if any file is unreadable or invalid."
    )

    @Flag(name: .long, help: "Print one JSON object instead of a table.") var json = false
    @Flag(name: .long, help: "Keep the complete items before a torn tail (a recording killed mid-write), with a warning.") var lenient = false
    @OptionGroup var limits: FileLimitOptions

    @Argument(help: "Files or folders to describe.") var paths: [String]

    func run() throws {
        try limits.applied { try describeAll() }
    }

    private func describeAll() throws {
        var descriptions: [FileDescription] = []
        let (files, refused) = Discovery.expand(paths)
        var failures = refused.map { (file: $0.path, message: "\(FileName.display($0.path)): \($0.reason)") }
        for failure in failures { printError(failure.message) }
        for path in files {
            do {
                descriptions.append(try FileDescription.describe(path, lenient: lenient))
            } catch {
                let message = String(describing: error)
                failures.append((path, message))
                printError(message)
            }
        }
        if json {
            var root = JSONObject()
            root.append("files", .array(descriptions.map(\.jsonValue)))
            root.append("errors", .array(failures.map { .object(JSONObject(["file": .string($0.file), "error": .string($0.message)])) }))
            try print(JSONWriter(indent: 2).string(.object(root)))
        } else {
            for description in descriptions { try print(description.table, terminator: "") }
        }
        if !failures.isEmpty { throw CommandFailure(.invalidInput) }
    }
}
