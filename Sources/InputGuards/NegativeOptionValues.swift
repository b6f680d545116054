/// A negative number given as an option's separate value (`--threshold-decibels -10`,
/// `--shard -1/2`): ArgumentParser takes any argument that begins with "-" for an option name,
/// so such a value would be refused as missing ("Missing value for '--shard <shard>'") before
/// the option's own check could say what is wrong with it. No option is spelled like a number,
/// so the pair is joined as `--name=value` before the parse: the option's check then names the
/// value (`--shard must be i/n with 0 ≤ i < n, got -1/2`).
public enum NegativeOptionValues {
    /// `arguments` with every long option (`--name`, no `=`) that is followed by a negative
    /// number — "-" and then a digit, a point and a digit, or inf/infinity/nan in any case —
    /// joined with it, up to a `--`.
    public static func joined(_ arguments: [String]) -> [String] {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        var result: [String] = []
        result.reserveCapacity(arguments.count)
        var index = 0
        while index < end {
            let argument = arguments[index]
            let joins = argument.hasPrefix("--") && argument.count > 2 && !argument.contains("=") && index + 1 < end && isNegativeNumber(arguments[index + 1])
            result.append(joins ? argument + "=" + arguments[index + 1] : argument)
            index += joins ? 2 : 1
        }
        return result + arguments[end...]
    }

    /// Whether `text` reads as a negative number: "-" then a digit, a point and a digit, or
    /// inf, infinity or nan in any case (what the options' number parsing accepts).
    static func isNegativeNumber(_ text: String) -> Bool {
        guard text.hasPrefix("-") else { return false }
        let rest = text.dropFirst()
        if let first = rest.first, first.isASCII, first.isNumber { return true }
        if rest.hasPrefix("."), let second = rest.dropFirst().first, second.isASCII, second.isNumber { return true }
        return ["inf", "infinity", "nan"].contains(rest.lowercased())
    }
}
