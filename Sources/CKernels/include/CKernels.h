#ifndef ATK_CKERNELS_H
#define ATK_CKERNELS_H
/* The toolkit's own hot loops in C, each compiled three times (AVX-512, AVX2 with FMA, and the
 * x86-64 baseline SSE2; elsewhere the compiler's default) and chosen once at run time by what
 * the processor supports (`atk_kernel_level`). Pure functions of their arguments: no allocation,
 * no global state but the dispatch, and no reading or writing outside the ranges given. */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* First-order exponential averaging y[n] = y[n-1] + alpha*(x[n] - y[n-1]) of `input[0..<count]`
 * starting from *state (updated to y[count-1]). Writes every y[n] to `output` unless it is NULL
 * and returns the largest y[n] (-infinity when count is 0). */
double atk_exponential_average(double alpha, double *state, const double *input, double *output, size_t count);

/* Two such averages of one input in one pass (`alpha2`, `state2`; `output2` may be NULL),
 * each as atk_exponential_average computes it; their maxima go to *maximum and *maximum2.
 * With state2 NULL only the first is computed. `output` may be `input` (every value is read
 * before the same place is written). */
void atk_exponential_average_pair(double alpha, double *state, double *output, double *maximum, double alpha2,
                                  double *state2, double *output2, double *maximum2, const double *input, size_t count);

/* Squares `input[0..<count]` into `output` and returns their sum. Every sum of squares of these
 * kernels runs in one order: sixteen partial sums (term n in partial n mod 16, over whole runs of
 * sixteen) in four vectors p0…p3, t = (p0 + p2) + (p1 + p3) lane-wise, (t0 + t2) + (t1 + t3), then
 * the last fewer than sixteen terms added one by one; no fused multiply-add. */
double atk_square(const double *input, double *output, size_t count);

/* Σ input[n]², n < count, in atk_square's order (0 for count 0). */
double atk_sum_of_squares(const double *input, size_t count);

/* The sound level meter's whole-block sums in one pass: a_squares[n] = a[n]² and sums[0] = their
 * sum; sums[1] = Σ c[n]², sums[2] = Σ z[n]², each in atk_square's order: the same bits as the
 * separate passes. a_squares may be a, or start before it in the same memory (each square is
 * stored after the values at and before its place were loaded). */
void atk_meter_squares(const double *a, const double *c, const double *z, double *a_squares, size_t count, double *sums);

/* Channel `channel` of `frames` interleaved frames of `channels` into output[0..<frames] (nowhere
 * when output is NULL), and the largest |value| among them (NaN compares as nothing, so it never
 * is; 0 for no frames). */
double atk_channel_peak(const double *interleaved, size_t channels, size_t channel, double *output, size_t frames);

/* The true-peak meter (TruePeakMeter) over w[past..<count], whose first `past` values (at least
 * 23) are the samples before, in runs of `run` (at least `past`) samples: returns the largest of
 * `peak`, every |w[i]| and every |y_p(i)|, p < `phases` (0–4; 0: no interpolation),
 * y_p(i) = Σ_{j<24} h[24·p + j]·w[i − j] summed with j ascending (the same bits on every
 * instruction set). `previous`: the largest |w| of w[0..<past].
 * A run is interpolated only when its largest |w| (or the previous run's) times `gain` could
 * exceed the peak so far, and in it an output only when Σ_{k<4} central[k]·|w[i − first − k]|
 * + rest · that largest |w| could (widened by 1e-9 against rounding). Returns `peak` unchanged
 * for arguments outside these. */
#define ATK_TRUE_PEAK_TAPS 24
double atk_true_peak(const double *w, size_t count, size_t past, size_t run, const double *h, size_t phases,
                     const double *central, size_t first, double rest, double gain, double peak, double previous);

