/* Praat's windowed-sinc interpolant and its Brent maximum (CKernels.h, atk_sinc_value). */
#include "CKernels.h"

#include <math.h>
#include <string.h>

/* The same bits on every instruction set: no contraction, one order for all (see lagproducts.c). */
#pragma STDC FP_CONTRACT OFF
#pragma GCC diagnostic ignored "-Wpsabi"

#define INLINE static inline __attribute__((always_inline))

typedef double v4 __attribute__((vector_size(32), aligned(8)));
typedef double v8 __attribute__((vector_size(64), aligned(8)));

/* π as a double, the value of Swift's Double.pi. */
static const double pi = 3.141592653589793115997963468544185161590576171875;

/* Four values from p in direction ±1 (p[0], p[±1], p[±2], p[±3]); only the first `available`
 * (at most 4) are read, the others are 0. */
INLINE v4 load_direction(const double *p, int reversed, size_t available) {
    v4 v = {0, 0, 0, 0};
    if (available >= 4) {
        if (reversed) {
            memcpy(&v, p - 3, sizeof v);
            return __builtin_shufflevector(v, v, 3, 2, 1, 0);
        }
        memcpy(&v, p, sizeof v);
        return v;
    }
    for (size_t j = 0; j < available; j++) v[j] = reversed ? p[-(ptrdiff_t)j] : p[j];
    return v;
}

/* Eight lanes, terms k ≡ l (mod 8) in lane l: two vectors of four, each lane's window cosine by
 * the recurrence eight steps apart, cos(θ + 8φ) = 2·cos 8φ·cos θ − cos(θ − 8φ), from the sixteen
 * cosines cos(θ0 + kφ), k = −8…7, of the one-step recurrence. The last 1–7 terms run as one more
 * step with the missing values 0. The eight partial sums are added pairwise within each vector,
 * then the two. */
INLINE double side_body(const double *p, int reversed, size_t count, double start, double half_sin, double c0, double cm1,
                        double cos_step) {
    const double two_cos_step = 2 * cos_step;
    const double cos2 = 0.5 * two_cos_step * two_cos_step - 1, two_cos2 = 2 * cos2;
    const double cos4 = 2 * cos2 * cos2 - 1, two_cos8 = 2 * (2 * cos4 * cos4 - 1);
    /* c[k + 8] = cos(θ0 + kφ): k = 1 and −2 by one step, then two steps at a time, four chains
     * of three (the one-step chain would be fourteen long). */
    double c[16];
    c[8] = c0;
    c[7] = cm1;
    c[9] = two_cos_step * c0 - cm1;
    c[6] = two_cos_step * cm1 - c0;
    for (int k = 10; k < 16; k++) c[k] = two_cos2 * c[k - 2] - c[k - 4];
    for (int k = 5; k >= 0; k--) c[k] = two_cos2 * c[k + 2] - c[k + 4];
    v4 cos_a = {c[8], c[9], c[10], c[11]}, cos_b = {c[12], c[13], c[14], c[15]};
    v4 previous_a = {c[0], c[1], c[2], c[3]}, previous_b = {c[4], c[5], c[6], c[7]};
    v4 a = {start, start + pi, start + 2 * pi, start + 3 * pi};
    v4 b = {start + 4 * pi, start + 5 * pi, start + 6 * pi, start + 7 * pi};
    const v4 signs = {half_sin, -half_sin, half_sin, -half_sin};
    const v4 advance = {8 * pi, 8 * pi, 8 * pi, 8 * pi};
    v4 sums_a = {0, 0, 0, 0}, sums_b = sums_a;
    const ptrdiff_t step = reversed ? -1 : 1;
    size_t k = 0;
    for (; k + 8 <= count; k += 8, p += 8 * step) {
        sums_a += load_direction(p, reversed, 4) * signs / a * (1 + cos_a);
        sums_b += load_direction(p + 4 * step, reversed, 4) * signs / b * (1 + cos_b);
        a += advance;
        b += advance;
        const v4 next_a = two_cos8 * cos_a - previous_a, next_b = two_cos8 * cos_b - previous_b;
        previous_a = cos_a;
        previous_b = cos_b;
        cos_a = next_a;
        cos_b = next_b;
    }
    const size_t rest = count - k;
    if (rest > 0) {
        sums_a += load_direction(p, reversed, rest < 4 ? rest : 4) * signs / a * (1 + cos_a);
        if (rest > 4) sums_b += load_direction(p + 4 * step, reversed, rest - 4) * signs / b * (1 + cos_b);
    }
    return ((sums_a[0] + sums_a[1]) + (sums_a[2] + sums_a[3])) + ((sums_b[0] + sums_b[1]) + (sums_b[2] + sums_b[3]));
}

/* Lanes 0–5 and 7: cos x; lane 6: sin x; each for |x| ≤ π/2, by the Taylor series to x²⁴/24! and
 * x²⁵/25! (Abramowitz & Stegun 4.3.65–66; the first term left out is below 3·10⁻²² there), a
 * polynomial in x² of degree 12: its terms from x⁴ on by Estrin's scheme (pairs, then pairs of
 * pairs with x⁴, x⁸, x¹⁶), the last two by Horner's rule (their rounding as Horner's, within an
 * ulp): six dependent multiply–add steps instead of twelve. */
