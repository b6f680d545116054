/* Eight biquad cascades in the eight lanes of one vector (CKernels.h, atk_biquad_lanes). */
#include "CKernels.h"

#include <string.h>

/* Each lane must round exactly as the scalar cascade in Swift (BiquadCascade.step), which never
 * fuses a multiply and an add: no contraction here either. */
#pragma STDC FP_CONTRACT OFF
/* The v8 helpers are always inlined: no v8 value crosses a call (see kernels.c). */
#pragma GCC diagnostic ignored "-Wpsabi"

#define INLINE static inline __attribute__((always_inline))

/* Each lane reads its own input and writes its own output: independent signals, or segments of
 * one signal. The body is written once and instantiated per instruction set like the kernels of
 * kernels.c (AVX-512: one register; AVX2: two; SSE2: four). */
typedef double v8 __attribute__((vector_size(64), aligned(8)));

INLINE v8 step8(const v8 *c, v8 *z1, v8 *z2, v8 x) {
    v8 y = c[0] * x + *z1;
    *z1 = (c[1] * x + *z2) - c[3] * y;
    *z2 = c[2] * x - c[4] * y;
    return y;
}

INLINE v8 gather8(const double *const *inputs, size_t at) {
    return (v8){inputs[0][at], inputs[1][at], inputs[2][at], inputs[3][at],
                inputs[4][at], inputs[5][at], inputs[6][at], inputs[7][at]};
}

/* Steps [from, to) of every lane; lane j's step n is written to outputs[j][n − offset[j]] when
 * n ≥ written[j] (and outputs[j] is not NULL). */
INLINE void lanes_steps(int S, const v8 c[4][5], v8 *z1, v8 *z2, const double *const *inputs, size_t stride,
                        double *const *outputs, const size_t *offset, size_t from, size_t to, int writing) {
    for (size_t n = from; n < to; n++) {
        v8 y = gather8(inputs, n * stride);
        for (int k = 0; k < S; k++) y = step8(c[k], &z1[k], &z2[k], y);
        for (int j = 0; j < 8; j++)
            if (writing & (1 << j)) outputs[j][n - offset[j]] = y[j];
    }
}

INLINE void lanes_body(int S, const double *coefficients, double *state, const double *const *inputs, size_t stride,
                       double *const *outputs, size_t exact, size_t warmup, size_t count) {
    v8 c[4][5], z1[4], z2[4];
    for (int k = 0; k < S; k++) {
        for (int j = 0; j < 5; j++) memcpy(&c[k][j], coefficients + 40 * k + 8 * j, sizeof(v8));
        memcpy(&z1[k], state + 16 * k, sizeof(v8));
        memcpy(&z2[k], state + 16 * k + 8, sizeof(v8));
    }
    size_t offset[8];
    int early = 0, all = 0;
    for (int j = 0; j < 8; j++) {
        offset[j] = (size_t)j < exact ? 0 : warmup;
        if (outputs[j]) {
            all |= 1 << j;
            if ((size_t)j < exact) early |= 1 << j;
        }
    }
    size_t split = warmup < count ? warmup : count;
    lanes_steps(S, c, z1, z2, inputs, stride, outputs, offset, 0, split, early);
    lanes_steps(S, c, z1, z2, inputs, stride, outputs, offset, split, count, all);
    for (int k = 0; k < S; k++) {
        memcpy(state + 16 * k, &z1[k], sizeof(v8));
        memcpy(state + 16 * k + 8, &z2[k], sizeof(v8));
    }
}

#define LANES_INSTANCE(attribute, suffix)                                                                  \
    attribute static void lanes_##suffix(size_t S, const double *c, double *s, const double *const *i,     \
                                         size_t stride, double *const *o, size_t e, size_t w, size_t n) {  \
        switch (S) {                                                                                       \
        case 1: lanes_body(1, c, s, i, stride, o, e, w, n); break;                                         \
        case 2: lanes_body(2, c, s, i, stride, o, e, w, n); break;                                         \
        case 3: lanes_body(3, c, s, i, stride, o, e, w, n); break;                                         \
        default: lanes_body(4, c, s, i, stride, o, e, w, n); break;                                        \
        }                                                                                                  \
    }

LANES_INSTANCE(, 1)
#if defined(__x86_64__)
LANES_INSTANCE(__attribute__((target("avx2,fma"))), 2)
LANES_INSTANCE(__attribute__((target("avx512f,avx512vl,avx512dq,avx2,fma"))), 3)
#endif

int atk_biquad_lanes(const double *coefficients, double *state, size_t sections, const double *const *inputs, size_t stride,
                     double *const *outputs, size_t exact, size_t warmup, size_t count) {
    if (sections < 1 || sections > 4) return -1;
#if defined(__x86_64__)
    switch (atk_kernel_level()) {
    case 3: lanes_3(sections, coefficients, state, inputs, stride, outputs, exact, warmup, count); return 0;
    case 2: lanes_2(sections, coefficients, state, inputs, stride, outputs, exact, warmup, count); return 0;
    default: break;
    }
#endif
    lanes_1(sections, coefficients, state, inputs, stride, outputs, exact, warmup, count);
    return 0;
}
