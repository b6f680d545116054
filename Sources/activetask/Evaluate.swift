import Analysis
import ArgumentParser
import SensorData

/// `activetask evaluate oxford DIR`: the gait analyzer against the Oxford Step Counter ground truth.
struct Evaluate: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "evaluate",
        abstract: "Score analyzers against ground truth.",
        subcommands: [Oxford.self]
    )
}

extension Evaluate {
    struct Oxford: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "oxford",
            abstract: "Step count and 20-s cadence errors on the Oxford Step Counter walks (data/<walk>/accelerometer.csv + stepcounter.csv).",
            discussion: "Credit: Oxford Step Counter dataset (CC BY 4.0). Prints per-walk results and summaries by phone position and phone."
        ).leaf()

        @Argument(help: "The dataset folder (with data/<walk>/).") var folder: String
        @Flag(name: .long, help: "One JSON object instead of tables.") var json = false
        @Flag(name: .long, help: "Leave-one-user-out: for each user, choose the parameters on a small grid with the other users' walks, score the held-out user's walks with them, and report only held-out figures.") var leaveOneUserOut = false

        func run() throws {
            let failures: [String]
            do {
                if leaveOneUserOut {
                    let (text, unread) = try OxfordReport.leaveOneUserOut(folder: folder, json: json)
                    failures = unread
                    for failure in failures { printError(failure) }
                    try print(text, terminator: "")
                } else {
                    let report = try OxfordReport(folder: folder)
                    failures = report.failures
                    for failure in failures { printError(failure) }
                    try print(json ? JSONWriter(indent: 2).string(report.json) + "\n" : report.table, terminator: "")
                }
            } catch let error as ReadError {
                throw CommandFailure(.invalidInput, error.description)
            }
            // The figures leave the unreadable walks out: said by the status too, not only on stderr.
            if !failures.isEmpty {
                throw CommandFailure(.invalidInput, "\(failures.count) walk(s) under \(folder) could not be read; the figures above leave them out")
            }
        }
    }
}
