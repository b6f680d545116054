import Glibc
import SignalProcessing

/// Praat's interpolating Sampled_getMean (Praat 6.1.38 fon/Sampled.cpp), as "Get CPPS" averages
/// with it over time and quefrency.
extension PraatCepstralAnalysis {
    /// Praat's Sampled_getMean with interpolation: the area under the linearly interpolated
    /// values y(i), i = 1…n, at x1 + (i − 1)·dx over [from, to] ∩ domain, divided by its length in
    /// samples (constant extrapolation over the half sample at each end). The window's samples,
    /// edge phases and length depend on the grid only, so they are found once (``init``) and
    /// applied to any values (``callAsFunction(_:)``) with Praat's operations in Praat's order.
    struct InterpolatedMean {
        /// How an edge of a window that holds sample centres adds its partial sample.
        enum Edge {
            case none
            /// The edge sample's half taken off, the interpolation over `phase` toward its neighbour added.
            case interpolated(Double)
            /// The edge sample's half taken off, `phase` (≤ ½) of it added (no neighbour).
            case constant(Double)
            /// No sample at the edge: `width` of the neighbour outside it.
            case outside(Double)
        }
        enum Shape {
            case empty
            /// Sample centres low…high inside, and the edges.
            case centres(low: Int, high: Int, left: Edge, right: Edge)
            /// No centre inside, between samples `high` and `low` = high + 1: interpolated over [phase1, phase2].
            case between(left: Int, right: Int, width: Double, middle: Double)
            /// Only the left (right) sample exists: `width` of it.
            case leftOnly(Int, width: Double)
            case rightOnly(Int, width: Double)
        }
        let shape: Shape
        let length: Double

        init(count n: Int, x1: Double, dx: Double, domain: ClosedRange<Double>, from: Double, to: Double) {
            var a = from, b = to
            a = max(a, domain.lowerBound)
            b = min(b, domain.upperBound)
            guard from != to, b > a else {
                (shape, length) = (.empty, .nan)
                return
            }
            func exists(_ i: Int) -> Bool { i >= 1 && i <= n }
            var range: Float80 = 0
            let lowReal = 1 + ((a - x1) / dx).rounded(.up), highReal = 1 + ((b - x1) / dx).rounded(.down)
            let low = Int(clamping: lowReal, rounding: .down, to: 1...Int(Int32.max)), high = Int(clamping: highReal, rounding: .down, to: Int(Int32.min)...n)
            if low <= high {
                let leftEdge = x1 - 0.5 * dx, rightEdge = leftEdge + Double(n) * dx
                range = Float80(high - low + 1)
                var left = Edge.none, right = Edge.none
                if a > leftEdge {
                    let phase = (x1 + Double(low - 1) * dx - a) / dx
                    if exists(low) {
                        range -= 0.5
                        left = exists(low - 1) ? .interpolated(phase) : .constant(min(phase, 0.5))
                        range += Float80(min(phase, exists(low - 1) ? phase : 0.5))
                    } else if exists(low - 1), phase > 0.5 {
                        range += Float80(phase - 0.5)
                        left = .outside(phase - 0.5)
                    }
                }
                if b < rightEdge {
                    let phase = (b - (x1 + Double(high - 1) * dx)) / dx
                    if exists(high) {
                        range -= 0.5
                        right = exists(high + 1) ? .interpolated(phase) : .constant(min(phase, 0.5))
                        range += Float80(min(phase, exists(high + 1) ? phase : 0.5))
                    } else if exists(high + 1), phase > 0.5 {
                        range += Float80(phase - 0.5)
                        right = .outside(phase - 0.5)
                    }
                }
                shape = .centres(low: low, high: high, left: left, right: right)
            } else {
                // No sample centre inside: the mean of the interpolated values at the two ends.
                var phase1 = (a - (x1 + Double(high - 1) * dx)) / dx
                var phase2 = (b - (x1 + Double(high - 1) * dx)) / dx
                var found = Shape.empty
                if low == high + 1 {
                    if exists(high) {
                        if exists(low) {
                            found = .between(left: high, right: low, width: phase2 - phase1, middle: 0.5 * (phase1 + phase2))
                        } else if phase1 < 0.5 {
                            if phase2 > 0.5 { phase2 = 0.5 }
                            found = .leftOnly(high, width: phase2 - phase1)
                        }
                    } else if exists(low), phase2 > 0.5 {
                        if phase1 < 0.5 { phase1 = 0.5 }
                        found = .rightOnly(low, width: phase2 - phase1)
                    }
                }
                switch found {
                case .between(_, _, let width, _), .leftOnly(_, let width), .rightOnly(_, let width): range += Float80(width)
                default: break
                }
                shape = found
            }
            length = Double(range)
        }

