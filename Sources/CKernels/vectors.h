/* What the kernel files share (private to CKernels, not part of the module's interface): the
 * inlining attribute, GCC vector types of doubles (aligned to 8: loaded from any double), π as
 * Swift's Double.pi, the target attributes of the kernel levels and the call of a kernel's
 * instance for the processor's level. */
#ifndef ATK_VECTORS_H
#define ATK_VECTORS_H

#include "CKernels.h"

#include <string.h>

/* Vector values only cross always-inlined calls, so the ABI note about passing 32- and 64-byte
 * vectors without AVX does not apply. */
#pragma GCC diagnostic ignored "-Wpsabi"

#define INLINE static inline __attribute__((always_inline))

typedef double v2 __attribute__((vector_size(16), aligned(8)));
typedef double v4 __attribute__((vector_size(32), aligned(8)));
typedef double v8 __attribute__((vector_size(64), aligned(8)));
typedef long long v4i __attribute__((vector_size(32), aligned(8)));
typedef long long m8 __attribute__((vector_size(64), aligned(8)));

/* Four-lane helpers shared by the kernels: loads and stores at any double's address, a value in
 * every lane, a lane-wise choice by a comparison mask, |x| by clearing the sign bit, and the
 * lane-wise maximum (a when a > b, else b). */
INLINE v4 load4(const double *p) { v4 v; memcpy(&v, p, sizeof v); return v; }
INLINE void store4(double *p, v4 v) { memcpy(p, &v, sizeof v); }
INLINE v4 splat(double x) { return (v4){x, x, x, x}; }
INLINE v4 select4(v4i mask, v4 a, v4 b) { return (v4)((mask & (v4i)a) | (~mask & (v4i)b)); }
INLINE v4 abs4(v4 v) {
    return (v4)((v4i)v & (v4i){0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL});
}
INLINE v4 max4(v4 a, v4 b) { return select4(a > b, a, b); }

/* π as a double, the value of Swift's Double.pi. */
static const double pi = 3.141592653589793115997963468544185161590576171875;

/* The target attributes of kernel levels 2 (AVX2 + FMA) and 3 (AVX-512). */
#define LEVEL_2 __attribute__((target("avx2,fma")))
#define LEVEL_3 __attribute__((target("avx512f,avx512vl,avx512dq,avx2,fma")))

/* name_3, name_2 or name_1 of the arguments, by atk_kernel_level (an expression, void or not). */
#if defined(__x86_64__)
#define LEVEL_CALL(name, ...)                                                                                     \
    (atk_kernel_level() == 3 ? name##_3(__VA_ARGS__) : atk_kernel_level() == 2 ? name##_2(__VA_ARGS__) : name##_1(__VA_ARGS__))
#else
#define LEVEL_CALL(name, ...) name##_1(__VA_ARGS__)
#endif

#endif
