import Glibc
import InputGuards
import Testing

/// Data printed to a terminal (docs/reliability.md §6): nothing in it may act on the terminal.
@Suite struct TerminalTextTests {
    @Test("ESC, OSC, BEL, C1 controls, DEL and bidirectional overrides are shown as escapes; text, accents and emoji are unchanged")
    func escapes() {
        #expect(TerminalText.escaped("\u{1B}]0;owned\u{07}title") == "\\x1B]0;owned\\x07title")
        #expect(TerminalText.escaped("\u{1B}[2J\u{9B}31m\u{7F}") == "\\x1B[2J\\x9B31m\\x7F")
        #expect(TerminalText.escaped("a\u{202E}gpj.exe\u{2066}") == "a\\u{202E}gpj.exe\\u{2066}")
        #expect(TerminalText.escaped("two\nlines\ttab\r") == "two\\x0Alines\\x09tab\\x0D")
        #expect(TerminalText.escaped("two\nlines\ttab\r", keepingLineBreaks: true) == "two\nlines\ttab\\x0D")
        #expect(TerminalText.escaped("Ménière 🎧 AirPods Pro \\x1B") == "Ménière 🎧 AirPods Pro \\x1B")
        // Every scalar below U+0100 that acts is escaped, every other is kept.
        for value in 0..<0x100 {
            let scalar = Unicode.Scalar(UInt8(value))
            let escaped = TerminalText.escaped(String(Character(scalar)))
            #expect((escaped != String(Character(scalar))) == (value < 0x20 || (0x7F...0x9F).contains(value)), "U+\(value)")
        }
    }

    @Test("a path holding a NUL names no file: the shorter path before it is never opened")
    func pathWithNUL() {
        var info = stat()
        #expect(FileName.withCString("/etc/hostname") { stat($0, &info) } == 0)
        let result = FileName.withCString("/etc/hostname\u{0}.bak") { stat($0, &info) }
        #expect(result == -1 && errno == ENOENT)
        #expect(FileName.display("/etc/hostname\u{0}.bak") == "/etc/hostname\\x00.bak")
    }
}

/// Errors of the machine told from facts about a file (docs/reliability.md §6): only the system's own text
/// counts, not a file's name or a quoted value that spells it.
@Suite struct ResourceExhaustionTests {
    @Test("the system's text after a colon names a resource error; the same words in a path or a quoted value do not")
    func named() {
        #expect(ResourceExhaustion.named(in: "/d/a.json: cannot be read: Too many open files") == "Too many open files")
        #expect(ResourceExhaustion.named(in: "/d/a.wav: cannot open: System error : No space left on device.") == "No space left on device")
        #expect(ResourceExhaustion.named(in: "/d/a.json: pwrite failed: File too large") == "File too large")
        let path = "/d/x: Too many open files.json"
        #expect(ResourceExhaustion.named(in: "\(path): cannot be read: Permission denied", paths: [path]) == nil)
        #expect(ResourceExhaustion.named(in: #"/d/a.json: invalid value: ": Cannot allocate memory" is not a date at items[0]"#) == nil)
        #expect(ResourceExhaustion.named(in: #"/d/a.json: invalid value: "\": Input/output error" at x"#) == nil)
        #expect(ResourceExhaustion.named(in: "/d/a.json: truncated JSON") == nil)
    }

    @Test("an error of one file's device (EIO, ESTALE) is that file's, not the machine's: it does not stop a batch")
    func deviceErrorsBelongToTheFile() {
        for code in [EIO, ESTALE, EACCES, ENXIO, EISDIR] {
            #expect(ResourceExhaustion.named(in: "/d/a.json: cannot be read: \(String(cString: strerror(code)))") == nil, "errno \(code)")
        }
        #expect(ResourceExhaustion.deviceFault(in: "/d/a.json: cannot be read: Input/output error") == "Input/output error")
        #expect(ResourceExhaustion.deviceFault(in: "/d/a.json: cannot be read: Permission denied") == nil)
    }
}
