/// The eleven statistics of one tapping series (docs/analyses.md §1.3: mhealthtools `getStats`,
/// mPower-sdata's own functions), in R's column order, named statistic + series (`meanTapInter`,
/// `sdDriftLeft`); in the series' unit (intervals s, drift points) unless said otherwise.
public struct TapSeriesStatistics: Sendable, Hashable, SuffixNamedFeatures {
    /// Arithmetic mean (NaN when empty).
    public var mean: Double
    /// Median (type 7).
    public var median: Double
    /// Interquartile range, R's `IQR(type = 7)`.
    public var iqr: Double
    /// Smallest value (+∞ when empty, as R).
    public var min: Double
    /// Largest value (−∞ when empty, as R).
    public var max: Double
    /// Skewness: e1071 type 3 (mhealthtools) or population m3/m2^{3/2} (mPower-sdata), dimensionless.
    public var skew: Double
    /// Kurtosis: e1071 type 3 excess (mhealthtools) or population non-excess (mPower-sdata), dimensionless.
    public var kur: Double
    /// Sample standard deviation (n − 1).
    public var sd: Double
    /// R's `mad`: 1.4826 · median |v − median v|.
    public var mad: Double
    /// Coefficient of variation, percent: 100 · sd / mean.
    public var cv: Double
    /// max − min (−∞ when empty, as R).
    public var range: Double
}

/// The interval, drift and count features the mhealthtools and mPower-sdata sets share
/// (docs/analyses.md §1.3–1.4), in R's column order.
public struct TapIntervalFeatures: Sendable, Hashable, Encodable {
    /// Statistics of the intervals between kept taps, s (`…TapInter`).
    public var tapInter: TapSeriesStatistics
    /// Mean Teager–Kaiser energy of the intervals, s² (mhealthtools `tkeoTapInter`).
    public var tkeoTapInter: Double
    /// Lag-1 autocorrelation of the intervals (R `acf`), dimensionless.
    public var ar1TapInter: Double
    /// Lag-2 autocorrelation of the intervals, dimensionless.
    public var ar2TapInter: Double
    /// Mean of the first 10 % of intervals minus that of the last 10 %, s.
    public var fatigue10TapInter: Double
    /// The same over 25 %, s.
    public var fatigue25TapInter: Double
    /// The same over 50 %, s.
    public var fatigue50TapInter: Double
    /// Statistics of the distances between successive kept taps left of the kept taps' mean x, points (`…DriftLeft`).
    public var driftLeft: TapSeriesStatistics
    /// The same right of the mean x, points (`…DriftRight`).
    public var driftRight: TapSeriesStatistics
    /// Kept taps, count.
    public var numberTaps: Int
    /// Fraction of kept taps outside both buttons (button `None`), 0…1.
    public var buttonNoneFreq: Double
    /// Pearson correlation of the kept taps' x and y, dimensionless.
    public var corXY: Double
}

/// Sage-Bionetworks/mhealthtools 0.2.1 `get_tapping_features`: the 42 features in R's column
/// order, then `error`.
public struct MhealthtoolsTappingFeatures: Sendable, Hashable, Encodable {
    /// The interval, drift and count features (in place, R's names).
    public var intervals: TapIntervalFeatures
    /// mhealthtools' `error` column: null in a usable result (mhealthtools writes "None").
    public var error: String? = nil
}

/// Sage-Bionetworks/mPower-sdata `tappingHelpers.R` (Bot et al. 2016): the shared features with
/// population moments, then the intervals' detrended fluctuation exponent.
public struct MpowerSdataTappingFeatures: Sendable, Hashable, Encodable {
    /// The interval, drift and count features (in place, R's names).
    public var intervals: TapIntervalFeatures
    /// DFA exponent α of the intervals (mPower-sdata `dfaTapInter`), dimensionless.
    public var dfaTapInter: Double
}

/// Sage-Bionetworks/PDScores `features_bta.m` (Max Little).
public struct PDScoresTappingFeatures: Sendable, Hashable, Encodable {
    /// Median interval between kept taps, s.
    public var tapdt: Double
    /// Interquartile range of the intervals with type-5 quantiles (MATLAB `iqr`), s.
    public var tapiqr: Double
}