/* Eight cascades of `sections` (1 to 4) biquads in transposed direct form II, one per lane of an
 * eight-double vector; every lane runs `count` steps, lane j filtering inputs[j][0],
 * inputs[j][stride], … (all eight inputs must be readable for `count` steps). `coefficients`
 * holds, per section, b0, b1, b2, a1, a2 (a0 = 1) as runs of eight (lane 0 … 7); `state` per
 * section z1 and z2 as runs of eight, updated. Lane j reads step n from inputs[j][n·stride] and
 * writes the steps n in [first[j], end[j]) to outputs[j][(n − first[j])·output_stride], computing
 * the others without storing them (strides may be negative: a signal read and written backwards
 * from its last value); a NULL output is not written, and lanes after the last non-NULL output
 * are not run (the narrowest vector of 2, 4 or 8 lanes that holds the rest is used). Each lane
 * rounds exactly as the scalar cascade (no fused multiply-add), on every instruction set.
 * Every load of a step precedes its stores, so lanes may share one buffer in place when each
 * reads ahead of where the lanes before it write. Returns 0, or -1 (nothing done) for a section count
 * outside 1…4. */
int atk_biquad_lanes(const double *coefficients, double *state, size_t sections, const double *const *inputs, ptrdiff_t stride,
                     double *const *outputs, ptrdiff_t output_stride, const size_t *first, const size_t *end, size_t count);

/* Lag products out[m − first] = Σ_{j<window} x[j]·x[m + j] for m = first…last (x must hold
 * last + window values): sixteen partial sums (term j in partial j mod 16), summed in one fixed
 * tree, without fused multiply-adds, so every instruction set gives the same bits. */
void atk_lag_products(const double *x, size_t window, size_t first, size_t last, double *out);

/* The terms of one window correlation: *product = Σ a[j]·b[j], *energy = Σ b[j]² (both in
 * atk_lag_products' order) and *peak = max |b[j]| (0 when count is 0), j < count. */
void atk_correlation_terms(const double *a, const double *b, size_t count, double *product, double *energy, double *peak);

/* Praat's windowed-sinc interpolant (NUM_interpolate_sinc) of the even sequence r[−bound…bound]
 * held contiguous around `centre` (centre[k] = r[k], |k| ≤ bound; centre[k] readable, whatever it
 * holds, for |k| ≤ bound + 7: a side's last step loads eight values), at real lag x with `depth`
 * samples each side clipped to the sequence; near its ends Praat's lower orders (nearest, linear,
 * cubic), r[bound] for x beyond ±bound, NaN or ±∞. Each side Σ_k r·½ sin(πd)·(−1)^k/(πd + kπ)·(1 +
 * cos(θ0 + kφ)), sin πd and the window's first cosines by Taylor polynomials and the rest by the
 * Chebyshev recurrence in eight lanes eight steps apart; eight partial sums, one fixed order, no
 * fused multiply-adds (sinc.c: one lane of atk_sinc_values). */
double atk_sinc_value(const double *centre, ptrdiff_t bound, double x, ptrdiff_t depth);

/* atk_sinc_value at x[0…n−1] (one depth) into out[0…n−1], eight places' setups side by side in
 * vector lanes: each value the bits atk_sinc_value gives it. */
void atk_sinc_values(const double *centre, ptrdiff_t bound, const double *x, ptrdiff_t depth, size_t n, double *out);

/* The interpolant's maxima on [i − 1, i + 1] for i = places[0…n−1], each at depths[j], by Brent's
 * method with Praat's tolerance (1e-10 plus √ε·|x|, at most 100 steps): places to x[j], values to
 * y[j]. Eight searches at a time, their setups side by side in vector lanes; each gives what it
 * gives alone. */
void atk_sinc_maxima(const double *centre, ptrdiff_t bound, const ptrdiff_t *places, const ptrdiff_t *depths, size_t n, double *x,
                     double *y);

/* The interpolant's polynomials on eight values x[0…7] (|x| ≤ π/2) into out[0…7]: cos x in lanes
 * 0–5 and 7, sin x in lane 6 (for testing their accuracy). */
void atk_sinc_cosines(const double *x, double *out);

/* Dynamic acceleration against a gravity estimate, per sample i < count: u = g/|g| (0, 0, 1 when
 * |g| is 0), d = a − g, v = d·u, h = d − v·u and magnitude = |d|, each rounded as the scalar
 * expressions written left to right, without fused multiply-adds (the same bits on every
 * instruction set). sums[0] = Σ|g|, sums[1…3] = Σhx, Σhy, Σhz, each one chain in sample order. */
