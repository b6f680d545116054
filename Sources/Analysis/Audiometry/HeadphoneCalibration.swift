import Glibc

/// ResearchKit's headphone calibration tables (audiometry.md §7, from ResearchKit
/// `…/ORKAudiometry/*.plist` at the versions named) and the standard RETSPLs (§8), with the
/// conversions dB HL ↔ dB SPL ↔ digital amplitude (§9.1).
public enum HeadphoneCalibration {
    /// The audiometric frequencies of the tables, Hz.
    public static let frequencies: [Double] = [125, 250, 500, 750, 1000, 1500, 2000, 3000, 4000, 6000, 8000]

    /// Table versions: results record `headphoneType`, not the ResearchKit version (§7.4).
    public enum TableVersion: String, Sendable, CaseIterable {
        /// ResearchKit 2.x: identifiers AIRPODS, AIRPODSPRO, EARPODS; AirPods RETSPLs everywhere.
        case researchKit2 = "rk-2.x"
        /// 3.0–3.1.1: AirPods RETSPLs in every `retspl_*` file.
        case researchKit3_0 = "rk-3.0"
        /// 3.2.0 and later: device-specific RETSPLs (default).
        case researchKit3_2 = "rk-3.2"
    }

    /// One headphone's tables: RETSPL(f), the SPL of a −30 dBFS-peak tone at full volume (f),
    /// and the volume curve (16 offsets, dB, for volume keys 1/16 … 16/16).
    public struct Tables: Sendable, Hashable {
        public var retspl: [Double: Double]
        public var dBSPL: [Double: Double]
        public var volumeCurve: [Double]
    }

    static func table(_ values: [Double]) -> [Double: Double] {
        Dictionary(uniqueKeysWithValues: zip(frequencies, values))
    }

    static let retsplAirPods = table([31, 21, 13, 9, 7, 10, 12, 13.5, 16, 16, 15.5])
    static let retsplAirPodsV2 = table([42.45, 30.2, 17.94, 16.45, 14.96, 13.85, 12.73, 13.27, 13.8, 14.81, 15.82])
    static let retsplAirPodsV3 = table([39.05, 26.68, 14.31, 13.16, 12.01, 12.64, 13.27, 14.48, 15.69, 14.77, 13.85])
    static let retsplAirPodsPro = table([34.04, 23.52, 12.99, 11.13, 9.27, 11.69, 14.11, 13.42, 12.72, 14.62, 16.51])
    static let retsplAirPodsMax = table([25.13, 19.29, 13.45, 10.515, 7.58, 11.45, 15.32, 12.06, 8.79, 3.74, 18.68])
    static let retsplEarPods = table([38.78, 28.99, 21.66, 17.97, 14.28, 13.02, 11.75, 13.69, 15.62, 16.77, 17.92])
    static let splAirPods = table([88.97, 86.30, 84.49, 83.59, 83.89, 87.60, 90.07, 92.51, 88.87, 91.46, 89.61])
    static let splAirPodsV3 = table([83.97, 82.02, 81.10, 82.70, 84.20, 85.90, 88.12, 91.80, 89.63, 90.40, 85.14])
    static let splAirPodsPro3 = table([83.54, 83.11, 84.58, 84.02, 82.80, 86.20, 89.29, 92.67, 89.76, 86.64, 88.22])
    static let splAirPodsPro2 = table([83.54, 83.11, 84.58, 84.02, 82.80, 86.20, 89.29, 92.67, 89.76, 91.64, 88.22])
    static let splAirPodsProV2 = table([84.05, 83.16, 84.13, 83.95, 83.67, 84.79, 86.52, 89.24, 86.64, 86.50, 90.11])
    static let splAirPodsMax = table([82.6, 81.5, 81.2, 82.4, 83.7, 84.5, 87.5, 87.9, 82.7, 82.9, 86.3])
    static let splEarPods = table([91.28, 88.38, 86.82, 86.16, 86.37, 89.83, 91.62, 92.31, 90.19, 93.91, 90.04])
    static let volumeAirPods: [Double] = [-65.5, -58.5, -52.5, -47, -42, -37.5, -33, -29, -25, -21, -17, -13.5, -10, -6.5, -3, 0]
    static let volumeAirPodsMax: [Double] = [-63.5, -56.5, -50.5, -45, -40, -35.5, -31, -27, -23, -19, -15.5, -12, -8.5, -5.5, -2.5, 0]
    static let volumeWired: [Double] = [-65.6, -58.4, -52.3, -46.9, -42, -37.3, -32.9, -28.9, -24.9, -20.9, -16.9, -13.6, -10, -6.7, -3.2, -0.5]

