import Foundation
import SensorData
import SignalProcessing

/// `activetask evaluate oxford`: the gait analyzer scored on every walk of the Oxford Step Counter
/// dataset (docs/analyses.md §2.10), summarised for all walks, per phone position and per phone,
/// as a table or JSON; or leave-one-user-out with held-out figures only.
public struct OxfordReport: Sendable {
    /// Every walk scored, in the dataset's order.
    public var walks: [GaitEvaluation.Walk]
    /// One message per walk that could not be read (the file and the reason).
    public var failures: [String]

    /// Scores every walk under `folder` (its walks in parallel).
    public init(folder: String) throws(ReadError) {
        let dataset = OxfordDataset(folder: folder)
        let names = try dataset.walkNames()
        let results = Parallel.map(names.count, parallel: true) { index -> Result<GaitEvaluation.Walk, ReadError> in
            do throws(ReadError) {
                guard let walk = try dataset.walk(names[index]) else {
                    return .failure(ReadError(file: "\(dataset.dataFolder)/\(names[index])/stepcounter.csv", reason: .invalidValue("not the Oxford ground-truth layout")))
                }
                return .success(GaitEvaluation.evaluate(name: walk.name, signal: walk.signal, groundTruth: walk.truth))
            } catch {
                return .failure(error)
            }
        }
        walks = results.compactMap { try? $0.get() }
        failures = results.compactMap { if case .failure(let error) = $0 { error.description } else { nil } }
    }

    /// All walks, then the usable ones by phone position (the walk name's fourth part) and by phone (its first).
    public var groups: [(name: String, walks: [GaitEvaluation.Walk])] {
        typealias Group = (name: String, walks: [GaitEvaluation.Walk])
        let usable = walks.filter(\.groundTruthUsable)
        func grouped(_ label: String, by part: Int, lowercased: Bool) -> [Group] {
            Dictionary(grouping: usable) { (walk: GaitEvaluation.Walk) -> String in
                lowercased ? Self.part(walk.name, part).lowercased() : Self.part(walk.name, part)
            }.sorted { $0.key < $1.key }.map { (name: "\(label) \($0.key)", walks: $0.value) }
        }
        return [(name: "all", walks: walks)] + grouped("position", by: 3, lowercased: true) + grouped("phone", by: 0, lowercased: false)
    }

    /// Part `index` of a walk name split at `_` (`Pixel_User1_Carpet_InHand_1`), `?` when absent.
    public static func part(_ name: String, _ index: Int) -> String {
        let parts = name.split(separator: "_")
        return index < parts.count ? String(parts[index]) : "?"
    }

    public var json: JSONValue {
        var root = JSONObject()
        root.append("walks", .array(walks.map { walk in
            .object(JSONObject([
                "walk": .string(walk.name), "groundTruthSteps": .number(Double(walk.groundTruthSteps)),
                "detectedSteps": .number(Double(walk.detectedSteps)), "countErrorPercent": .number(walk.countErrorPercent),
                "groundTruthUsable": .bool(walk.groundTruthUsable),
                "cadenceWindows": .array(walk.windows.map { .array([.number($0.truth), .number($0.estimate)]) }),
            ]))
        }))
        root.append("summaries", .object(groups.reduce(into: JSONObject()) { object, group in
            object.append(group.name, Self.json(GaitEvaluation.summarize(group.walks)))
        }))
        return .object(root)
    }

