/* Lag products of one signal and the terms of one window correlation (CKernels.h,
 * atk_lag_products, atk_correlation_terms). */
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

INLINE void spill(double partial[16], v4 a0, v4 a1, v4 a2, v4 a3) {
    memcpy(partial, &a0, sizeof a0);
    memcpy(partial + 4, &a1, sizeof a1);
    memcpy(partial + 8, &a2, sizeof a2);
    memcpy(partial + 12, &a3, sizeof a3);
}

/* The partials summed pairwise: k + 8 into k, then k + 4, k + 2, k + 1. */
INLINE double tree(double partial[16]) {
    for (size_t width = 8; width >= 1; width /= 2)
        for (size_t k = 0; k < width; k++) partial[k] += partial[k + width];
    return partial[0];
}

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
    spill(partial, a0, a1, a2, a3);
    for (size_t k = 0; j < window; j++, k++) partial[k] += x[j] * y[j];
    return tree(partial);
}

INLINE v4 abs4(v4 v) {
    typedef long long v4i __attribute__((vector_size(32), aligned(8)));
    return (v4)((v4i)v & (v4i){0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL});
}

INLINE v4 max4(v4 a, v4 b) {
    typedef long long v4i __attribute__((vector_size(32), aligned(8)));
    v4i greater = a > b;
    return (v4)((greater & (v4i)a) | (~greater & (v4i)b));
}

/* Σ a·b and Σ b² in the order of product_body, and max |b| (any order gives the same maximum). */
INLINE void terms_body(const double *a, const double *b, size_t n, double *product, double *energy, double *peak) {
    v4 p0 = {0, 0, 0, 0}, p1 = p0, p2 = p0, p3 = p0, e0 = p0, e1 = p0, e2 = p0, e3 = p0, m = p0;
    size_t j = 0;
    for (; j + 16 <= n; j += 16) {
        v4 b0 = load4(b + j), b1 = load4(b + j + 4), b2 = load4(b + j + 8), b3 = load4(b + j + 12);
        p0 += load4(a + j) * b0;
        p1 += load4(a + j + 4) * b1;
        p2 += load4(a + j + 8) * b2;
        p3 += load4(a + j + 12) * b3;
        e0 += b0 * b0;
        e1 += b1 * b1;
        e2 += b2 * b2;
        e3 += b3 * b3;
        m = max4(max4(m, abs4(b0)), max4(abs4(b1), max4(abs4(b2), abs4(b3))));
    }
    double products[16], energies[16], top = 0;
    spill(products, p0, p1, p2, p3);
    spill(energies, e0, e1, e2, e3);
    for (int k = 0; k < 4; k++) top = m[k] > top ? m[k] : top;
    for (size_t k = 0; j < n; j++, k++) {
        products[k] += a[j] * b[j];
        energies[k] += b[j] * b[j];
        double v = b[j] < 0 ? -b[j] : b[j];
        top = v > top ? v : top;
    }
    *product = tree(products);
    *energy = tree(energies);
    *peak = top;
}

/* The partials of four lags into their outputs, each by product_body's tail and tree. */
INLINE void finish4(const double *x, const double *y, size_t window, size_t j, size_t stride, v4 a[4][4], double *out) {
    for (int l = 0; l < 4; l++) {
        double partial[16];
        spill(partial, a[l][0], a[l][1], a[l][2], a[l][3]);
        for (size_t i = j, k = 0; i < window; i++, k++) partial[k] += x[i] * y[stride * l + i];
        out[stride * l] = tree(partial);
    }
}

/* Lags in blocks of sixteen, as four groups of four lags four apart (m, m + 4, m + 8, m + 12):
 * the four lags of a group read y at offsets 4·(l + q), so seven loads of y and four of x serve
 * 64 products (eleven loads instead of twenty). Then four consecutive lags at a time, which share
 * each load of x (20 loads per 64 products), and single lags. Every lag's sums are formed exactly
 * as product_body forms them. */
INLINE void lags_body(const double *x, size_t window, size_t first, size_t last, double *out) {
    size_t lag = first;
    for (; lag <= last && last - lag >= 15; lag += 16) {
        for (size_t g = 0; g < 4; g++) {
            const double *y = x + lag + g;
            v4 a[4][4];
            for (int l = 0; l < 4; l++)
                for (int q = 0; q < 4; q++) a[l][q] = (v4){0, 0, 0, 0};
            size_t j = 0;
            for (; j + 16 <= window; j += 16) {
                v4 yv[7];
                for (int k = 0; k < 7; k++) yv[k] = load4(y + j + 4 * k);
                for (int q = 0; q < 4; q++) {
                    v4 xv = load4(x + j + 4 * q);
                    for (int l = 0; l < 4; l++) a[l][q] += xv * yv[l + q];
                }
            }
            finish4(x, y, window, j, 4, a, out + lag + g - first);
        }
    }
    for (; lag <= last && last - lag >= 3; lag += 4) {
        const double *y = x + lag;
        v4 a[4][4];
        for (int l = 0; l < 4; l++)
            for (int q = 0; q < 4; q++) a[l][q] = (v4){0, 0, 0, 0};
        size_t j = 0;
        for (; j + 16 <= window; j += 16) {
            for (int q = 0; q < 4; q++) {
                v4 xv = load4(x + j + 4 * q);
                for (int l = 0; l < 4; l++) a[l][q] += xv * load4(y + l + j + 4 * q);
            }
        }
        finish4(x, y, window, j, 1, a, out + lag - first);
    }
    for (; lag <= last; lag++) out[lag - first] = product_body(x, x + lag, window);
}

#define LAGS_INSTANCE(attribute, suffix)                                                                  \
    attribute static void lags_##suffix(const double *x, size_t window, size_t first, size_t last, double *out) { \
        lags_body(x, window, first, last, out);                                                           \
    }                                                                                                     \
    attribute static void terms_##suffix(const double *a, const double *b, size_t n, double *p, double *e, double *m) { \
        terms_body(a, b, n, p, e, m);                                                                     \
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

void atk_correlation_terms(const double *a, const double *b, size_t count, double *product, double *energy, double *peak) {
#if defined(__x86_64__)
    switch (atk_kernel_level()) {
    case 3: terms_3(a, b, count, product, energy, peak); return;
    case 2: terms_2(a, b, count, product, energy, peak); return;
    default: break;
    }
#endif
    terms_1(a, b, count, product, energy, peak);
}
