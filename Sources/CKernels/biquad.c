/* Eight biquad cascades in the eight lanes of one vector (CKernels.h, atk_biquad_lanes). */
#include "vectors.h"

#include <string.h>

/* Each lane must round exactly as the scalar cascade in Swift (BiquadCascade.step), which never
 * fuses a multiply and an add: no contraction here either. */
#pragma STDC FP_CONTRACT OFF
/* The vector helpers are always inlined: no vector value crosses a call (see kernels.c). */

/* Each lane reads its own input and writes its own output: independent signals, or segments of
 * one signal. The body is written once per vector width (2, 4 or 8 lanes: the narrowest that holds
 * the lanes in use, as a wider vector costs more per step on processors that split it) and
 * instantiated per instruction set like the kernels of kernels.c. */

/* lanes_steps_N: steps [from, to) of every lane; lane j's step n goes to outputs[j][n − offset[j]]
 * when bit j of `writing` is set. lanes_body_N: loads the coefficients and states of lanes
 * 0..N−1 (runs of eight in memory), runs the warm-up steps (only lanes below `exact` written),
 * then the rest, and stores the states. */
#define LANES_WIDTH(N, V)                                                                                        \
    INLINE V step_##N(const V *c, V *z1, V *z2, V x) {                                                          \
        V y = c[0] * x + *z1;                                                                                    \
        *z1 = (c[1] * x + *z2) - c[3] * y;                                                                       \
        *z2 = c[2] * x - c[4] * y;                                                                               \
        return y;                                                                                                \
    }                                                                                                            \
    INLINE void lanes_steps_##N(int S, const V c[4][5], V *z1, V *z2, const double *const *inputs, ptrdiff_t stride, \
                                double *const *outputs, ptrdiff_t ostride, const size_t *offset, size_t from, size_t to, \
                                int writing) {                                                                   \
        for (size_t n = from; n < to; n++) {                                                                     \
            V y;                                                                                                 \
            for (int j = 0; j < N; j++) y[j] = inputs[j][(ptrdiff_t)n * stride];                                \
            for (int k = 0; k < S; k++) y = step_##N(c[k], &z1[k], &z2[k], y);                                  \
            for (int j = 0; j < N; j++)                                                                          \
                if (writing & (1 << j)) outputs[j][(ptrdiff_t)(n - offset[j]) * ostride] = y[j];                 \
        }                                                                                                        \
    }                                                                                                            \
    INLINE void lanes_body_##N(int S, const double *coefficients, double *state, const double *const *inputs,   \
                               ptrdiff_t stride, double *const *outputs, ptrdiff_t ostride, size_t exact, size_t warmup, \
                               size_t count) {                                                                   \
        V c[4][5], z1[4], z2[4];                                                                                 \
        for (int k = 0; k < S; k++) {                                                                            \
            for (int j = 0; j < 5; j++) memcpy(&c[k][j], coefficients + 40 * k + 8 * j, sizeof(V));              \
            memcpy(&z1[k], state + 16 * k, sizeof(V));                                                           \
            memcpy(&z2[k], state + 16 * k + 8, sizeof(V));                                                       \
        }                                                                                                        \
        size_t offset[N];                                                                                        \
        int early = 0, all = 0;                                                                                  \
        for (int j = 0; j < N; j++) {                                                                            \
            offset[j] = (size_t)j < exact ? 0 : warmup;                                                          \
            if (outputs[j]) {                                                                                    \
                all |= 1 << j;                                                                                   \
                if ((size_t)j < exact) early |= 1 << j;                                                          \
            }                                                                                                    \
        }                                                                                                        \
        size_t split = warmup < count ? warmup : count;                                                          \
        lanes_steps_##N(S, c, z1, z2, inputs, stride, outputs, ostride, offset, 0, split, early);                \
        lanes_steps_##N(S, c, z1, z2, inputs, stride, outputs, ostride, offset, split, count, all);              \
        for (int k = 0; k < S; k++) {                                                                            \
            memcpy(state + 16 * k, &z1[k], sizeof(V));                                                           \
            memcpy(state + 16 * k + 8, &z2[k], sizeof(V));                                                       \
        }                                                                                                        \
    }

LANES_WIDTH(2, v2)
LANES_WIDTH(4, v4)
LANES_WIDTH(8, v8)

#define LANES_SECTIONS(N, S, ...)                        \
    switch (S) {                                         \
    case 1: lanes_body_##N(1, __VA_ARGS__); break;       \
    case 2: lanes_body_##N(2, __VA_ARGS__); break;       \
    case 3: lanes_body_##N(3, __VA_ARGS__); break;       \
    default: lanes_body_##N(4, __VA_ARGS__); break;      \
    }

#define LANES_INSTANCE(attribute, suffix)                                                                  \
    attribute static void lanes_##suffix(size_t used, size_t S, const double *c, double *s,                \
                                         const double *const *i, ptrdiff_t stride, double *const *o,       \
                                         ptrdiff_t ostride, size_t e, size_t w, size_t n) {                \
        if (used <= 2) {                                                                                   \
            LANES_SECTIONS(2, S, c, s, i, stride, o, ostride, e, w, n)                                     \
        } else if (used <= 4) {                                                                            \
            LANES_SECTIONS(4, S, c, s, i, stride, o, ostride, e, w, n)                                     \
        } else {                                                                                           \
            LANES_SECTIONS(8, S, c, s, i, stride, o, ostride, e, w, n)                                     \
        }                                                                                                  \
    }

LANES_INSTANCE(, 1)
#if defined(__x86_64__)
LANES_INSTANCE(LEVEL_2, 2)
LANES_INSTANCE(LEVEL_3, 3)
#endif

int atk_biquad_lanes(const double *coefficients, double *state, size_t sections, const double *const *inputs, ptrdiff_t stride,
                     double *const *outputs, ptrdiff_t output_stride, size_t exact, size_t warmup, size_t count) {
    if (sections < 1 || sections > 4) return -1;
    size_t used = 0;  /* lanes up to the last one written */
    for (size_t j = 0; j < 8; j++)
        if (outputs[j]) used = j + 1;
#if defined(__x86_64__)
    switch (atk_kernel_level()) {
    case 3: lanes_3(used, sections, coefficients, state, inputs, stride, outputs, output_stride, exact, warmup, count); return 0;
    case 2: lanes_2(used, sections, coefficients, state, inputs, stride, outputs, output_stride, exact, warmup, count); return 0;
    default: break;
    }
#endif
    lanes_1(used, sections, coefficients, state, inputs, stride, outputs, output_stride, exact, warmup, count);
    return 0;
}