        /// The mean as weights on consecutive samples: Σ weights[k]·y(first + k).
        struct Taps {
            var first: Int
            var weights: [Double]
        }

        /// The window's weights (nil where the mean is NaN): the same mean as
        /// ``callAsFunction(_:)`` gives, its sum in another order and in Double, so within a few
        /// units in the last place of it.
        var taps: Taps? {
            guard length > 0 else { return nil }
            let taps: Taps
            switch shape {
            case .empty:
                return nil
            case .centres(let low, let high, let left, let right):
                var weights = [Double](repeating: 1, count: high - low + 1)
                var first = low
                switch left {
                case .none: break
                case .interpolated(let phase):
                    weights[0] += phase - 0.5 * phase * phase - 0.5
                    weights.insert(0.5 * phase * phase, at: 0)
                    first -= 1
                case .constant(let phase):
                    weights[0] += phase - 0.5
                case .outside(let width):
                    weights.insert(width, at: 0)
                    first -= 1
                }
                switch right {
                case .none: break
                case .interpolated(let phase):
                    weights[weights.count - 1] += phase - 0.5 * phase * phase - 0.5
                    weights.append(0.5 * phase * phase)
                case .constant(let phase):
                    weights[weights.count - 1] += phase - 0.5
                case .outside(let width):
                    weights.append(width)
                }
                taps = Taps(first: first, weights: weights)
            case .between(let left, _, let width, let middle):
                taps = Taps(first: left, weights: [width * (1 - middle), width * middle])
            case .leftOnly(let i, let width), .rightOnly(let i, let width):
                taps = Taps(first: i, weights: [width])
            }
            return Taps(first: taps.first, weights: taps.weights.map { $0 / length })
        }

        /// The mean of the values `y(1…n)` over the window.
        @inline(__always)
        func callAsFunction(_ y: (Int) -> Double) -> Double {
            var sum: Float80 = 0
            switch shape {
            case .empty:
                return .nan
            case .centres(let low, let high, let left, let right):
                for i in low...high { sum += Float80(y(i)) }
                switch left {
                case .none: break
                case .interpolated(let phase):
                    let r = y(low), l = y(low - 1)
                    sum -= Float80(0.5 * r)
                    sum += Float80(phase * (r + 0.5 * phase * (l - r)))
                case .constant(let phase):
                    let r = y(low)
                    sum -= Float80(0.5 * r)
                    sum += Float80(phase * r)
                case .outside(let width):
                    sum += Float80(width * y(low - 1))
                }
                switch right {
                case .none: break
                case .interpolated(let phase):
                    let l = y(high), r = y(high + 1)
                    sum -= Float80(0.5 * l)
                    sum += Float80(phase * (l + 0.5 * phase * (r - l)))
                case .constant(let phase):
                    let l = y(high)
                    sum -= Float80(0.5 * l)
                    sum += Float80(phase * l)
                case .outside(let width):
                    sum += Float80(width * y(high + 1))
                }
            case .between(let left, let right, let width, let middle):
                let l = y(left), r = y(right)
                sum += Float80(width * (l + middle * (r - l)))
            case .leftOnly(let i, let width), .rightOnly(let i, let width):
                sum += Float80(width * y(i))
            }
            let total = Double(sum)
            return length <= 0 ? .nan : total / length
        }
    }
}
