import Foundation
import Testing

/// A peer a test compares with: a Debian package or the Python peers' virtual environment that
/// `scripts/setup.sh` installs. Under `CI=true` a test that needs a missing peer fails (setup
/// installs it, so its absence is a defect of the run); elsewhere it is skipped with a message.
public struct Peer: Sendable {
    /// What to install, for messages.
    public let name: String
    /// Files that must all exist and be executable (or readable, for headers and Python modules).
    public let files: [String]

    public static var inCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    public var isInstalled: Bool {
        files.allSatisfy { $0.hasSuffix(".h") || $0.hasSuffix(".py") ? FileManager.default.fileExists(atPath: $0) : FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether a test needing the peer runs: always under CI, otherwise when the peer is installed.
    public var runs: Bool { Self.inCI || isInstalled }

    /// Why the test was skipped (outside CI, peer missing).
    public var skipMessage: Comment { "\(name) is not installed (scripts/setup.sh --with-browser installs it; CI requires it): skipped" }

    /// The peer's first file when installed; otherwise nil, with an issue recorded (the test fails).
    public func require() -> String? {
        guard isInstalled else {
            Issue.record("\(name) is missing (\(files.filter { !FileManager.default.fileExists(atPath: $0) }.joined(separator: ", "))): run scripts/setup.sh --with-browser (scripts/test.sh and CI do)")
            return nil
        }
        return files[0]
    }

    /// The Python of the peers' venv (pandas, praat-parselmouth, …): `ATK_PEERS_VENV` (as
    /// scripts/setup.sh reads it; relative to the package root), default `.build/peers-venv`.
    public static let python: Peer = {
        let venv = ProcessInfo.processInfo.environment["ATK_PEERS_VENV"] ?? ".build/peers-venv"
        let folder = venv.hasPrefix("/") ? URL(fileURLWithPath: venv) : SharedData.packageRoot.appendingPathComponent(venv)
        return Peer(name: "the Python peers (\(venv))", files: [folder.appendingPathComponent("bin/python").path])
    }()
    /// Praat through praat-parselmouth, with espeak-ng for the synthetic voices.
    public static let praat = Peer(name: "praat-parselmouth and espeak-ng", files: python.files + ["/usr/bin/espeak-ng"])
    /// libebur128 (built into a small peer tool with gcc).
    public static let ebur128 = Peer(name: "libebur128-dev and gcc", files: ["/usr/include/ebur128.h", "/usr/bin/gcc"])
    /// A private D-Bus daemon and Debian's Python D-Bus bindings with GLib (the BlueZ stand-in).
    public static let dbus = Peer(name: "dbus-daemon, python3-dbus and python3-gi", files: [
        "/usr/bin/dbus-daemon", "/usr/bin/python3", "/usr/lib/python3/dist-packages/dbus/__init__.py",
        "/usr/lib/python3/dist-packages/gi/__init__.py",
    ])
    /// gcc and alsa-lib's plugin headers (the paced ALSA capture plugin of `Tests/Devices`).
    public static let alsaPlugin = Peer(name: "gcc and libasound2-dev", files: ["/usr/bin/gcc", "/usr/include/alsa/pcm_external.h"])
    /// tmux: a terminal whose rendered screen a test reads (capture-pane).
    public static let tmux = Peer(name: "tmux", files: ["/usr/bin/tmux"])
    /// R's Rscript.
    public static let r = Peer(name: "r-base (Rscript)", files: ["/usr/bin/Rscript"])
    /// Debian's headless chromium.
    public static let chromium = Peer(name: "chromium", files: [["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/chromium"])
}

/// A reference script of `Benchmarks/peers/` run once by the peers' Python: its standard output's
/// lines, or its standard error's tail when it fails.
public enum PeerScript {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `python Benchmarks/peers/NAME arguments…`; standard error goes to a file so that neither
    /// pipe can fill while the other is read.
    public static func lines(_ name: String, _ arguments: [String]) -> Result<[Data], Failure> {
        guard let python = Peer.praat.require() else { return .failure(Failure(description: "no peers")) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [SharedData.packageRoot.appendingPathComponent("Benchmarks/peers/\(name)").path] + arguments
        let output = Pipe()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())-\(UUID().uuidString).stderr")
        guard FileManager.default.createFile(atPath: errors.path, contents: nil), let errorHandle = try? FileHandle(forWritingTo: errors) else {
            return .failure(Failure(description: "cannot create \(errors.path)"))
        }
        defer { try? FileManager.default.removeItem(at: errors) }
        process.standardOutput = output
        process.standardError = errorHandle
        do { try process.run() } catch { return .failure(Failure(description: "\(error)")) }
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errorHandle.close()
        guard process.terminationStatus == 0 else {
            let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            return .failure(Failure(description: String(stderr.suffix(2000))))
        }
        return .success(stdout.split(separator: UInt8(ascii: "\n")).map { Data($0) })
    }
}
