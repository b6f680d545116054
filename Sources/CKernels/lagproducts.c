/* Lag products of one signal and the terms of one window correlation (CKernels.h,
 * atk_lag_products, atk_correlation_terms). */
#include "vectors.h"

#include <string.h>

/* The sums must come out the same whichever instruction set runs them: no contraction (a fused
 * multiply-add rounds once where the baseline rounds twice), and one summation order for all. */
#pragma STDC FP_CONTRACT OFF

/* The last terms of one sum (j to count, fewer than sixteen) into its four partial vectors,
 * partial k (lane k mod 4 of vector k / 4) taking term j ≡ k (mod 16): whole vectors of four, then
 * the last one to three terms lane by lane (a lane not taken keeps its bits). Then the partials summed pairwise as one fixed tree:
 * k + 8 into k, then k + 4, k + 2, k + 1. */
INLINE double tail_and_tree(const double *x, const double *y, size_t count, size_t j, v4 p0, v4 p1, v4 p2, v4 p3) {
    size_t whole = (count - j) / 4, rest = (count - j) % 4;
    if (whole > 0) p0 += load4(x + j) * load4(y + j);
    if (whole > 1) p1 += load4(x + j + 4) * load4(y + j + 4);
    if (whole > 2) p2 += load4(x + j + 8) * load4(y + j + 8);
    if (rest > 0) {
        j += 4 * whole;
        v4 terms = {0, 0, 0, 0};
        for (size_t k = 0; k < rest; k++) terms[k] = x[j + k] * y[j + k];
        v4i taken = {-1, rest > 1 ? -1 : 0, rest > 2 ? -1 : 0, 0};
#define TAKE(p) p = (v4)((taken & (v4i)(p + terms)) | (~taken & (v4i)p))
        switch (whole) {
        case 0: TAKE(p0); break;
        case 1: TAKE(p1); break;
        case 2: TAKE(p2); break;
        default: TAKE(p3); break;
        }
#undef TAKE
    }
    v4 t = (p0 + p2) + (p1 + p3);
    return (t[0] + t[2]) + (t[1] + t[3]);
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
    return tail_and_tree(x, y, window, j, a0, a1, a2, a3);
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
    double top = 0;
    for (int k = 0; k < 4; k++) top = m[k] > top ? m[k] : top;
    for (size_t i = j; i < n; i++) {
        double v = b[i] < 0 ? -b[i] : b[i];
        top = v > top ? v : top;
    }
    *product = tail_and_tree(a, b, n, j, p0, p1, p2, p3);
    *energy = tail_and_tree(b, b, n, j, e0, e1, e2, e3);
    *peak = top;
}

/* The partials of `count` lags into their outputs, each by product_body's tail and tree. */
INLINE void finish_lags(const double *x, const double *y, size_t window, size_t j, size_t stride, int count, v4 a[4][4], double *out) {
    for (int l = 0; l < count; l++)
        out[stride * l] = tail_and_tree(x, y + stride * l, window, j, a[l][0], a[l][1], a[l][2], a[l][3]);
}

/* Lags in blocks of 4·G, as four groups of G lags four apart (m + g, m + g + 4, …): the lags of a
 * group read y at offsets 4·(l + q), so G + 3 loads of y and four of x serve 4·G products of four.
 * G is what the registers hold: 4·G accumulators, x and the y values in flight (G = 4 with 32
 * vector registers, G = 3 with 16). Then G consecutive lags at a time, which share each load of x,
 * and single lags. Every lag's sums are formed exactly as product_body forms them. */
INLINE void lags_body(const double *x, size_t window, size_t first, size_t last, double *out, const int G) {
    size_t lag = first;
    for (; lag <= last && last - lag >= (size_t)(4 * G - 1); lag += 4 * G) {
        for (size_t g = 0; g < 4; g++) {
            const double *y = x + lag + g;
            v4 a[4][4];
            for (int l = 0; l < G; l++)
                for (int q = 0; q < 4; q++) a[l][q] = (v4){0, 0, 0, 0};
            size_t j = 0;
            for (; j + 16 <= window; j += 16) {
                for (int q = 0; q < 4; q++) {
                    v4 xv = load4(x + j + 4 * q);
                    for (int l = 0; l < G; l++) a[l][q] += xv * load4(y + j + 4 * (l + q));
                }
            }
            finish_lags(x, y, window, j, 4, G, a, out + lag + g - first);
        }
    }
    for (; lag <= last && last - lag >= (size_t)(G - 1); lag += G) {
        const double *y = x + lag;
        v4 a[4][4];
        for (int l = 0; l < G; l++)
            for (int q = 0; q < 4; q++) a[l][q] = (v4){0, 0, 0, 0};
        size_t j = 0;
        for (; j + 16 <= window; j += 16) {
            for (int q = 0; q < 4; q++) {
                v4 xv = load4(x + j + 4 * q);
                for (int l = 0; l < G; l++) a[l][q] += xv * load4(y + l + j + 4 * q);
            }
        }
        finish_lags(x, y, window, j, 1, G, a, out + lag - first);
    }
    for (; lag <= last; lag++) out[lag - first] = product_body(x, x + lag, window);
}

/* Σ(a−ā)(b−b̄), Σ(a−ā)², Σ(b−b̄)² as eight-lane partial sums (term j in lane j mod 8 over whole
 * runs of eight), the lanes added in order from −0, then the last 0–7 terms one by one. */
INLINE void centred_body(const double *a, const double *b, size_t n, double mean_a, double mean_b, double *out) {
    const v8 ma = {mean_a, mean_a, mean_a, mean_a, mean_a, mean_a, mean_a, mean_a};
    const v8 mb = {mean_b, mean_b, mean_b, mean_b, mean_b, mean_b, mean_b, mean_b};
    v8 ab = {0, 0, 0, 0, 0, 0, 0, 0}, aa = ab, bb = ab;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        v8 u, v;
        memcpy(&u, a + i, sizeof u);
        memcpy(&v, b + i, sizeof v);
        u -= ma;
        v -= mb;
        ab += u * v;
        aa += u * u;
        bb += v * v;
    }
    double cross = -0.0, energy_a = -0.0, energy_b = -0.0;
    for (int l = 0; l < 8; l++) cross += ab[l], energy_a += aa[l], energy_b += bb[l];
    for (; i < n; i++) {
        const double u = a[i] - mean_a, v = b[i] - mean_b;
        cross += u * v;
        energy_a += u * u;
        energy_b += v * v;
    }
    out[0] = cross, out[1] = energy_a, out[2] = energy_b;
}

#define LAGS_INSTANCE(attribute, suffix, group)                                                           \
    attribute static void lags_##suffix(const double *x, size_t window, size_t first, size_t last, double *out) { \
        lags_body(x, window, first, last, out, group);                                                    \
    }                                                                                                     \
    attribute static void terms_##suffix(const double *a, const double *b, size_t n, double *p, double *e, double *m) { \
        terms_body(a, b, n, p, e, m);                                                                     \
    }                                                                                                     \
    attribute static void centred_##suffix(const double *a, const double *b, size_t n, double ma, double mb, double *out) { \
        centred_body(a, b, n, ma, mb, out);                                                               \
    }

LAGS_INSTANCE(, 1, 3)
#if defined(__x86_64__)
LAGS_INSTANCE(LEVEL_2, 2, 3)
LAGS_INSTANCE(LEVEL_3, 3, 4)
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

void atk_centred_products(const double *a, const double *b, size_t n, double mean_a, double mean_b, double *out) {
    LEVEL_CALL(centred, a, b, n, mean_a, mean_b, out);
}
