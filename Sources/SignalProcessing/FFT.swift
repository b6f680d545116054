internal import CFFTW

/// Discrete Fourier transforms of one size through FFTW 3 (M. Frigo, S. G. Johnson, "The Design
/// and Implementation of FFTW3", Proc. IEEE 93(2), 2005), in Double and Float.
///
/// Conventions are FFTW's: forward X[k] = Σ x[n]·e^(−2πikn/N), inverse without the 1/N factor
/// (so inverse(forward(x)) = N·x). Complex data are interleaved (re, im) pairs. A real transform
/// of N samples has N/2 + 1 complex bins.
///
/// Plans are made with `FFTW_ESTIMATE` (never `FFTW_MEASURE` on the request path), cached per
/// (size, kind, precision, alignment) for the life of the process, and created under a lock
/// because FFTW's planner is not thread-safe; executing distinct arrays concurrently is safe
/// (FFTW manual §5.4 "Thread safety"). `FFT` values are cheap and `Sendable`; a value holds its
/// size's plans: the Double real-forward transform on aligned, distinct buffers takes no lock,
/// the others one uncontended lock and an array index. Measured by callgrind on the plan FFTW
/// makes from C (Benchmarks/peers/fftw_floor.c): +112 instructions per 256-point Double call
/// (+2.7 %), +202 per 256-point Float call (+8 %).
public struct FFT: Sendable, Hashable {
    /// Number of points N.
    public let size: Int
    private let plans: PlanCache.Plans
    /// The plan of the most frequent call, real → complex in Double on aligned, distinct
    /// buffers, resolved here so that call takes no lock.
    private let realForwardDouble: PlanCache.Plan

    /// - Throws: `FFTError.invalidSize` for N < 1.
    public init(size: Int) throws(FFTError) {
        guard size >= 1, size <= Int(Int32.max) else { throw .invalidSize(size) }
        self.size = size
        plans = PlanCache.shared.plans(size: size)
        realForwardDouble = plans.plan(.init(kind: .realForward, float: false, size: size, aligned: true, inPlace: false))
    }

    public static func == (a: FFT, b: FFT) -> Bool { a.size == b.size }
    public func hash(into hasher: inout Hasher) { hasher.combine(size) }

    /// Complex bins of a real transform: N/2 + 1.
    public var realBins: Int { size / 2 + 1 }

    // MARK: Double and Float (one implementation, ``execute(_:_:_:_:)``)

    /// Real → complex: `input` N samples, `output` 2·(N/2+1) interleaved values.
    public func forward(_ input: UnsafeBufferPointer<Double>, into output: UnsafeMutableBufferPointer<Double>) { execute(.realForward, input, output) }
    /// Real → complex in single precision.
    public func forward(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) { execute(.realForward, input, output) }

    /// Complex → real (unnormalised): `input` 2·(N/2+1) interleaved values, `output` N samples.
    /// `input` is preserved.
    public func inverse(_ input: UnsafeBufferPointer<Double>, into output: UnsafeMutableBufferPointer<Double>) { execute(.realInverse, input, output) }
    /// Complex → real in single precision.
    public func inverse(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) { execute(.realInverse, input, output) }

    /// Complex → complex: 2·N interleaved values each; `inverse` selects the +i sign.
    public func transform(_ input: UnsafeBufferPointer<Double>, into output: UnsafeMutableBufferPointer<Double>, inverse: Bool = false) {
        execute(inverse ? .complexInverse : .complexForward, input, output)
    }
    /// Complex → complex in single precision.
    public func transform(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>, inverse: Bool = false) {
        execute(inverse ? .complexInverse : .complexForward, input, output)
    }

    /// Every transform of either precision: checks the buffer sizes, takes the cached plan (the
    /// Double real-forward one on aligned, distinct buffers without a lock) and runs it.
    private func execute<T: FFTScalar>(_ kind: PlanCache.Kind, _ input: UnsafeBufferPointer<T>, _ output: UnsafeMutableBufferPointer<T>) {
        let (inputCount, outputCount) = switch kind {
        case .realForward: (size, 2 * realBins)
        case .realInverse: (2 * realBins, size)
        case .complexForward, .complexInverse: (2 * size, 2 * size)
        }
        precondition(input.count >= inputCount && output.count >= outputCount, "FFT buffer sizes")
        let source = UnsafeMutableRawPointer(mutating: input.baseAddress!), target = UnsafeMutableRawPointer(output.baseAddress!)
        let planned = kind == .realForward && !T.isFloat && source != target && aligned(source, target)
            ? realForwardDouble : plan(kind, float: T.isFloat, source, target)
        T.execute(kind, planned.pointer, source, target)
    }

