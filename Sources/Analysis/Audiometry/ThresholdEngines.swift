/// What happened to one presentation.
public enum PresentationResponse: Sendable, Hashable {
    /// A tap after tone onset.
    case heard
    /// No tap before the response window closed.
    case missed
    /// A tap before tone onset (a false response).
    case preStimulus
    /// The level could not be produced without clipping; the tone was not played.
    case clipped
}

/// A threshold search for one frequency entry, driven by responses, independent of audio and
/// time: ask `nextLevel`, present it, report the response, until `nextLevel` is nil.
public protocol ThresholdProcedure: Sendable {
    /// Level of the next presentation, dB HL; nil when the entry has ended.
    var nextLevel: Double? { get }
    mutating func respond(_ response: PresentationResponse)
    /// The threshold, dB HL; nil for none (ResearchKit writes DBL_MAX).
    var threshold: Double? { get }
    /// Every presentation so far, in order (counted ones only).
    var presentations: [(level: Double, response: PresentationResponse)] { get }
}

/// ResearchKit's dB HL procedure, literally (docs/audiometry.md §3; ResearchKit `ORKAudiometry.m` at
/// HEAD daba8c9): initial descent 10 down, big steps +20/+10/+10 for misses before any genuine
/// response then +5, a floor rule at −10 dB HL, the per-level tally with provisional hits,
/// acceptance at ≥ 50 % of ≥ 2 presentations with the level below at ≤ 50 % (or at the floor),
/// the 2-presentation rule, the floor-hit route, a cap of 20 presentations, and ResearchKit's
/// handling of pre-stimulus taps and clipping.
///
/// Differences from ResearchKit (docs/audiometry.md §3.7): state resets for every entry (ResearchKit
/// only when the frequency changes), and the tally is keyed by the exact level (ResearchKit: the
/// level as a 32-bit float) — identical for the default list and every 0.5-dB grid.
public struct ResearchKitThresholdProcedure: ThresholdProcedure {
    public struct Parameters: Sendable, Hashable {
        /// The first level presented, dB HL.
        public var initialLevel = 30.0
        /// Step down after a response, dB.
        public var stepDown = 10.0
        /// Step up after a miss once the big steps are over, dB.
        public var stepUp = 5.0
        /// Steps up after the first, second and third miss before any response, dB.
        public var bigSteps: [Double] = [20, 10, 10]
        /// The lowest level, dB HL.
        public var floor = -10.0
        /// Presentations per entry before it ends without a threshold.
        public var maximumPresentations = 20
        public init() {}
    }

    /// The procedure's settings.
    public let parameters: Parameters
    private var level: Double
    private var descending = true
    private var responded = false
    private var bigStepsActive = true
    private var bigStepIndex = 0
    private var floorHits = 0
    private var tally: [Double: (heard: Int, count: Int)] = [:]
    private var finished = false
    /// The accepted threshold, dB HL (nil: none yet, or none at the end).
    public private(set) var threshold: Double?
    /// Every presentation in order: its level, dB HL, and the response.
    public private(set) var presentations: [(level: Double, response: PresentationResponse)] = []

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
        level = parameters.initialLevel
        present()
    }

    public var nextLevel: Double? { finished ? nil : level }

    /// P: start a presentation at `level`, or end the entry at the cap.
    private mutating func present() {
        if presentations.count >= parameters.maximumPresentations {
            finished = true
            return
        }
        if !descending {
            let entry = tally[level] ?? (0, 0)
            tally[level] = (entry.heard + 1, entry.count + 1)  // provisionally heard
        }
    }

    public mutating func respond(_ response: PresentationResponse) {
        guard !finished else { return }
        presentations.append((level, response))
        let p = parameters
        switch response {
        case .missed:  // R1
            if descending && responded {
                descending = false
                tally[level] = (0, 1)
            } else if let entry = tally[level] {
                tally[level] = (entry.heard - 1, entry.count)
            }
            if bigStepsActive && bigStepIndex < p.bigSteps.count {
                level += p.bigSteps[bigStepIndex]
                bigStepIndex += 1
            } else {
                bigStepsActive = false
                level += p.stepUp
            }
        case .heard:  // R2
            responded = true
            if accept(level) {
                threshold = level
                finished = true
                return
            }
            bigStepsActive = false
            if level - p.stepDown > p.floor {
                level -= p.stepDown
            } else {
                level = p.floor
                if descending { floorHits += 1 }
            }
        case .preStimulus:  // R3: same level again, counted as presented, not heard
            responded = true
            if let entry = tally[level] { tally[level] = (entry.heard - 1, entry.count) }
        case .clipped:  // R4
            guard bigStepsActive else {
                finished = true
                return
            }
            bigStepsActive = false
            level = level - p.bigSteps[max(bigStepIndex - 1, 0)] + p.stepUp
        }
        present()
    }

    /// docs/audiometry.md §3.5, evaluated on a genuine response at `l` (the tally already holds it).
    private func accept(_ l: Double) -> Bool {
        if let entry = tally[l], Double(entry.heard) / Double(entry.count) >= 0.5, entry.count >= 2 {
            let below = tally[l - parameters.stepUp]
            let belowQualifies = below.map { Double($0.heard) / Double($0.count) <= 0.5 && $0.count >= 2 } ?? false
            guard belowQualifies || l == parameters.floor else { return false }
            return entry.count == 2 ? entry.heard == 2 : true
        }
        return floorHits > 2
    }
}

