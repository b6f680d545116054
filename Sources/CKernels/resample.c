/* Praat's windowed-sinc interpolation for resampling, eight new samples at a time (CKernels.h,
 * atk_sinc_resample8). */
#define _GNU_SOURCE /* sincos */
#include "vectors.h"

#include <math.h>
#include <string.h>

/* The same bits on every instruction set: no contraction, each lane a double's operations. */
#pragma STDC FP_CONTRACT OFF

/* What one side of the eight windows starts from, per lane: the samples from y[start − 1] by
 * `step` at distances d, d + 1, … from x, the raised cosine spanning `span` samples; a = π·d,
 * ½ sin a, and the cosine and sine of a/span and of π/span (NUM_interpolate_sinc). glibc's
 * sincos runs sin's and cos's own code on one argument reduction: the same values as the two
 * calls, in less time. */
typedef struct {
    const double *p[8];
    double a[8], half_sin_a[8], cos_aa[8], sin_aa[8], cos_daa[8], sin_daa[8];
} Side;

INLINE void start_side(Side *side, const double *y, const long long *start, const double *distance, const double *span) {
    for (int lane = 0; lane < 8; lane++) {
        side->p[lane] = y + start[lane] - 1;
        const double a = pi * distance[lane];
        side->a[lane] = a;
        side->half_sin_a[lane] = 0.5 * sin(a);
        sincos(a / span[lane], &side->sin_aa[lane], &side->cos_aa[lane]);
        sincos(pi / span[lane], &side->sin_daa[lane], &side->cos_daa[lane]);
    }
}

/* One side's terms added to `sum`, the eight windows side by side, each lane with Praat's
 * operations in their order (its recurrence for the window's cosine and sine). The vectors are
 * made whole from the side's arrays after every call: a vector live across a call, or written
 * lane by lane, is kept in memory, and the loop's chains would run through stores. */
#define LANES(x) {x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]}
INLINE v8 add_side(const Side *side, ptrdiff_t step, ptrdiff_t depth, v8 sum) {
    v8 a = LANES(side->a), half_sin_a = LANES(side->half_sin_a), cos_aa = LANES(side->cos_aa), sin_aa = LANES(side->sin_aa);
    const v8 cos_daa = LANES(side->cos_daa), sin_daa = LANES(side->sin_daa);
    const double *const *p = side->p;
    for (ptrdiff_t k = 0; k < depth; k++) {
        const ptrdiff_t offset = k * step;
        const v8 values = {p[0][offset], p[1][offset], p[2][offset], p[3][offset], p[4][offset], p[5][offset], p[6][offset], p[7][offset]};
        sum += values * (half_sin_a / a * (1 + cos_aa));
        a += pi;
        const v8 help = cos_aa * cos_daa - sin_aa * sin_daa;
        sin_aa = cos_aa * sin_daa + sin_aa * cos_daa;
        cos_aa = help;
        half_sin_a = -half_sin_a;
    }
    return sum;
}
#undef LANES

INLINE int resample8_body(const double *y, size_t n, const double *x, ptrdiff_t depth, double *out) {
    if (depth < 3) return 0;
    long long midleft[8], midright[8];
    double left_distance[8], left_span[8], right_distance[8], right_span[8];
    for (int lane = 0; lane < 8; lane++) {
        if (!(x[lane] >= 1 && x[lane] <= (double)n)) return 0;
        const double low = floor(x[lane]);
        midleft[lane] = (long long)low;
        midright[lane] = midleft[lane] + 1;
        if (x[lane] == low || midleft[lane] < depth || (long long)n - midleft[lane] < depth) return 0;
        const double left = (double)(midleft[lane] + 1 - depth), right = (double)(midleft[lane] + depth);
        left_distance[lane] = x[lane] - low;
        left_span[lane] = x[lane] - left + 1;
        right_distance[lane] = low + 1 - x[lane];
        right_span[lane] = right - x[lane] + 1;
    }
    Side left, right;
    start_side(&left, y, midleft, left_distance, left_span);
    start_side(&right, y, midright, right_distance, right_span);
    v8 result = {0, 0, 0, 0, 0, 0, 0, 0};
    result = add_side(&left, -1, depth, result);
    result = add_side(&right, 1, depth, result);
    for (int lane = 0; lane < 8; lane++) out[lane] = result[lane];
    return 1;
}

#define RESAMPLE_INSTANCE(attribute, suffix)                                                                          \
    attribute static int resample8_##suffix(const double *y, size_t n, const double *x, ptrdiff_t depth, double *out) { \
        return resample8_body(y, n, x, depth, out);                                                                 \
    }

RESAMPLE_INSTANCE(, 1)
#if defined(__x86_64__)
RESAMPLE_INSTANCE(LEVEL_2, 2)
RESAMPLE_INSTANCE(LEVEL_3, 3)
#endif

int atk_sinc_resample8(const double *y, size_t n, const double *x, ptrdiff_t depth, double *out) {
    return LEVEL_CALL(resample8, y, n, x, depth, out);
}
