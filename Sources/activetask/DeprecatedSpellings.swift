/// Option spellings from before the options took their configuration keys' names
/// (`--threshold` → `--threshold-decibels`): each is still accepted, hidden from `--help`, with
/// a one-line note on standard error, until version 0.3.0 (docs/cli.md, "Exit status, errors and renamed options"). They are
/// rewritten to today's spelling before the arguments are parsed, so an old script gets exactly
/// what the new spelling gives.
enum DeprecatedSpellings {
    struct Renaming {
        /// The subcommand path it belongs to (`["score", "spl"]`).
        var command: [String]
        var old: String
        /// Today's spelling.
        var new: String
        /// For an option that became a flag: the old value → today's flag.
        var values: [String: String] = [:]
    }

    static let renamings: [Renaming] = [
        Renaming(command: ["score", "spl"], old: "--calibration-offset", new: "--calibration-offset-decibels"),
        Renaming(command: ["score", "spl"], old: "--threshold", new: "--threshold-decibels"),
        Renaming(command: ["score", "spl"], old: "--interval", new: "--interval-seconds"),
        Renaming(command: ["score", "spl"], old: "--required", new: "--required-intervals"),
        Renaming(command: ["score", "voice"], old: "--calibration-offset", new: "--calibration-offset-decibels"),
        Renaming(command: ["score", "voice"], old: "--pitch-floor", new: "--pitch-floor-hz"),
        Renaming(command: ["score", "voice"], old: "--pitch-ceiling", new: "--pitch-ceiling-hz"),
        Renaming(command: ["score", "voice"], old: "--max-voice-samples", new: "--maximum-samples"),
        Renaming(command: ["score", "gait"], old: "--csv-layout", new: "--oxford", values: ["oxford": "--oxford", "auto": "--no-oxford"]),
    ]

    /// `arguments` with every old spelling of their subcommand replaced (up to a `--`), and the
    /// notes to print. A value the old option did not take is left for the parser to refuse.
    static func rewrite(_ arguments: [String]) -> (arguments: [String], notes: [String]) {
        let applicable = renamings.filter { arguments.starts(with: $0.command) }
        guard !applicable.isEmpty else { return (arguments, []) }
        var result: [String] = []
        var notes: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                result += arguments[index...]
                break
            }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            guard let renaming = applicable.first(where: { $0.old == name }) else {
                result.append(argument)
                index += 1
                continue
            }
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                value = String(argument[argument.index(after: equals)...])
            } else if index + 1 < arguments.count {
                index += 1
                value = arguments[index]
            }
            if renaming.values.isEmpty {
                result.append(renaming.new)
                if let value { result.append(value) }
                notes.append("\(renaming.old) is deprecated and goes in version 0.3.0; use \(renaming.new)")
            } else if let value, let flag = renaming.values[value] {
                result.append(flag)
                notes.append("\(renaming.old) \(value) is deprecated and goes in version 0.3.0; use \(flag)")
            } else {
                result.append(argument.contains("=") ? argument : renaming.old)
                if !argument.contains("="), let value { result.append(value) }
            }
            index += 1
        }
        return (result, notes)
    }
}
