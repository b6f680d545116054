/* Vertical and horizontal dynamic acceleration against a gravity estimate (CKernels.h,
 * atk_gravity_decompose). */
#include "vectors.h"

#include <math.h>
#include <string.h>

/* Each lane must round exactly as the scalar loop it replaces (MotionPreprocessing.decompose):
 * no fused multiply-add, the same order of operations; division and square root are correctly
 * rounded in every instruction set. */
#pragma STDC FP_CONTRACT OFF

INLINE v4 sqrt4(v4 x) { return __builtin_elementwise_sqrt(x); }

/* One sample, as the scalar loop computes it, added to the sums. */
INLINE void decompose_one(const double *x, const double *y, const double *z, const double *gx, const double *gy,
                          const double *gz, size_t i, double *v, double *hx, double *hy, double *hz, double *magnitude,
                          double *sums) {
    double norm = sqrt(gx[i] * gx[i] + gy[i] * gy[i] + gz[i] * gz[i]);
    double ux = 0, uy = 0, uz = 1;
    if (norm > 0) {
        ux = gx[i] / norm;
        uy = gy[i] / norm;
        uz = gz[i] / norm;
    }
    double dx = x[i] - gx[i], dy = y[i] - gy[i], dz = z[i] - gz[i];
    double vertical = dx * ux + dy * uy + dz * uz;
    v[i] = vertical;
    hx[i] = dx - vertical * ux;
    hy[i] = dy - vertical * uy;
    hz[i] = dz - vertical * uz;
    magnitude[i] = sqrt(dx * dx + dy * dy + dz * dz);
    sums[0] += norm;
    sums[1] += hx[i];
    sums[2] += hy[i];
    sums[3] += hz[i];
}

INLINE void decompose_body(const double *x, const double *y, const double *z, const double *gx, const double *gy,
                           const double *gz, size_t count, double *v, double *hx, double *hy, double *hz, double *magnitude,
                           double *sums) {
    size_t i = 0;
    double sg = 0, sx = 0, sy = 0, sz = 0;  /* four chains, each in sample order */
    const v4 zero = {0, 0, 0, 0}, one = {1, 1, 1, 1};
    for (; i + 4 <= count; i += 4) {
        v4 ax = load4(gx + i), ay = load4(gy + i), az = load4(gz + i);
        v4 norm = sqrt4(ax * ax + ay * ay + az * az);
        v4i positive = norm > zero;
        v4 ux = select4(positive, ax / norm, zero), uy = select4(positive, ay / norm, zero), uz = select4(positive, az / norm, one);
        v4 dx = load4(x + i) - ax, dy = load4(y + i) - ay, dz = load4(z + i) - az;
        v4 vertical = dx * ux + dy * uy + dz * uz;
        store4(v + i, vertical);
        v4 h0 = dx - vertical * ux, h1 = dy - vertical * uy, h2 = dz - vertical * uz;
        store4(hx + i, h0);
        store4(hy + i, h1);
        store4(hz + i, h2);
        store4(magnitude + i, sqrt4(dx * dx + dy * dy + dz * dz));
        for (int k = 0; k < 4; k++) {
            sg += norm[k];
            sx += h0[k];
            sy += h1[k];
            sz += h2[k];
        }
    }
    sums[0] = sg;
    sums[1] = sx;
    sums[2] = sy;
    sums[3] = sz;
    for (; i < count; i++) decompose_one(x, y, z, gx, gy, gz, i, v, hx, hy, hz, magnitude, sums);
}

#define GRAVITY_INSTANCE(attribute, suffix)                                                                        \
    attribute static void decompose_##suffix(const double *x, const double *y, const double *z, const double *gx, \
                                             const double *gy, const double *gz, size_t n, double *v, double *hx,  \
                                             double *hy, double *hz, double *m, double *sums) {                    \
        decompose_body(x, y, z, gx, gy, gz, n, v, hx, hy, hz, m, sums);                                           \
    }

GRAVITY_INSTANCE(, 1)
#if defined(__x86_64__)
GRAVITY_INSTANCE(LEVEL_2, 2)
GRAVITY_INSTANCE(LEVEL_3, 3)
#endif

void atk_gravity_decompose(const double *x, const double *y, const double *z, const double *gx, const double *gy,
                           const double *gz, size_t count, double *v, double *hx, double *hy, double *hz, double *magnitude,
                           double *sums) {
#if defined(__x86_64__)
    switch (atk_kernel_level()) {
    case 3: decompose_3(x, y, z, gx, gy, gz, count, v, hx, hy, hz, magnitude, sums); return;
    case 2: decompose_2(x, y, z, gx, gy, gz, count, v, hx, hy, hz, magnitude, sums); return;
    default: break;
    }
#endif
    decompose_1(x, y, z, gx, gy, gz, count, v, hx, hy, hz, magnitude, sums);
}