    // MARK: Arrays

    /// Real → complex; returns 2·(N/2+1) interleaved values.
    public func forward(_ input: [Double]) -> [Double] {
        var output = [Double](repeating: 0, count: 2 * realBins)
        input.withUnsafeBufferPointer { inp in output.withUnsafeMutableBufferPointer { forward(inp, into: $0) } }
        return output
    }

    /// Complex → real (unnormalised); returns N samples.
    public func inverse(_ input: [Double]) -> [Double] {
        var output = [Double](repeating: 0, count: size)
        input.withUnsafeBufferPointer { inp in output.withUnsafeMutableBufferPointer { inverse(inp, into: $0) } }
        return output
    }

    /// Complex → complex; returns 2·N interleaved values.
    public func transform(_ input: [Double], inverse: Bool = false) -> [Double] {
        var output = [Double](repeating: 0, count: 2 * size)
        input.withUnsafeBufferPointer { inp in output.withUnsafeMutableBufferPointer { transform(inp, into: $0, inverse: inverse) } }
        return output
    }

    /// The cached plan for this size and these buffers' alignment and placement.
    private func plan(_ kind: PlanCache.Kind, float: Bool, _ input: UnsafeRawPointer?, _ output: UnsafeRawPointer?) -> PlanCache.Plan {
        plans.plan(.init(kind: kind, float: float, size: size, aligned: aligned(input, output),
                         inPlace: kind != .realInverse && input == output))
    }

    private func aligned(_ a: UnsafeRawPointer?, _ b: UnsafeRawPointer?) -> Bool {
        guard let a, let b else { return false }
        return fftw_alignment_of(UnsafeMutablePointer(mutating: a.assumingMemoryBound(to: Double.self))) == 0
            && fftw_alignment_of(UnsafeMutablePointer(mutating: b.assumingMemoryBound(to: Double.self))) == 0
    }
}

/// The FFTW functions of one precision (fftw_… for Double, fftwf_… for Float).
protocol FFTScalar: BinaryFloatingPoint {
    static var isFloat: Bool { get }
    /// Runs `plan` (made for `kind`) from `input` to `output`.
    static func execute(_ kind: PlanCache.Kind, _ plan: OpaquePointer, _ input: UnsafeMutableRawPointer, _ output: UnsafeMutableRawPointer)
}

extension Double: FFTScalar {
    static var isFloat: Bool { false }
    static func execute(_ kind: PlanCache.Kind, _ plan: OpaquePointer, _ input: UnsafeMutableRawPointer, _ output: UnsafeMutableRawPointer) {
        switch kind {
        case .realForward: fftw_execute_dft_r2c(plan, input.assumingMemoryBound(to: Double.self), output.assumingMemoryBound(to: fftw_complex.self))
        case .realInverse: fftw_execute_dft_c2r(plan, input.assumingMemoryBound(to: fftw_complex.self), output.assumingMemoryBound(to: Double.self))
        case .complexForward, .complexInverse:
            fftw_execute_dft(plan, input.assumingMemoryBound(to: fftw_complex.self), output.assumingMemoryBound(to: fftw_complex.self))
        }
    }
}

extension Float: FFTScalar {
    static var isFloat: Bool { true }
    static func execute(_ kind: PlanCache.Kind, _ plan: OpaquePointer, _ input: UnsafeMutableRawPointer, _ output: UnsafeMutableRawPointer) {
        switch kind {
        case .realForward: fftwf_execute_dft_r2c(plan, input.assumingMemoryBound(to: Float.self), output.assumingMemoryBound(to: fftwf_complex.self))
        case .realInverse: fftwf_execute_dft_c2r(plan, input.assumingMemoryBound(to: fftwf_complex.self), output.assumingMemoryBound(to: Float.self))
        case .complexForward, .complexInverse:
            fftwf_execute_dft(plan, input.assumingMemoryBound(to: fftwf_complex.self), output.assumingMemoryBound(to: fftwf_complex.self))
        }
    }
}

/// FFT set-up failures.
public enum FFTError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidSize(Int)

    public var description: String {
        switch self {
        case .invalidSize(let size): "FFT size must be between 1 and \(Int32.max), got \(size)"
        }
    }
}

/// The process-wide FFTW plan cache: one ``Plans`` table per size.
final class PlanCache: Sendable {
    enum Kind: Int, Hashable, Sendable { case realForward, realInverse, complexForward, complexInverse }