void atk_gravity_decompose(const double *x, const double *y, const double *z, const double *gx, const double *gy,
                           const double *gz, size_t count, double *v, double *hx, double *hy, double *hz, double *magnitude,
                           double *sums);

/* ln, lg and e^x of x[0..<n] in place (logexp.c: glibc's libmvec at the kernel level's width, at
 * most 4 ulp; a value gives the same result wherever it sits in the array). */
void atk_log_array(double *x, size_t n);
void atk_log10_array(double *x, size_t n);
void atk_exp_array(double *x, size_t n);

/* √x of x[0..<n] in place (squareroot.c), several per instruction: correctly rounded, the scalar
 * result on every instruction set. */
void atk_sqrt_array(double *x, size_t n);

/* One pass of FFTPACK's real transform of a power-of-two size (Swarztrauber's radf2/radf4 forward,
 * radb2/radb4 inverse, as Praat's NUMfft_d.cpp runs them) from cc into ch, with FFTPACK's ido, l1
 * and the pass's twiddles from wa (a radix-4 pass's three sets at wa, wa + ido, wa + 2·ido), on
 * `lanes` interleaved transforms (1, or 4: value j of transform l at [4j + l]). Each lane with
 * FFTPACK's operations in its order, no fused multiply-adds: the same bits on every instruction
 * set and for any lane count. Returns 0, or -1 (nothing done) for a radix other than 2 and 4 or
 * lanes other than 1 and 4. */
int atk_fftpack_pass(size_t lanes, int radix, int inverse, size_t ido, size_t l1, const double *cc, double *ch, const double *wa);

/* Praat's NUM_interpolate_sinc of y[1…n] (y[0…n − 1] here) at the eight 1-based real indices
 * x[0…7], each with `depth` samples each side, into out[0…7]: Σ y·½ sin(πd)·(−1)^k/(πd + kπ)·(1 +
 * cos(kφ + θ0)) per side, the window's cosine and sine by Praat's angle-addition recurrence, each
 * lane with the operations of Praat's one-place loop in their order. Returns 1, or 0 (nothing
 * written) unless depth ≥ 3 and every x lies strictly between samples with `depth` samples each
 * side (Praat's lower orders near the ends are the caller's). */
int atk_sinc_resample8(const double *y, size_t n, const double *x, ptrdiff_t depth, double *out);

/* The Aberth–Ehrlich sweeps of SignalProcessing's PolynomialRoots on the monic polynomial
 * m[0] + m[1]·z + … + m[n]·zⁿ (m[n] = 1, n ≥ 1) from the places re[k] + i·im[k], k < n, updated in
 * place: in each of at most `sweeps` sweeps every root not yet done stops if |p| ≤ 4ε·Σ|m_k|·|z|^k
 * there, or else takes the step w/(1 − w·Σ_{j≠i} 1/(z_i − z_j)), w = p/p′ (Smith's complex
 * division), the sum over the others' current places with j ascending, and stops once the step is
 * at most 10⁻¹⁵ of its size. Each root's p and p′ (Horner) and the sweep's inverses run four at a
 * time, each lane with the scalar operations in their order: the same bits on every instruction
 * set. `scratch` holds 11·n + 44 doubles. Returns 1, or 0 when a step stops being finite (the
 * places then undefined). */
int atk_aberth(const double *monic, size_t n, double *re, double *im, int sweeps, double *scratch);

/* The centred products of two windows (lagproducts.c): out[0] = Σ(a[j] − ā)(b[j] − b̄), out[1] =
 * Σ(a[j] − ā)², out[2] = Σ(b[j] − b̄)², j < n, ā = mean_a and b̄ = mean_b as given: eight
 * partial sums (term j in lane j mod 8 over whole runs of eight), the lanes added in order from
 * −0, then the last 0–7 terms; no fused multiply-add, so the same bits on every instruction set. */