INLINE void cosines_and_sine(const double *in, double *out) {
#define SINE_IN_LANE_6(c, s) {c, c, c, c, c, c, s, c}
    static const v8 k[13] = {
        SINE_IN_LANE_6(1 / 1.0, 1 / 1.0),
        SINE_IN_LANE_6(-1 / 2.0, -1 / 6.0),
        SINE_IN_LANE_6(1 / 24.0, 1 / 120.0),
        SINE_IN_LANE_6(-1 / 720.0, -1 / 5040.0),
        SINE_IN_LANE_6(1 / 40320.0, 1 / 362880.0),
        SINE_IN_LANE_6(-1 / 3628800.0, -1 / 39916800.0),
        SINE_IN_LANE_6(1 / 479001600.0, 1 / 6227020800.0),
        SINE_IN_LANE_6(-1 / 87178291200.0, -1 / 1307674368000.0),
        SINE_IN_LANE_6(1 / 20922789888000.0, 1 / 355687428096000.0),
        SINE_IN_LANE_6(-1 / 6402373705728000.0, -1 / 121645100408832000.0),
        SINE_IN_LANE_6(1 / 2432902008176640000.0, 1 / 51090942171709440000.0),
        SINE_IN_LANE_6(-1 / 1124000727777607680000.0, -1 / 25852016738884976640000.0),
        SINE_IN_LANE_6(1 / 620448401733239439360000.0, 1 / 15511210043330985984000000.0),
    };
#undef SINE_IN_LANE_6
    v8 x;
    memcpy(&x, in, sizeof x);
    const v8 y = x * x, y2 = y * y, y4 = y2 * y2, y8 = y4 * y4;
    const v8 q0 = (k[2] + k[3] * y) + (k[4] + k[5] * y) * y2, q1 = (k[6] + k[7] * y) + (k[8] + k[9] * y) * y2;
    const v8 q2 = (k[10] + k[11] * y) + k[12] * y2;
    /* cos x = 1 + x²·t, sin x = x + x·x²·t, t = k1 + x²·(k2 + …) (k0 = 1 in both). */
    const v8 m = {1, 1, 1, 1, 1, 1, x[6], 1};
    const v8 sum = m + (m * y) * (((q0 + q1 * y4) + q2 * y8) * y + k[1]);
    memcpy(out, &sum, sizeof sum);
}

/* r[k] of the mirrored sequence r[−bound…bound] around `centre`, 0 beyond it. */
INLINE double at(const double *centre, ptrdiff_t bound, ptrdiff_t k) { return k >= -bound && k <= bound ? centre[k] : 0; }

INLINE double value_body(const double *centre, ptrdiff_t bound, double x, ptrdiff_t depth) {
    if (!(x >= -(double)bound && x <= (double)bound)) return centre[bound]; /* NaN, ±∞, beyond ±B */
    const ptrdiff_t mid_left = (ptrdiff_t)floor(x), mid_right = mid_left + 1;
    if (x == (double)mid_left) return centre[mid_left];
    ptrdiff_t span = depth;
    if (mid_right + bound < span) span = mid_right + bound;
    if (bound - mid_left < span) span = bound - mid_left;
    const double yl = at(centre, bound, mid_left), yr = at(centre, bound, mid_right);
    if (span <= 0) return at(centre, bound, (ptrdiff_t)floor(x + 0.5));
    if (span == 1) return yl + (x - (double)mid_left) * (yr - yl);
    if (span == 2) {
        const double dyl = 0.5 * (yr - at(centre, bound, mid_left - 1)), dyr = 0.5 * (at(centre, bound, mid_right + 1) - yl);
        const double fil = x - (double)mid_left, fir = (double)mid_right - x;
        return yl * fir + yr * fil - fil * fir * (0.5 * (dyr - dyl) + (fil - 0.5) * (dyl + dyr - 2 * (yr - yl)));
    }
    const ptrdiff_t left = mid_right - span, right = mid_left + span;
    const double fraction = x - (double)mid_left;
    const double start_left = pi * fraction, start_right = pi * ((double)mid_right - x);
    const double scale_left = 1 / (x - (double)left + 1), scale_right = 1 / ((double)right - x + 1);
    const double step_left = pi * scale_left, step_right = pi * scale_right;
    /* The window's six starting cosines (each side: its first angle, the one before, the step),
     * all within ±π/3 since span ≥ 3; and sin πf = sin πg, g = min(f, 1 − f) ≤ ½ (one sine for
     * both sides), as sin πg for g ≤ ¼ and cos π(½ − g) above (½ − g exact there): arguments
     * within π/4, where the polynomials are within an ulp. */
    const double g = fraction <= 0.5 ? fraction : 1 - fraction;
    const double angles[8] = {start_left * scale_left, start_left * scale_left - step_left, step_left, start_right * scale_right,
                              start_right * scale_right - step_right, step_right, pi * g, pi * (0.5 - g)};
    double c[8];
    cosines_and_sine(angles, c);
    const double half_sin = 0.5 * (g <= 0.25 ? c[6] : c[7]);
    return side_body(centre + mid_left, 1, (size_t)(mid_left - left + 1), start_left, half_sin, c[0], c[1], c[2])
        + side_body(centre + mid_right, 0, (size_t)(right - mid_right + 1), start_right, half_sin, c[3], c[4], c[5]);
}

