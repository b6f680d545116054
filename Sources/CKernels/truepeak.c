/* The true-peak meter's runs and interpolation (CKernels.h, atk_true_peak). */
#include "vectors.h"

#include <math.h>
#include <string.h>

/* Each output is the same chain of products and sums on every instruction set and in the tail:
 * no contraction. */
#pragma STDC FP_CONTRACT OFF

#define TAPS ATK_TRUE_PEAK_TAPS

/* Whether the bound of output i (Σ central[k]·|w[i − first − k]| + others) may exceed best; the
 * bound is widened by 1e-9 so that its rounding never skips an output that could. */
INLINE int may_exceed(const double *w, size_t i, const double *central, size_t first, double others, double best) {
    const double *c = w + i - first;
    double bound = central[0] * fabs(c[0]) + central[1] * fabs(c[-1]) + central[2] * fabs(c[-2]) + central[3] * fabs(c[-3]);
    return (bound + others) * (1 + 1e-9) > best;
}

/* One output's phases, sequentially: y_p = Σ_j h[p·TAPS + j]·w[i − j], j ascending from 0. */
INLINE double single_peak(const double *w, size_t i, const double *h, size_t phases, double best) {
    for (size_t p = 0; p < phases; p++) {
        double sum = 0;
        for (size_t j = 0; j < TAPS; j++) sum += h[p * TAPS + j] * w[i - j];
        double magnitude = fabs(sum);
        if (magnitude > best) best = magnitude;
    }
    return best;
}

/* N consecutive outputs at once, one vector lane each (each lane the chain single_peak computes). */
#define TRUE_PEAK_WIDTH(N, V)                                                                                   \
    INLINE double true_peak_##N(const double *w, size_t start, size_t end, const double *h, size_t phases,      \
                                const double *central, size_t first, double others, double best) {             \
        size_t i = start;                                                                                      \
        for (; i + N <= end; i += N) {                                                                         \
            int needed = 0;                                                                                    \
            for (size_t k = 0; k < N && !needed; k++) needed = may_exceed(w, i + k, central, first, others, best); \
            if (!needed) continue;                                                                             \
            for (size_t p = 0; p < phases; p++) {                                                              \
                V sum = {0};                                                                                   \
                for (size_t j = 0; j < TAPS; j++) {                                                            \
                    V x;                                                                                       \
                    memcpy(&x, w + i - j, sizeof x);                                                           \
                    sum += h[p * TAPS + j] * x;                                                                \
                }                                                                                              \
                for (size_t k = 0; k < N; k++) {                                                               \
                    double magnitude = fabs(sum[k]);                                                           \
                    if (magnitude > best) best = magnitude;                                                    \
                }                                                                                              \
            }                                                                                                  \
        }                                                                                                      \
        for (; i < end; i++)                                                                                   \
            if (may_exceed(w, i, central, first, others, best)) best = single_peak(w, i, h, phases, best);     \
        return best;                                                                                           \
    }

TRUE_PEAK_WIDTH(2, v2)
TRUE_PEAK_WIDTH(4, v4)
TRUE_PEAK_WIDTH(8, v8)

LEVEL_2 static double true_peak_avx2(const double *w, size_t s, size_t e, const double *h, size_t p,
                                                                const double *c, size_t f, double o, double b) {
    return true_peak_4(w, s, e, h, p, c, f, o, b);
}
LEVEL_3 static double true_peak_avx512(const double *w, size_t s, size_t e,
                                                                                             const double *h, size_t p,
                                                                                             const double *c, size_t f,
                                                                                             double o, double b) {
    return true_peak_8(w, s, e, h, p, c, f, o, b);
}

/* The largest |w[i]| of [start, end), four lanes at once (a maximum does not depend on the order). */
INLINE double run_maximum(const double *w, size_t start, size_t end) {
    v4 lanes = {0, 0, 0, 0};
    size_t i = start;
    for (; i + 4 <= end; i += 4) {
        v4 x;
        memcpy(&x, w + i, sizeof x);
        for (int k = 0; k < 4; k++) {
            double magnitude = fabs(x[k]);
            lanes[k] = magnitude > lanes[k] ? magnitude : lanes[k];
        }
    }
    double maximum = 0;
    for (int k = 0; k < 4; k++) maximum = lanes[k] > maximum ? lanes[k] : maximum;
    for (; i < end; i++) maximum = fabs(w[i]) > maximum ? fabs(w[i]) : maximum;
    return maximum;
}

double atk_true_peak(const double *w, size_t count, size_t past, size_t run, const double *h, size_t phases,
                     const double *central, size_t first, double rest, double gain, double peak, double previous) {
    if (phases > 4 || first < 3 || past < TAPS - 1 || past < first + 3 || run < past) return peak;
    int level = atk_kernel_level();
    double before = previous;
    for (size_t start = past; start < count;) {
        size_t end = count - start < run ? count : start + run;
        double maximum = run_maximum(w, start, end);
        if (maximum > peak) peak = maximum;
        /* The outputs of this run read w[start − past, end): this run and, as runs are at least
         * `past` long except the last, at most the previous one. */
        double reach = maximum > before ? maximum : before;
        if (phases > 0 && reach * gain > peak) {
            double others = rest * reach;
#if defined(__x86_64__)
            if (level == 3) peak = true_peak_avx512(w, start, end, h, phases, central, first, others, peak);
            else if (level == 2) peak = true_peak_avx2(w, start, end, h, phases, central, first, others, peak);
            else
#endif
                peak = true_peak_2(w, start, end, h, phases, central, first, others, peak);
        }
        before = maximum;
        start = end;
    }
    return peak;
}
