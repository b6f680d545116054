/// An option's old spelling that is still accepted: rewritten to today's spelling before the
/// arguments are parsed, so an old script gets exactly what the new spelling gives, with a note.
public struct ArgumentRenaming: Sendable {
    /// The subcommand path it belongs to (`["score", "spl"]`).
    public var command: [String]
    /// The old spelling (`--threshold`).
    public var old: String
    /// Today's spelling.
    public var new: String
    /// For an option that became a flag: the old value → today's flag.
    public var values: [String: String]

    public init(command: [String], old: String, new: String, values: [String: String] = [:]) {
        (self.command, self.old, self.new, self.values) = (command, old, new, values)
    }

    /// `arguments` with every old spelling of their subcommand replaced (up to a `--`), and the
    /// notes to print (each saying the spelling goes in `version`). A value the old option did not take is left for the parser to refuse.
    public static func rewrite(_ arguments: [String], _ renamings: [ArgumentRenaming], removedIn version: String) -> (arguments: [String], notes: [String]) {
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
                notes.append("\(renaming.old) is deprecated and goes in version \(version); use \(renaming.new)")
            } else if let value, let flag = renaming.values[value] {
                result.append(flag)
                notes.append("\(renaming.old) \(value) is deprecated and goes in version \(version); use \(flag)")
            } else {
                result.append(argument.contains("=") ? argument : renaming.old)
                if !argument.contains("="), let value { result.append(value) }
            }
            index += 1
        }
        return (result, notes)
    }
}
