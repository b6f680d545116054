/* The Aberth–Ehrlich iteration of PolynomialRoots (CKernels.h, atk_aberth). */
#include "vectors.h"

#include <math.h>
#include <string.h>

/* The same bits on every instruction set: no contraction, each lane a double's operations. */
#pragma STDC FP_CONTRACT OFF

/* a / b by Smith's algorithm, scaled against overflow. */
INLINE void divide(double ar, double ai, double br, double bi, double *qr, double *qi) {
    if (fabs(br) >= fabs(bi)) {
        const double r = bi / br, d = br + bi * r;
        *qr = (ar + ai * r) / d;
        *qi = (ai - ar * r) / d;
    } else {
        const double r = br / bi, d = br * r + bi;
        *qr = (ar * r + ai) / d;
        *qi = (ai * r - ar) / d;
    }
}

/* 1 / (br + i·bi) in four lanes, each lane divide(1, 0, br, bi) with its branch's operations: one
 * division for r, one for each part, the branch's operands chosen lane by lane. */
INLINE void inverse4(v4 br, v4 bi, v4 *qr, v4 *qi) {
    const v4i first = abs4(br) >= abs4(bi);
    const v4 r = select4(first, bi, br) / select4(first, br, bi);
    const v4 d = select4(first, br + bi * r, br * r + bi);
    *qr = select4(first, 1 + 0 * r, 1 * r + 0) / d;
    *qi = select4(first, 0 - 1 * r, 0 * r - 1) / d;
}

/* Per lane p(z) and p′(z) by Horner's scheme (m[0…n], m[n] first) and the rounding bound
 * Σ|m_k|·|z|^k, each with PolynomialRoots' scalar operations in their order. */
INLINE void evaluate4(const double *m, const double *magnitude, size_t n, v4 x, v4 y, v4 *p0, v4 *p1, v4 *d0, v4 *d1, v4 *bound) {
    v4 pr = splat(m[n]), pi_ = splat(0), dr = splat(0), di = splat(0);
    for (size_t k = n; k-- > 0;) {
        const v4 nr = dr * x - di * y + pr, ni = dr * y + di * x + pi_;
        dr = nr, di = ni;
        const v4 qr = pr * x - pi_ * y + m[k], qi = pr * y + pi_ * x;
        pr = qr, pi_ = qi;
    }
    const v4 size = __builtin_elementwise_sqrt(x * x + y * y);
    v4 b = splat(0);
    for (size_t k = n + 1; k-- > 0;) b = b * size + magnitude[k];
    *p0 = pr, *p1 = pi_, *d0 = dr, *d1 = di, *bound = b;
}

INLINE int aberth_body(const double *m, size_t n, double *re, double *im, int sweeps, double *scratch) {
    const size_t width = (n + 3) / 4 * 4;
    double *magnitude = scratch, *zr = magnitude + n + 1, *zi = zr + width, *pr = zi + width, *pi_ = pr + width, *dr = pi_ + width,
           *di = dr + width, *bound = di + width, *ir = bound + width, *ii = ir + width, *done = ii + width;
    for (size_t k = 0; k <= n; k++) magnitude[k] = fabs(m[k]);
    for (size_t i = 0; i < width; i++) {
        zr[i] = i < n ? re[i] : 0;
        zi[i] = i < n ? im[i] : 0;
        done[i] = i < n ? 0 : 1;
    }
    size_t left = n;
    for (int sweep = 0; sweep < sweeps && left > 0; sweep++) {
        /* Every root's p, p′ and bound at its place before the sweep: a root's own step is the
         * first to move it, so these are the values it would be evaluated with in turn. */
        for (size_t g = 0; g < width; g += 4) {
            v4 a, b, c, d, e;
            evaluate4(m, magnitude, n, load4(zr + g), load4(zi + g), &a, &b, &c, &d, &e);
            store4(pr + g, a), store4(pi_ + g, b), store4(dr + g, c), store4(di + g, d), store4(bound + g, e);
        }
        for (size_t i = 0; i < n; i++) {
            if (done[i] != 0) continue;
            if (sqrt(pr[i] * pr[i] + pi_[i] * pi_[i]) <= 4 * 0x1p-52 * bound[i]) {
                done[i] = 1, left--;
                continue;
            }
            double wr, wi;
            divide(pr[i], pi_[i], dr[i], di[i], &wr, &wi);
            const v4 xr = splat(zr[i]), xi = splat(zi[i]);
            for (size_t g = 0; g < width; g += 4) {
                v4 a, b;
                inverse4(xr - load4(zr + g), xi - load4(zi + g), &a, &b);
                store4(ir + g, a), store4(ii + g, b);
            }
            double sr = 0, si = 0;
            for (size_t j = 0; j < n; j++) {
                if (j == i) continue;
                sr += ir[j];
                si += ii[j];
            }
            double sr2, si2;
            divide(wr, wi, 1 - (wr * sr - wi * si), -(wr * si + wi * sr), &sr2, &si2);
            if (!isfinite(sr2) || !isfinite(si2)) return 0;
            zr[i] -= sr2;
            zi[i] -= si2;
            if (fabs(sr2) + fabs(si2) <= 1e-15 * (fabs(zr[i]) + fabs(zi[i]))) done[i] = 1, left--;
        }
    }
    memcpy(re, zr, n * sizeof *re);
    memcpy(im, zi, n * sizeof *im);
    return 1;
}

#define ABERTH_INSTANCE(attribute, suffix)                                                                             \
    attribute static int aberth_##suffix(const double *m, size_t n, double *re, double *im, int sweeps, double *scratch) { \
        return aberth_body(m, n, re, im, sweeps, scratch);                                                             \
    }

ABERTH_INSTANCE(, 1)
#if defined(__x86_64__)
ABERTH_INSTANCE(LEVEL_2, 2)
ABERTH_INSTANCE(LEVEL_3, 3)
#endif

int atk_aberth(const double *monic, size_t n, double *re, double *im, int sweeps, double *scratch) {
    return LEVEL_CALL(aberth, monic, n, re, im, sweeps, scratch);
}
