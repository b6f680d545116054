import Foundation
import SensorData
import SignalProcessing

/// `activetask evaluate oxford`: the gait analyzer scored on every walk of the Oxford Step Counter
/// dataset (docs/analyses.md §2.10), summarised for all walks, per phone position and per phone,
/// as a table or JSON; or leave-one-user-out with held-out figures only.
public struct OxfordReport: Sendable {
    /// Every walk scored, in the dataset's order.
    public var walks: [GaitEvaluation.Walk]
    /// One message per walk that could not be read (the file and the reason); its walk is in
    /// no figure.
    public var failures: [String]

    /// Scores every walk under `folder` (its walks in parallel).
    public init(folder: String) throws(ReadError) {
        let read = try Self.read(folder)
        walks = Parallel.map(read.walks.count, parallel: true) { index in
            let walk = read.walks[index]
            return GaitEvaluation.evaluate(name: walk.name, signal: walk.signal, groundTruth: walk.truth)
        }
        failures = read.failures
    }

    /// Every walk of the dataset under `folder` (read in parallel), its group the walk name's
    /// second part (the user), and one message per walk that cannot be read.
    static func read(_ folder: String) throws(ReadError) -> (walks: [GaitEvaluation.LabelledWalk], failures: [String]) {
        let dataset = OxfordDataset(folder: folder)
        let names = try dataset.walkNames()
        let results = Parallel.map(names.count, parallel: true) { index -> Result<GaitEvaluation.LabelledWalk, ReadError> in
            do throws(ReadError) {
                guard let walk = try dataset.walk(names[index], group: part(names[index], 1)) else {
                    return .failure(ReadError(file: "\(dataset.dataFolder)/\(names[index])/stepcounter.csv", reason: .invalidValue("not the Oxford ground-truth layout")))
                }
                return .success(walk)
            } catch {
                return .failure(error)
            }
        }
        return (results.compactMap { try? $0.get() }, results.compactMap { if case .failure(let error) = $0 { error.description } else { nil } })
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
                "detectedSteps": .number(Double(walk.detectedSteps)), "countErrorPercent": Self.number(walk.countErrorPercent),
                "groundTruthUsable": .bool(walk.groundTruthUsable),
                "cadenceWindows": .array(walk.windows.map { .array([Self.number($0.truth), Self.number($0.estimate)]) }),
            ]))
        }))
        root.append("summaries", .object(groups.reduce(into: JSONObject()) { object, group in
            object.append(group.name, Self.json(GaitEvaluation.summarize(group.walks)))
        }))
        root.append("unreadableWalks", .array(failures.map { .string($0) }))
        return .object(root)
    }

    public var table: String {
        var lines = ["walk                                  truth  found  error %   cadence MAE (windows)"]
        for walk in walks {
            let start = TableCell.padded(walk.name, 36) + String(format: " %6d %6d", walk.groundTruthSteps, walk.detectedSteps)
            guard walk.groundTruthUsable else {
                lines.append(start + "   ground truth unusable (< 0.2 steps/s): not summarized")
                continue
            }
            let cadence = GaitEvaluation.summarize([walk])
            lines.append(start + " " + TableCell.number(walk.countErrorPercent, 8, 2) + "   " + TableCell.number(cadence.cadenceMeanAbsoluteError, 6, 2) + " (\(cadence.windows))")
        }
        lines.append("\ngroup                     walks  mean|e|%  median|e|%  worst e%  windows  cadMAE  cadMedAE  bias    sd   ±5spm  x2/÷2  none")
        for (name, group) in groups {
            let s = GaitEvaluation.summarize(group)
            let parts: [String] = [
                TableCell.padded(name, 25), String(format: " %5d  ", s.walks), TableCell.number(s.meanAbsoluteCountErrorPercent, 8, 2), "  ",
                TableCell.number(s.medianAbsoluteCountErrorPercent, 10, 2), "  ", TableCell.number(s.worstCountErrorPercent, 8, 2), String(format: "  %7d  ", s.windows),
                TableCell.number(s.cadenceMeanAbsoluteError, 6, 2), "  ", TableCell.number(s.cadenceMedianAbsoluteError, 8, 2), "  ", TableCell.number(s.cadenceBias, 5, 2), " ",
                TableCell.number(s.cadenceSd, 5, 2), "  ", TableCell.number(100 * s.cadenceWithin5, 6, 1, suffix: "%"), String(format: "  %5d  %4d", s.halvingOrDoubling, s.missing),
            ]
            lines.append(parts.joined())
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A number, or null where there is none (JSON has no NaN).
    static func number(_ value: Double) -> JSONValue { value.isFinite ? .number(value) : .null }

    static func json(_ s: GaitEvaluation.Summary) -> JSONValue {
        .object(JSONObject([
            "walks": .number(Double(s.walks)), "meanAbsoluteCountErrorPercent": number(s.meanAbsoluteCountErrorPercent),
            "medianAbsoluteCountErrorPercent": number(s.medianAbsoluteCountErrorPercent), "worstCountErrorPercent": number(s.worstCountErrorPercent),
            "windows": .number(Double(s.windows)), "cadenceMeanAbsoluteErrorStepsPerMinute": number(s.cadenceMeanAbsoluteError),
            "cadenceMedianAbsoluteErrorStepsPerMinute": number(s.cadenceMedianAbsoluteError), "cadenceBiasStepsPerMinute": number(s.cadenceBias),
            "cadenceSdStepsPerMinute": number(s.cadenceSd), "cadenceWithin5StepsPerMinuteShare": number(s.cadenceWithin5),
            "halvingOrDoublingWindows": .number(Double(s.halvingOrDoubling)), "windowsWithoutEstimate": .number(Double(s.missing)),
        ]))
    }

    /// Leave-one-user-out: per user, the parameters chosen on the other users' walks and the
    /// held-out user's figures with them; then all held-out walks together. JSON or text, and one
    /// message per walk that could not be read (in no fold).
    public static func leaveOneUserOut(folder: String, json: Bool) throws(ReadError) -> (text: String, failures: [String]) {
        let read = try read(folder)
        let walks = read.walks.filter { GaitEvaluation.groundTruthUsable(steps: $0.truth.count, signal: $0.signal) }
        let folds = GaitEvaluation.leaveOneGroupOut(walks)
        let lines = folds.map { fold in
            let s = GaitEvaluation.summarize(fold.walks), p = fold.parameters
            return String(format: "held out %@ walks %2d  prominence %.2f strideMode %.2f band %.2f regularity %.2f  →  count mean|e| %@ %%, cadence median|e| %@ steps/min",
                          TableCell.padded(fold.heldOutGroup, 8) as NSString, fold.walks.count, p.prominenceFactor, p.strideModeRatio, p.walkingBandFraction,
                          p.minimumStrideRegularity, TableCell.number(s.meanAbsoluteCountErrorPercent, 0, 2) as NSString, TableCell.number(s.cadenceMedianAbsoluteError, 0, 2) as NSString)
        }
        let s = GaitEvaluation.summarize(folds.flatMap(\.walks))
        if json {
            let object = JSONObject(["heldOut": Self.json(s), "folds": .array(lines.map { .string($0) }), "unreadableWalks": .array(read.failures.map { .string($0) })])
            return (JSONWriter(indent: 2).string(.object(object)) + "\n", read.failures)
        }
        let total = "all held-out walks \(s.walks): count mean|e| \(TableCell.number(s.meanAbsoluteCountErrorPercent, 0, 2)) % (median \(TableCell.number(s.medianAbsoluteCountErrorPercent, 0, 2)), "
            + "worst \(TableCell.number(s.worstCountErrorPercent, 0, 2))), cadence median|e| \(TableCell.number(s.cadenceMedianAbsoluteError, 0, 2)), "
            + "MAE \(TableCell.number(s.cadenceMeanAbsoluteError, 0, 2)) steps/min over \(s.windows) windows"
        return ((lines + [total]).joined(separator: "\n") + "\n", read.failures)
    }
}
