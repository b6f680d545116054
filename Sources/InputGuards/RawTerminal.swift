import CProcess
import Glibc

/// A terminal in raw mode for single key presses (POSIX.1-2017 `termios`, §11 "General Terminal
/// Interface"): no line editing, no echo, no signals from keys (Ctrl-C arrives as byte 3), reads
/// that return at once. ``restore()`` (or deinit) puts back the settings found, and so does a
/// signal that ends or stops the process.
public final class RawTerminal {
    public let descriptor: Int32
    private var saved = termios()
    private var restored = false

    /// Switches `descriptor` to raw input; fails, naming it, when it is not a terminal.
    ///
    /// The corresponding C functions are `isatty`, `tcgetattr` and `tcsetattr`.
    public init(descriptor: Int32 = STDIN_FILENO, name: String = "standard input") throws(FileSystem.Failure) {
        self.descriptor = descriptor
        guard isatty(descriptor) == 1 else { throw FileSystem.Failure(operation: "isatty", path: name, code: ENOTTY) }
        guard tcgetattr(descriptor, &saved) == 0 else { throw FileSystem.Failure(operation: "tcgetattr", path: name, code: errno) }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { throw FileSystem.Failure(operation: "tcsetattr", path: name, code: errno) }
        // SIGINT, SIGTERM or SIGHUP put the settings back before the process ends; SIGTSTP puts
        // them back while it is stopped and SIGCONT switches to raw mode again (CProcess).
        withUnsafeBytes(of: saved) { found in
            withUnsafeBytes(of: raw) { atk_terminal_register(descriptor, found.baseAddress, $0.baseAddress, UInt(MemoryLayout<termios>.size)) }
        }
    }

    deinit { restore() }

    /// Puts back the settings found (once).
    public func restore() {
        guard !restored else { return }
        restored = true
        atk_terminal_unregister()
        tcsetattr(descriptor, TCSANOW, &saved)
    }

    /// The next key pressed within `milliseconds` (0: only one already waiting), nil if none; a
    /// closed terminal reads as end of input (byte 4, Ctrl-D).
    ///
    /// The corresponding C functions are `poll` and `read`.
    public func key(withinMilliseconds milliseconds: Int32) -> UInt8? {
        guard let ready = try? FileSystem.poll(descriptor, path: "terminal", milliseconds: max(0, milliseconds)) else { return 4 }
        guard ready.readable || ready.hangUp || ready.error else { return nil }
        var byte: UInt8 = 0
        let count = read(descriptor, &byte, 1)
        if count == 1 { return byte }
        if count == 0 || (errno != EAGAIN && errno != EINTR) { return 4 }
        return nil
    }
}
