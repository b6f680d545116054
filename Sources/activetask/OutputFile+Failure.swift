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

extension CommandFailure {
    /// Runs a generator's writing (`generate-samples`, `generate-corpus`) with the failures the
    /// command exits with: a refused set as ``OutputFile/Refusal/failure``, a folder that cannot
    /// be made (a file of that name, a name too long) as invalid input (3) naming it, as `unpack`
    /// and `record` say it.
    static func generating(_ body: () throws -> Void) throws {
        do { try body() } catch let refusal as OutputFile.Refusal {
            throw refusal.failure
        } catch let failure as FileSystem.Failure {
            throw CommandFailure(.invalidInput, "\(FileName.display(failure.path)): cannot create: \(failure.reason)")
        }
    }
}
