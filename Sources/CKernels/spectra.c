/* Frames' power spectra and what is summed from them: the windowed frame, |X|² of a real
 * transform's bins, weighted band sums of eight frames side by side, and a transform matrix
 * applied to each frame (CKernels.h: atk_windowed, atk_power, atk_power_lanes, atk_band_sums, atk_matrix_rows). */
#include "vectors.h"

/* Each value must round exactly as the scalar loop it replaces (FramePowerSpectrum, MFCC): no
 * fused multiply-add, every sum one chain in index order. */
#pragma STDC FP_CONTRACT OFF

INLINE v8 load8(const double *p) { v8 v; memcpy(&v, p, sizeof v); return v; }
INLINE void store8(double *p, v8 v) { memcpy(p, &v, sizeof v); }
INLINE v8 splat8(double x) { return (v8){x, x, x, x, x, x, x, x}; }

INLINE void windowed_body(const double *x, const double *w, double *out, size_t n) {
    for (size_t j = 0; j < n; j++) out[j] = x[j] * w[j];
}

INLINE void power_body(const double *spectrum, size_t bins, double *out, ptrdiff_t stride) {
    size_t k = 0;
    /* Eight bins at a time: their real and imaginary parts apart, squared, each pair added once. */
    for (; k + 8 <= bins; k += 8) {
        v8 a = load8(spectrum + 2 * k), b = load8(spectrum + 2 * k + 8);
        v8 re = __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14);
        v8 im = __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15);
        v8 p = re * re + im * im;
        for (int j = 0; j < 8; j++) out[(ptrdiff_t)(k + j) * stride] = p[j];
    }
    for (; k < bins; k++) out[(ptrdiff_t)k * stride] = spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1];
}

/* Eight frames' bins side by side: for each block of eight bins, the eight frames' powers (as
 * power_body computes them), the 8×8 block turned in registers so each bin's eight values are
 * stored whole; the last bins one at a time. */
INLINE void power_lanes_body(const double *const *spectra, size_t bins, double *lanes) {
    size_t k = 0;
    for (; k + 8 <= bins; k += 8) {
        v8 p[8];
        for (int l = 0; l < 8; l++) {
            v8 a = load8(spectra[l] + 2 * k), b = load8(spectra[l] + 2 * k + 8);
            v8 re = __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14);
            v8 im = __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15);
            p[l] = re * re + im * im;
        }
        /* p[l][j]: frame l, bin k + j. Pairs of frames, then fours, then all eight per bin. */
        v8 u0 = __builtin_shufflevector(p[0], p[1], 0, 8, 2, 10, 4, 12, 6, 14), u1 = __builtin_shufflevector(p[0], p[1], 1, 9, 3, 11, 5, 13, 7, 15);
        v8 u2 = __builtin_shufflevector(p[2], p[3], 0, 8, 2, 10, 4, 12, 6, 14), u3 = __builtin_shufflevector(p[2], p[3], 1, 9, 3, 11, 5, 13, 7, 15);
        v8 u4 = __builtin_shufflevector(p[4], p[5], 0, 8, 2, 10, 4, 12, 6, 14), u5 = __builtin_shufflevector(p[4], p[5], 1, 9, 3, 11, 5, 13, 7, 15);
        v8 u6 = __builtin_shufflevector(p[6], p[7], 0, 8, 2, 10, 4, 12, 6, 14), u7 = __builtin_shufflevector(p[6], p[7], 1, 9, 3, 11, 5, 13, 7, 15);
        v8 v0 = __builtin_shufflevector(u0, u2, 0, 1, 8, 9, 4, 5, 12, 13), v2 = __builtin_shufflevector(u0, u2, 2, 3, 10, 11, 6, 7, 14, 15);
        v8 v1 = __builtin_shufflevector(u1, u3, 0, 1, 8, 9, 4, 5, 12, 13), v3 = __builtin_shufflevector(u1, u3, 2, 3, 10, 11, 6, 7, 14, 15);
        v8 v4 = __builtin_shufflevector(u4, u6, 0, 1, 8, 9, 4, 5, 12, 13), v6 = __builtin_shufflevector(u4, u6, 2, 3, 10, 11, 6, 7, 14, 15);
        v8 v5 = __builtin_shufflevector(u5, u7, 0, 1, 8, 9, 4, 5, 12, 13), v7 = __builtin_shufflevector(u5, u7, 2, 3, 10, 11, 6, 7, 14, 15);
        double *out = lanes + 8 * k;
        store8(out, __builtin_shufflevector(v0, v4, 0, 1, 2, 3, 8, 9, 10, 11));
        store8(out + 8, __builtin_shufflevector(v1, v5, 0, 1, 2, 3, 8, 9, 10, 11));
        store8(out + 16, __builtin_shufflevector(v2, v6, 0, 1, 2, 3, 8, 9, 10, 11));
        store8(out + 24, __builtin_shufflevector(v3, v7, 0, 1, 2, 3, 8, 9, 10, 11));
        store8(out + 32, __builtin_shufflevector(v0, v4, 4, 5, 6, 7, 12, 13, 14, 15));
        store8(out + 40, __builtin_shufflevector(v1, v5, 4, 5, 6, 7, 12, 13, 14, 15));
        store8(out + 48, __builtin_shufflevector(v2, v6, 4, 5, 6, 7, 12, 13, 14, 15));
        store8(out + 56, __builtin_shufflevector(v3, v7, 4, 5, 6, 7, 12, 13, 14, 15));
    }
    for (; k < bins; k++)
        for (int l = 0; l < 8; l++) lanes[8 * k + l] = spectra[l][2 * k] * spectra[l][2 * k] + spectra[l][2 * k + 1] * spectra[l][2 * k + 1];
}

