/* Praat's windowed-sinc interpolant and its Brent maxima (CKernels.h, atk_sinc_value, atk_sinc_maxima). */
#include "vectors.h"

#include <math.h>
#include <string.h>

/* The same bits on every instruction set: no contraction, one order for all (see lagproducts.c). */
#pragma STDC FP_CONTRACT OFF

/* p[0], p[±1], …, p[±7], in direction ±1. */
INLINE v8 load_eight(const double *p, int reversed) {
    v8 v;
    if (reversed) {
        memcpy(&v, p - 7, sizeof v);
        return __builtin_shufflevector(v, v, 7, 6, 5, 4, 3, 2, 1, 0);
    }
    memcpy(&v, p, sizeof v);
    return v;
}

/* The first `available` (fewer than 8) of p[0], p[±1], …, p[±7], the others +0: one load of
 * eight (readable: the sequence's room of seven values beyond each end) with the lanes from
 * `available` on cleared bit by bit, whatever they held. */
INLINE v8 load_partial(const double *p, int reversed, size_t available) {
    const v8 lanes = {0, 1, 2, 3, 4, 5, 6, 7};
    return (v8)((m8)load_eight(p, reversed) & (m8)(lanes < (double)available));
}

/* One side of the interpolant at one place: its first value p[0] and the direction it reads
 * (−1 on the left), a_0 = start, h = half_sin, and the window's cosines cos θ0 = c0,
 * cos(θ0 − φ) = cm1 and cos φ = cs. */
typedef struct {
    const double *p;
    int reversed;
    double start, half_sin, c0, cm1, cs;
} side;

/* Σ_{k<count} v_k·h·(−1)^k/a_k·(1 + cos(θ0 + kφ)) for each of `n` sides (2: one place, 4: two;
 * all of `count` terms) in one loop, so that the sides' chains overlap. Eight lanes per side, terms
 * k ≡ l (mod 8) in lane l, each lane's window cosine by the recurrence eight steps apart,
 * cos(θ + 8φ) = 2·cos 8φ·cos θ − cos(θ − 8φ), from the sixteen cosines cos(θ0 + kφ), k = −8…7,
 * of the one-step recurrence. The last 1–7 terms run as one more step with the missing values
 * 0. Each side's eight partial sums are added pairwise: ((0 + 1) + (2 + 3)) + ((4 + 5) + (6 + 7)).
 * Every side's lanes see the same operations in the same order whatever n is. */
