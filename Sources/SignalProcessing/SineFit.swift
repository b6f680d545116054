import Glibc

/// Least-squares sine fit x[i] ≈ A·cos(ω·t) + B·sin(ω·t) + C with t = i − (n − 1)/2 samples
/// (IEEE Std 1057-2017 §4.1.3, four-parameter fit: Gauss–Newton on the frequency from a
/// starting estimate, each step a linear 4-parameter least-squares solve).
public struct SineFit: Sendable, Equatable {
    /// Angular frequency, rad/sample.
    public var omega: Double
    public var cosineAmplitude: Double
    public var sineAmplitude: Double
    public var offset: Double
    /// RMS of x − fit.
    public var residualRMS: Double

    /// Peak amplitude √(A² + B²).
    public var amplitude: Double { (cosineAmplitude * cosineAmplitude + sineAmplitude * sineAmplitude).squareRoot() }

    /// Fits `x` starting from `omega` (rad/sample, within about one DFT bin of the truth);
    /// nil when `x` has fewer than 8 samples or the normal equations are singular.
    public static func fit(_ x: [Double], omega start: Double, iterations: Int = 30) -> SineFit? {
        let n = x.count
        guard n >= 8 else { return nil }
        let centre = Double(n - 1) / 2
        var omega = start
        var (a, b, c) = (0.0, 0.0, 0.0)
        // Three-parameter fit at the starting frequency gives A, B, C for the first linearisation.
        guard let first = solve(x, omega: omega, centre: centre, a: nil, b: nil) else { return nil }
        (a, b, c) = (first[0], first[1], first[2])
        for _ in 0..<iterations {
            guard let step = solve(x, omega: omega, centre: centre, a: a, b: b) else { return nil }
            (a, b, c) = (step[0], step[1], step[2])
            omega += step[3]
            if abs(step[3]) < 1e-15 * max(1, abs(omega)) { break }
        }
        var squares = 0.0
        for i in 0..<n {
            let t = Double(i) - centre
            let r = x[i] - (a * cos(omega * t) + b * sin(omega * t) + c)
            squares += r * r
        }
        return SineFit(omega: omega, cosineAmplitude: a, sineAmplitude: b, offset: c, residualRMS: (squares / Double(n)).squareRoot())
    }

    /// Normal equations of the 3-parameter (a, b nil) or linearised 4-parameter model, solved by
    /// Gaussian elimination with partial pivoting.
    private static func solve(_ x: [Double], omega: Double, centre: Double, a: Double?, b: Double?) -> [Double]? {
        let m = a == nil ? 3 : 4
        var matrix = [Double](repeating: 0, count: m * (m + 1))
        var row = [Double](repeating: 0, count: 4)
        for i in 0..<x.count {
            let t = Double(i) - centre
            let (co, si) = (cos(omega * t), sin(omega * t))
            row[0] = co
            row[1] = si
            row[2] = 1
            if let a, let b { row[3] = t * (b * co - a * si) }
            for r in 0..<m {
                for k in 0..<m { matrix[r * (m + 1) + k] += row[r] * row[k] }
                matrix[r * (m + 1) + m] += row[r] * x[i]
            }
        }
        for column in 0..<m {
            guard let pivot = (column..<m).max(by: { abs(matrix[$0 * (m + 1) + column]) < abs(matrix[$1 * (m + 1) + column]) }),
                matrix[pivot * (m + 1) + column] != 0
            else { return nil }
            if pivot != column {
                for k in 0...m { matrix.swapAt(pivot * (m + 1) + k, column * (m + 1) + k) }
            }
            for r in (column + 1)..<m {
                let factor = matrix[r * (m + 1) + column] / matrix[column * (m + 1) + column]
                for k in column...m { matrix[r * (m + 1) + k] -= factor * matrix[column * (m + 1) + k] }
            }
        }
        var solution = [Double](repeating: 0, count: m)
        for r in stride(from: m - 1, through: 0, by: -1) {
            var value = matrix[r * (m + 1) + m]
            for k in (r + 1)..<m { value -= matrix[r * (m + 1) + k] * solution[k] }
            solution[r] = value / matrix[r * (m + 1) + r]
        }
        return solution
    }
}
