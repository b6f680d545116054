/* The passes of FFTPACK's real transform for powers of two (CKernels.h, atk_fftpack_pass):
 * P. N. Swarztrauber's radf2, radf4, radb2 and radb4 (FFTPACK, NCAR 1985, public domain), as
 * Praat 6.1.38 runs them (dwsys/NUMfft_d.cpp), on one transform or on four interleaved ones. */
#include "vectors.h"

#include <string.h>

/* The same bits on every instruction set: no contraction, each lane a double's operations. */
#pragma STDC FP_CONTRACT OFF

/* FFTPACK's 1-based notation: forward CC(I, K, M) → CH(I, M, K), backward CC(I, M, K) →
 * CH(I, K, M), I = 1…ido, K = 1…l1, M = 1…radix; IC = ido + 2 − I; WA(j) is wa[j − 1]. A value is
 * a T (a double, or four lanes), read and written through memcpy. */
#define AT(base, index) ((base) + (index) * sizeof(T) / sizeof(double))
#define GET(base, index) ({ T value_; memcpy(&value_, AT(base, index), sizeof(T)); value_; })
#define PUT(base, index, value) do { const T put_ = (value); memcpy(AT(base, index), &put_, sizeof(T)); } while (0)

#define F_CC(i, k, m) ((i) - 1 + ido * ((k) - 1 + l1 * ((m) - 1)))
#define B_CC(i, m, k) ((i) - 1 + ido * ((m) - 1 + radix * ((k) - 1)))
#define F_CH B_CC
#define B_CH F_CC

