/* Two biquad cascades in the two lanes of one SSE2 vector (CKernels.h, atk_biquad_pair). */
#include "CKernels.h"

#include <string.h>

/* Each lane must round exactly as the scalar cascade in Swift (BiquadCascade.step), which never
 * fuses a multiply and an add: no contraction here either. */
#pragma STDC FP_CONTRACT OFF

typedef double v2 __attribute__((vector_size(16), aligned(8)));

#define INLINE static inline __attribute__((always_inline))

/* One transposed direct form II step in both lanes (J. O. Smith, "Introduction to Digital
 * Filters", 2007): y = b0·x + z1, z1 = (b1·x + z2) − a1·y, z2 = b2·x − a2·y. */
INLINE v2 step(const v2 *c, v2 *z1, v2 *z2, v2 x) {
    v2 y = c[0] * x + *z1;
    *z1 = (c[1] * x + *z2) - c[3] * y;
    *z2 = c[2] * x - c[4] * y;
    return y;
}

/* `S` sections (a compile-time constant once inlined, so the state stays in registers), each
 * sample through all of them: one section's arithmetic overlaps the feedback latency of the
 * one before. */
INLINE void run(int S, const double *coefficients, double *state, const double *input0, const double *input1,
                size_t stride, double *output0, double *output1, size_t count) {
    v2 c[4][5], z1[4], z2[4];
    for (int k = 0; k < S; k++) {
        for (int j = 0; j < 5; j++) memcpy(&c[k][j], coefficients + 10 * k + 2 * j, sizeof(v2));
        memcpy(&z1[k], state + 4 * k, sizeof(v2));
        memcpy(&z2[k], state + 4 * k + 2, sizeof(v2));
    }
    for (size_t n = 0; n < count; n++) {
        v2 y = {input0[n * stride], input1[n * stride]};
        for (int k = 0; k < S; k++) y = step(c[k], &z1[k], &z2[k], y);
        output0[n] = y[0];
        output1[n] = y[1];
    }
    for (int k = 0; k < S; k++) {
        memcpy(state + 4 * k, &z1[k], sizeof(v2));
        memcpy(state + 4 * k + 2, &z2[k], sizeof(v2));
    }
}

int atk_biquad_pair(const double *coefficients, double *state, size_t sections, const double *input0,
                    const double *input1, size_t stride, double *output0, double *output1, size_t count) {
    switch (sections) {
    case 1: run(1, coefficients, state, input0, input1, stride, output0, output1, count); return 0;
    case 2: run(2, coefficients, state, input0, input1, stride, output0, output1, count); return 0;
    case 3: run(3, coefficients, state, input0, input1, stride, output0, output1, count); return 0;
    case 4: run(4, coefficients, state, input0, input1, stride, output0, output1, count); return 0;
    default: return -1;
    }
}
