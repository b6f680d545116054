/* The toolkit's hot loops (CKernels.h). Each kernel body is written once, as an always-inline
 * function on GCC/Clang vector types, and instantiated for three instruction sets; the public
 * function picks one per call from `atk_kernel_level`. */
#include "vectors.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define LANES 4

/* ---------------------------------------------------------------- exponential average
 *
 * y[n] = c·y[n−1] + α·x[n], c = 1 − α, four samples at once: y[k] = c^(k+1)·y[−1] +
 * Σ_{j≤k} α·c^(k−j)·x[j]: a fixed 4×4 matrix times the block plus the powers of c times the
 * previous average, so the loop-carried dependency is one multiply-add per four samples. */
/* One average's block-form constants: the 4×4 matrix's columns and the powers of c. */
typedef struct {
    v4 columns[LANES], powers;
} average_block;

INLINE average_block average_constants(double alpha) {
    average_block b;
    const double c = 1 - alpha;
    b.powers = (v4){c, c * c, c * c * c, c * c * c * c};
    for (int j = 0; j < LANES; j++) {
        double column[LANES];
        for (int k = 0; k < LANES; k++) column[k] = k < j ? 0 : alpha * pow(c, k - j);
        b.columns[j] = load4(column);
    }
    return b;
}

INLINE v4 average_step(const average_block *b, v4 x, double y) {
    v4 acc = b->columns[0] * x[0] + b->columns[1] * x[1] + b->columns[2] * x[2] + b->columns[3] * x[3];
    return acc + b->powers * y;
}

INLINE double lane_maximum(v4 top, double maximum) {
    for (int k = 0; k < LANES; k++) maximum = top[k] > maximum ? top[k] : maximum;
    return maximum;
}

/* Two averages of one input in one loop (the second's output optional): their loop-carried
 * multiply-adds are independent, so each hides the other's latency. `state2` NULL: one average. */
INLINE void average_body(double alpha, double *state, double *output, double *maximum, double alpha2, double *state2,
                         double *output2, double *maximum2, const double *input, size_t count) {
    double y = *state, top = -INFINITY, y2 = state2 ? *state2 : 0, top2 = -INFINITY;
    size_t n = 0;
    if (count >= 4 * LANES) {
        const average_block first = average_constants(alpha), second = average_constants(state2 ? alpha2 : alpha);
        v4 tops = splat(-INFINITY), tops2 = splat(-INFINITY);
        for (; n + LANES <= count; n += LANES) {
            v4 x = load4(input + n);
            v4 acc = average_step(&first, x, y);
            y = acc[3];
            tops = max4(tops, acc);
            if (output) store4(output + n, acc);
            if (state2) {
                v4 acc2 = average_step(&second, x, y2);
                y2 = acc2[3];
                tops2 = max4(tops2, acc2);
                if (output2) store4(output2 + n, acc2);
            }
        }
        top = lane_maximum(tops, top);
        top2 = lane_maximum(tops2, top2);
    }
    for (; n < count; n++) {
        const double x = input[n];  /* read before output[n], which may be input[n], is written */
        y += alpha * (x - y);
        if (y > top) top = y;
        if (output) output[n] = y;
        if (state2) {
            y2 += alpha2 * (x - y2);
            if (y2 > top2) top2 = y2;
            if (output2) output2[n] = y2;
        }
    }
    *state = y;
    *maximum = top;
    if (state2) {
        *state2 = y2;
        *maximum2 = top2;
    }
}

/* ---------------------------------------------------------------- squares and their sums
 *
 * Every sum of squares here runs in one order: sixteen partial sums in four vectors (term n in
 * partial n mod 16, over whole runs of sixteen), summed (p0 + p2) + (p1 + p3) lane-wise and then
 * (l0 + l2) + (l1 + l3), and the last fewer than sixteen terms added one by one. Four independent
 * chains keep the adder busy instead of waiting on its latency. */
typedef struct {
    v4 p[4];
} sum16;

INLINE sum16 sum16_zero(void) { return (sum16){{splat(0), splat(0), splat(0), splat(0)}}; }

INLINE double sum16_total(sum16 s) {
#pragma STDC FP_CONTRACT OFF
    v4 t = (s.p[0] + s.p[2]) + (s.p[1] + s.p[3]);
    return (t[0] + t[2]) + (t[1] + t[3]);
}

/* x² into output when `store` (a constant: each instance has no branch in its loop), and the sum. */
INLINE double squares_body(const double *input, double *output, size_t count, const int store) {
#pragma STDC FP_CONTRACT OFF
    sum16 sum = sum16_zero();
    size_t n = 0;
    for (; n + 4 * LANES <= count; n += 4 * LANES)
        for (int q = 0; q < 4; q++) {
            v4 x = load4(input + n + 4 * q), x2 = x * x;
            if (store) store4(output + n + 4 * q, x2);
            sum.p[q] += x2;
        }
    double total = sum16_total(sum);
    for (; n < count; n++) {
        double x2 = input[n] * input[n];
        if (store) output[n] = x2;
        total += x2;
    }
    return total;
}

/* ---------------------------------------------------------------- the meter's sums, one pass */
INLINE void meter_squares_body(const double *a, const double *c, const double *z, double *a_squares, size_t count,
                               double *sums) {
#pragma STDC FP_CONTRACT OFF
    sum16 sa = sum16_zero(), sc = sum16_zero(), sz = sum16_zero();
    size_t n = 0;
    for (; n + 4 * LANES <= count; n += 4 * LANES)
        for (int q = 0; q < 4; q++) {
            size_t k = n + 4 * q;
            v4 x = load4(a + k), x2 = x * x;
            store4(a_squares + k, x2);
            sa.p[q] += x2;
            v4 y = load4(c + k);
            sc.p[q] += y * y;
            v4 w = load4(z + k);
            sz.p[q] += w * w;
        }
    double ta = sum16_total(sa), tc = sum16_total(sc), tz = sum16_total(sz);
    for (; n < count; n++) {
        a_squares[n] = a[n] * a[n];
        ta += a_squares[n];
        tc += c[n] * c[n];
        tz += z[n] * z[n];
    }
    sums[0] = ta;
    sums[1] = tc;
    sums[2] = tz;
}

