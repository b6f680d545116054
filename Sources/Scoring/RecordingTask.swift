/// What an audio recording was made for, as its task says: the words of a ResearchKit step or
/// file-result identifier (`environmentSPLMeter`, `audio`), an AppCore upload's `item`
/// ("Voice Activity"), or the upload's file name (`audio_countdown.m4a`). Consulted before the
/// batch configuration's default (`[batch] audio`), which applies only when no task says.
public enum RecordingTask: String, Sendable, Hashable, Codable, CaseIterable {
    /// Sustained phonation: the voice analyzer.
    case voice
    /// A room-noise check (the environment SPL meter step): the spl analyzer.
    case environmentNoise
    /// mPower's countdown before the phonation: not a voice sample, not scored.
    case countdown

    /// The task the first of `names` that says one names (names in order of authority: the step
    /// or file-result identifier first, the file name last), or nil when none does.
    ///
    /// Words, case-insensitive: `countdown` → countdown; `spl`, `noise`, `environment`,
    /// `ambient` → environment noise; `voice`, `phonation`, `aaah`, `sustained`, `audio` → voice.
    public static func named(_ names: [String?]) -> RecordingTask? {
        for case let name? in names {
            let words = name.lowercased()
            if words.includes("countdown") { return .countdown }
            if ["spl", "noise", "environment", "ambient"].contains(where: words.includes) { return .environmentNoise }
            if ["voice", "phonation", "aaah", "sustained", "audio"].contains(where: words.includes) { return .voice }
        }
        return nil
    }

    /// The analyzers the task calls for.
    public var analyzers: [Analyzer] {
        switch self {
        case .voice: [.voice]
        case .environmentNoise: [.spl]
        case .countdown: []
        }
    }
}
