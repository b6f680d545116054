/* A real trigonometric series at many angles by Clenshaw's recurrence (CKernels.h,
 * atk_trig_series). */
#include "vectors.h"

/* The same bits on every instruction set: no contraction, each lane a double's operations. */
#pragma STDC FP_CONTRACT OFF

/* Σ_{k<terms} a_k·cos kθ − b_k·sin kθ, (a_k, b_k) = pairs[2k], pairs[2k + 1], for the angles of eight outputs (their 2·cos θ, cos θ and
 * sin θ in lanes): u_k = a_k + 2cos θ·u_{k+1} − u_{k+2} and v_k likewise from b, k = terms − 1 … 1,
 * then a_0 + u_1·cos θ − u_2 − v_1·sin θ (C. W. Clenshaw, "A note on the summation of Chebyshev
 * series", Math. Tables Aids Comput. 9:118–120, 1955). Four groups of eight at a time, so that
 * eight recurrences overlap. */
INLINE void series_body(const double *pairs, size_t terms, const double *two_cos, const double *cos_t,
                        const double *sin_t, size_t n, double *out) {
    size_t j = 0;
    for (; j < n; j += 32) {
        const size_t groups = n - j >= 32 ? 4 : (n - j + 7) / 8;
        v8 t[4], u1[4], u2[4], v1[4], v2[4];
        for (size_t g = 0; g < 4; g++) {
            double lanes[8] = {0};
            for (size_t l = 0; l < 8 && j + 8 * g + l < n; l++) lanes[l] = two_cos[j + 8 * g + l];
            memcpy(&t[g], lanes, sizeof lanes);
            u1[g] = u2[g] = v1[g] = v2[g] = (v8){0, 0, 0, 0, 0, 0, 0, 0};
        }
        for (size_t k = terms; k-- > 1;) {
            _Pragma("clang loop unroll(full)") for (size_t g = 0; g < 4; g++) {
                const v8 u = pairs[2 * k] + t[g] * u1[g] - u2[g], v = pairs[2 * k + 1] + t[g] * v1[g] - v2[g];
                u2[g] = u1[g], u1[g] = u;
                v2[g] = v1[g], v1[g] = v;
            }
        }
        for (size_t g = 0; g < groups; g++)
            for (size_t l = 0; l < 8 && j + 8 * g + l < n; l++) {
                const size_t i = j + 8 * g + l;
                out[i] = (pairs[0] + u1[g][l] * cos_t[i] - u2[g][l]) - v1[g][l] * sin_t[i];
            }
    }
}

static void series_1(const double *pairs, size_t terms, const double *two_cos, const double *cos_t, const double *sin_t,
                     size_t n, double *out) {
    series_body(pairs, terms, two_cos, cos_t, sin_t, n, out);
}

#if defined(__x86_64__)
LEVEL_2 static void series_2(const double *pairs, size_t terms, const double *two_cos, const double *cos_t,
                             const double *sin_t, size_t n, double *out) {
    series_body(pairs, terms, two_cos, cos_t, sin_t, n, out);
}

LEVEL_3 static void series_3(const double *pairs, size_t terms, const double *two_cos, const double *cos_t,
                             const double *sin_t, size_t n, double *out) {
    series_body(pairs, terms, two_cos, cos_t, sin_t, n, out);
}
#endif

void atk_trig_series(const double *pairs, size_t terms, const double *two_cos, const double *cos_t, const double *sin_t,
                     size_t n, double *out) {
    if (terms == 0) {
        for (size_t i = 0; i < n; i++) out[i] = 0;
        return;
    }
    LEVEL_CALL(series, pairs, terms, two_cos, cos_t, sin_t, n, out);
}
