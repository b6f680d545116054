import InputGuards

/// Option spellings from before the options took their configuration keys' names
/// (`--threshold` → `--threshold-decibels`): each is still accepted, hidden from `--help`, with
/// a one-line note on standard error, until version 0.3.0 (docs/cli.md, "Exit status, errors and renamed options"). They are
/// rewritten to today's spelling before the arguments are parsed, so an old script gets exactly
/// what the new spelling gives.
enum DeprecatedSpellings {
    /// `arguments` with every old spelling replaced, and the notes to print.
    static func rewrite(_ arguments: [String]) -> (arguments: [String], notes: [String]) {
        ArgumentRenaming.rewrite(arguments, renamings, removedIn: "0.3.0")
    }

    static let renamings: [ArgumentRenaming] = [
        ArgumentRenaming(command: ["score", "spl"], old: "--calibration-offset", new: "--calibration-offset-decibels"),
        ArgumentRenaming(command: ["score", "spl"], old: "--threshold", new: "--threshold-decibels"),
        ArgumentRenaming(command: ["score", "spl"], old: "--interval", new: "--interval-seconds"),
        ArgumentRenaming(command: ["score", "spl"], old: "--required", new: "--required-intervals"),
        ArgumentRenaming(command: ["score", "voice"], old: "--calibration-offset", new: "--calibration-offset-decibels"),
        ArgumentRenaming(command: ["score", "voice"], old: "--pitch-floor", new: "--pitch-floor-hz"),
        ArgumentRenaming(command: ["score", "voice"], old: "--pitch-ceiling", new: "--pitch-ceiling-hz"),
        ArgumentRenaming(command: ["score", "voice"], old: "--max-voice-samples", new: "--maximum-samples"),
        ArgumentRenaming(command: ["score", "gait"], old: "--csv-layout", new: "--oxford", values: ["oxford": "--oxford", "auto": "--no-oxford"]),
    ]
}
