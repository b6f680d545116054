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

/* One step of one section in every lane (transposed direct form II). */
#define LANES_STEP(N, V)                                                                                         \
    INLINE V step_##N(const V *c, V *z1, V *z2, V x) {                                                          \
        V y = c[0] * x + *z1;                                                                                    \
        *z1 = (c[1] * x + *z2) - c[3] * y;                                                                       \
        *z2 = c[2] * x - c[4] * y;                                                                               \
        return y;                                                                                                \
    }

LANES_STEP(2, v2)
LANES_STEP(4, v4)
LANES_STEP(8, v8)

/* Eight lanes' inputs and outputs in blocks of eight steps: eight vector loads (one per lane,
 * eight consecutive samples), an 8×8 transpose into eight vectors of one step each, the steps,
 * the transpose back and eight vector stores, in place of a scalar load and store per lane and
 * step. The same operations on every value, so the same bits. For strides of ±1 (a stride of −1
 * reads or writes eight samples below the step's position, reversed); on processors with 512-bit
 * vectors, where it halves the memory operations of a step (with 256-bit ones the shuffles
 * cost more than they save). */
#define SHUFFLE __builtin_shufflevector
INLINE v8 reversed8(v8 v) { return SHUFFLE(v, v, 7, 6, 5, 4, 3, 2, 1, 0); }
INLINE void transpose8(v8 *r) {
    const v8 t0 = SHUFFLE(r[0], r[1], 0, 8, 2, 10, 4, 12, 6, 14), t1 = SHUFFLE(r[0], r[1], 1, 9, 3, 11, 5, 13, 7, 15);
    const v8 t2 = SHUFFLE(r[2], r[3], 0, 8, 2, 10, 4, 12, 6, 14), t3 = SHUFFLE(r[2], r[3], 1, 9, 3, 11, 5, 13, 7, 15);
    const v8 t4 = SHUFFLE(r[4], r[5], 0, 8, 2, 10, 4, 12, 6, 14), t5 = SHUFFLE(r[4], r[5], 1, 9, 3, 11, 5, 13, 7, 15);
    const v8 t6 = SHUFFLE(r[6], r[7], 0, 8, 2, 10, 4, 12, 6, 14), t7 = SHUFFLE(r[6], r[7], 1, 9, 3, 11, 5, 13, 7, 15);
    const v8 u0 = SHUFFLE(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13), u2 = SHUFFLE(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15);
    const v8 u1 = SHUFFLE(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13), u3 = SHUFFLE(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15);
    const v8 u4 = SHUFFLE(t4, t6, 0, 1, 8, 9, 4, 5, 12, 13), u6 = SHUFFLE(t4, t6, 2, 3, 10, 11, 6, 7, 14, 15);
    const v8 u5 = SHUFFLE(t5, t7, 0, 1, 8, 9, 4, 5, 12, 13), u7 = SHUFFLE(t5, t7, 2, 3, 10, 11, 6, 7, 14, 15);
    r[0] = SHUFFLE(u0, u4, 0, 1, 2, 3, 8, 9, 10, 11), r[4] = SHUFFLE(u0, u4, 4, 5, 6, 7, 12, 13, 14, 15);
    r[1] = SHUFFLE(u1, u5, 0, 1, 2, 3, 8, 9, 10, 11), r[5] = SHUFFLE(u1, u5, 4, 5, 6, 7, 12, 13, 14, 15);
    r[2] = SHUFFLE(u2, u6, 0, 1, 2, 3, 8, 9, 10, 11), r[6] = SHUFFLE(u2, u6, 4, 5, 6, 7, 12, 13, 14, 15);
    r[3] = SHUFFLE(u3, u7, 0, 1, 2, 3, 8, 9, 10, 11), r[7] = SHUFFLE(u3, u7, 4, 5, 6, 7, 12, 13, 14, 15);
}

/* lanes_steps_N: steps [from, to) of every lane; lane j's step n goes to outputs[j][n − first[j]]
 * when bit j of `writing` is set. lanes_body_N: loads the coefficients and states of lanes
 * 0..N−1 (runs of eight in memory), runs the steps in the runs between the lanes' window edges
 * (in each run the same lanes write), and stores the states. */
