/* Praat's windowed-sinc interpolation for resampling, four new samples at a time (CKernels.h,
 * atk_sinc_resample4). */
#define _GNU_SOURCE /* sincos */
#include "vectors.h"

#include <math.h>
#include <string.h>

/* The same bits on every instruction set: no contraction, each lane a double's operations. */
#pragma STDC FP_CONTRACT OFF

/* One side of the four windows, added to *result: per lane the samples from y[start − 1] by
 * `step`, at distances d, d + 1, … from x, the raised cosine spanning `span` samples; Praat's
 * recurrence for the window's cosine and sine (NUM_interpolate_sinc). */
INLINE void side(const double *y, const long long *start, ptrdiff_t step, v4 distance, v4 span, ptrdiff_t depth, v4 *result) {
    v4 a = pi * distance;
    const v4 aa = a / span, daa = pi / span;
    v4 half_sin_a, cos_aa, sin_aa, cos_daa, sin_daa;
    /* glibc's sincos runs sin's and cos's own code on one argument reduction: the same values
     * as the two calls, in less time. */
    for (int lane = 0; lane < 4; lane++) {
        double s, c;
        half_sin_a[lane] = 0.5 * sin(a[lane]);
        sincos(aa[lane], &s, &c);
        sin_aa[lane] = s;
        cos_aa[lane] = c;
        sincos(daa[lane], &s, &c);
        sin_daa[lane] = s;
        cos_daa[lane] = c;
    }
    const double *p0 = y + start[0] - 1, *p1 = y + start[1] - 1, *p2 = y + start[2] - 1, *p3 = y + start[3] - 1;
    v4 sum = *result;
    for (ptrdiff_t k = 0; k < depth; k++) {
        const ptrdiff_t offset = k * step;
        const v4 values = {p0[offset], p1[offset], p2[offset], p3[offset]};
        sum += values * (half_sin_a / a * (1 + cos_aa));
        a += pi;
        const v4 help = cos_aa * cos_daa - sin_aa * sin_daa;
        sin_aa = cos_aa * sin_daa + sin_aa * cos_daa;
        cos_aa = help;
        half_sin_a = -half_sin_a;
    }
    *result = sum;
}

INLINE int resample4_body(const double *y, size_t n, const double *x, ptrdiff_t depth, double *out) {
    if (depth < 3) return 0;
    long long midleft[4], midright[4];
    for (int lane = 0; lane < 4; lane++) {
        if (!(x[lane] >= 1 && x[lane] <= (double)n)) return 0;
        const double low = floor(x[lane]);
        midleft[lane] = (long long)low;
        midright[lane] = midleft[lane] + 1;
        if (x[lane] == low || midleft[lane] < depth || (long long)n - midleft[lane] < depth) return 0;
    }
    v4 position, low, left, right;
    memcpy(&position, x, sizeof position);
    for (int lane = 0; lane < 4; lane++) {
        low[lane] = (double)midleft[lane];
        left[lane] = (double)(midleft[lane] + 1 - depth);
        right[lane] = (double)(midleft[lane] + depth);
    }
    v4 result = {0, 0, 0, 0};
    side(y, midleft, -1, position - low, position - left + 1, depth, &result);
    side(y, midright, 1, low + 1 - position, right - position + 1, depth, &result);
    memcpy(out, &result, sizeof result);
    return 1;
}

#define RESAMPLE_INSTANCE(attribute, suffix)                                                                          \
    attribute static int resample4_##suffix(const double *y, size_t n, const double *x, ptrdiff_t depth, double *out) { \
        return resample4_body(y, n, x, depth, out);                                                                 \
    }

RESAMPLE_INSTANCE(, 1)
#if defined(__x86_64__)
RESAMPLE_INSTANCE(LEVEL_2, 2)
RESAMPLE_INSTANCE(LEVEL_3, 3)
#endif

int atk_sinc_resample4(const double *y, size_t n, const double *x, ptrdiff_t depth, double *out) {
    return LEVEL_CALL(resample4, y, n, x, depth, out);
}
