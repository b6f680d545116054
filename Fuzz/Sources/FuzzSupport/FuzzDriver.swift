import Glibc

/// libFuzzer's entry for programs that keep their own `main` (LLVM's LibFuzzer.rst, "Using
/// libFuzzer as a library"): SwiftPM links every executable with its module's entry point as
/// `main`, so each target calls the driver from `@main` instead of defining `LLVMFuzzerTestOneInput`.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

public enum FuzzDriver {
    /// A fuzz target: called once per input with its bytes; returns 0 (libFuzzer's convention).
    public typealias Target = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// Runs libFuzzer with the process's arguments (corpus folders, `-max_total_time=`, …).
    public static func run(_ target: Target) -> Never {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv, target)
        exit(status)
    }
}

/// libFuzzer's own `main` calls this; it is never the entry point here. A debug build links each
/// executable's entry point as `main` by `--defsym` (SwiftPM), after the linker has taken
/// libFuzzer's `main` from its archive, which needs the symbol to exist; `FuzzDriver/run(_:)` is
/// what runs.
@_cdecl("LLVMFuzzerTestOneInput")
public func unusedTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fatalError("libFuzzer's main ran instead of the target's FuzzDriver.run")
}
