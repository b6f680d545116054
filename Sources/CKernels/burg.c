/* The two sums of one step of Burg's recursion in twice the working precision (CKernels.h,
 * atk_burg_sums). */
#include "vectors.h"

#include <string.h>

/* Error-free transformations only: no contraction beyond the fused products asked for. */
#pragma STDC FP_CONTRACT OFF

/* A double-double accumulator of eight lanes: lane l holds the terms j ≡ l (mod 8) as the sum
 * hi + lo (T. Ogita, S. M. Rump, S. Oishi, "Accurate sum and dot product", SIAM J. Sci. Comput.
 * 26(6), 2005, Algorithm Dot2: the product split exactly, its high part added with Knuth's TwoSum,
 * every error added into lo). */
typedef struct {
    v8 hi, lo;
} dd8;

/* x·y = p + e exactly: by a fused multiply-add where the level has one, else by Dekker's split
 * (T. J. Dekker, "A floating-point technique for extending the available precision", Numer.
 * Math. 18, 1971) — both exact, so the same bits at every level. */
INLINE v8 product_error(v8 x, v8 y, v8 p, int fused) {
    if (fused) return __builtin_elementwise_fma(x, y, -p);
    const v8 split = (v8){134217729, 134217729, 134217729, 134217729, 134217729, 134217729, 134217729, 134217729};
    v8 t = split * x, xh = t - (t - x), xl = x - xh;
    t = split * y;
    v8 yh = t - (t - y), yl = y - yh;
    return ((xh * yh - p) + xh * yl + xl * yh) + xl * yl;
}

/* acc += x·y (Dot2's step). */
INLINE void add_product(dd8 *acc, v8 x, v8 y, int fused) {
    v8 p = x * y, e = product_error(x, y, p, fused);
    v8 s = acc->hi + p, z = s - acc->hi;
    acc->lo += ((acc->hi - (s - z)) + (p - z)) + e;
    acc->hi = s;
}

/* The eight lanes joined by one fixed tree (lane l + 4 into l, then l + 2, then l + 1), each join
 * a TwoSum of the high parts with both low parts and its error added, then hi + lo rounded. */
INLINE double join(dd8 a) {
    double hi[8], lo[8];
    memcpy(hi, &a.hi, sizeof hi);
    memcpy(lo, &a.lo, sizeof lo);
    for (int width = 4; width >= 1; width /= 2) {
        for (int l = 0; l < width; l++) {
            double s = hi[l] + hi[l + width], z = s - hi[l];
            lo[l] = (lo[l] + lo[l + width]) + ((hi[l] - (s - z)) + (hi[l + width] - z));
            hi[l] = s;
        }
    }
    return hi[0] + lo[0];
}

/* Eight values from p (fewer than eight when `available` is, the rest +0). */
INLINE v8 load_up_to_eight(const double *p, size_t available) {
    v8 v = {0, 0, 0, 0, 0, 0, 0, 0};
    if (available >= 8) {
        memcpy(&v, p, sizeof v);
    } else {
        for (size_t k = 0; k < available; k++) v[k] = p[k];
    }
    return v;
}

INLINE void burg_body(const double *b1, const double *b2, size_t n, double *numerator, double *denominator, int fused) {
    dd8 num = {{0}, {0}}, den = {{0}, {0}};
    for (size_t j = 0; j < n; j += 8) {
        v8 x1 = load_up_to_eight(b1 + j, n - j), x2 = load_up_to_eight(b2 + j, n - j);
        add_product(&num, x1, x2, fused);
        add_product(&den, x1, x1, fused);
        add_product(&den, x2, x2, fused);
    }
    *numerator = join(num);
    *denominator = join(den);
}

#define BURG_INSTANCE(attribute, suffix, fused)                                                                       \
    attribute static void burg_##suffix(const double *b1, const double *b2, size_t n, double *num, double *den) {      \
        burg_body(b1, b2, n, num, den, fused);                                                                        \
    }

BURG_INSTANCE(, 1, 0)
#if defined(__x86_64__)
BURG_INSTANCE(LEVEL_2, 2, 1)
BURG_INSTANCE(LEVEL_3, 3, 1)
#endif

void atk_burg_sums(const double *b1, const double *b2, size_t n, double *numerator, double *denominator) {
    LEVEL_CALL(burg, b1, b2, n, numerator, denominator);
}
