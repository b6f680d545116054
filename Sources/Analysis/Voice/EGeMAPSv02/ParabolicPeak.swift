/// The vertex of the parabola through (−1, `left`), (0, `middle`), (1, `right`), as openSMILE's
/// components refine a peak of three samples: its offset from the middle sample,
/// ½(left − right)/(left − 2·middle + right), and its height, middle − ¼(left − right)·offset.
/// For a strict maximum the curvature is negative and both are finite.
func parabolicPeak(_ left: Double, _ middle: Double, _ right: Double) -> (offset: Double, height: Double) {
    let offset = 0.5 * (left - right) / (left - 2 * middle + right)
    return (offset, middle - 0.25 * (left - right) * offset)
}
