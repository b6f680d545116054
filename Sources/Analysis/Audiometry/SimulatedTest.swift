import InputGuards
import SensorData
import SignalProcessing

extension AudiometrySimulation {
    /// Clock of a simulated test, s. The defaults are this toolkit's choices, not ResearchKit's:
    /// pre-stimulus delay uniform in `preStimulusDelay`, a 1-s tone, 1 s after the tone before a
    /// miss times out, a 0.4-s reaction time and 0.5 s between a tap and the next presentation.
    public struct Timing: Sendable {
        public var preStimulusDelay: ClosedRange<Double> = 1...3
        public var toneSeconds = 1.0
        public var postStimulusDelaySeconds = 1.0
        public var reactionSeconds = 0.4
        public var gapAfterTapSeconds = 0.5

        public init() {}
    }

    /// A whole dB HL test as ResearchKit uploads it (`ORKdBHLToneAudiometryResult`), run by
    /// `procedure` against a virtual listener whose true thresholds are `truth` (no response =
    /// never heard but for false alarms). Per ear (right, channel 1, then left, channel 0) the
    /// frequencies run 1 kHz, the higher ones ascending, 1 kHz again, then the lower ones
    /// descending (ISO 8253-1 order). Clipped presentations are not played and leave no unit.
    public static func test(
        truth: Audiogram, procedure: Procedure, listener: VirtualListener, seed: UInt64 = 1, timing: Timing = Timing(),
        headphone: String? = nil, outputVolume: Double? = nil, ashaCeiling: Double = 100
    ) -> DBHLToneAudiometryResult {
        var random = SplitMix64(seed: seed)
        var clock = 0.0
        var samples: [DBHLToneAudiometryResult.FrequencySample] = []
        for ear in [Audiogram.Ear.right, .left] {
            let thresholds = truth.thresholds[ear] ?? [:]
            let frequencies = thresholds.keys.sorted()
            let higher = frequencies.filter { $0 > 1000 }, lower = frequencies.filter { $0 < 1000 }.reversed()
            let order = frequencies.contains(1000) ? [1000] + higher + [1000] + lower : higher + lower
            for f in order {
                let trueThreshold = (thresholds[f] ?? nil) ?? 1000
                var engine = procedure.engine(ashaCeiling: ashaCeiling)
                engine.run { level in
                    random.unit() < listener.probabilityOfYes(level: level, threshold: trueThreshold) ? .heard : .missed
                }
                var units: [DBHLToneAudiometryResult.Unit] = []
                for presentation in engine.presentations where presentation.response != .clipped {
                    let start = clock
                    let pre = timing.preStimulusDelay.lowerBound
                        + random.unit() * (timing.preStimulusDelay.upperBound - timing.preStimulusDelay.lowerBound)
                    let onset = start + pre
                    let heard = presentation.response == .heard
                    let tap = heard ? onset + timing.reactionSeconds : 0
                    let timeout = heard ? 0 : onset + timing.toneSeconds + timing.postStimulusDelaySeconds
                    units.append(.init(dBHLValue: presentation.level, startOfUnitTimeStamp: start, preStimulusDelay: pre,
                                       userTapTimeStamp: tap, timeoutTimeStamp: timeout))
                    clock = heard ? tap + timing.gapAfterTapSeconds : timeout
                }
                samples.append(.init(frequencyHz: f, channel: ear.rawValue, calculatedThresholdDecibelsHL: engine.threshold, units: units))
            }
        }
        return DBHLToneAudiometryResult(
            identifier: "dBHLToneAudiometryStep", outputVolume: outputVolume, tonePlaybackDurationSeconds: timing.toneSeconds,
            postStimulusDelaySeconds: timing.postStimulusDelaySeconds, headphoneType: headphone, samples: samples)
    }
}