#define PASSES(TYPE, suffix, attribute)                                                                                  \
    attribute static void forward2_##suffix(size_t ido, size_t l1, const double *cc, double *ch, const double *wa) {  \
        typedef TYPE T;                                                                                               \
        const size_t radix = 2;                                                                                       \
        for (size_t k = 1; k <= l1; k++) {                                                                            \
            PUT(ch, F_CH(1, 1, k), GET(cc, F_CC(1, k, 1)) + GET(cc, F_CC(1, k, 2)));                                  \
            PUT(ch, F_CH(ido, 2, k), GET(cc, F_CC(1, k, 1)) - GET(cc, F_CC(1, k, 2)));                                \
        }                                                                                                             \
        if (ido < 2) return;                                                                                          \
        if (ido > 2) {                                                                                                \
            for (size_t k = 1; k <= l1; k++)                                                                          \
                for (size_t i = 3; i <= ido; i += 2) {                                                                \
                    const size_t ic = ido + 2 - i;                                                                    \
                    const T tr2 = wa[i - 3] * GET(cc, F_CC(i - 1, k, 2)) + wa[i - 2] * GET(cc, F_CC(i, k, 2));         \
                    const T ti2 = wa[i - 3] * GET(cc, F_CC(i, k, 2)) - wa[i - 2] * GET(cc, F_CC(i - 1, k, 2));         \
                    PUT(ch, F_CH(i, 1, k), GET(cc, F_CC(i, k, 1)) + ti2);                                             \
                    PUT(ch, F_CH(ic, 2, k), ti2 - GET(cc, F_CC(i, k, 1)));                                            \
                    PUT(ch, F_CH(i - 1, 1, k), GET(cc, F_CC(i - 1, k, 1)) + tr2);                                     \
                    PUT(ch, F_CH(ic - 1, 2, k), GET(cc, F_CC(i - 1, k, 1)) - tr2);                                    \
                }                                                                                                     \
            if (ido % 2 == 1) return;                                                                                 \
        }                                                                                                             \
        for (size_t k = 1; k <= l1; k++) {                                                                            \
            PUT(ch, F_CH(1, 2, k), -GET(cc, F_CC(ido, k, 2)));                                                        \
            PUT(ch, F_CH(ido, 1, k), GET(cc, F_CC(ido, k, 1)));                                                       \
        }                                                                                                             \
    }                                                                                                                 \
                                                                                                                      \
    attribute static void forward4_##suffix(size_t ido, size_t l1, const double *cc, double *ch, const double *wa1,   \
                                            const double *wa2, const double *wa3) {                                   \
        typedef TYPE T;                                                                                               \
        const size_t radix = 4;                                                                                       \
        const double hsqt2 = 0.70710678118654752440084436210485;                                                      \
        for (size_t k = 1; k <= l1; k++) {                                                                            \
            const T tr1 = GET(cc, F_CC(1, k, 2)) + GET(cc, F_CC(1, k, 4));                                            \
            const T tr2 = GET(cc, F_CC(1, k, 1)) + GET(cc, F_CC(1, k, 3));                                            \
            PUT(ch, F_CH(1, 1, k), tr1 + tr2);                                                                        \
            PUT(ch, F_CH(ido, 4, k), tr2 - tr1);                                                                      \
            PUT(ch, F_CH(ido, 2, k), GET(cc, F_CC(1, k, 1)) - GET(cc, F_CC(1, k, 3)));                                \
            PUT(ch, F_CH(1, 3, k), GET(cc, F_CC(1, k, 4)) - GET(cc, F_CC(1, k, 2)));                                  \
        }                                                                                                             \
        if (ido < 2) return;                                                                                          \
        if (ido > 2) {                                                                                                \
            for (size_t k = 1; k <= l1; k++)                                                                          \
                for (size_t i = 3; i <= ido; i += 2) {                                                                \
                    const size_t ic = ido + 2 - i;                                                                    \
                    const T cr2 = wa1[i - 3] * GET(cc, F_CC(i - 1, k, 2)) + wa1[i - 2] * GET(cc, F_CC(i, k, 2));       \
                    const T ci2 = wa1[i - 3] * GET(cc, F_CC(i, k, 2)) - wa1[i - 2] * GET(cc, F_CC(i - 1, k, 2));       \
                    const T cr3 = wa2[i - 3] * GET(cc, F_CC(i - 1, k, 3)) + wa2[i - 2] * GET(cc, F_CC(i, k, 3));       \
                    const T ci3 = wa2[i - 3] * GET(cc, F_CC(i, k, 3)) - wa2[i - 2] * GET(cc, F_CC(i - 1, k, 3));       \
                    const T cr4 = wa3[i - 3] * GET(cc, F_CC(i - 1, k, 4)) + wa3[i - 2] * GET(cc, F_CC(i, k, 4));       \
                    const T ci4 = wa3[i - 3] * GET(cc, F_CC(i, k, 4)) - wa3[i - 2] * GET(cc, F_CC(i - 1, k, 4));       \
                    const T tr1 = cr2 + cr4, tr4 = cr4 - cr2;                                                         \
                    const T ti1 = ci2 + ci4, ti4 = ci2 - ci4;                                                         \
                    const T ti2 = GET(cc, F_CC(i, k, 1)) + ci3, ti3 = GET(cc, F_CC(i, k, 1)) - ci3;                   \
                    const T tr2 = GET(cc, F_CC(i - 1, k, 1)) + cr3, tr3 = GET(cc, F_CC(i - 1, k, 1)) - cr3;           \
                    PUT(ch, F_CH(i - 1, 1, k), tr1 + tr2);                                                            \
                    PUT(ch, F_CH(i, 1, k), ti1 + ti2);                                                                \
                    PUT(ch, F_CH(ic - 1, 2, k), tr3 - ti4);                                                           \
                    PUT(ch, F_CH(ic, 2, k), tr4 - ti3);                                                               \
                    PUT(ch, F_CH(i - 1, 3, k), ti4 + tr3);                                                            \
                    PUT(ch, F_CH(i, 3, k), tr4 + ti3);                                                                \
                    PUT(ch, F_CH(ic - 1, 4, k), tr2 - tr1);                                                           \
                    PUT(ch, F_CH(ic, 4, k), ti1 - ti2);                                                               \
                }                                                                                                     \
            if (ido % 2 == 1) return;                                                                                 \
        }                                                                                                             \
        for (size_t k = 1; k <= l1; k++) {                                                                            \
            const T ti1 = -hsqt2 * (GET(cc, F_CC(ido, k, 2)) + GET(cc, F_CC(ido, k, 4)));                            \
            const T tr1 = hsqt2 * (GET(cc, F_CC(ido, k, 2)) - GET(cc, F_CC(ido, k, 4)));                              \
            PUT(ch, F_CH(ido, 1, k), tr1 + GET(cc, F_CC(ido, k, 1)));                                                 \
            PUT(ch, F_CH(ido, 3, k), GET(cc, F_CC(ido, k, 1)) - tr1);                                                 \
            PUT(ch, F_CH(1, 2, k), ti1 - GET(cc, F_CC(ido, k, 3)));                                                   \
            PUT(ch, F_CH(1, 4, k), ti1 + GET(cc, F_CC(ido, k, 3)));                                                   \
        }                                                                                                             \
    }                                                                                                                 \
                                                                                                                      \
    attribute static void backward2_##suffix(size_t ido, size_t l1, const double *cc, double *ch, const double *wa) { \
        typedef TYPE T;                                                                                               \
        const size_t radix = 2;                                                                                       \
        for (size_t k = 1; k <= l1; k++) {                                                                            \
            PUT(ch, B_CH(1, k, 1), GET(cc, B_CC(1, 1, k)) + GET(cc, B_CC(ido, 2, k)));                                \
            PUT(ch, B_CH(1, k, 2), GET(cc, B_CC(1, 1, k)) - GET(cc, B_CC(ido, 2, k)));                                \
        }                                                                                                             \
        if (ido < 2) return;                                                                                          \
        if (ido > 2) {                                                                                                \
            for (size_t k = 1; k <= l1; k++)                                                                          \
                for (size_t i = 3; i <= ido; i += 2) {                                                                \
                    const size_t ic = ido + 2 - i;                                                                    \
                    PUT(ch, B_CH(i - 1, k, 1), GET(cc, B_CC(i - 1, 1, k)) + GET(cc, B_CC(ic - 1, 2, k)));             \
                    const T tr2 = GET(cc, B_CC(i - 1, 1, k)) - GET(cc, B_CC(ic - 1, 2, k));                           \
                    PUT(ch, B_CH(i, k, 1), GET(cc, B_CC(i, 1, k)) - GET(cc, B_CC(ic, 2, k)));                         \
                    const T ti2 = GET(cc, B_CC(i, 1, k)) + GET(cc, B_CC(ic, 2, k));                                   \
                    PUT(ch, B_CH(i - 1, k, 2), wa[i - 3] * tr2 - wa[i - 2] * ti2);                                    \
                    PUT(ch, B_CH(i, k, 2), wa[i - 3] * ti2 + wa[i - 2] * tr2);                                        \
                }                                                                                                     \
            if (ido % 2 == 1) return;                                                                                 \
        }                                                                                                             \
        for (size_t k = 1; k <= l1; k++) {                                                                            \
            PUT(ch, B_CH(ido, k, 1), GET(cc, B_CC(ido, 1, k)) + GET(cc, B_CC(ido, 1, k)));                            \
            PUT(ch, B_CH(ido, k, 2), -(GET(cc, B_CC(1, 2, k)) + GET(cc, B_CC(1, 2, k))));                             \
        }                                                                                                             \
    }                                                                                                                 \
                                                                                                                      \
    attribute static void backward4_##suffix(size_t ido, size_t l1, const double *cc, double *ch, const double *wa1,  \
                                             const double *wa2, const double *wa3) {                                  \
        typedef TYPE T;                                                                                               \
        const size_t radix = 4;                                                                                       \
        const double sqrt2 = 1.4142135623730950488016887242097;                                                       \
        for (size_t k = 1; k <= l1; k++) {                                                                            \
            const T tr1 = GET(cc, B_CC(1, 1, k)) - GET(cc, B_CC(ido, 4, k));                                          \
            const T tr2 = GET(cc, B_CC(1, 1, k)) + GET(cc, B_CC(ido, 4, k));                                          \
            const T tr3 = GET(cc, B_CC(ido, 2, k)) + GET(cc, B_CC(ido, 2, k));                                        \
            const T tr4 = GET(cc, B_CC(1, 3, k)) + GET(cc, B_CC(1, 3, k));                                            \
            PUT(ch, B_CH(1, k, 1), tr2 + tr3);                                                                        \
            PUT(ch, B_CH(1, k, 2), tr1 - tr4);                                                                        \
            PUT(ch, B_CH(1, k, 3), tr2 - tr3);                                                                        \
            PUT(ch, B_CH(1, k, 4), tr1 + tr4);                                                                        \
        }                                                                                                             \
        if (ido < 2) return;                                                                                          \
        if (ido > 2) {                                                                                                \
            for (size_t k = 1; k <= l1; k++)                                                                          \
                for (size_t i = 3; i <= ido; i += 2) {                                                                \
                    const size_t ic = ido + 2 - i;                                                                    \
                    const T ti1 = GET(cc, B_CC(i, 1, k)) + GET(cc, B_CC(ic, 4, k));                                   \
                    const T ti2 = GET(cc, B_CC(i, 1, k)) - GET(cc, B_CC(ic, 4, k));                                   \
                    const T ti3 = GET(cc, B_CC(i, 3, k)) - GET(cc, B_CC(ic, 2, k));                                   \
                    const T tr4 = GET(cc, B_CC(i, 3, k)) + GET(cc, B_CC(ic, 2, k));                                   \
                    const T tr1 = GET(cc, B_CC(i - 1, 1, k)) - GET(cc, B_CC(ic - 1, 4, k));                           \
                    const T tr2 = GET(cc, B_CC(i - 1, 1, k)) + GET(cc, B_CC(ic - 1, 4, k));                           \
                    const T ti4 = GET(cc, B_CC(i - 1, 3, k)) - GET(cc, B_CC(ic - 1, 2, k));                           \
                    const T tr3 = GET(cc, B_CC(i - 1, 3, k)) + GET(cc, B_CC(ic - 1, 2, k));                           \
                    PUT(ch, B_CH(i - 1, k, 1), tr2 + tr3);                                                            \
                    const T cr3 = tr2 - tr3;                                                                          \
                    PUT(ch, B_CH(i, k, 1), ti2 + ti3);                                                                \
                    const T ci3 = ti2 - ti3;                                                                          \
                    const T cr2 = tr1 - tr4, cr4 = tr1 + tr4;                                                         \
                    const T ci2 = ti1 + ti4, ci4 = ti1 - ti4;                                                         \
                    PUT(ch, B_CH(i - 1, k, 2), wa1[i - 3] * cr2 - wa1[i - 2] * ci2);                                  \
                    PUT(ch, B_CH(i, k, 2), wa1[i - 3] * ci2 + wa1[i - 2] * cr2);                                      \
                    PUT(ch, B_CH(i - 1, k, 3), wa2[i - 3] * cr3 - wa2[i - 2] * ci3);                                  \
                    PUT(ch, B_CH(i, k, 3), wa2[i - 3] * ci3 + wa2[i - 2] * cr3);                                      \
                    PUT(ch, B_CH(i - 1, k, 4), wa3[i - 3] * cr4 - wa3[i - 2] * ci4);                                  \
                    PUT(ch, B_CH(i, k, 4), wa3[i - 3] * ci4 + wa3[i - 2] * cr4);                                      \
                }                                                                                                     \
            if (ido % 2 == 1) return;                                                                                 \
        }                                                                                                             \
        for (size_t k = 1; k <= l1; k++) {                                                                            \
            const T ti1 = GET(cc, B_CC(1, 2, k)) + GET(cc, B_CC(1, 4, k));                                            \
            const T ti2 = GET(cc, B_CC(1, 4, k)) - GET(cc, B_CC(1, 2, k));                                            \
            const T tr1 = GET(cc, B_CC(ido, 1, k)) - GET(cc, B_CC(ido, 3, k));                                        \
            const T tr2 = GET(cc, B_CC(ido, 1, k)) + GET(cc, B_CC(ido, 3, k));                                        \
            PUT(ch, B_CH(ido, k, 1), tr2 + tr2);                                                                      \
            PUT(ch, B_CH(ido, k, 2), sqrt2 * (tr1 - ti1));                                                            \
            PUT(ch, B_CH(ido, k, 3), ti2 + ti2);                                                                      \
            PUT(ch, B_CH(ido, k, 4), -sqrt2 * (tr1 + ti1));                                                           \
        }                                                                                                             \
    }                                                                                                                 \
                                                                                                                      \
    attribute static int pass_##suffix(int radix, int inverse, size_t ido, size_t l1, const double *cc, double *ch,    \
                                       const double *wa) {                                                            \
        if (radix == 4) {                                                                                             \
            if (inverse) backward4_##suffix(ido, l1, cc, ch, wa, wa + ido, wa + 2 * ido);                             \
            else forward4_##suffix(ido, l1, cc, ch, wa, wa + ido, wa + 2 * ido);                                      \
        } else if (radix == 2) {                                                                                      \
            if (inverse) backward2_##suffix(ido, l1, cc, ch, wa);                                                     \
            else forward2_##suffix(ido, l1, cc, ch, wa);                                                              \
        } else {                                                                                                      \
            return -1;                                                                                                \
        }                                                                                                             \
        return 0;                                                                                                     \
    }

PASSES(double, one, )
PASSES(v4, four_1, )
#if defined(__x86_64__)
PASSES(v4, four_2, LEVEL_2)
PASSES(v4, four_3, LEVEL_3)
#endif

int atk_fftpack_pass(size_t lanes, int radix, int inverse, size_t ido, size_t l1, const double *cc, double *ch, const double *wa) {
    if (lanes == 1) return pass_one(radix, inverse, ido, l1, cc, ch, wa);
    if (lanes != 4) return -1;
    return LEVEL_CALL(pass_four, radix, inverse, ido, l1, cc, ch, wa);
}