/* ---------------------------------------------------------------- one channel and its peak */
INLINE double channel_peak_body(const double *interleaved, size_t channels, size_t channel, double *output, size_t frames) {
    v4 peaks = splat(0);
    size_t n = 0;
    const double *x = interleaved + channel;
    for (; n + LANES <= frames; n += LANES) {
        v4 v = channels == 1 ? load4(x + n) : (v4){x[n * channels], x[(n + 1) * channels], x[(n + 2) * channels], x[(n + 3) * channels]};
        if (output) store4(output + n, v);
        v4i negative = v < splat(0);
        v4 magnitude = (v4)((negative & (v4i)(-v)) | (~negative & (v4i)v));
        peaks = max4(magnitude, peaks);
    }
    double peak = lane_maximum(peaks, 0);
    for (; n < frames; n++) {
        if (output) output[n] = x[n * channels];
        double magnitude = fabs(x[n * channels]);
        if (magnitude > peak) peak = magnitude;
    }
    return peak;
}

/* ---------------------------------------------------------------- dispatch */

#define INSTANTIATE(attribute, suffix)                                                                  \
    attribute static void average_##suffix(double a, double *s, double *o, double *m, double a2, double *s2,    \
                                           double *o2, double *m2, const double *i, size_t n) {          \
        average_body(a, s, o, m, a2, s2, o2, m2, i, n);                                                 \
    }                                                                                                   \
    attribute static double square_##suffix(const double *i, double *o, size_t n) { return squares_body(i, o, n, 1); } \
    attribute static double sum_of_squares_##suffix(const double *i, size_t n) { return squares_body(i, NULL, n, 0); } \
    attribute static void meter_squares_##suffix(const double *a, const double *c, const double *z, double *o, size_t n, \
                                                 double *sums) {                                                    \
        meter_squares_body(a, c, z, o, n, sums);                                                                    \
    }                                                                                                               \
    attribute static double channel_peak_##suffix(const double *i, size_t channels, size_t channel, double *o,       \
                                                  size_t n) {                                                       \
        return channel_peak_body(i, channels, channel, o, n);                                                       \
    }

INSTANTIATE(, 1)
#if defined(__x86_64__)
#define VECTOR_LEVELS 1
INSTANTIATE(LEVEL_2, 2)
INSTANTIATE(LEVEL_3, 3)
#endif

static _Atomic int chosen_level = 0;

/* What the processor supports, capped by the environment variable ATK_KERNEL_LEVEL (1, 2 or 3;
 * for comparing the paths on one machine). */
static int detect_level(void) {
    int level = 1;
#ifdef VECTOR_LEVELS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) level = 2;
    if (level == 2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")) level = 3;
#endif
    const char *cap = getenv("ATK_KERNEL_LEVEL");
    if (cap && cap[0] >= '1' && cap[0] <= '3' && cap[1] == 0 && cap[0] - '0' < level) level = cap[0] - '0';
    return level;
}

int atk_kernel_level(void) {
    int level = atomic_load_explicit(&chosen_level, memory_order_relaxed);
    if (level == 0) {
        level = detect_level();
        atomic_store_explicit(&chosen_level, level, memory_order_relaxed);
    }
    return level;
}

#ifdef VECTOR_LEVELS
#define DISPATCH(name, ...)                                 \
    switch (atk_kernel_level()) {                           \
    case 3: return name##_3(__VA_ARGS__);                   \
    case 2: return name##_2(__VA_ARGS__);                   \
    default: return name##_1(__VA_ARGS__);                  \
    }
#else
#define DISPATCH(name, ...) return name##_1(__VA_ARGS__);
#endif

double atk_exponential_average(double alpha, double *state, const double *input, double *output, size_t count) {
    double maximum;
    atk_exponential_average_pair(alpha, state, output, &maximum, 0, NULL, NULL, NULL, input, count);
    return maximum;
}

void atk_exponential_average_pair(double alpha, double *state, double *output, double *maximum, double alpha2,
                                  double *state2, double *output2, double *maximum2, const double *input, size_t count) {
#ifdef VECTOR_LEVELS
    switch (atk_kernel_level()) {
    case 3: average_3(alpha, state, output, maximum, alpha2, state2, output2, maximum2, input, count); return;
    case 2: average_2(alpha, state, output, maximum, alpha2, state2, output2, maximum2, input, count); return;
    default: break;
    }
#endif
    average_1(alpha, state, output, maximum, alpha2, state2, output2, maximum2, input, count);
}

double atk_square(const double *input, double *output, size_t count) { DISPATCH(square, input, output, count) }

double atk_sum_of_squares(const double *input, size_t count) { DISPATCH(sum_of_squares, input, count) }

void atk_meter_squares(const double *a, const double *c, const double *z, double *a_squares, size_t count, double *sums) {
#ifdef VECTOR_LEVELS
    switch (atk_kernel_level()) {
    case 3: meter_squares_3(a, c, z, a_squares, count, sums); return;
    case 2: meter_squares_2(a, c, z, a_squares, count, sums); return;
    default: break;
    }
#endif
    meter_squares_1(a, c, z, a_squares, count, sums);
}

double atk_channel_peak(const double *interleaved, size_t channels, size_t channel, double *output, size_t frames) {
    DISPATCH(channel_peak, interleaved, channels, channel, output, frames)
}
