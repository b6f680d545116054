import AudioIO

extension RecorderPlan {
    /// What a device source needs beyond its recorder's configuration.
    public struct DeviceOptions: Sendable {
        /// `iio:` sources: the prefix under which `sys/bus/iio/devices` and `dev` are looked up.
        public var iioRoot: String
        /// `iio:` and `ble:` sources: the bound of the queue between the reader thread and the writer, items.
        public var capacityItems: Int
        /// `ble:` sources: how long a dropped link is reconnected before the recording ends with an error, s.
        public var reconnectSeconds: Double
        /// How long opening the device may take, s (a `ble:` source's connecting adds
        /// `reconnectSeconds`); a signal ends the wait at once (``DeviceWait``).
        public var openTimeoutSeconds: Double
        /// The command's signal flag.
        public var stop: StopSignal

        public init(iioRoot: String = "/", capacityItems: Int = 262_144, reconnectSeconds: Double = 30,
                    openTimeoutSeconds: Double = 10, stop: StopSignal = StopSignal()) {
            self.iioRoot = iioRoot
            self.capacityItems = capacityItems
            self.reconnectSeconds = reconnectSeconds
            self.openTimeoutSeconds = openTimeoutSeconds
            self.stop = stop
        }

        /// The bound of opening `source`.
        func openWait(_ source: SourceAddress) -> DeviceWait {
            if case .ble = source { return DeviceWait(seconds: openTimeoutSeconds + reconnectSeconds, stop: stop) }
            return DeviceWait(seconds: openTimeoutSeconds, stop: stop)
        }
    }

    /// The plan of a device source for `configuration`'s kind: `alsa:DEVICE` (audio, ``AlsaCapture``),
    /// `iio:DEVICE` (accelerometer or deviceMotion, ``IIOSource``, which refuses other sensor kinds; the configuration takes the device's
    /// sampling frequency) or `ble:ADDRESS` (heartRate, ``BLEHeartRateSource``). The device is opened
    /// here, before any file exists, so a missing or busy one leaves nothing behind, within
    /// ``DeviceOptions/openWait(_:)``. Nil when `source` names no device source this kind can record.
    public static func device(_ source: SourceAddress, _ configuration: RecorderConfiguration,
                              _ options: DeviceOptions) throws(RecordingError) -> RecorderPlan? {
        let name = source.description
        switch (configuration.kind, source) {
        case (.audio(let rate, let channels, let encoding), .alsa(let device)):
            let capture = try options.openWait(source).run("open", source: name) { () throws(RecordingError) in
                try AlsaCapture(device: device, encoding: encoding, sampleRateHz: rate, channels: channels)
            }
            return RecorderPlan(configuration, source: .alsa(capture))
        case (.sensor(let kind), .iio(let device)):
            let iio = try options.openWait(source).run("open", source: name) { () throws(RecordingError) in
                try IIOSource(spec: device, root: options.iioRoot, kind: kind, frequencyHz: configuration.frequencyHz,
                              capacityItems: options.capacityItems)
            }
            return RecorderPlan(iio.configuration(configuration), source: .iio(iio))
        case (.sensor(.healthQuantity), .ble(let address)):
            let strap = try options.openWait(source).run("answer", source: name) { () throws(RecordingError) in
                try BLEHeartRateSource(address: address, capacityItems: options.capacityItems, reconnectSeconds: options.reconnectSeconds)
            }
            return RecorderPlan(configuration, source: .ble(strap))
        default:
            return nil
        }
    }
}