/* Brent's minimisation of −value on [i − 1, i + 1] (R. P. Brent, "Algorithms for Minimization
 * without Derivatives", 1973, ch. 5: golden-section steps with parabolic interpolation), with the
 * tolerance Praat's NUMimproveMaximum gives its NUMminimize_brent (1e-10, plus √ε·|x|). */
INLINE double maximum_body(const double *centre, ptrdiff_t bound, ptrdiff_t i, ptrdiff_t depth, double *place) {
    const double golden = 0.3819660112501051; /* (3 − √5) / 2 */
    const double sqrt_epsilon = 0x1p-26, tolerance = 1e-10;
    double a = (double)i - 1, b = (double)i + 1;
    double x = a + golden * (b - a), w = x, v = x;
    double fx = -value_body(centre, bound, x, depth), fw = fx, fv = fx;
    double d = 0, e = 0;
    for (int iteration = 0; iteration < 100; iteration++) {
        const double middle = 0.5 * (a + b);
        const double tol1 = sqrt_epsilon * fabs(x) + tolerance / 3, tol2 = 2 * tol1;
        if (fabs(x - middle) <= tol2 - 0.5 * (b - a)) break;
        int parabolic = 0;
        if (fabs(e) > tol1) {
            /* The parabola through (x, fx), (w, fw), (v, fv). */
            double t = (x - w) * (fx - fv);
            double q = (x - v) * (fx - fw);
            double p = (x - v) * q - (x - w) * t;
            q = 2 * (q - t);
            if (q > 0) p = -p;
            else q = -q;
            t = e;
            e = d;
            if (fabs(p) < fabs(0.5 * q * t) && p > q * (a - x) && p < q * (b - x)) {
                d = p / q;
                const double u = x + d;
                if (u - a < tol2 || b - u < tol2) d = x < middle ? tol1 : -tol1;
                parabolic = 1;
            }
        }
        if (!parabolic) {
            e = (x < middle ? b : a) - x;
            d = golden * e;
        }
        const double u = fabs(d) >= tol1 ? x + d : x + (d > 0 ? tol1 : -tol1);
        const double fu = -value_body(centre, bound, u, depth);
        if (fu <= fx) {
            if (u < x) b = x;
            else a = x;
            v = w, fv = fw, w = x, fw = fx, x = u, fx = fu;
        } else {
            if (u < x) a = u;
            else b = u;
            if (fu <= fw || w == x) {
                v = w, fv = fw, w = u, fw = fu;
            } else if (fu <= fv || v == x || v == w) {
                v = u, fv = fu;
            }
        }
    }
    *place = x;
    return -fx;
}

#define SINC_INSTANCE(attribute, suffix)                                                                          \
    attribute static double value_##suffix(const double *centre, ptrdiff_t bound, double x, ptrdiff_t depth) {    \
        return value_body(centre, bound, x, depth);                                                             \
    }                                                                                                           \
    attribute static double maximum_##suffix(const double *centre, ptrdiff_t bound, ptrdiff_t i, ptrdiff_t depth, \
                                             double *place) {                                                   \
        return maximum_body(centre, bound, i, depth, place);                                                    \
    }                                                                                                           \
    attribute static void cosines_##suffix(const double *x, double *out) { cosines_and_sine(x, out); }

SINC_INSTANCE(, 1)
#if defined(__x86_64__)
SINC_INSTANCE(__attribute__((target("avx2,fma"))), 2)
SINC_INSTANCE(__attribute__((target("avx512f,avx512vl,avx512dq,avx2,fma"))), 3)
#define SINC_DISPATCH(name, ...)                         \
    switch (atk_kernel_level()) {                        \
    case 3: return name##_3(__VA_ARGS__);                \
    case 2: return name##_2(__VA_ARGS__);                \
    default: return name##_1(__VA_ARGS__);               \
    }
#else
#define SINC_DISPATCH(name, ...) return name##_1(__VA_ARGS__);
#endif

double atk_sinc_value(const double *centre, ptrdiff_t bound, double x, ptrdiff_t depth) {
    SINC_DISPATCH(value, centre, bound, x, depth)
}

double atk_sinc_maximum(const double *centre, ptrdiff_t bound, ptrdiff_t i, ptrdiff_t depth, double *place) {
    SINC_DISPATCH(maximum, centre, bound, i, depth, place)
}

void atk_sinc_cosines(const double *x, double *out) {
#if defined(__x86_64__)
    switch (atk_kernel_level()) {
    case 3: cosines_3(x, out); return;
    case 2: cosines_2(x, out); return;
    default: break;
    }
#endif
    cosines_1(x, out);
}