    /// The tables for a `headphoneType` (case-insensitive, §7.2), nil if the identifier is not
    /// supported by that version.
    public static func tables(for headphone: String, version: TableVersion = .researchKit3_2) -> Tables? {
        let id = headphone.uppercased()
        switch version {
        case .researchKit2:
            switch id {
            case "AIRPODS": return Tables(retspl: retsplAirPods, dBSPL: splAirPods, volumeCurve: volumeAirPods)
            case "AIRPODSPRO": return Tables(retspl: retsplAirPods, dBSPL: splAirPodsPro2, volumeCurve: volumeWired)
            case "EARPODS": return Tables(retspl: retsplAirPods, dBSPL: splEarPods, volumeCurve: volumeWired)
            default: return nil
            }
        case .researchKit3_0, .researchKit3_2:
            let modern = version == .researchKit3_2
            switch id {
            case "AIRPODSV1": return Tables(retspl: retsplAirPods, dBSPL: splAirPods, volumeCurve: volumeAirPods)
            case "AIRPODSV2": return Tables(retspl: modern ? retsplAirPodsV2 : retsplAirPods, dBSPL: splAirPods, volumeCurve: volumeAirPods)
            case "AIRPODSV3": return Tables(retspl: modern ? retsplAirPodsV3 : retsplAirPods, dBSPL: splAirPodsV3, volumeCurve: volumeAirPods)
            case "AIRPODSPRO": return Tables(retspl: modern ? retsplAirPodsPro : retsplAirPods, dBSPL: splAirPodsPro3, volumeCurve: volumeAirPods)
            case "AIRPODSPROV2": return Tables(retspl: modern ? retsplAirPodsPro : retsplAirPods, dBSPL: splAirPodsProV2, volumeCurve: volumeAirPods)
            case "AIRPODSMAX": return Tables(retspl: modern ? retsplAirPodsMax : retsplAirPods, dBSPL: splAirPodsMax, volumeCurve: volumeAirPodsMax)
            case "EARPODS": return Tables(retspl: modern ? retsplEarPods : retsplAirPods, dBSPL: splEarPods, volumeCurve: volumeWired)
            default: return nil
            }
        }
    }

    /// How a system volume 0–1 becomes a volume-curve key (§7.5).
    public enum VolumeRule: Sendable {
        /// q = clamp(⌊16v + 10⁻⁶⌋/16, 1/16, 1) — the intended rule.
        case correct
        /// ResearchKit ≥ 3.1.0: `a ?: b` makes q = 1 whenever ⌊16v⌋/16 ≥ 1/16, else 1/16.
        case researchKit3_1
        /// ResearchKit ≤ 3.0.1: ⌊16v⌋/16 without the lower clamp (v < 1/16 has no key: nil).
        case researchKitBefore3_1
    }

    /// The quantised volume q, or nil where ResearchKit would fail.
    public static func quantizedVolume(_ v: Double, rule: VolumeRule = .correct) -> Double? {
        switch rule {
        case .correct: return min(max((16 * v + 1e-6).rounded(.down) / 16, 1.0 / 16), 1)
        case .researchKit3_1: return (16 * v).rounded(.down) / 16 >= 1.0 / 16 ? 1 : 1.0 / 16
        case .researchKitBefore3_1:
            let q = min((16 * v).rounded(.down) / 16, 1)
            return q >= 1.0 / 16 ? q : nil
        }
    }

