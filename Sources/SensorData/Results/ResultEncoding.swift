/// Writers for results: dialect A (ResearchKit's reference serializer, docs/formats.md §6, §12
/// "Writer must produce" 7: `_class` on every object, superclass keys, nil omitted, geometry as
/// nested objects) and, for tapping, dialect B (AppCore, docs/formats.md §8.2).
extension TappingResult {
    /// `ORKTappingIntervalResult` in dialect A.
    public var researchKitJSON: JSONValue {
        var object = JSONObject()
        object.append("_class", .string("ORKTappingIntervalResult"))
        object.append("identifier", .string(identifier ?? ""))
        object.append("startDate", startDate.map { .string($0.researchKitText) })
        object.append("endDate", endDate.map { .string($0.researchKitText) })
        object.append("userInfo", .object(JSONObject()))
        if count > 0 {
            object.append("samples", .array((0..<count).map { i in
                var sample = JSONObject()
                sample.append("_class", .string("ORKTappingSample"))
                sample.append("timestamp", .number(timestamp[i]))
                sample.append("duration", .number(duration[i].isNaN ? 0 : duration[i]))
                sample.append("buttonIdentifier", .string(button[i].researchKitName))
                sample.append("location", Self.point(Point(x: x[i], y: y[i])))
                return .object(sample)
            }))
        }
        object.append("stepViewSize", stepViewSize.map { .object(JSONObject(["h": .number($0.height), "w": .number($0.width)])) })
        object.append("buttonRect1", buttonRectLeft.map(Self.rect))
        object.append("buttonRect2", buttonRectRight.map(Self.rect))
        return .object(object)
    }

    /// `tapping_results.json` in dialect B (CG strings, no durations).
    public var appCoreJSON: JSONValue {
        var object = JSONObject()
        object.append("TappingViewSize", stepViewSize.map { .string("{\(cg($0.width)), \(cg($0.height))}") })
        object.append("ButtonRectLeft", buttonRectLeft.map { .string(cgRect($0)) })
        object.append("ButtonRectRight", buttonRectRight.map { .string(cgRect($0)) })
        object.append("TappingSamples", .array((0..<count).map { i in
            .object(JSONObject([
                "TapTimeStamp": .number(timestamp[i]),
                "TapCoordinate": .string("{\(cg(x[i])), \(cg(y[i]))}"),
                "TappedButtonId": .string(button[i].appCoreName),
            ]))
        }))
        object.append("startDate", startDate.map { .string($0.researchKitText) })
        object.append("endDate", endDate.map { .string($0.researchKitText) })
        object.append("item", .string(identifier ?? "tapping_results"))
        return .object(object)
    }

    static func point(_ p: Point) -> JSONValue {
        .object(JSONObject(["x": .number(p.x), "y": .number(p.y)]))
    }

    static func rect(_ r: Rect) -> JSONValue {
        .object(JSONObject([
            "origin": point(r.origin),
            "size": .object(JSONObject(["h": .number(r.size.height), "w": .number(r.size.width)])),
        ]))
    }

    /// `NSStringFromCGRect` spelling.
    private func cgRect(_ r: Rect) -> String {
        "{{\(cg(r.origin.x)), \(cg(r.origin.y))}, {\(cg(r.size.width)), \(cg(r.size.height))}}"
    }

    /// Numbers as `NSStringFromCGPoint` prints them (`411.5`, `454`).
    private func cg(_ value: Double) -> String { JSONWriter.number(value) }
}

extension SPLMeterResult {
    /// `ORKEnvironmentSPLMeterResult` in dialect A.
    public var researchKitJSON: JSONValue {
        var object = JSONObject()
        object.append("_class", .string("ORKEnvironmentSPLMeterResult"))
        object.append("identifier", .string(identifier ?? ""))
        object.append("startDate", startDate.map { .string($0.researchKitText) })
        object.append("endDate", endDate.map { .string($0.researchKitText) })
        object.append("userInfo", .object(JSONObject()))
        object.append("sensitivityOffset", sensitivityOffsetDecibels.map { .number($0) })
        object.append("recordedSPLMeterSamples", .array(recordedSPLMeterSamplesDecibels.map { .number($0) }))
        return .object(object)
    }
}

extension DBHLToneAudiometryResult {
    /// `DBL_MAX`, ResearchKit's "no threshold" (written as `1.7976931348623157e+308`).
    public static let noThreshold = Double.greatestFiniteMagnitude

    /// `ORKdBHLToneAudiometryResult` in dialect A.
    public var researchKitJSON: JSONValue {
        var object = JSONObject()
        object.append("_class", .string("ORKdBHLToneAudiometryResult"))
        object.append("identifier", .string(identifier ?? ""))
        object.append("startDate", startDate.map { .string($0.researchKitText) })
        object.append("endDate", endDate.map { .string($0.researchKitText) })
        object.append("userInfo", .object(userInfo))
        object.append("outputVolume", outputVolume.map { .number($0) })
        object.append("tonePlaybackDuration", tonePlaybackDurationSeconds.map { .number($0) })
        object.append("postStimulusDelay", postStimulusDelaySeconds.map { .number($0) })
        object.append("headphoneType", headphoneType.map { .string($0) })
        object.append("samples", .array(samples.map { sample in
            var entry = JSONObject()
            entry.append("_class", .string("ORKdBHLToneAudiometryFrequencySample"))
            entry.append("frequency", .number(sample.frequencyHz))
            entry.append("channel", .number(Double(sample.channel)))
            entry.append("calculatedThreshold", .number(sample.calculatedThresholdDecibelsHL ?? Self.noThreshold))
            entry.append("units", .array(sample.units.map { unit in
                .object(JSONObject([
                    "_class": .string("ORKdBHLToneAudiometryUnit"),
                    "dBHLValue": .number(unit.dBHLValue),
                    "startOfUnitTimeStamp": .number(unit.startOfUnitTimeStamp),
                    "preStimulusDelay": .number(unit.preStimulusDelay),
                    "userTapTimeStamp": .number(unit.userTapTimeStamp),
                    "timeoutTimeStamp": .number(unit.timeoutTimeStamp),
                ]))
            }))
            return .object(entry)
        }))
        return .object(object)
    }
}