/* Two bands at a time (two independent chains, each over its own bins in order), each lane a frame. */
INLINE void band_sums_body(const double *lanes, const double *weights, size_t bins, const size_t *spans, size_t bands,
                           double *out) {
    size_t band = 0;
    for (; band + 2 <= bands; band += 2) {
        const double *w0 = weights + band * bins, *w1 = w0 + bins;
        size_t a = spans[2 * band], c = spans[2 * band + 2];
        size_t n0 = spans[2 * band + 1] - a, n1 = spans[2 * band + 3] - c, common = n0 < n1 ? n0 : n1;
        v8 s0 = splat8(0), s1 = splat8(0);
        size_t i = 0;
        for (; i < common; i++) {
            s0 = s0 + load8(lanes + 8 * (a + i)) * splat8(w0[a + i]);
            s1 = s1 + load8(lanes + 8 * (c + i)) * splat8(w1[c + i]);
        }
        for (size_t j = i; j < n0; j++) s0 = s0 + load8(lanes + 8 * (a + j)) * splat8(w0[a + j]);
        for (size_t j = i; j < n1; j++) s1 = s1 + load8(lanes + 8 * (c + j)) * splat8(w1[c + j]);
        store8(out + 8 * band, s0);
        store8(out + 8 * band + 8, s1);
    }
    for (; band < bands; band++) {
        const double *w = weights + band * bins;
        v8 s = splat8(0);
        for (size_t k = spans[2 * band]; k < spans[2 * band + 1]; k++) s = s + load8(lanes + 8 * k) * splat8(w[k]);
        store8(out + 8 * band, s);
    }
}

/* Each frame times the matrix: three groups of eight rows per pass over the frame's values. */
INLINE void matrix_rows_body(const double *frames, size_t count, size_t length, const double *columns, size_t groups,
                             double *out) {
    for (size_t f = 0; f < count; f++) {
        const double *x = frames + f * length;
        double *o = out + f * 8 * groups;
        size_t g = 0;
        for (; g + 3 <= groups; g += 3) {
            const double *r0 = columns + g * 8 * length, *r1 = r0 + 8 * length, *r2 = r1 + 8 * length;
            v8 s0 = splat8(0), s1 = splat8(0), s2 = splat8(0);
            for (size_t n = 0; n < length; n++) {
                v8 b = splat8(x[n]);
                s0 = s0 + b * load8(r0 + 8 * n);
                s1 = s1 + b * load8(r1 + 8 * n);
                s2 = s2 + b * load8(r2 + 8 * n);
            }
            store8(o + 8 * g, s0);
            store8(o + 8 * g + 8, s1);
            store8(o + 8 * g + 16, s2);
        }
        for (; g < groups; g++) {
            const double *r = columns + g * 8 * length;
            v8 s = splat8(0);
            for (size_t n = 0; n < length; n++) s = s + splat8(x[n]) * load8(r + 8 * n);
            store8(o + 8 * g, s);
        }
    }
}

