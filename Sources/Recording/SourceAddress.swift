/// Where a recorder's samples come from, parsed once from its text (`record --source`, a step
/// configuration's `"source"`, `hearing-test --device`, `tone --play`).
public enum SourceAddress: Sendable, Hashable, CustomStringConvertible {
    /// The deterministic simulators (``SimulatorSettings``).
    case simulate
    /// Lines or a WAV stream on standard input.
    case stdin
    /// The first sender on a TCP port: `tcp:PORT` or `tcp:HOST:PORT` (``SocketListener``).
    case tcp(String)
    /// The first sender on a Unix socket.
    case unix(path: String)
    /// The items of a recording, in their order.
    case replay(path: String)
    /// An ALSA PCM (``AlsaCapture``, ``AlsaPCM``).
    case alsa(device: String)
    /// A Linux IIO device (``IIOSource``).
    case iio(device: String)
    /// A Bluetooth LE heart-rate strap through BlueZ (``BLEHeartRateSource``).
    case ble(address: String)

    /// Every form, for messages.
    public static let forms = "simulate, stdin, tcp:PORT, unix:PATH, replay:FILE, alsa:DEVICE, iio:DEVICE or ble:ADDRESS"

    /// The address `text` names; nil when it is none of the forms (a prefix with nothing after it
    /// names nothing).
    public init?(_ text: String) {
        switch text {
        case "simulate": self = .simulate
        case "stdin": self = .stdin
        default:
            guard let colon = text.firstIndex(of: ":") else { return nil }
            let rest = String(text[text.index(after: colon)...])
            guard !rest.isEmpty else { return nil }
            switch text[..<colon] {
            case "tcp": self = .tcp(rest)
            case "unix": self = .unix(path: rest)
            case "replay": self = .replay(path: rest)
            case "alsa": self = .alsa(device: rest)
            case "iio": self = .iio(device: rest)
            case "ble": self = .ble(address: rest)
            default: return nil
            }
        }
    }

    /// The text it was parsed from.
    public var description: String {
        switch self {
        case .simulate: "simulate"
        case .stdin: "stdin"
        case .tcp(let rest): "tcp:" + rest
        case .unix(let path): "unix:" + path
        case .replay(let path): "replay:" + path
        case .alsa(let device): "alsa:" + device
        case .iio(let device): "iio:" + device
        case .ble(let address): "ble:" + address
        }
    }

    /// The ALSA device an `alsa:DEVICE` address names; nil for every other form.
    public var alsaDevice: String? {
        if case .alsa(let device) = self { device } else { nil }
    }

    /// stdin or a socket: a live line (or WAV) stream.
    public var isLive: Bool {
        switch self {
        case .stdin, .tcp, .unix: true
        default: false
        }
    }

    /// A device: ALSA, IIO or BlueZ.
    public var isDevice: Bool {
        switch self {
        case .alsa, .iio, .ble: true
        default: false
        }
    }
}
