/// Watches the item times a live source delivers for a clock that has stopped (an item at the
/// time of the item before it), runs backwards (an item before the one before it) or is
/// implausible (an item less than ``shortestStepSeconds`` after the one before it, a rate no
/// sensor has, or a time beyond ±``largestTimeSeconds``): a sender that stamps every item
/// alike, a device reading zeros, a clock stepped back, garbage read as timestamps. The
/// recording is kept as it came; the recorder says so on standard error and in its file
/// results' userInfo (`clockRepeatedItems`, `clockBackwardItems`, `clockImplausibleItems`), so
/// an analysis that divides by time steps is not handed them silently.
struct ClockMonitor {
    /// 1 µs: a rate of 1 MHz, a hundred times the highest sensor frequency a recorder takes (10 kHz).
    static let shortestStepSeconds = 1e-6
    /// 10^10 s (317 years): no uptime, and no Unix time before the year 2286.
    static let largestTimeSeconds = 1e10

    private(set) var items = 0
    private(set) var repeated = 0
    private(set) var backwards = 0
    private(set) var implausible = 0
    private var previous: Double?
    private var firstRepeated: Int?
    private var firstBackward: Int?
    private var firstImplausible: Int?

    /// Feeds the next items' times (seconds, any base); `outOfOrder`: items the reader found
    /// earlier than the item before them and put in time order within this chunk.
    mutating func observe(_ times: [Double], outOfOrder: Int = 0) {
        if outOfOrder > 0 {
            backwards += outOfOrder
            if firstBackward == nil { firstBackward = items + 1 }
        }
        for time in times {
            items += 1
            if abs(time) > Self.largestTimeSeconds || previous.map({ time > $0 && time - $0 < Self.shortestStepSeconds }) == true {
                implausible += 1
                if firstImplausible == nil { firstImplausible = items }
            }
            if let previous {
                if time == previous {
                    repeated += 1
                    if firstRepeated == nil { firstRepeated = items }
                } else if time < previous {
                    backwards += 1
                    if firstBackward == nil { firstBackward = items }
                }
            }
            previous = time
        }
    }

    /// One line per kind of fault found.
    var warnings: [String] {
        var lines: [String] = []
        if let first = firstRepeated {
            lines.append("the source's clock stood still: \(repeated) of \(items) items have the time of the item before them (first: item \(first))"
                + (repeated + 1 == items ? "; every item has one time" : ""))
        }
        if let first = firstBackward {
            lines.append("the source's clock ran backwards: \(backwards) of \(items) items are earlier than the item before them (first: in the chunk from item \(first))")
        }
        if let first = firstImplausible {
            lines.append("the source's clock is implausible: \(implausible) of \(items) items are less than 1 µs after the item before them "
                + "or beyond ±10^10 s (first: item \(first))")
        }
        return lines
    }

    /// What the file results' userInfo records (nothing for a clock that only moved forwards).
    var userInfo: [String: Double] {
        var info: [String: Double] = [:]
        if repeated > 0 { info["clockRepeatedItems"] = Double(repeated) }
        if backwards > 0 { info["clockBackwardItems"] = Double(backwards) }
        if implausible > 0 { info["clockImplausibleItems"] = Double(implausible) }
        return info
    }
}