/// The ASHA-style modified Hughson–Westlake procedure (ASHA 2005 "Guidelines for Manual
/// Pure-Tone Threshold Audiometry"; ANSI S3.21-2004; docs/audiometry.md §5): familiarisation at 30,
/// then 50 and +10 per miss; 10 down after a hit, 5 up after a miss; threshold at the lowest
/// level with ≥ 2 ascending hits and ≥ 50 % of ascending presentations; a second hit at the floor
/// ends at the floor ("≤ −10"); a miss at the ceiling is no response; 40 presentations at most.
public struct ASHAThresholdProcedure: ThresholdProcedure {
    public struct Parameters: Sendable, Hashable {
        /// The first level presented, dB HL.
        public var startLevel = 30.0
        /// The level after a first miss in familiarisation, dB HL.
        public var familiarisationLevel = 50.0
        /// Familiarisation's step up after each further miss, dB.
        public var familiarisationStep = 10.0
        /// Step down after a hit, dB.
        public var stepDown = 10.0
        /// Step up after a miss, dB.
        public var stepUp = 5.0
        /// The lowest level, dB HL.
        public var floor = -10.0
        /// Highest level the output can produce (without clipping), dB HL.
        public var ceiling = 100.0
        /// Presentations before the entry ends as not determined.
        public var maximumPresentations = 40
        public init() {}
    }

    /// How the entry ended.
    public enum Outcome: Sendable, Hashable {
        case threshold, atFloor, noResponse, notDetermined
    }

    /// The procedure's settings.
    public let parameters: Parameters
    private var level: Double
    private var familiarising = true
    private var lastMissed = false
    private var ascending: [Double: (heard: Int, count: Int)] = [:]
    private var floorHits = 0
    private var counted = 0
    /// How the entry ended (nil: not yet).
    public private(set) var outcome: Outcome?
    /// The threshold, dB HL, when the outcome is a threshold or the floor.
    public private(set) var threshold: Double?
    /// Every presentation in order: its level, dB HL, and the response.
    public private(set) var presentations: [(level: Double, response: PresentationResponse)] = []

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
        level = min(parameters.startLevel, parameters.ceiling)
    }

    public var nextLevel: Double? { outcome == nil ? level : nil }

    public mutating func respond(_ response: PresentationResponse) {
        guard outcome == nil else { return }
        presentations.append((level, response))
        let p = parameters
        let heard = response == .heard
        if familiarising {
            if heard {
                familiarising = false
                hit()
            } else if level >= p.ceiling {
                outcome = .noResponse
            } else {
                level = level < p.familiarisationLevel ? min(p.familiarisationLevel, p.ceiling) : min(level + p.familiarisationStep, p.ceiling)
            }
            return
        }
        counted += 1
        if lastMissed {  // an ascending presentation
            let entry = ascending[level] ?? (0, 0)
            ascending[level] = (entry.heard + (heard ? 1 : 0), entry.count + 1)
            if heard, let e = ascending[level], e.heard >= 2, Double(e.heard) / Double(e.count) >= 0.5 {
                threshold = level
                outcome = .threshold
                return
            }
        }
        if heard {
            hit()
        } else {
            if level >= p.ceiling {
                outcome = .noResponse
                return
            }
            lastMissed = true
            level = min(level + p.stepUp, p.ceiling)
        }
        if outcome == nil, counted >= p.maximumPresentations { outcome = .notDetermined }
    }

    private mutating func hit() {
        if level <= parameters.floor {
            floorHits += 1
            if floorHits >= 2 {
                threshold = parameters.floor
                outcome = .atFloor
                return
            }
        }
        lastMissed = false
        level = max(level - parameters.stepDown, parameters.floor)
    }
}

extension ThresholdProcedure {
    /// Runs the procedure against a listener (level → response) until it ends.
    public mutating func run(listener: (Double) -> PresentationResponse) {
        var guardCount = 0
        while let level = nextLevel, guardCount < 1000 {
            respond(listener(level))
            guardCount += 1
        }
    }
}
