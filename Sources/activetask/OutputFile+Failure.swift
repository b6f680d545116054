import InputGuards

extension OutputFile.Refusal {
    /// The exit status of the contract: an output that is an input is a bad invocation (2), a
    /// failed write invalid input (3).
    var failure: CommandFailure { CommandFailure(isBadInvocation ? .badInvocation : .invalidInput, description) }
}

extension OutputFile {
    /// ``init(_:inputs:)`` with the failure the command exits with.
    static func openOrExit(_ path: String, inputs: [String]) throws(CommandFailure) -> OutputFile {
        do { return try OutputFile(path, inputs: inputs) } catch { throw error.failure }
    }

    /// ``write(_:)`` and ``commit(replacing:)`` with the failure the command exits with.
    func writeOrExit(_ text: String) throws(CommandFailure) {
        do {
            try write(text)
            try commit()
        } catch { throw error.failure }
    }

    /// ``write(_:to:inputs:)`` with the failure the command exits with.
    static func writeOrExit(_ text: String, to path: String, inputs: [String]) throws(CommandFailure) {
        do { try write(text, to: path, inputs: inputs) } catch { throw error.failure }
    }
}