INLINE void sides(const side *s, int n, size_t count, double *out) {
    v8 cos_now[4], previous[4], a[4], signs[4], sums[4];
    double two_cos8[4];
    _Pragma("clang loop unroll(full)") for (int j = 0; j < n; j++) {
        const double two_cos_step = 2 * s[j].cs;
        const double cos2 = 0.5 * two_cos_step * two_cos_step - 1, two_cos2 = 2 * cos2;
        const double cos4 = 2 * cos2 * cos2 - 1;
        two_cos8[j] = 2 * (2 * cos4 * cos4 - 1);
        /* c[k + 8] = cos(θ0 + kφ): k = 1 and −2 by one step, then two steps at a time, four
         * chains of three (the one-step chain would be fourteen long). */
        double c[16];
        c[8] = s[j].c0;
        c[7] = s[j].cm1;
        c[9] = two_cos_step * c[8] - c[7];
        c[6] = two_cos_step * c[7] - c[8];
        for (int k = 10; k < 16; k++) c[k] = two_cos2 * c[k - 2] - c[k - 4];
        for (int k = 5; k >= 0; k--) c[k] = two_cos2 * c[k + 2] - c[k + 4];
        memcpy(&cos_now[j], c + 8, sizeof(v8));
        memcpy(&previous[j], c, sizeof(v8));
        const double start = s[j].start, h = s[j].half_sin;
        a[j] = (v8){start, start + pi, start + 2 * pi, start + 3 * pi, start + 4 * pi, start + 5 * pi, start + 6 * pi, start + 7 * pi};
        signs[j] = (v8){h, -h, h, -h, h, -h, h, -h};
        sums[j] = (v8){0, 0, 0, 0, 0, 0, 0, 0};
    }
    size_t k = 0;
    for (; k + 8 <= count; k += 8) {
        _Pragma("clang loop unroll(full)") for (int j = 0; j < n; j++) {
            sums[j] += load_eight(s[j].reversed ? s[j].p - k : s[j].p + k, s[j].reversed) * signs[j] / a[j] * (1 + cos_now[j]);
            a[j] += 8 * pi;
            const v8 next = two_cos8[j] * cos_now[j] - previous[j];
            previous[j] = cos_now[j];
            cos_now[j] = next;
        }
    }
    _Pragma("clang loop unroll(full)") for (int j = 0; j < n; j++) {
        if (k < count)
            sums[j] += load_partial(s[j].reversed ? s[j].p - k : s[j].p + k, s[j].reversed, count - k) * signs[j] / a[j] * (1 + cos_now[j]);
        const v8 t = sums[j];
        out[j] = ((t[0] + t[1]) + (t[2] + t[3])) + ((t[4] + t[5]) + (t[6] + t[7]));
    }
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

/* Where the interpolant at x needs no sum (`*value` set, returns 0: x an integer, beyond ±B, NaN,
 * ±∞, or a span of at most 2, Praat's lower orders), or its two sides of `*count` terms each
 * (returns 1). */
INLINE int setup(const double *centre, ptrdiff_t bound, double x, ptrdiff_t depth, double *value, side *both, size_t *count) {
    if (!(x >= -(double)bound && x <= (double)bound)) { /* NaN, ±∞, beyond ±B */
        *value = centre[bound];
        return 0;
    }
    const ptrdiff_t mid_left = (ptrdiff_t)floor(x), mid_right = mid_left + 1;
    if (x == (double)mid_left) {
        *value = centre[mid_left];
        return 0;
    }
    ptrdiff_t span = depth;
    if (mid_right + bound < span) span = mid_right + bound;
    if (bound - mid_left < span) span = bound - mid_left;
    const double yl = at(centre, bound, mid_left), yr = at(centre, bound, mid_right);
    if (span <= 2) {
        if (span <= 0) {
            *value = at(centre, bound, (ptrdiff_t)floor(x + 0.5));
        } else if (span == 1) {
            *value = yl + (x - (double)mid_left) * (yr - yl);
        } else {
            const double dyl = 0.5 * (yr - at(centre, bound, mid_left - 1)), dyr = 0.5 * (at(centre, bound, mid_right + 1) - yl);
            const double fil = x - (double)mid_left, fir = (double)mid_right - x;
            *value = yl * fir + yr * fil - fil * fir * (0.5 * (dyr - dyl) + (fil - 0.5) * (dyl + dyr - 2 * (yr - yl)));
        }
        return 0;
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
    both[0] = (side){centre + mid_left, 1, start_left, half_sin, c[0], c[1], c[2]};
    both[1] = (side){centre + mid_right, 0, start_right, half_sin, c[3], c[4], c[5]};
    *count = (size_t)span; /* mid_left − left + 1 = right − mid_right + 1 */
    return 1;
}

INLINE double value_body(const double *centre, ptrdiff_t bound, double x, ptrdiff_t depth) {
    double value, sums[2];
    side both[2];
    size_t count;
    if (!setup(centre, bound, x, depth, &value, both, &count)) return value;
    sides(both, 2, count, sums);
    return sums[0] + sums[1];
}

/* The interpolant at two places, each as value_body gives it: their four sides in one loop when
 * both need sums of the same length. */
INLINE void value_pair(const double *centre, ptrdiff_t bound, const double *x, const ptrdiff_t *depth, double *value) {
    side four[4];
    size_t count[2];
    const int summed0 = setup(centre, bound, x[0], depth[0], &value[0], four, &count[0]);
    const int summed1 = setup(centre, bound, x[1], depth[1], &value[1], four + 2, &count[1]);
    if (summed0 && summed1 && count[0] == count[1]) {
        double sums[4];
        sides(four, 4, count[0], sums);
        value[0] = sums[0] + sums[1];
        value[1] = sums[2] + sums[3];
        return;
    }
    for (int j = 0; j < 2; j++) {
        if (!(j == 0 ? summed0 : summed1)) continue;
        double sums[2];
        sides(four + 2 * j, 2, count[j], sums);
        value[j] = sums[0] + sums[1];
    }
}

/* Brent's minimisation of −value on [i − 1, i + 1] (R. P. Brent, "Algorithms for Minimization
 * without Derivatives", 1973, ch. 5: golden-section steps with parabolic interpolation), with the
 * tolerance Praat's NUMimproveMaximum gives its NUMminimize_brent (1e-10, plus √ε·|x|), at most
 * 100 steps after the first place; one search as a state that names the next place `u` to
 * evaluate, so that two searches can share the interpolant's loop. */
typedef struct {
    double a, b, x, w, v, fx, fw, fv, d, e, u;
    int steps;
} brent;

static const double golden = 0.3819660112501051; /* (3 − √5) / 2 */

INLINE void brent_start(brent *s, ptrdiff_t i) {
    s->a = (double)i - 1;
    s->b = (double)i + 1;
    s->u = s->a + golden * (s->b - s->a);
    s->steps = -1;
}

/* Takes the value at u; returns 1 with the next place in u, or 0 when the search has ended. */
INLINE int brent_step(brent *s, double value) {
    const double sqrt_epsilon = 0x1p-26, tolerance = 1e-10;
    const double fu = -value;
    double a = s->a, b = s->b, x = s->x, w = s->w, v = s->v, fx = s->fx, fw = s->fw, fv = s->fv, d = s->d, e = s->e;
    const double u = s->u;
    if (s->steps < 0) {
        x = w = v = u;
        fx = fw = fv = fu;
        d = e = 0;
    } else if (fu <= fx) {
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
    s->steps++;
    const double middle = 0.5 * (a + b);
    const double tol1 = sqrt_epsilon * fabs(x) + tolerance / 3, tol2 = 2 * tol1;
    int more = s->steps < 100 && !(fabs(x - middle) <= tol2 - 0.5 * (b - a));
    if (more) {
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
                const double next = x + d;
                if (next - a < tol2 || b - next < tol2) d = x < middle ? tol1 : -tol1;
                parabolic = 1;
            }
        }
        if (!parabolic) {
            e = (x < middle ? b : a) - x;
            d = golden * e;
        }
        s->u = fabs(d) >= tol1 ? x + d : x + (d > 0 ? tol1 : -tol1);
    }
    s->a = a, s->b = b, s->x = x, s->w = w, s->v = v, s->fx = fx, s->fw = fw, s->fv = fv, s->d = d, s->e = e;
    return more;
}

/* The maxima around places[0…n−1], two searches at a time: whenever one ends, the next place's
 * search takes its turn. Each search evaluates the same places as it would alone. */
INLINE void maxima_body(const double *centre, ptrdiff_t bound, const ptrdiff_t *places, const ptrdiff_t *depths, size_t n, double *x,
                        double *y) {
    brent search[2];
    size_t which[2] = {0, 0}, started = 0;
    int live[2] = {0, 0};
    for (;;) {
        for (int j = 0; j < 2; j++) {
            if (live[j] || started == n) continue;
            which[j] = started++;
            brent_start(&search[j], places[which[j]]);
            live[j] = 1;
        }
        double value[2];
        if (live[0] && live[1]) {
            const double u[2] = {search[0].u, search[1].u};
            const ptrdiff_t depth[2] = {depths[which[0]], depths[which[1]]};
            value_pair(centre, bound, u, depth, value);
        } else if (live[0] || live[1]) {
            const int j = live[0] ? 0 : 1;
            value[j] = value_body(centre, bound, search[j].u, depths[which[j]]);
        } else {
            return;
        }
        for (int j = 0; j < 2; j++) {
            if (!live[j] || brent_step(&search[j], value[j])) continue;
            live[j] = 0;
            x[which[j]] = search[j].x;
            y[which[j]] = -search[j].fx;
        }
    }
}

#define SINC_INSTANCE(attribute, suffix)                                                                          \
    attribute static double value_##suffix(const double *centre, ptrdiff_t bound, double x, ptrdiff_t depth) {    \
        return value_body(centre, bound, x, depth);                                                             \
    }                                                                                                           \
    attribute static void maxima_##suffix(const double *centre, ptrdiff_t bound, const ptrdiff_t *places,          \
                                          const ptrdiff_t *depths, size_t n, double *x, double *y) {            \
        maxima_body(centre, bound, places, depths, n, x, y);                                                    \
    }                                                                                                           \
    attribute static void cosines_##suffix(const double *x, double *out) { cosines_and_sine(x, out); }

SINC_INSTANCE(, 1)
#if defined(__x86_64__)
SINC_INSTANCE(LEVEL_2, 2)
SINC_INSTANCE(LEVEL_3, 3)
#endif

double atk_sinc_value(const double *centre, ptrdiff_t bound, double x, ptrdiff_t depth) {
    return LEVEL_CALL(value, centre, bound, x, depth);
}

void atk_sinc_maxima(const double *centre, ptrdiff_t bound, const ptrdiff_t *places, const ptrdiff_t *depths, size_t n, double *x,
                     double *y) {
    LEVEL_CALL(maxima, centre, bound, places, depths, n, x, y);
}

void atk_sinc_cosines(const double *x, double *out) { LEVEL_CALL(cosines, x, out); }