    public var table: String {
        var lines = ["walk                                  truth  found  error %   cadence MAE (windows)"]
        for walk in walks {
            guard walk.groundTruthUsable else {
                lines.append(String(format: "%-36@ %6d %6d   ground truth unusable (< 0.2 steps/s): not summarized", walk.name as NSString,
                                    walk.groundTruthSteps, walk.detectedSteps))
                continue
            }
            let cadence = GaitEvaluation.summarize([walk])
            lines.append(String(format: "%-36@ %6d %6d %8.2f   %6.2f (%d)", walk.name as NSString, walk.groundTruthSteps, walk.detectedSteps,
                                walk.countErrorPercent, cadence.cadenceMeanAbsoluteError, cadence.windows))
        }
        lines.append("\ngroup                     walks  mean|e|%  median|e|%  worst e%  windows  cadMAE  cadMedAE  bias    sd   ±5spm  x2/÷2  none")
        for (name, group) in groups {
            let s = GaitEvaluation.summarize(group)
            lines.append(String(format: "%-25@ %5d  %8.2f  %10.2f  %8.2f  %7d  %6.2f  %8.2f  %5.2f %5.2f  %5.1f%%  %5d  %4d", name as NSString, s.walks,
                                s.meanAbsoluteCountErrorPercent, s.medianAbsoluteCountErrorPercent, s.worstCountErrorPercent, s.windows,
                                s.cadenceMeanAbsoluteError, s.cadenceMedianAbsoluteError, s.cadenceBias, s.cadenceSd, 100 * s.cadenceWithin5,
                                s.halvingOrDoubling, s.missing))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ s: GaitEvaluation.Summary) -> JSONValue {
        .object(JSONObject([
            "walks": .number(Double(s.walks)), "meanAbsoluteCountErrorPercent": .number(s.meanAbsoluteCountErrorPercent),
            "medianAbsoluteCountErrorPercent": .number(s.medianAbsoluteCountErrorPercent), "worstCountErrorPercent": .number(s.worstCountErrorPercent),
            "windows": .number(Double(s.windows)), "cadenceMeanAbsoluteErrorStepsPerMinute": .number(s.cadenceMeanAbsoluteError),
            "cadenceMedianAbsoluteErrorStepsPerMinute": .number(s.cadenceMedianAbsoluteError), "cadenceBiasStepsPerMinute": .number(s.cadenceBias),
            "cadenceSdStepsPerMinute": .number(s.cadenceSd), "cadenceWithin5StepsPerMinuteShare": .number(s.cadenceWithin5),
            "halvingOrDoublingWindows": .number(Double(s.halvingOrDoubling)), "windowsWithoutEstimate": .number(Double(s.missing)),
        ]))
    }

    /// Leave-one-user-out: per user, the parameters chosen on the other users' walks and the
    /// held-out user's figures with them; then all held-out walks together. JSON or text.
    public static func leaveOneUserOut(folder: String, json: Bool) throws(ReadError) -> String {
        let dataset = OxfordDataset(folder: folder)
        var walks: [GaitEvaluation.LabelledWalk] = []
        for name in try dataset.walkNames() {
            if let walk = try dataset.walk(name, group: part(name, 1)), GaitEvaluation.groundTruthUsable(steps: walk.truth.count, signal: walk.signal) {
                walks.append(walk)
            }
        }
        let folds = GaitEvaluation.leaveOneGroupOut(walks)
        let lines = folds.map { fold in
            let s = GaitEvaluation.summarize(fold.walks), p = fold.parameters
            return String(format: "held out %-8@ walks %2d  prominence %.2f strideMode %.2f band %.2f regularity %.2f  →  count mean|e| %.2f %%, cadence median|e| %.2f steps/min",
                          fold.heldOutGroup as NSString, fold.walks.count, p.prominenceFactor, p.strideModeRatio, p.walkingBandFraction, p.minimumStrideRegularity,
                          s.meanAbsoluteCountErrorPercent, s.cadenceMedianAbsoluteError)
        }
        let s = GaitEvaluation.summarize(folds.flatMap(\.walks))
        if json { return JSONWriter(indent: 2).string(.object(JSONObject(["heldOut": Self.json(s), "folds": .array(lines.map { .string($0) })]))) + "\n" }
        return (lines + [String(format: "all held-out walks %d: count mean|e| %.2f %% (median %.2f, worst %.2f), cadence median|e| %.2f, MAE %.2f steps/min over %d windows",
                                s.walks, s.meanAbsoluteCountErrorPercent, s.medianAbsoluteCountErrorPercent, s.worstCountErrorPercent,
                                s.cadenceMedianAbsoluteError, s.cadenceMeanAbsoluteError, s.windows)]).joined(separator: "\n") + "\n"
    }
}
