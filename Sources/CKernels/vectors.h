/* What the kernel files share (private to CKernels, not part of the module's interface): the
 * inlining attribute, GCC vector types of doubles (aligned to 8: loaded from any double), π as
 * Swift's Double.pi, the target attributes of the kernel levels and the call of a kernel's
 * instance for the processor's level. */
#ifndef ATK_VECTORS_H
#define ATK_VECTORS_H

#include "CKernels.h"

/* Vector values only cross always-inlined calls, so the ABI note about passing 32- and 64-byte
 * vectors without AVX does not apply. */
#pragma GCC diagnostic ignored "-Wpsabi"

#define INLINE static inline __attribute__((always_inline))

typedef double v2 __attribute__((vector_size(16), aligned(8)));
typedef double v4 __attribute__((vector_size(32), aligned(8)));
typedef double v8 __attribute__((vector_size(64), aligned(8)));
typedef long long v4i __attribute__((vector_size(32), aligned(8)));
typedef long long m8 __attribute__((vector_size(64), aligned(8)));

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
