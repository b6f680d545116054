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