/// The peer set of a tapping score: the convention's features, or its error alone when the taps
/// cannot be scored (the peer's message, e.g. "post cleaning less than 5 tap points remain").
public enum TappingPeerFeatures: Sendable, Hashable, Encodable {
    case mhealthtools(MhealthtoolsTappingFeatures)
    case mpowerSdata(MpowerSdataTappingFeatures)
    case pdscores(PDScoresTappingFeatures)
    case unusable(error: String)

    /// The peer's error text when the input is unusable, else nil.
    public var error: String? {
        if case .unusable(let error) = self { error } else { nil }
    }

    private struct Unusable: Encodable {
        /// The peer's message saying why no features were computed.
        var error: String
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .mhealthtools(let features): try features.encode(to: encoder)
        case .mpowerSdata(let features): try features.encode(to: encoder)
        case .pdscores(let features): try features.encode(to: encoder)
        case .unusable(let error): try Unusable(error: error).encode(to: encoder)
        }
    }
}

/// Distances of button taps from their button's centre, points, named statistic + side
/// (`targetDistanceMeanPointsLeft`); null without button rects or taps on that side.
public struct TargetDistances: Sendable, Hashable, SuffixNamedFeatures {
    /// Mean distance, points.
    public var targetDistanceMeanPoints: Double?
    /// Median distance, points.
    public var targetDistanceMedianPoints: Double?
    /// Sample standard deviation of the distances (≥ 2 taps), points.
    public var targetDistanceSdPoints: Double?
}

/// ActiveTaskKit's own tapping features (docs/analyses.md §1.6): counts and rates of the taps,
/// geometry against the button rects (null without rects), dwell (ResearchKit serializer dialect
/// only) and extras on the mhealthtools intervals (null when fewer than 5 taps remain).
public struct TappingExtraFeatures: Sendable, Hashable, Encodable {
    /// Left/Right taps (after the mhealthtools de-duplication and stable time sort), count.
    public var buttonTapCount: Int
    /// Taps outside both buttons kept by the de-duplication, count.
    public var noneTapCount: Int
    /// None taps dropped for repeating an earlier None tap's (x, y), count.
    public var noneDuplicatesRemoved: Int
    /// Successive button taps on the same button, count.
    public var alternationErrorCount: Int
    /// Alternation errors per transition between successive button taps, 0…1.
    public var alternationErrorRate: Double?
    /// (kept taps − 1) / their time span, taps/s.
    public var keptTapRatePerSecond: Double?
    /// (button taps − 1) / their time span, taps/s.
    public var buttonTapRatePerSecond: Double?
    /// Left-button taps' distances from the left button's centre.
    public var left: TargetDistances
    /// Right-button taps' distances from the right button's centre.
    public var right: TargetDistances
    /// Every button tap's distance from its own button's centre.
    public var all: TargetDistances
    /// Taps inside neither button rect, count.
    public var outsideRectCount: Int?
    /// Taps whose label disagrees with the rect they fall in (Left outside the left rect, None inside one), count.
    public var labelGeometryMismatchCount: Int?
    /// Button taps inside their own button's rect, fraction 0…1.
    public var buttonHitRate: Double?
    /// Mean distance of None taps from the nearer rect, points.
    public var outsideDistanceMeanPoints: Double?
    /// Mean dwell (touch-down to touch-up) of button taps except the last, s.
    public var dwellMeanSeconds: Double?
    /// Median dwell, s.
    public var dwellMedianSeconds: Double?
    /// Sample standard deviation of the dwell times, s.
    public var dwellSdSeconds: Double?
    /// Coefficient of variation of the dwell times, percent.
    public var dwellCvPercent: Double?
    /// DFA exponent α of the mhealthtools intervals (Peng et al. 1994), dimensionless.
    public var dfaTapInter: Double?
    /// Mean of the first 10 % of intervals minus that of the last 10 %, at least one interval each, s.
    public var fatigue10SymTapInter: Double?
    /// The same over 25 %, s.
    public var fatigue25SymTapInter: Double?
    /// The same over 50 %, s.
    public var fatigue50SymTapInter: Double?
}
