import Analysis
import ArgumentParser
import Foundation
import SensorData
import SignalProcessing

/// `activetask evaluate oxford DIR`: the gait analyzer against the Oxford Step Counter ground truth.
struct Evaluate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Score analyzers against ground truth.",
        subcommands: [Oxford.self]
    )
}

extension Evaluate {
    struct Oxford: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "oxford",
            abstract: "Step count and 20-s cadence errors on the Oxford Step Counter walks (data/<walk>/accelerometer.csv + stepcounter.csv).",
            discussion: "Credit: Oxford Step Counter dataset (CC BY 4.0). Prints per-walk results and summaries by phone position and phone."
        )

        @Argument(help: "The dataset folder (with data/<walk>/).")
        var folder: String

        @Flag(name: .long, help: "One JSON object instead of tables.")
        var json = false

        @Flag(name: .long, help: "Leave-one-user-out: for each user, choose the parameters on a small grid with the other users' walks, score the held-out user's walks with them, and report only held-out figures.")
        var leaveOneUserOut = false

        func run() throws {
            if leaveOneUserOut { return try runLeaveOneUserOut() }
            let dataset = self.dataset
            let names = try dataset.walkNames()
            let results = Parallel.map(names.count, parallel: true) { index -> Result<GaitEvaluation.Walk, LoadFailure> in
                do {
                    guard let walk = try dataset.walk(names[index]) else {
                        return .failure(LoadFailure(message: "\(dataset.dataFolder)/\(names[index])/stepcounter.csv: not the Oxford ground-truth layout"))
                    }
                    return .success(GaitEvaluation.evaluate(name: walk.name, signal: walk.signal, groundTruth: walk.truth))
                } catch {
                    return .failure(LoadFailure(message: "\(error)"))
                }
            }
            var walks: [GaitEvaluation.Walk] = []
            for result in results {
                switch result {
                case .success(let walk): walks.append(walk)
                case .failure(let failure): printError(failure.message)
                }
            }
            let groups: [(String, [GaitEvaluation.Walk])] = [("all", walks)]
                + Dictionary(grouping: walks.filter(\.groundTruthUsable), by: { Self.part($0.name, 3).lowercased() }).sorted { $0.key < $1.key }.map { ("position \($0.key)", $0.value) }
                + Dictionary(grouping: walks.filter(\.groundTruthUsable), by: { Self.part($0.name, 0) }).sorted { $0.key < $1.key }.map { ("phone \($0.key)", $0.value) }
            if json {
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
                    object.append(group.0, Self.json(GaitEvaluation.summarize(group.1)))
                }))
                try print(JSONWriter(indent: 2).string(.object(root)))
            } else {
                try print("walk                                  truth  found  error %   cadence MAE (windows)")
                for walk in walks {
                    guard walk.groundTruthUsable else {
                        try print(String(format: "%-36@ %6d %6d   ground truth unusable (< 0.2 steps/s): not summarized", walk.name as NSString,
                                     walk.groundTruthSteps, walk.detectedSteps))
                        continue
                    }
                    let cadence = GaitEvaluation.summarize([walk])
                    try print(String(format: "%-36@ %6d %6d %8.2f   %6.2f (%d)", walk.name as NSString, walk.groundTruthSteps, walk.detectedSteps,
                                 walk.countErrorPercent, cadence.cadenceMeanAbsoluteError, cadence.windows))
                }
                try print("\ngroup                     walks  mean|e|%  median|e|%  worst e%  windows  cadMAE  cadMedAE  bias    sd   ±5spm  x2/÷2  none")
                for (name, group) in groups {
                    let s = GaitEvaluation.summarize(group)
                    try print(String(format: "%-25@ %5d  %8.2f  %10.2f  %8.2f  %7d  %6.2f  %8.2f  %5.2f %5.2f  %5.1f%%  %5d  %4d", name as NSString, s.walks,
                                 s.meanAbsoluteCountErrorPercent, s.medianAbsoluteCountErrorPercent, s.worstCountErrorPercent, s.windows,
                                 s.cadenceMeanAbsoluteError, s.cadenceMedianAbsoluteError, s.cadenceBias, s.cadenceSd, 100 * s.cadenceWithin5,
                                 s.halvingOrDoubling, s.missing))
                }
            }
        }

        static func part(_ name: String, _ index: Int) -> String {
            let parts = name.split(separator: "_")
            return index < parts.count ? String(parts[index]) : "?"
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

        struct LoadFailure: Error {
            let message: String
        }

        var dataset: OxfordDataset { OxfordDataset(folder: folder) }

        func runLeaveOneUserOut() throws {
            let walks = try dataset.walkNames().compactMap { try dataset.walk($0, group: Self.part($0, 1)) }
                .filter { GaitEvaluation.groundTruthUsable(steps: $0.truth.count, signal: $0.signal) }
            let folds = GaitEvaluation.leaveOneGroupOut(walks)
            let heldOut = folds.flatMap(\.walks)
            let lines = folds.map { fold in
                let s = GaitEvaluation.summarize(fold.walks), p = fold.parameters
                return String(format: "held out %-8@ walks %2d  prominence %.2f strideMode %.2f band %.2f regularity %.2f  →  count mean|e| %.2f %%, cadence median|e| %.2f steps/min",
                              fold.heldOutGroup as NSString, fold.walks.count, p.prominenceFactor, p.strideModeRatio, p.walkingBandFraction, p.minimumStrideRegularity,
                              s.meanAbsoluteCountErrorPercent, s.cadenceMedianAbsoluteError)
            }
            let s = GaitEvaluation.summarize(heldOut)
            if json {
                try print(JSONWriter(indent: 2).string(.object(JSONObject(["heldOut": Self.json(s), "folds": .array(lines.map { .string($0) })]))))
            } else {
                for line in lines { try print(line) }
                try print(String(format: "all held-out walks %d: count mean|e| %.2f %% (median %.2f, worst %.2f), cadence median|e| %.2f, MAE %.2f steps/min over %d windows",
                             s.walks, s.meanAbsoluteCountErrorPercent, s.medianAbsoluteCountErrorPercent, s.worstCountErrorPercent,
                             s.cadenceMedianAbsoluteError, s.cadenceMeanAbsoluteError, s.windows))
            }
        }
    }
}
