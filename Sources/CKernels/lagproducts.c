/* Lag products of one signal (CKernels.h, atk_lag_products). */
#include "CKernels.h"

#include <string.h>

/* The sums must come out the same whichever instruction set runs them: no contraction (a fused
 * multiply-add rounds once where the baseline rounds twice), and one summation order for all. */
#pragma STDC FP_CONTRACT OFF
/* The vector helpers are always inlined: no vector value crosses a call (see kernels.c). */
#pragma GCC diagnostic ignored "-Wpsabi"

#define INLINE static inline __attribute__((always_inline))

typedef double v4 __attribute__((vector_size(32), aligned(8)));

INLINE v4 load4(const double *p) { v4 v; memcpy(&v, p, sizeof v); return v; }

/* One product: sixteen partial sums, partial k holding the terms j ≡ k (mod 16) in increasing j
 * (four vectors of four), the tail added to the partials it belongs to, then one fixed tree.
 * Sixteen independent chains hide the add latency; the order is the same at every level. */
INLINE double product_body(const double *x, const double *y, size_t window) {
    v4 a0 = {0, 0, 0, 0}, a1 = a0, a2 = a0, a3 = a0;
    size_t j = 0;
    for (; j + 16 <= window; j += 16) {
        a0 += load4(x + j) * load4(y + j);
        a1 += load4(x + j + 4) * load4(y + j + 4);
        a2 += load4(x + j + 8) * load4(y + j + 8);
        a3 += load4(x + j + 12) * load4(y + j + 12);
    }
    double partial[16];
    memcpy(partial, &a0, sizeof a0);
    memcpy(partial + 4, &a1, sizeof a1);
    memcpy(partial + 8, &a2, sizeof a2);
    memcpy(partial + 12, &a3, sizeof a3);
    for (size_t k = 0; j < window; j++, k++) partial[k] += x[j] * y[j];
    for (size_t width = 8; width >= 1; width /= 2)
        for (size_t k = 0; k < width; k++) partial[k] += partial[k + width];
    return partial[0];
}

INLINE void lags_body(const double *x, size_t window, size_t first, size_t last, double *out) {
    for (size_t lag = first; lag <= last; lag++) out[lag - first] = product_body(x, x + lag, window);
}

#define LAGS_INSTANCE(attribute, suffix)                                                                  \
    attribute static void lags_##suffix(const double *x, size_t window, size_t first, size_t last, double *out) { \
        lags_body(x, window, first, last, out);                                                           \
    }

LAGS_INSTANCE(, 1)
#if defined(__x86_64__)
LAGS_INSTANCE(__attribute__((target("avx2,fma"))), 2)
LAGS_INSTANCE(__attribute__((target("avx512f,avx512vl,avx512dq,avx2,fma"))), 3)
#endif

void atk_lag_products(const double *x, size_t window, size_t first, size_t last, double *out) {
    if (first > last) return;
#if defined(__x86_64__)
    switch (atk_kernel_level()) {
    case 3: lags_3(x, window, first, last, out); return;
    case 2: lags_2(x, window, first, last, out); return;
    default: break;
    }
#endif
    lags_1(x, window, first, last, out);
}
