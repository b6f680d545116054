/* Praat's windowed-sinc interpolant and its Brent maxima (CKernels.h, atk_sinc_value, atk_sinc_values, atk_sinc_maxima). */
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

/* One side's loop state: its values and direction, each lane's window cosine and the one eight
 * steps before, its angle a_k and its sign, and 2·cos 8φ (wing_of). */
typedef struct {
    const double *p;
    int reversed;
    v8 cos_now, previous, a, signs;
    double two_cos8;
} wing;

/* Σ_{k<count} v_k·h·(−1)^k/a_k·(1 + cos(θ0 + kφ)) for each of the two sides of one place (all of
 * `count` terms) in one loop, so that the sides' chains overlap. Eight lanes per side, terms
 * k ≡ l (mod 8) in lane l, each lane's window cosine by the recurrence eight steps apart,
 * cos(θ + 8φ) = 2·cos 8φ·cos θ − cos(θ − 8φ), from the sixteen cosines cos(θ0 + kφ), k = −8…7,
 * of the one-step recurrence. The last 1–7 terms run as one more step with the missing values 0.
 * Each side's eight partial sums are added pairwise: ((0 + 1) + (2 + 3)) + ((4 + 5) + (6 + 7)). */
INLINE void wings_sum(wing *w, size_t count, double *out) {
    v8 sums[2] = {{0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}};
    size_t k = 0;
    for (; k + 8 <= count; k += 8) {
        _Pragma("clang loop unroll(full)") for (int j = 0; j < 2; j++) {
            sums[j] += load_eight(w[j].reversed ? w[j].p - k : w[j].p + k, w[j].reversed) * w[j].signs / w[j].a * (1 + w[j].cos_now);
            w[j].a += 8 * pi;
            const v8 next = w[j].two_cos8 * w[j].cos_now - w[j].previous;
            w[j].previous = w[j].cos_now;
            w[j].cos_now = next;
        }
    }
    _Pragma("clang loop unroll(full)") for (int j = 0; j < 2; j++) {
        if (k < count)
            sums[j] += load_partial(w[j].reversed ? w[j].p - k : w[j].p + k, w[j].reversed, count - k) * w[j].signs / w[j].a * (1 + w[j].cos_now);
        const v8 t = sums[j];
        out[j] = ((t[0] + t[1]) + (t[2] + t[3])) + ((t[4] + t[5]) + (t[6] + t[7]));
    }
}

/* r[k] of the mirrored sequence r[−bound…bound] around `centre`, 0 beyond it. */
INLINE double at(const double *centre, ptrdiff_t bound, ptrdiff_t k) { return k >= -bound && k <= bound ? centre[k] : 0; }

/* Where the interpolant at x needs no sum: `*value` set and 0 returned (x an integer, beyond ±B,
 * NaN, ±∞, or a span of at most 2: Praat's lower orders). Otherwise 1, with the left sample ⌊x⌋
 * and the span, each side's count of terms. */
