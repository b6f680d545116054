import InputGuards
import Glibc

/// ResearchKit's headphone calibration tables (docs/audiometry.md §7, from ResearchKit
/// `…/ORKAudiometry/*.plist` at the versions named) and the standard RETSPLs (§8), with the
/// conversions dB HL ↔ dB SPL ↔ digital amplitude (§9.1).
public enum HeadphoneCalibration {
    /// The audiometric frequencies of the tables, Hz.
    public static let frequencies: [Double] = [125, 250, 500, 750, 1000, 1500, 2000, 3000, 4000, 6000, 8000]

    /// Table versions: results record `headphoneType`, not the ResearchKit version (§7.4).
    public enum TableVersion: String, Sendable, CaseIterable, Codable, NamedChoice {
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

    /// The rows of one of the embedded tables in `Audiometry/Tables/` (header: a label, then
    /// frequencies in Hz or volume keys), by name; an empty cell is an absent value.
    static func rows(_ csv: [UInt8]) -> (keys: [Double], rows: [String: [Double?]]) {
        var keys: [Double] = []
        var rows: [String: [Double?]] = [:]
        for line in String(decoding: csv, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            if keys.isEmpty {
                keys = cells.dropFirst().compactMap { Double($0) }
            } else if let name = cells.first {
                rows[String(name)] = cells.dropFirst().map { Double($0) }
            }
        }
        return (keys, rows)
    }

    private static let frequencyTables = rows(PackageResources.frequency_tables_csv)
    private static let volumeCurves = rows(PackageResources.volume_curves_csv)
    static let standardRETSPLs = rows(PackageResources.standard_retspl_csv)

    /// A frequency → value table of `Tables/frequency_tables.csv` or `standard_retspl.csv`.
    static func table(_ name: String, in source: (keys: [Double], rows: [String: [Double?]]) = frequencyTables) -> [Double: Double] {
        var table: [Double: Double] = [:]
        for (f, value) in zip(source.keys, source.rows[name] ?? []) { table[f] = value }
        return table
    }

    static let retsplAirPods = table("retspl_AIRPODS")
    static let retsplAirPodsV2 = table("retspl_AIRPODSV2")
    static let retsplAirPodsV3 = table("retspl_AIRPODSV3")
    static let retsplAirPodsPro = table("retspl_AIRPODSPRO")
    static let retsplAirPodsMax = table("retspl_AIRPODSMAX")
    static let retsplEarPods = table("retspl_EARPODS")
    static let splAirPods = table("frequency_dBSPL_AIRPODS")
    static let splAirPodsV3 = table("frequency_dBSPL_AIRPODSV3")
    static let splAirPodsPro3 = table("frequency_dBSPL_AIRPODSPRO")
    static let splAirPodsPro2 = table("frequency_dBSPL_AIRPODSPRO_rk2")
    static let splAirPodsProV2 = table("frequency_dBSPL_AIRPODSPROV2")
    static let splAirPodsMax = table("frequency_dBSPL_AIRPODSMAX")
    static let splEarPods = table("frequency_dBSPL_EARPODS")
    static let volumeAirPods = volumeCurve("volume_curve_AIRPODS")
    static let volumeAirPodsMax = volumeCurve("volume_curve_AIRPODSMAX")
    static let volumeWired = volumeCurve("volume_curve_WIRED")

    /// The 16 offsets of a curve of `Tables/volume_curves.csv`, dB.
    static func volumeCurve(_ name: String) -> [Double] { (volumeCurves.rows[name] ?? []).compactMap { $0 } }

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
        let index = Int(clamping: q * 16, rounding: .toNearestOrAwayFromZero, to: -1...64) - 1
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

    /// The inverse of ``researchKitAmplitude``: the levels a sine of peak amplitude `amplitude`
    /// produces at `f`, SPL = dBSPL(f) + V + 30 + 20·lg a (dB re 20 µPa) and HL = SPL − RETSPL(f);
    /// nil when the tables lack `f` or the volume has no key.
    public static func levels(
        amplitude: Double, frequencyHz f: Double, tables: Tables, volume: Double = 1, rule: VolumeRule = .correct
    ) -> (soundPressureLevel: Double, hearingLevel: Double)? {
        guard let retspl = tables.retspl[f], let spl = tables.dBSPL[f], let v = volumeOffset(tables, volume: volume, rule: rule) else {
            return nil
        }
        let level = spl + v + 30 + 20 * log10(amplitude)
        return (level, hearingLevel(soundPressureLevel: level, retspl: retspl))
    }

    /// The highest producible level (exclusive), dB HL: dBSPL + V + 30 − 1 − RETSPL.
    public static func maximumHearingLevel(frequencyHz f: Double, tables: Tables, volume: Double = 1) -> Double? {
        guard let retspl = tables.retspl[f], let spl = tables.dBSPL[f], let v = volumeOffset(tables, volume: volume) else { return nil }
        return spl + v + 30 - 1 - retspl
    }

    /// Standard RETSPLs, dB re 20 µPa (docs/audiometry.md §8), only entries verified in at least two
    /// independent public transcriptions; unverified cells (TDH-39 at 750 and 1500 Hz) are absent.
    public enum Transducer: String, Sendable, CaseIterable {
        case genericSupraAural = "supra-aural (ISO 389-1 / ANSI S3.6, IEC 60318-1)"
        case tdh39 = "TDH-39 (IEC 60318-3 / NBS 9-A)"
        case er3aHA2 = "ER-3A insert, HA-2 2-cc coupler (ISO 389-2)"
        case er3aHA1 = "ER-3A insert, HA-1 coupler"
        case er3aIEC60711 = "ER-3A insert, IEC 60711 occluded-ear simulator"

        /// From `Tables/standard_retspl.csv`; unverified cells are absent.
        public var retspl: [Double: Double] { HeadphoneCalibration.table(String(describing: self), in: HeadphoneCalibration.standardRETSPLs) }
    }

    /// dB SPL = dB HL + RETSPL(f).
    public static func soundPressureLevel(hearingLevel: Double, retspl: Double) -> Double { hearingLevel + retspl }

    /// dB HL = dB SPL − RETSPL(f).
    public static func hearingLevel(soundPressureLevel: Double, retspl: Double) -> Double { soundPressureLevel - retspl }
}
