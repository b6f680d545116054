/// The Kaiser window (J. F. Kaiser, "Nonrecursive digital filter design using the I0-sinh
/// window function", Proc. IEEE ISCAS 1974): w[i] = I0(β·√(1 − r²)) / I0(β), r = (i − m)/m,
/// m = (count − 1)/2; numpy.kaiser's definition.
public func kaiserWindow(count: Int, beta: Double) -> [Double] {
    /// I0 by its power series Σ ((x/2)^k / k!)², 40 terms (enough for β ≤ 20).
    func bessel0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0
        for k in 1..<40 {
            term *= (x / (2 * Double(k))) * (x / (2 * Double(k)))
            sum += term
        }
        return sum
    }
    guard count > 1 else { return Array(repeating: 1, count: max(0, count)) }
    let middle = Double(count - 1) / 2
    return (0..<count).map { i in
        let r = (Double(i) - middle) / middle
        return bessel0(beta * Swift.max(0, 1 - r * r).squareRoot()) / bessel0(beta)
    }
}
