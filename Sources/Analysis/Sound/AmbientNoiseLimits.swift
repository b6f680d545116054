/// The maximum permissible ambient sound pressure levels of pure-tone air-conduction audiometry,
/// ISO 8253-1:2010 clause 11: Table 2 (one-third-octave bands, supra-aural earphones, hearing
/// levels down to 0 dB with a threshold shift of at most 2 dB, by the lowest test frequency) and
/// Table 3 (the average attenuation of the earphones, whose excess over the supra-aural column an
/// insert or circumaural earphone adds to the limits, 11.1). To test down to a hearing level L,
/// the limits move by L (11.1): −10 dB HL makes them 10 dB stricter.
public enum AmbientNoiseLimits {
    /// The one-third-octave bands of Tables 2 and 3 (nominal mid-band frequencies), Hz.
    public static let bandsHz: [Double] = [31.5, 40, 50, 63, 80, 100, 125, 160, 200, 250, 315, 400, 500, 630, 800, 1000,
                                           1250, 1600, 2000, 2500, 3150, 4000, 5000, 6300, 8000]
    /// Table 2, L_S,max dB re 20 µPa, by the lowest test frequency (125, 250, 500 Hz).
    static let table2: [Double: [Double]] = [
        125: [56, 52, 47, 42, 38, 33, 28, 23, 20, 19, 18, 18, 18, 18, 20, 23, 25, 27, 30, 32, 34, 36, 35, 34, 33],
        250: [66, 62, 57, 52, 48, 43, 39, 30, 20, 19, 18, 18, 18, 18, 20, 23, 25, 27, 30, 32, 34, 36, 35, 34, 33],
        500: [78, 73, 68, 64, 59, 55, 51, 47, 42, 37, 33, 24, 18, 18, 20, 23, 25, 27, 30, 32, 34, 36, 35, 34, 33],
    ]

    /// The earphones of Table 3.
    public enum Earphone: String, Sendable, CaseIterable {
        case supraAural = "supra-aural"
        /// ER-3A insert earphones.
        case insert = "ER-3A"
        /// Sennheiser HDA 200 circumaural earphones (Table 3 prints no attenuation below 63 Hz: none is added there).
        case circumaural = "HDA-200"

        /// Table 3, average attenuation dB (nil where the table prints a dash).
        var attenuation: [Double?] {
            switch self {
            case .supraAural: [0, 0, 0, 1, 1, 2, 3, 4, 5, 5, 5, 6, 7, 9, 11, 15, 18, 21, 26, 28, 31, 32, 29, 26, 24]
            case .insert: [33, 33, 33, 33, 33, 33, 33, 34, 35, 36, 37, 37, 38, 37, 37, 37, 35, 34, 33, 35, 37, 40, 41, 42, 43]
            case .circumaural: [nil, nil, nil, 17, 16, 15, 15, 15, 16, 16, 18, 20, 23, 25, 27, 29, 30, 31, 32, 37, 41, 46, 45, 45, 44]
            }
        }
    }

    /// The limits of ``bandsHz`` for a test whose lowest frequency is `lowestTestFrequencyHz` (the
    /// column of the highest of 125, 250, 500 Hz not above it) down to `lowestHearingLevel` dB HL
    /// with `earphone`, dB re 20 µPa; nil when the lowest frequency is below 125 Hz or not finite.
    public static func limits(lowestTestFrequencyHz: Double, lowestHearingLevel: Double = 0,
                              earphone: Earphone = .supraAural) -> [Double]? {
        guard lowestTestFrequencyHz.isFinite, lowestHearingLevel.isFinite,
              let column = [500.0, 250, 125].first(where: { $0 <= lowestTestFrequencyHz }), let table = table2[column] else { return nil }
        let supra = Earphone.supraAural.attenuation, own = earphone.attenuation
        return table.indices.map { i in
            table[i] + lowestHearingLevel + ((own[i]).map { $0 - supra[i]! } ?? 0)
        }
    }

    /// A band over its limit.
    public struct Exceedance: Sendable, Hashable {
        public var bandHz: Double
        public var levelDecibels: Double
        public var limitDecibels: Double
    }

    /// The bands of `levels` (dB SPL, keyed by nominal frequency) over `limits` (``bandsHz`` order),
    /// loudest excess first. A band the measurement lacks is not judged.
    public static func exceedances(levels: [Double: Double], limits: [Double]) -> [Exceedance] {
        zip(bandsHz, limits).compactMap { band, limit in
            guard let level = levels[band], !(level <= limit) else { return nil }  // NaN counts as over
            return Exceedance(bandHz: band, levelDecibels: level, limitDecibels: limit)
        }.sorted { $0.levelDecibels - $0.limitDecibels > $1.levelDecibels - $1.limitDecibels }
    }
}