void atk_centred_products(const double *a, const double *b, size_t n, double mean_a, double mean_b, double *out);

/* One step's sums of Burg's recursion (burg.c): *numerator = Σ b1[j]·b2[j] and *denominator =
 * Σ b1[j]² + b2[j]², j < n, accumulated in twice the working precision (eight lanes of
 * double-double sums, Ogita–Rump–Oishi's Dot2, joined by one fixed tree) and rounded once: the same
 * bits on every instruction set, within an ulp or two of the exact sums while no product
 * underflows. */
void atk_burg_sums(const double *b1, const double *b2, size_t n, double *numerator, double *denominator);

/* The k-th and (k + 1)-th smallest of a[0..n) (0-based; k + 1 < n; no NaN; of two equal zeros
 * either sign) into *kth and *next (orderpair.c): three-way partitions around the median of the
 * first, middle and last value, the values below the pivot compacted in place and those above
 * copied to the other buffer, eight at a time with AVX-512; the last 16 or fewer values, or what
 * is left after 2·log₂ n + 4 rounds, sorted. Overwrites a and `scratch` (n doubles). Exact order
 * statistics: the same values on every instruction set. */
void atk_order_pair(double *a, size_t n, size_t k, double *scratch, double *kth, double *next);

/* Frames' spectra (spectra.c), each value rounded as the scalar expression, no fused multiply-add:
 * the same bits on every instruction set.
 * atk_windowed: out[j] = x[j]·w[j], j < n.
 * atk_power: out[k·stride] = re² + im² of bin k < bins of a real transform's output, stored as
 * (re, im) pairs.
 * atk_power_lanes: lanes[8k + l] = re² + im² of bin k < bins of spectra[l], l < 8 (eight real
 * transforms' outputs as (re, im) pairs): eight frames' power spectra side by side.
 * atk_band_sums: eight frames side by side, lanes[8k + l] the value of bin k in frame l; for each
 * band b < bands, out[8b + l] = Σ weights[b·bins + k]·lanes[8k + l] over its bins k from
 * spans[2b] to spans[2b + 1] − 1, in that order, from 0.
 * atk_matrix_rows: for each of `count` frames of `length` values (frames[f·length + n]), out[f·8g'
 * + 8g + l] (g' = groups) = Σ_n frames[f·length + n]·columns[(g·length + n)·8 + l] in n order from
 * 0: row 8g + l of a matrix stored eight rows side by side per group.
 * atk_weighted_rows: out[j] = Σ_k weights[k]·rows[k][j] in k order from 0, k < count, j < n. */
void atk_windowed(const double *x, const double *w, double *out, size_t n);
void atk_power(const double *spectrum, size_t bins, double *out, ptrdiff_t stride);
void atk_power_lanes(const double *const *spectra, size_t bins, double *lanes);
void atk_band_sums(const double *lanes, const double *weights, size_t bins, const size_t *spans, size_t bands, double *out);
void atk_matrix_rows(const double *frames, size_t count, size_t length, const double *columns, size_t groups, double *out);
void atk_weighted_rows(const double *const *rows, const double *weights, size_t count, size_t n, double *out);

/* out[i] = Σ_{k<terms} a_k·cos kθ_i − b_k·sin kθ_i for i < n, (a_k, b_k) = pairs[2k], pairs[2k + 1]
 * (a real transform's interleaved bins), from two_cos[i] = 2·cos θ_i, cos_t[i]
 * and sin_t[i] (trigseries.c: Clenshaw's recurrence in vector lanes over i, no fused multiply-add;
 * the same bits on every instruction set). Its rounding grows with the terms, most near θ = 0
 * and π: within about terms²·ε·Σ|a_k| + |b_k| (a real spectrum resampled, not a reference sum). */
void atk_trig_series(const double *pairs, size_t terms, const double *two_cos, const double *cos_t, const double *sin_t,
                     size_t n, double *out);

/* The instruction set the kernels run with: 3 AVX-512, 2 AVX2 + FMA, 1 baseline. */
int atk_kernel_level(void);

#ifdef __cplusplus
}
#endif
#endif