    /// The volume offset V for a system volume.
    public static func volumeOffset(_ tables: Tables, volume v: Double, rule: VolumeRule = .correct) -> Double? {
        guard let q = quantizedVolume(v, rule: rule) else { return nil }
        let index = Int((q * 16).rounded()) - 1
        return tables.volumeCurve.indices.contains(index) ? tables.volumeCurve[index] : nil
    }

    /// ResearchKit's attenuation RETSPL(f) + HL − (dBSPL(f) + V + 30), dB, and the sine peak
    /// amplitude 10^(att/20); nil amplitude when att ≥ −1 dB ("will clip", engine rule R4). A
    /// frequency missing from the table is nil (no silent interpolation; ResearchKit issue #1336).
    public static func researchKitAmplitude(
        hearingLevel hl: Double, frequencyHz f: Double, tables: Tables, volume: Double = 1, rule: VolumeRule = .correct
    ) -> (attenuationDecibels: Double, amplitude: Double?)? {
        guard let retspl = tables.retspl[f], let spl = tables.dBSPL[f], let v = volumeOffset(tables, volume: volume, rule: rule) else {
            return nil
        }
        let attenuation = retspl + hl - (spl + v + 30)
        return (attenuation, attenuation >= -1 ? nil : pow(10, attenuation / 20))
    }

    /// The highest producible level (exclusive), dB HL: dBSPL + V + 30 − 1 − RETSPL.
    public static func maximumHearingLevel(frequencyHz f: Double, tables: Tables, volume: Double = 1) -> Double? {
        guard let retspl = tables.retspl[f], let spl = tables.dBSPL[f], let v = volumeOffset(tables, volume: volume) else { return nil }
        return spl + v + 30 - 1 - retspl
    }

    /// Standard RETSPLs, dB re 20 µPa (audiometry.md §8), only entries verified in at least two
    /// independent public transcriptions; unverified cells (TDH-39 at 750 and 1500 Hz) are absent.
    public enum Transducer: String, Sendable, CaseIterable {
        case genericSupraAural = "supra-aural (ISO 389-1 / ANSI S3.6, IEC 60318-1)"
        case tdh39 = "TDH-39 (IEC 60318-3 / NBS 9-A)"
        case er3aHA2 = "ER-3A insert, HA-2 2-cc coupler (ISO 389-2)"
        case er3aHA1 = "ER-3A insert, HA-1 coupler"
        case er3aIEC60711 = "ER-3A insert, IEC 60711 occluded-ear simulator"

        public var retspl: [Double: Double] {
            switch self {
            case .genericSupraAural: HeadphoneCalibration.table([45, 27, 13.5, 9, 7.5, 7.5, 9, 11.5, 12, 16, 15.5])
            case .tdh39:
                Dictionary(uniqueKeysWithValues: zip([125, 250, 500, 1000, 2000, 3000, 4000, 6000, 8000], [45, 25.5, 11.5, 7, 9, 10, 9.5, 15.5, 13]))
            case .er3aHA2: HeadphoneCalibration.table([26, 14, 5.5, 2, 0, 2, 3, 3.5, 5.5, 2, 0])
            case .er3aHA1: HeadphoneCalibration.table([26.5, 14.5, 6, 2, 0, 0, 2.5, 2.5, 0, -2.5, -3.5])
            case .er3aIEC60711: HeadphoneCalibration.table([28, 17.5, 9.5, 6, 5.5, 9.5, 11.5, 13, 15, 16, 15.5])
            }
        }
    }

    /// dB SPL = dB HL + RETSPL(f).
    public static func soundPressureLevel(hearingLevel: Double, retspl: Double) -> Double { hearingLevel + retspl }

    /// dB HL = dB SPL − RETSPL(f).
    public static func hearingLevel(soundPressureLevel: Double, retspl: Double) -> Double { soundPressureLevel - retspl }
}