/* Every column's sum in k order from 0: thirty-two columns at a time in registers (four sums
 * whose chains of additions interleave), then eight, then one. */
INLINE void weighted_rows_body(const double *const *rows, const double *weights, size_t count, size_t n, double *out) {
    size_t j = 0;
    for (; j + 32 <= n; j += 32) {
        v8 s0 = splat8(0), s1 = s0, s2 = s0, s3 = s0;
        for (size_t k = 0; k < count; k++) {
            const double w = weights[k], *r = rows[k] + j;
            s0 += w * load8(r);
            s1 += w * load8(r + 8);
            s2 += w * load8(r + 16);
            s3 += w * load8(r + 24);
        }
        store8(out + j, s0);
        store8(out + j + 8, s1);
        store8(out + j + 16, s2);
        store8(out + j + 24, s3);
    }
    for (; j + 8 <= n; j += 8) {
        v8 sum = splat8(0);
        for (size_t k = 0; k < count; k++) sum += weights[k] * load8(rows[k] + j);
        store8(out + j, sum);
    }
    for (; j < n; j++) {
        double sum = 0;
        for (size_t k = 0; k < count; k++) sum += weights[k] * rows[k][j];
        out[j] = sum;
    }
}

#define SPECTRA_INSTANCE(attribute, suffix)                                                                              \
    attribute static void windowed_##suffix(const double *x, const double *w, double *out, size_t n) {                  \
        windowed_body(x, w, out, n);                                                                                     \
    }                                                                                                                    \
    attribute static void power_##suffix(const double *spectrum, size_t bins, double *out, ptrdiff_t stride) {          \
        power_body(spectrum, bins, out, stride);                                                                         \
    }                                                                                                                    \
    attribute static void power_lanes_##suffix(const double *const *spectra, size_t bins, double *lanes) {              \
        power_lanes_body(spectra, bins, lanes);                                                                          \
    }                                                                                                                    \
    attribute static void band_sums_##suffix(const double *lanes, const double *weights, size_t bins,                    \
                                             const size_t *spans, size_t bands, double *out) {                           \
        band_sums_body(lanes, weights, bins, spans, bands, out);                                                         \
    }                                                                                                                    \
    attribute static void matrix_rows_##suffix(const double *frames, size_t count, size_t length, const double *columns, \
                                               size_t groups, double *out) {                                             \
        matrix_rows_body(frames, count, length, columns, groups, out);                                                   \
    }                                                                                                                    \
    attribute static void weighted_rows_##suffix(const double *const *rows, const double *weights, size_t count, size_t n, \
                                                 double *out) {                                                          \
        weighted_rows_body(rows, weights, count, n, out);                                                                \
    }

SPECTRA_INSTANCE(, 1)
#if defined(__x86_64__)
SPECTRA_INSTANCE(LEVEL_2, 2)
SPECTRA_INSTANCE(LEVEL_3, 3)
#endif

void atk_windowed(const double *x, const double *w, double *out, size_t n) { LEVEL_CALL(windowed, x, w, out, n); }

void atk_power(const double *spectrum, size_t bins, double *out, ptrdiff_t stride) { LEVEL_CALL(power, spectrum, bins, out, stride); }

void atk_power_lanes(const double *const *spectra, size_t bins, double *lanes) { LEVEL_CALL(power_lanes, spectra, bins, lanes); }

void atk_band_sums(const double *lanes, const double *weights, size_t bins, const size_t *spans, size_t bands, double *out) {
    LEVEL_CALL(band_sums, lanes, weights, bins, spans, bands, out);
}

void atk_matrix_rows(const double *frames, size_t count, size_t length, const double *columns, size_t groups, double *out) {
    LEVEL_CALL(matrix_rows, frames, count, length, columns, groups, out);
}

void atk_weighted_rows(const double *const *rows, const double *weights, size_t count, size_t n, double *out) {
    LEVEL_CALL(weighted_rows, rows, weights, count, n, out);
}