INLINE int prepare(const double *centre, ptrdiff_t bound, double x, ptrdiff_t depth, double *value, ptrdiff_t *mid, ptrdiff_t *count) {
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
    if (span <= 2) {
        const double yl = at(centre, bound, mid_left), yr = at(centre, bound, mid_right);
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
    *mid = mid_left;
    *count = span;
    return 1;
}

/* The Taylor coefficients of cos x and sin x, 1/k! with their signs (taylor8). */
static const double cosine_terms[13] = {1 / 1.0, -1 / 2.0, 1 / 24.0, -1 / 720.0, 1 / 40320.0, -1 / 3628800.0, 1 / 479001600.0,
                                        -1 / 87178291200.0, 1 / 20922789888000.0, -1 / 6402373705728000.0, 1 / 2432902008176640000.0,
                                        -1 / 1124000727777607680000.0, 1 / 620448401733239439360000.0};
static const double sine_terms[13] = {1 / 1.0, -1 / 6.0, 1 / 120.0, -1 / 5040.0, 1 / 362880.0, -1 / 39916800.0, 1 / 6227020800.0,
                                      -1 / 1307674368000.0, 1 / 355687428096000.0, -1 / 121645100408832000.0, 1 / 51090942171709440000.0,
                                      -1 / 25852016738884976640000.0, 1 / 15511210043330985984000000.0};

/* cos x (k = cosine_terms, m = 1) or sin x (k = sine_terms, m = x) in every lane, for |x| ≤ π/2,
 * by the Taylor series to x²⁴/24! and x²⁵/25! (Abramowitz & Stegun 4.3.65–66; the first term left
 * out is below 3·10⁻²² there), a polynomial in x² of degree 12: its terms from x⁴ on by Estrin's
 * scheme (pairs, then pairs of pairs with x⁴, x⁸, x¹⁶), the last two by Horner's rule (their
 * rounding as Horner's, within an ulp): six dependent multiply–add steps instead of twelve. */
INLINE v8 taylor8(v8 x, const double *k, v8 m) {
    const v8 y = x * x, y2 = y * y, y4 = y2 * y2, y8 = y4 * y4;
    const v8 q0 = (k[2] + k[3] * y) + (k[4] + k[5] * y) * y2, q1 = (k[6] + k[7] * y) + (k[8] + k[9] * y) * y2;
    const v8 q2 = (k[10] + k[11] * y) + k[12] * y2;
    return m + (m * y) * (((q0 + q1 * y4) + q2 * y8) * y + k[1]);
}

INLINE v8 select8(m8 mask, v8 a, v8 b) { return (v8)((mask & (m8)a) | (~mask & (m8)b)); }

/* One side's sixteen starting cosines cos(θ0 + kφ), k = −8…7, of eight places (row k + 8 at
 * c + 8(k + 8), a place per lane): k = 1 and −2 by one step from cos θ0 and cos(θ0 − φ), then two
 * steps at a time, four chains of three (the one-step chain would be fourteen long); and 2·cos 8φ. */
INLINE void wing_cosines8(v8 c0, v8 cm1, v8 cs, double *c, double *two_cos8) {
    const v8 two_cos_step = 2 * cs;
    const v8 cos2 = 0.5 * two_cos_step * two_cos_step - 1, two_cos2 = 2 * cos2;
    const v8 cos4 = 2 * cos2 * cos2 - 1;
    const v8 eight = 2 * (2 * cos4 * cos4 - 1);
    v8 r[16];
    r[8] = c0;
    r[7] = cm1;
    r[9] = two_cos_step * r[8] - r[7];
    r[6] = two_cos_step * r[7] - r[8];
    for (int k = 10; k < 16; k++) r[k] = two_cos2 * r[k - 2] - r[k - 4];
    for (int k = 5; k >= 0; k--) r[k] = two_cos2 * r[k + 2] - r[k + 4];
    memcpy(c, r, sizeof r);
    memcpy(two_cos8, &eight, sizeof eight);
}

/* Place l's side from wing_cosines8's rows: its values, direction, cosines, angles start + kπ and
 * signs ±h. */
INLINE void wing_of(const double *c, const double *two_cos8, int l, const double *p, int reversed, double start, double h, wing *w) {
    double now[8], before[8];
    for (int k = 0; k < 8; k++) now[k] = c[8 * (k + 8) + l], before[k] = c[8 * k + l];
    memcpy(&w->cos_now, now, sizeof now);
    memcpy(&w->previous, before, sizeof before);
    w->two_cos8 = two_cos8[l];
    w->a = (v8){start, start + pi, start + 2 * pi, start + 3 * pi, start + 4 * pi, start + 5 * pi, start + 6 * pi, start + 7 * pi};
    w->signs = (v8){h, -h, h, -h, h, -h, h, -h};
    w->p = p;
    w->reversed = reversed;
}

/* The interpolant at the places x[l] (depth[l]) of the lanes l whose bit is set in `live` into
 * out[l] (Praat's lower orders where prepare gives them): the setups of the eight side by side in
 * the lanes of vectors — a = πf on the left and π(1 − f) on the right (f = x − ⌊x⌋), the window's
 * angle a/(x − left + 1) (a/(right − x + 1)) and step π/(…), their cosines, and sin πf = sin πg
 * (g = min(f, 1 − f), as sin πg for g ≤ ¼ and cos π(½ − g) above: arguments within π/4, and the
 * window's within π/3 since the span is at least 3, where the polynomials are within an ulp) —
 * then each place's two sides (wings_sum), the value their sum. A lane's bits do not depend on
 * the lanes beside it. */
INLINE void values8(const double *centre, ptrdiff_t bound, const double *x, const ptrdiff_t *depth, unsigned live, double *out) {
    double place[8], left_of[8], right_of[8], low[8], high[8];
    ptrdiff_t mid[8], count[8];
    unsigned summed = 0;
    for (int l = 0; l < 8; l++) {
        /* A lane without sums gets a harmless place (x = ½ between 0 and 1, span 3). */
        ptrdiff_t m = 0, span = 3;
        double at_x = 0.5;
        if ((live >> l & 1) && prepare(centre, bound, x[l], depth[l], &out[l], &m, &span)) {
            summed |= 1u << l;
            at_x = x[l];
        }
        mid[l] = m, count[l] = span, place[l] = at_x;
        left_of[l] = (double)m, right_of[l] = (double)(m + 1);
        low[l] = (double)(m + 1 - span), high[l] = (double)(m + span);
    }
    if (summed == 0) return;
    v8 xs, mid_left, mid_right, left, right;
    memcpy(&xs, place, sizeof xs);
    memcpy(&mid_left, left_of, sizeof xs);
    memcpy(&mid_right, right_of, sizeof xs);
    memcpy(&left, low, sizeof xs);
    memcpy(&right, high, sizeof xs);
    const v8 one = {1, 1, 1, 1, 1, 1, 1, 1};
    const v8 fraction = xs - mid_left;
    const v8 start_left = pi * fraction, start_right = pi * (mid_right - xs);
    const v8 scale_left = 1 / (xs - left + 1), scale_right = 1 / (right - xs + 1);
    const v8 step_left = pi * scale_left, step_right = pi * scale_right;
    const v8 g = select8(fraction <= 0.5, fraction, 1 - fraction);
    const v8 theta_left = start_left * scale_left, theta_right = start_right * scale_right;
    const v8 half = 0.5 * select8(g <= 0.25, taylor8(pi * g, sine_terms, pi * g), taylor8(pi * (0.5 - g), cosine_terms, one));
    double c_left[128], c_right[128], eight_left[8], eight_right[8], starts_left[8], starts_right[8], halves[8];
    wing_cosines8(taylor8(theta_left, cosine_terms, one), taylor8(theta_left - step_left, cosine_terms, one),
                  taylor8(step_left, cosine_terms, one), c_left, eight_left);
    wing_cosines8(taylor8(theta_right, cosine_terms, one), taylor8(theta_right - step_right, cosine_terms, one),
                  taylor8(step_right, cosine_terms, one), c_right, eight_right);
    memcpy(starts_left, &start_left, sizeof starts_left);
    memcpy(starts_right, &start_right, sizeof starts_right);
    memcpy(halves, &half, sizeof halves);
    for (int l = 0; l < 8; l++) {
        if (!(summed >> l & 1)) continue;
        wing w[2];
        wing_of(c_left, eight_left, l, centre + mid[l], 1, starts_left[l], halves[l], &w[0]);
        wing_of(c_right, eight_right, l, centre + mid[l] + 1, 0, starts_right[l], halves[l], &w[1]);
        double sums[2];
        wings_sum(w, (size_t)count[l], sums);
        out[l] = sums[0] + sums[1];
    }
}

/* cos x[l] in lanes 0–5 and 7, sin x[6] in lane 6 (the polynomials' test). */
INLINE void cosines_body(const double *x, double *out) {
    const v8 one = {1, 1, 1, 1, 1, 1, 1, 1};
    v8 v;
    memcpy(&v, x, sizeof v);
    const v8 both = __builtin_shufflevector(taylor8(v, cosine_terms, one), taylor8(v, sine_terms, v), 0, 1, 2, 3, 4, 5, 14, 7);
    memcpy(out, &both, sizeof both);
}

/* Praat's NUMminimize_brent (Praat 6.1.38 dwsys/NUM2.cpp, after Oleg Keselyov's netlib fmin:
 * R. P. Brent, "Algorithms for Minimization without Derivatives", 1973, ch. 5 — golden-section
 * steps with parabolic interpolation) of −value on [i − 1, i + 1], as Praat's NUMimproveMaximum
 * runs it: in the places of Praat's vector r[−B…B], indexed from 1 (lag k is place k + B + 1),
 * with tolerance √ε·|x| + 1e-10/3 there (ε = 2⁻⁵³, LAPACK's relative machine precision, Praat's
 * NUMfpp → eps) and at most 60 places after the first. The lags evaluated and returned are those
 * places less B + 1, exact (Sterbenz: a place lies within [B + 1, 2B + 2] for 1 ≤ i ≤ B). One search
 * as a state that names the next place `u` to evaluate, so that eight searches can share the
 * interpolant's setups. */
typedef struct {
    double a, b, x, w, v, fx, fw, fv, u, origin;
    int steps;
} brent;

static const double golden = 1 - 0.6180339887498948482045868343656; /* Praat's 1 − NUM_goldenSection */

INLINE void brent_start(brent *s, ptrdiff_t i, ptrdiff_t bound) {
    const ptrdiff_t middle = i + bound + 1;
    s->origin = (double)(bound + 1);
    s->a = (double)(middle - 1);
    s->b = (double)(middle + 1);
    s->u = s->a + golden * (s->b - s->a);
    s->steps = -1;
}

/* Takes the value at u; returns 1 with the next place in u, or 0 when the search has ended. */
INLINE int brent_step(brent *s, double value) {
    const double sqrt_epsilon = 0x1.6a09e667f3bcdp-27 /* √(2⁻⁵³), rounded */, tolerance = 1e-10;
    const double t = s->u, ft = -value;
    double a = s->a, b = s->b, x = s->x, w = s->w, v = s->v, fx = s->fx, fw = s->fw, fv = s->fv;
    if (s->steps < 0) {
        x = w = v = t;
        fx = fw = fv = ft;
    } else if (ft <= fx) {
        if (t < x) b = x;
        else a = x;
        v = w, w = x, x = t;
        fv = fw, fw = fx, fx = ft;
    } else {
        if (t < x) a = t;
        else b = t;
        if (ft <= fw || w == x) {
            v = w, w = t;
            fv = fw, fw = ft;
        } else if (ft <= fv || v == x || v == w) {
            v = t, fv = ft;
        }
    }
    s->steps++;
    const double range = b - a, middle = (a + b) / 2.0, tol_act = sqrt_epsilon * fabs(x) + tolerance / 3.0;
    const int more = s->steps < 60 && !(fabs(x - middle) + range / 2.0 <= 2.0 * tol_act);
    if (more) {
        double step = golden * (x < middle ? b - x : a - x);
        if (fabs(x - w) >= tol_act) {
            /* The parabola through (x, fx), (w, fw), (v, fv): its step p/q, taken when it is
             * shorter than the golden-section step and lands inside, 2·tol_act from the ends. */
            double r = (x - w) * (fx - fv);
            double q = (x - v) * (fx - fw);
            double p = (x - v) * q - (x - w) * r;
            q = 2.0 * (q - r);
            if (q > 0.0) p = -p;
            else q = -q;
            if (fabs(p) < fabs(step * q) && p > q * (a - x + 2.0 * tol_act) && p < q * (b - x - 2.0 * tol_act)) step = p / q;
        }
        if (fabs(step) < tol_act) step = step > 0.0 ? tol_act : -tol_act;
        s->u = x + step;
    }
    s->a = a, s->b = b, s->x = x, s->w = w, s->v = v, s->fx = fx, s->fw = fw, s->fv = fv;
    return more;
}

/* The maxima around places[0…n−1], eight searches at a time (their setups side by side,
 * values8): whenever one ends, the next place's search takes its turn. Each search evaluates the
 * same places, to the same bits, as it would alone. */
INLINE void maxima_body(const double *centre, ptrdiff_t bound, const ptrdiff_t *places, const ptrdiff_t *depths, size_t n, double *x,
                        double *y) {
    brent search[8];
    size_t which[8] = {0}, started = 0;
    unsigned live = 0;
    for (;;) {
        for (int l = 0; l < 8; l++) {
            if ((live >> l & 1) || started == n) continue;
            which[l] = started++;
            brent_start(&search[l], places[which[l]], bound);
            live |= 1u << l;
        }
        if (live == 0) return;
        double u[8] = {0}, value[8];
        ptrdiff_t depth[8] = {0};
        for (int l = 0; l < 8; l++)
            if (live >> l & 1) u[l] = search[l].u - search[l].origin, depth[l] = depths[which[l]];
        values8(centre, bound, u, depth, live, value);
        for (int l = 0; l < 8; l++) {
            if (!(live >> l & 1) || brent_step(&search[l], value[l])) continue;
            live &= ~(1u << l);
            x[which[l]] = search[l].x - search[l].origin;
            y[which[l]] = -search[l].fx;
        }
    }
}

#define SINC_INSTANCE(attribute, suffix)                                                                          \
    attribute static void values_##suffix(const double *centre, ptrdiff_t bound, const double *x, ptrdiff_t depth,  \
                                          size_t n, double *out) {                                              \
        for (size_t j = 0; j < n; j += 8) {                                                                     \
            const size_t m = n - j < 8 ? n - j : 8;                                                             \
            const ptrdiff_t depths[8] = {depth, depth, depth, depth, depth, depth, depth, depth};               \
            values8(centre, bound, x + j, depths, (1u << m) - 1, out + j);                                      \
        }                                                                                                       \
    }                                                                                                           \
    attribute static void maxima_##suffix(const double *centre, ptrdiff_t bound, const ptrdiff_t *places,          \
                                          const ptrdiff_t *depths, size_t n, double *x, double *y) {            \
        maxima_body(centre, bound, places, depths, n, x, y);                                                    \
    }                                                                                                           \
    attribute static void cosines_##suffix(const double *x, double *out) { cosines_body(x, out); }

SINC_INSTANCE(, 1)
#if defined(__x86_64__)
SINC_INSTANCE(LEVEL_2, 2)
SINC_INSTANCE(LEVEL_3, 3)
#endif

double atk_sinc_value(const double *centre, ptrdiff_t bound, double x, ptrdiff_t depth) {
    double value;
    atk_sinc_values(centre, bound, &x, depth, 1, &value);
    return value;
}

void atk_sinc_values(const double *centre, ptrdiff_t bound, const double *x, ptrdiff_t depth, size_t n, double *out) {
    LEVEL_CALL(values, centre, bound, x, depth, n, out);
}

void atk_sinc_maxima(const double *centre, ptrdiff_t bound, const ptrdiff_t *places, const ptrdiff_t *depths, size_t n, double *x,
                     double *y) {
    LEVEL_CALL(maxima, centre, bound, places, depths, n, x, y);
}

void atk_sinc_cosines(const double *x, double *out) { LEVEL_CALL(cosines, x, out); }