#define LANES_WIDTH(N, V)                                                                                        \
    INLINE void lanes_steps_##N(int S, const V c[4][5], V *z1, V *z2, const double *const *inputs, ptrdiff_t stride, \
                                double *const *outputs, ptrdiff_t ostride, const size_t *first, size_t from, size_t to, \
                                int writing, int blocks) {                                                       \
        if (blocks) from = lanes_blocks_##N(S, c, z1, z2, inputs, stride, outputs, ostride, first, from, to, writing); \
        for (size_t n = from; n < to; n++) {                                                                     \
            V y;                                                                                                 \
            for (int j = 0; j < N; j++) y[j] = inputs[j][(ptrdiff_t)n * stride];                                \
            for (int k = 0; k < S; k++) y = step_##N(c[k], &z1[k], &z2[k], y);                                  \
            for (int j = 0; j < N; j++)                                                                          \
                if (writing & (1 << j)) outputs[j][(ptrdiff_t)(n - first[j]) * ostride] = y[j];                  \
        }                                                                                                        \
    }                                                                                                            \
    INLINE void lanes_body_##N(int S, const double *coefficients, double *state, const double *const *inputs,   \
                               ptrdiff_t stride, double *const *outputs, ptrdiff_t ostride, const size_t *first, \
                               const size_t *end, size_t count, int blocks) {                                   \
        V c[4][5], z1[4], z2[4];                                                                                 \
        for (int k = 0; k < S; k++) {                                                                            \
            for (int j = 0; j < 5; j++) memcpy(&c[k][j], coefficients + 40 * k + 8 * j, sizeof(V));              \
            memcpy(&z1[k], state + 16 * k, sizeof(V));                                                           \
            memcpy(&z2[k], state + 16 * k + 8, sizeof(V));                                                       \
        }                                                                                                        \
        size_t from = 0;                                                                                         \
        while (from < count) {                                                                                   \
            /* The next window edge after `from`, and the lanes whose window holds [from, to). */                \
            size_t to = count;                                                                                   \
            int writing = 0;                                                                                     \
            for (int j = 0; j < N; j++) {                                                                        \
                if (first[j] > from && first[j] < to) to = first[j];                                             \
                if (end[j] > from && end[j] < to) to = end[j];                                                   \
            }                                                                                                    \
            for (int j = 0; j < N; j++)                                                                          \
                if (outputs[j] && first[j] <= from && to <= end[j]) writing |= 1 << j;                           \
            lanes_steps_##N(S, c, z1, z2, inputs, stride, outputs, ostride, first, from, to, writing, blocks);   \
            from = to;                                                                                           \
        }                                                                                                        \
        for (int k = 0; k < S; k++) {                                                                            \
            memcpy(state + 16 * k, &z1[k], sizeof(V));                                                           \
            memcpy(state + 16 * k + 8, &z2[k], sizeof(V));                                                       \
        }                                                                                                        \
    }

/* Steps [from, to) of eight lanes in blocks of eight (the rest left to the caller: returns the
 * first step not done). */
INLINE size_t lanes_blocks_8(int S, const v8 c[4][5], v8 *z1, v8 *z2, const double *const *inputs, ptrdiff_t stride,
                             double *const *outputs, ptrdiff_t ostride, const size_t *first, size_t from, size_t to,
                             int writing) {
    if ((stride != 1 && stride != -1) || (ostride != 1 && ostride != -1)) return from;
    size_t n = from;
    for (; n + 8 <= to; n += 8) {
        v8 r[8];
        for (int j = 0; j < 8; j++) {
            memcpy(&r[j], inputs[j] + (ptrdiff_t)n * stride - (stride < 0 ? 7 : 0), sizeof(v8));
            if (stride < 0) r[j] = reversed8(r[j]);
        }
        transpose8(r);
        for (int i = 0; i < 8; i++)
            for (int k = 0; k < S; k++) r[i] = step_8(c[k], &z1[k], &z2[k], r[i]);
        transpose8(r);
        for (int j = 0; j < 8; j++) {
            if (!(writing & (1 << j))) continue;
            const v8 v = ostride < 0 ? reversed8(r[j]) : r[j];
            memcpy(outputs[j] + (ptrdiff_t)(n - first[j]) * ostride - (ostride < 0 ? 7 : 0), &v, sizeof(v8));
        }
    }
    return n;
}
/* Two and four lanes: no blocks. */
#define NO_BLOCKS(N, V)                                                                                            \
    INLINE size_t lanes_blocks_##N(int S, const V c[4][5], V *z1, V *z2, const double *const *inputs, ptrdiff_t stride, \
                                   double *const *outputs, ptrdiff_t ostride, const size_t *first, size_t from,  \
                                   size_t to, int writing) {                                                     \
        (void)S, (void)c, (void)z1, (void)z2, (void)inputs, (void)stride, (void)outputs, (void)ostride, (void)first, \
            (void)to, (void)writing;                                                                             \
        return from;                                                                                             \
    }

NO_BLOCKS(2, v2)
NO_BLOCKS(4, v4)
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

#define LANES_INSTANCE(attribute, suffix, blocks)                                                          \
    attribute static void lanes_##suffix(size_t used, size_t S, const double *c, double *s,                \
                                         const double *const *i, ptrdiff_t stride, double *const *o,       \
                                         ptrdiff_t ostride, const size_t *f, const size_t *e, size_t n) {  \
        if (used <= 2) {                                                                                   \
            LANES_SECTIONS(2, S, c, s, i, stride, o, ostride, f, e, n, 0)                                     \
        } else if (used <= 4) {                                                                            \
            LANES_SECTIONS(4, S, c, s, i, stride, o, ostride, f, e, n, 0)                                     \
        } else {                                                                                           \
            LANES_SECTIONS(8, S, c, s, i, stride, o, ostride, f, e, n, blocks)                                     \
        }                                                                                                  \
    }

LANES_INSTANCE(, 1, 0)
#if defined(__x86_64__)
LANES_INSTANCE(LEVEL_2, 2, 0)
LANES_INSTANCE(LEVEL_3, 3, 1)
#endif

int atk_biquad_lanes(const double *coefficients, double *state, size_t sections, const double *const *inputs, ptrdiff_t stride,
                     double *const *outputs, ptrdiff_t output_stride, const size_t *first, const size_t *end, size_t count) {
    if (sections < 1 || sections > 4) return -1;
    size_t used = 0;  /* lanes up to the last one written */
    for (size_t j = 0; j < 8; j++)
        if (outputs[j]) used = j + 1;
#if defined(__x86_64__)
    switch (atk_kernel_level()) {
    case 3: lanes_3(used, sections, coefficients, state, inputs, stride, outputs, output_stride, first, end, count); return 0;
    case 2: lanes_2(used, sections, coefficients, state, inputs, stride, outputs, output_stride, first, end, count); return 0;
    default: break;
    }
#endif
    lanes_1(used, sections, coefficients, state, inputs, stride, outputs, output_stride, first, end, count);
    return 0;
}
