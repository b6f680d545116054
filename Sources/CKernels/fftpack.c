/* The passes of FFTPACK's real transform for powers of two (CKernels.h, atk_fftpack_pass):
 * P. N. Swarztrauber's radf2, radf4, radb2 and radb4 (FFTPACK, NCAR 1985, public domain), as
 * Praat 6.1.38 runs them (dwsys/NUMfft_d.cpp), on one transform (with AVX2 its radix-4
 * butterflies two at a time) or on four interleaved ones. */
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

#define PASSES(TYPE, suffix, attribute, WIDE)                                                                            \
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
                for (size_t i = WIDE(forward4_pairs, ido, l1, k, cc, ch, wa1, wa2, wa3); i <= ido; i += 2) {          \
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
                for (size_t i = WIDE(backward4_pairs, ido, l1, k, cc, ch, wa1, wa2, wa3); i <= ido; i += 2) {         \
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

/* One transform's radix-4 butterflies two at a time: for one k, the pairs i, i + 2 (i = 3, 7, 11,
 * …, while i + 2 < ido) in the lanes of a vector — a value and its imaginary part side by side, as
 * FFTPACK stores them, the values that FFTPACK reads and writes from the top (ic = ido + 2 − i)
 * with their pairs swapped. Each output is FFTPACK's expression of the same operands, in its
 * order (where the real and the imaginary lane need different expressions, both are computed
 * and each lane takes its own): the same bits as the scalar loop, which does what is left.
 * Return the first i left. */
#define PAIRS(a, b) __builtin_shufflevector(a, b, 0, 5, 2, 7)  /* real lanes of a, imaginary of b */
#define EVENS(a, b) __builtin_shufflevector(a, b, 0, 4, 2, 6)  /* a's lanes 0, 2 and b's, interleaved */
#define ODDS(a, b) __builtin_shufflevector(a, b, 1, 5, 3, 7)
#define SWAP_PARTS(a) __builtin_shufflevector(a, a, 1, 0, 3, 2)  /* (re, im) → (im, re) */
#define SWAP_PAIRS(a) __builtin_shufflevector(a, a, 2, 3, 0, 1)  /* butterfly i ↔ i + 2 */

INLINE v4 load_pairs(const double *p) { v4 v; memcpy(&v, p, sizeof v); return v; }
INLINE void store_pairs(double *p, v4 v) { memcpy(p, &v, sizeof v); }

/* (wr·xr + wi·xi, wr·xi − wi·xr): radf4's twiddled inputs (cr, ci). */
INLINE v4 twiddled_forward(v4 w, v4 x) {
    const v4 p = w * x, q = w * SWAP_PARTS(x);
    const v4 a = EVENS(p, q), b = ODDS(p, q);
    return PAIRS(a + b, a - b);
}

/* (wr·cr − wi·ci, wr·ci + wi·cr): radb4's twiddled outputs. */
INLINE v4 twiddled_backward(v4 w, v4 c) {
    const v4 p = w * c, q = w * SWAP_PARTS(c);
    const v4 a = EVENS(p, q), b = ODDS(p, q);
    return PAIRS(a - b, a + b);
}

INLINE size_t forward4_pairs(size_t ido, size_t l1, size_t k, const double *cc, double *ch, const double *wa1, const double *wa2,
                             const double *wa3) {
    const size_t radix = 4;
    size_t i = 3;
    for (; i + 2 < ido; i += 4) {
        const size_t ic = ido + 2 - i;
        const v4 c2 = twiddled_forward(load_pairs(wa1 + i - 3), load_pairs(cc + F_CC(i - 1, k, 2)));
        const v4 c3 = twiddled_forward(load_pairs(wa2 + i - 3), load_pairs(cc + F_CC(i - 1, k, 3)));
        const v4 c4 = twiddled_forward(load_pairs(wa3 + i - 3), load_pairs(cc + F_CC(i - 1, k, 4)));
        const v4 x1 = load_pairs(cc + F_CC(i - 1, k, 1));
        const v4 t1 = c2 + c4;                          /* (tr1, ti1) */
        const v4 t4 = PAIRS(c4 - c2, c2 - c4);          /* (tr4, ti4) */
        const v4 s = x1 + c3, d = x1 - c3;              /* (tr2, ti2), (tr3, ti3) */
        const v4 l = EVENS(d, t4), r = ODDS(t4, d);     /* (tr3, tr4), (ti4, ti3) */
        store_pairs(ch + F_CH(i - 1, 1, k), t1 + s);
        store_pairs(ch + F_CH(ic - 3, 2, k), SWAP_PAIRS(l - r));
        store_pairs(ch + F_CH(i - 1, 3, k), r + l);
        store_pairs(ch + F_CH(ic - 3, 4, k), SWAP_PAIRS(PAIRS(s - t1, t1 - s)));
    }
    return i;
}

INLINE size_t backward4_pairs(size_t ido, size_t l1, size_t k, const double *cc, double *ch, const double *wa1, const double *wa2,
                              const double *wa3) {
    const size_t radix = 4;
    size_t i = 3;
    for (; i + 2 < ido; i += 4) {
        const size_t ic = ido + 2 - i;
        const v4 a1 = load_pairs(cc + B_CC(i - 1, 1, k)), a3 = load_pairs(cc + B_CC(i - 1, 3, k));
        const v4 b2 = SWAP_PAIRS(load_pairs(cc + B_CC(ic - 3, 2, k))), b4 = SWAP_PAIRS(load_pairs(cc + B_CC(ic - 3, 4, k)));
        const v4 plus = a1 + b4, minus = a1 - b4;      /* (tr2, ti1), (tr1, ti2) */
        const v4 u = PAIRS(plus, minus);               /* (tr2, ti2) */
        const v4 v = PAIRS(minus, plus);               /* (tr1, ti1) */
        const v4 p3 = PAIRS(a3 + b2, a3 - b2);         /* (tr3, ti3) */
        const v4 w = SWAP_PARTS(PAIRS(a3 - b2, a3 + b2)); /* (tr4, ti4) */
        store_pairs(ch + B_CH(i - 1, k, 1), u + p3);
        store_pairs(ch + B_CH(i - 1, k, 2), twiddled_backward(load_pairs(wa1 + i - 3), PAIRS(v - w, v + w)));
        store_pairs(ch + B_CH(i - 1, k, 3), twiddled_backward(load_pairs(wa2 + i - 3), u - p3));
        store_pairs(ch + B_CH(i - 1, k, 4), twiddled_backward(load_pairs(wa3 + i - 3), PAIRS(v + w, v - w)));
    }
    return i;
}

/* The scalar loop from i = 3, or from where the pairs end. */
#define NARROW(pairs, ido, l1, k, cc, ch, wa1, wa2, wa3) 3
#define WIDE_PAIRS(pairs, ido, l1, k, cc, ch, wa1, wa2, wa3) pairs(ido, l1, k, cc, ch, wa1, wa2, wa3)

PASSES(double, one_1, , NARROW)
PASSES(v4, four_1, , NARROW)
#if defined(__x86_64__)
PASSES(double, one_2, LEVEL_2, WIDE_PAIRS)
PASSES(double, one_3, LEVEL_3, WIDE_PAIRS)
PASSES(v4, four_2, LEVEL_2, NARROW)
PASSES(v4, four_3, LEVEL_3, NARROW)
#endif

int atk_fftpack_pass(size_t lanes, int radix, int inverse, size_t ido, size_t l1, const double *cc, double *ch, const double *wa) {
    if (lanes == 1) return LEVEL_CALL(pass_one, radix, inverse, ido, l1, cc, ch, wa);
    if (lanes != 4) return -1;
    return LEVEL_CALL(pass_four, radix, inverse, ido, l1, cc, ch, wa);
}
