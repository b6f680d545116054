/* One side of Praat's windowed-sinc interpolant (CKernels.h, atk_sinc_side). */
#include "CKernels.h"

#include <string.h>

/* The same bits on every instruction set: no contraction, one order for all (see lagproducts.c). */
#pragma STDC FP_CONTRACT OFF
#pragma GCC diagnostic ignored "-Wpsabi"

#define INLINE static inline __attribute__((always_inline))

typedef double v4 __attribute__((vector_size(32), aligned(8)));

/* π as a double, the value of Swift's Double.pi. */
static const double pi = 3.141592653589793115997963468544185161590576171875;

/* values p[0], p[step], p[2·step], p[3·step] for step ±1. */
INLINE v4 load_direction(const double *p, int reversed) {
    v4 v;
    if (reversed) {
        memcpy(&v, p - 3, sizeof v);
        return __builtin_shufflevector(v, v, 3, 2, 1, 0);
    }
    memcpy(&v, p, sizeof v);
    return v;
}

INLINE double side_body(const double *p, int reversed, size_t count, double start, double half_sin, double c0, double cm1,
                        double cos_step) {
    const double two_cos_step = 2 * cos_step;
    /* cos(θ0 + kφ) for k = −4…3, by the one-step recurrence both ways from k = 0 and −1. */
    const double c1 = two_cos_step * c0 - cm1, c2 = two_cos_step * c1 - c0, c3 = two_cos_step * c2 - c1;
    const double cm2 = two_cos_step * cm1 - c0, cm3 = two_cos_step * cm2 - cm1, cm4 = two_cos_step * cm3 - cm2;
    const double cos2 = 0.5 * two_cos_step * two_cos_step - 1, two_cos4 = 2 * (2 * cos2 * cos2 - 1);
    v4 cosine = {c0, c1, c2, c3}, previous = {cm4, cm3, cm2, cm1};
    v4 a = {start, start + pi, start + 2 * pi, start + 3 * pi};
    const v4 signs = {half_sin, -half_sin, half_sin, -half_sin};
    const v4 advance = {4 * pi, 4 * pi, 4 * pi, 4 * pi};
    v4 sums = {0, 0, 0, 0};
    const ptrdiff_t step = reversed ? -1 : 1;
    size_t k = 0;
    for (; k + 4 <= count; k += 4, p += 4 * step) {
        sums += load_direction(p, reversed) * signs / a * (1 + cosine);
        a += advance;
        const v4 next = two_cos4 * cosine - previous;
        previous = cosine;
        cosine = next;
    }
    double sum = (sums[0] + sums[1]) + (sums[2] + sums[3]);
    /* The last 0–3 values: lane j holds the next cosines. */
    for (size_t j = 0; j < count - k; j++) sum += p[(ptrdiff_t)j * step] * signs[j] / a[j] * (1 + cosine[j]);
    return sum;
}

#define SINC_INSTANCE(attribute, suffix)                                                                  \
    attribute static double side_##suffix(const double *p, int reversed, size_t count, double start, double h, \
                                          double c0, double cm1, double cs) {                             \
        return reversed ? side_body(p, 1, count, start, h, c0, cm1, cs) : side_body(p, 0, count, start, h, c0, cm1, cs); \
    }

SINC_INSTANCE(, 1)
#if defined(__x86_64__)
SINC_INSTANCE(__attribute__((target("avx2,fma"))), 2)
SINC_INSTANCE(__attribute__((target("avx512f,avx512vl,avx512dq,avx2,fma"))), 3)
#endif

double atk_sinc_side(const double *first, int reversed, size_t count, double start, double half_sin, double cos0,
                     double cos_before, double cos_step) {
#if defined(__x86_64__)
    switch (atk_kernel_level()) {
    case 3: return side_3(first, reversed, count, start, half_sin, cos0, cos_before, cos_step);
    case 2: return side_2(first, reversed, count, start, half_sin, cos0, cos_before, cos_step);
    default: break;
    }
#endif
    return side_1(first, reversed, count, start, half_sin, cos0, cos_before, cos_step);
}
