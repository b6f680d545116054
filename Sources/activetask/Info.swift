import InputGuards
import ArgumentParser
import Batch
import Scoring
import Foundation
import SensorData

/// `activetask info FILE…`: what each file is.
struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info",
        abstract: "Say what each file is: kind, dialect, samples, duration, rate, channels, and what results contain.",
        discussion: "Folders are expanded to the files under them. Exit status 3 if any file is unreadable or invalid."
    ).leaf()

    @Flag(name: .long, help: "Print one JSON object instead of a table.") var json = false
    @Flag(name: .long, help: "Keep the complete items before a torn tail (a recording killed mid-write), with a warning.") var lenient = false
    @OptionGroup var limits: FileLimitOptions

    @Argument(help: "Files or folders to describe.") var paths: [String]

    func run() throws {
        let inventory = limits.applied { FileInventory(paths, lenient: lenient) }
        for failure in inventory.failures { printError(failure.message) }
        try print(json ? JSONWriter(indent: 2).string(inventory.json) : inventory.descriptions.map(\.table).joined(), terminator: json ? "\n" : "")
        if !inventory.failures.isEmpty { throw CommandFailure(.invalidInput) }
    }
}
