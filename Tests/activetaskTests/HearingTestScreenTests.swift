import Foundation
import Glibc
import Testing
import TestSupport

/// `hearing-test` as a person sees it: run in a real terminal (tmux), its rendered screen read
/// with `capture-pane`; the terminal's settings read with `stty` after the program ends by a
/// signal, while it is stopped, and after it continues.
@Suite(.serialized, .enabled(if: Peer.tmux.runs, Peer.tmux.skipMessage)) struct HearingTestScreenTests {
    /// A tmux server of its own, one window running `sh -c` with the hearing test in its terminal.
    final class Screen {
        let socket = "atk-screen-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let setup: HearingTestCommandTests.Setup
        var pidFile: String { setup.folder + "/pid" }
        var sttyFile: String { setup.folder + "/stty" }

        /// `interactive`: an interactive bash with job control (no line editing) runs the test
        /// as a job, as a person's shell does; otherwise `sh -c` runs it and records the terminal
        /// settings after it ends.
        init(interactive: Bool = false) throws {
            setenv("TERM", "xterm", 0)  // tmux's windows are xterms when the run has no terminal type
            setup = try HearingTestCommandTests.Setup()
            let arguments = ["hearing-test", "--headphone", "AIRPODSV1", "--out", setup.folder + "/test", "--device", "alsa:ears", "--seed", "3"]
                + HearingTestCommandTests.fast
            let command = (["exec", "env", "ALSA_CONFIG_PATH=\(setup.environment["ALSA_CONFIG_PATH"]!)", Run.executable.path] + arguments).map(Self.quoted).joined(separator: " ")
            // The inner shell writes its pid and becomes the test; the outer one reports how it
            // ended and the terminal's settings afterwards, and keeps the window open.
            let inner = "echo $$ > \(Self.quoted(pidFile)); \(command)"
            if interactive {
                try tmux(["new-session", "-d", "-x", "100", "-y", "24", "env PS1='$ ' bash --norc --noprofile --noediting -i"])
                try tmux(["send-keys", "-l", "sh -c \(Self.quoted(inner))"])
                try tmux(["send-keys", "Enter"])
            } else {
                let outer = "sh -c \(Self.quoted(inner)); echo EXIT $?; stty -a > \(Self.quoted(sttyFile)); sleep 60"
                try tmux(["new-session", "-d", "-x", "100", "-y", "24", outer])
            }
        }

        deinit {
            _ = try? tmux(["kill-server"])
            try? FileManager.default.removeItem(atPath: setup.folder)
        }

        static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

        @discardableResult
        func tmux(_ arguments: [String]) throws -> String {
            try Self.run([Peer.tmux.require() ?? "/usr/bin/tmux", "-L", socket, "-f", "/dev/null"] + arguments,
                         capture: arguments.first != "new-session" && arguments.first != "kill-server")
        }

        /// Runs a program to its end (posix_spawn, waitpid); its standard output when `capture`.
        /// The server tmux starts keeps the descriptors it inherits, so commands that start or
        /// stop it get /dev/null rather than a pipe that would stay open.
        static func run(_ arguments: [String], capture: Bool = true) throws -> String {
            var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            var pipeEnds: [Int32] = [-1, -1]
            if capture {
                try #require(pipe(&pipeEnds) == 0)
                posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
                posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
            } else {
                posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
            }
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
            var argv = arguments.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            // As a terminal user's shell starts it: every signal at its default and none blocked
            // (a test runner may ignore or block some, and the program keeps an ignored SIGINT ignored).
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var defaults = sigset_t(), none = sigset_t()
            sigemptyset(&defaults)
            sigemptyset(&none)
            for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
            var child: pid_t = 0
            try #require(posix_spawn(&child, arguments[0], &actions, &attributes, &argv, environ) == 0)
            var output = [UInt8]()
            if capture {
                close(pipeEnds[1])
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = read(pipeEnds[0], &buffer, buffer.count)
                    if count <= 0 { break }
                    output += buffer[0..<count]
                }
                close(pipeEnds[0])
            }
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0, errno == EINTR {}
            return String(decoding: output, as: UTF8.self)
        }

        /// The rendered lines of the window.
        func lines() throws -> [String] { try tmux(["capture-pane", "-p"]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

        /// Waits (up to 30 s) until a line holds `text`; the lines then.
        func waitFor(_ text: String) throws -> [String] {
            for _ in 0..<300 {
                let shown = try lines()
                if shown.contains(where: { $0.contains(text) }) { return shown }
                usleep(100_000)
            }
            Issue.record("no line with \"\(text)\" on the screen: \(try lines())")
            return try lines()
        }

        var pid: pid_t { pid_t((try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0 }

        /// The terminal's line discipline as `stty -a` prints it, now (from outside the program).
        func terminalModes() throws -> Set<String> {
            let tty = try tmux(["display-message", "-p", "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
            return Self.modes(try Self.run(["/bin/stty", "-a", "-F", tty]))
        }

        static func modes(_ stty: String) -> Set<String> { Set(stty.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)) }

        /// Whether the terminal's modes come to include `expected` within 10 s (a loaded machine
        /// may take a while to stop, continue or switch a process).
        func modesBecome(_ expected: Set<String>) throws -> Bool {
            for _ in 0..<100 {
                if try terminalModes().isSuperset(of: expected) { return true }
                usleep(100_000)
            }
            return false
        }
    }

    @Test("every line starts at the left edge with no \\x0D; q stops it: the frequency it was in is shown as not finished")
    func screen() throws {
        let screen = try Screen()
        let shown = try screen.waitFor("right ear, 1000 Hz (1 of 12): tone")
        #expect(shown.contains { $0.hasPrefix("Hearing test: right then left ear, 1000, 2000") }, "\(shown)")
        #expect(shown.contains("Press space as soon as you hear a tone, however faint; q stops."), "\(shown)")
        #expect(!shown.joined().contains("\\x0D") && !shown.joined().contains("\\x"), "\(shown)")
        try screen.tmux(["send-keys", "q"])
        let after = try screen.waitFor("EXIT")
        #expect(after.contains("right 1000 Hz: not finished"), "\(after)")
        #expect(after.contains { $0.hasPrefix("wrote /") } && after.joined().contains("hearing-test.json (stopped: incomplete)"), "\(after)")
        #expect(after.contains("EXIT 1"))
        #expect(after.allSatisfy { !$0.contains("\\x") }, "\(after)")
    }

    @Test("SIGTERM, SIGHUP or SIGINT sent to the test: the terminal is back in its line mode (icanon, echo) when it has ended", arguments: [SIGTERM, SIGHUP, SIGINT])
    func signalRestoresTheTerminal(signal: Int32) throws {
        let screen = try Screen()
        _ = try screen.waitFor("right ear, 1000 Hz")
        #expect(try screen.modesBecome(["-icanon", "-echo"]), "raw while the test runs")
        #expect(kill(screen.pid, signal) == 0)
        _ = try screen.waitFor("EXIT")
        usleep(200_000)
        let modes = Screen.modes((try? String(contentsOfFile: screen.sttyFile, encoding: .utf8)) ?? "")
        #expect(modes.isSuperset(of: ["icanon", "echo", "isig"]), "after signal \(signal): \(modes.sorted())")
    }

    @Test("SIGTSTP stops the test with the terminal back in line mode; fg continues it in raw mode (q works at once); a resize keeps the lines at the left edge")
    func stopContinueResize() throws {
        let screen = try Screen(interactive: true)
        _ = try screen.waitFor("right ear, 1000 Hz")
        #expect(try screen.terminalModes().isSuperset(of: ["-icanon", "-echo"]), "raw while the test runs")
        #expect(kill(screen.pid, SIGTSTP) == 0)
        _ = try screen.waitFor("Stopped")
        #expect(try screen.terminalModes().isSuperset(of: ["icanon", "echo"]), "while stopped")
        try screen.tmux(["send-keys", "-l", "fg"])
        try screen.tmux(["send-keys", "Enter"])
        #expect(try screen.modesBecome(["-icanon", "-echo"]), "after fg")
        try screen.tmux(["resize-window", "-x", "70", "-y", "20"])
        usleep(300_000)
        // One key, no Enter: only a terminal in raw mode passes it on.
        try screen.tmux(["send-keys", "q"])
        _ = try screen.waitFor("right 1000 Hz: not finished")
        // The job's status, typed so that the line typed does not itself show "EXIT 1".
        try screen.tmux(["send-keys", "-l", "echo E\"XIT $?\""])
        try screen.tmux(["send-keys", "Enter"])
        let after = try screen.waitFor("EXIT 1")
        #expect(after.contains { $0.hasPrefix("wrote /") }, "\(after)")
    }
}
