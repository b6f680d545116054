import InputGuards
import ArgumentParser
import Batch
import Scoring
import Foundation
import Reports

/// `activetask report --db FILE --out DIR`: the HTML report of a result store.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "report",
        abstract: "Write a self-contained HTML report of a result store: counts, per-analyzer feature distributions, example charts, errors and unknown files.",
        discussion: "OUT/index.html holds everything (inline CSS and SVG, no scripts, no network). Example charts re-read the recordings from their stored paths."
    ).leaf()

    @Option(name: .long, help: "The SQLite result store.") var db: String
    @Option(name: .long, help: "Output folder (created if missing).") var out: String
    @Option(name: .long, help: "Example recordings with charts per analyzer.") var examples: Int = 2

    func validate() throws {
        try OptionCheck.require(examples, "--examples", in: 0...1_000)
    }

    func run() throws {
        let html: String
        do { html = try HTMLReport.store(ResultStore(path: db, access: .readOnly), examples: examples) } catch {
            throw CommandFailure(.invalidInput, error.description)
        }
        let path = (out as NSString).appendingPathComponent("index.html")
        do { try FileSystem.makeDirectories(out) } catch {
            throw CommandFailure(.invalidInput, "\(FileName.display(out)): cannot create: \(error.reason)")
        }
        try OutputFile.writeOrExit(html, to: path, inputs: [db])
        try print(path)
    }
}