    struct Key: Hashable, Sendable {
        let kind: Kind
        let float: Bool
        let size: Int
        let aligned: Bool
        let inPlace: Bool

        /// Index of the plan in its size's table: 4 kinds × precision × alignment × placement.
        var slot: Int { kind.rawValue << 3 | (float ? 4 : 0) | (aligned ? 2 : 0) | (inPlace ? 1 : 0) }
    }

    /// An FFTW plan, never destroyed (plans live as long as the cache).
    final class Plan: @unchecked Sendable {
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
    }

    /// The plans of one size, made on first use.
    final class Plans: Sendable {
        private let slots = Locked<[Plan?]>(Array(repeating: nil, count: 32))

        func plan(_ key: Key) -> Plan {
            if let plan = slots.withLock({ $0[key.slot] }) { return plan }
            // FFTW's planner is not thread-safe: every plan is made under the cache's lock.
            let plan = PlanCache.shared.sizes.withLock { _ in
                slots.withLock { slots in
                    if let plan = slots[key.slot] { return plan }
                    let plan = Plan(PlanCache.make(key))
                    slots[key.slot] = plan
                    return plan
                }
            }
            return plan
        }
    }

    static let shared = PlanCache()
    private let sizes = Locked<[Int: Plans]>([:])

    func plans(size: Int) -> Plans {
        sizes.withLock { sizes in
            if let plans = sizes[size] { return plans }
            let plans = Plans()
            sizes[size] = plans
            return plans
        }
    }

    /// Plans on FFTW-allocated scratch arrays; unaligned callers get `FFTW_UNALIGNED` plans.
    /// Runs under the cache's lock: FFTW's planner is not thread-safe.
    private static func make(_ key: Key) -> OpaquePointer {
        let n = Int32(key.size)
        var flags = UInt32(FFTW_ESTIMATE)
        if !key.aligned { flags |= UInt32(FFTW_UNALIGNED) }
        if key.kind == .realInverse { flags |= UInt32(FFTW_PRESERVE_INPUT) }
        let complexCount = key.kind == .complexForward || key.kind == .complexInverse ? key.size : key.size / 2 + 1
        let realCount = key.kind == .complexForward || key.kind == .complexInverse ? 0 : key.size
        if key.float {
            let real = fftwf_alloc_real(max(1, realCount))!
            let complexIn = fftwf_alloc_complex(complexCount)!
            let complexOut = key.inPlace ? complexIn : fftwf_alloc_complex(complexCount)!
            defer {
                fftwf_free(real)
                fftwf_free(complexIn)
                if !key.inPlace { fftwf_free(complexOut) }
            }
            let plan: OpaquePointer? = switch key.kind {
            case .realForward:
                key.inPlace
                    ? complexIn.withMemoryRebound(to: Float.self, capacity: 2 * complexCount) { fftwf_plan_dft_r2c_1d(n, $0, complexIn, flags) }
                    : fftwf_plan_dft_r2c_1d(n, real, complexOut, flags)
            case .realInverse: fftwf_plan_dft_c2r_1d(n, complexIn, real, flags)
            case .complexForward: fftwf_plan_dft_1d(n, complexIn, complexOut, FFTW_FORWARD, flags)
            case .complexInverse: fftwf_plan_dft_1d(n, complexIn, complexOut, FFTW_BACKWARD, flags)
            }
            return plan!
        } else {
            let real = fftw_alloc_real(max(1, realCount))!
            let complexIn = fftw_alloc_complex(complexCount)!
            let complexOut = key.inPlace ? complexIn : fftw_alloc_complex(complexCount)!
            defer {
                fftw_free(real)
                fftw_free(complexIn)
                if !key.inPlace { fftw_free(complexOut) }
            }
            let plan: OpaquePointer? = switch key.kind {
            case .realForward:
                key.inPlace
                    ? complexIn.withMemoryRebound(to: Double.self, capacity: 2 * complexCount) { fftw_plan_dft_r2c_1d(n, $0, complexIn, flags) }
                    : fftw_plan_dft_r2c_1d(n, real, complexOut, flags)
            case .realInverse: fftw_plan_dft_c2r_1d(n, complexIn, real, flags)
            case .complexForward: fftw_plan_dft_1d(n, complexIn, complexOut, FFTW_FORWARD, flags)
            case .complexInverse: fftw_plan_dft_1d(n, complexIn, complexOut, FFTW_BACKWARD, flags)
            }
            return plan!
        }
    }
}
