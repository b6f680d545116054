/// The sphere location fixes are measured on (docs/analyses.md §7.2).
public enum Earth {
    /// The mean radius R₁ = (2a + b)/3 of the WGS 84 ellipsoid, m (IUGG), the radius of the
    /// haversine distances between fixes.
    public static let meanRadiusMeters = 6_371_008.8
}
