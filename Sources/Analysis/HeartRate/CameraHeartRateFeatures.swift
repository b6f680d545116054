import SignalProcessing

/// mhealthtools' `get_heartrate` output under its names (docs/analyses.md §7.5): `red.hr`,
/// `red.confidence`, … (one value per window), `error` and `sampling_rate`.
public struct CameraHeartRateFeatures: Sendable, Hashable, Encodable {
    /// The estimates per channel and window.
    public var estimate: CameraHeartRate

    public init(_ estimate: CameraHeartRate) { self.estimate = estimate }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FeatureName.self)
        for (name, channel) in [("red", estimate.red), ("green", estimate.green), ("blue", estimate.blue)] {
            // Heart rate per window, beats/min; confidence per window (acf), ratio.
            try container.encode(channel?.hr ?? [.nan], forKey: FeatureName("\(name).hr"))
            try container.encode(channel?.confidence ?? [.nan], forKey: FeatureName("\(name).confidence"))
        }
        try container.encode(estimate.error, forKey: FeatureName("error"))
        try container.encode(estimate.samplingRate ?? .nan, forKey: FeatureName("sampling_rate"))
    }
}

/// One heart rate per recording from mhealthtools' windows: the channel whose median confidence
/// over its windows with a heart rate is highest (red when no method gives a confidence), and that channel's
/// medians over the windows with a finite value (docs/analyses.md §7.5).
public struct CameraHeartRateSummary: Sendable, Hashable, Encodable {
    /// Median heart rate over the chosen channel's windows, beats/min.
    public var heartRateBeatsPerMinute: Double?
    /// The chosen channel: red, green or blue.
    public var channel: String?
    /// Median confidence over the chosen channel's windows with a heart rate (acf method), ratio 0…1.
    public var confidence: Double?
    /// Windows per channel, count.
    public var windowCount: Int
    /// Frames per second of the recording (count over first-to-last span), Hz.
    public var frameRateHz: Double?

    public init(_ estimate: CameraHeartRate) {
        func median(_ values: [Double]) -> Double? {
            let finite = values.filter(\.isFinite)
            return finite.isEmpty ? nil : finite.statistic(Statistics.median)
        }
        // A window's confidence counts only with its heart rate: below about 1.7 frames a second
        // the acf method's best lag is 0, a rate of +∞ with a confidence of 1.
        func confidences(_ channel: CameraHeartRate.Channel) -> [Double] {
            zip(channel.hr, channel.confidence).filter { $0.0.isFinite }.map(\.1)
        }
        let channels = [("red", estimate.red), ("green", estimate.green), ("blue", estimate.blue)].compactMap { name, channel in channel.map { (name, $0) } }
        var chosen = channels.first
        for candidate in channels.dropFirst() {
            if let c = median(confidences(candidate.1)), c > (chosen.flatMap { median(confidences($0.1)) } ?? -.infinity) { chosen = candidate }
        }
        heartRateBeatsPerMinute = chosen.flatMap { median($0.1.hr) }
        channel = chosen?.0
        confidence = chosen.flatMap { median(confidences($0.1)) }
        windowCount = chosen?.1.hr.count ?? 0
        frameRateHz = estimate.samplingRate
    }
}
