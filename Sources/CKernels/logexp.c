/* ln, lg and exp of arrays in place through glibc's vector math library, libmvec
 * (_ZGV{b,d,e}N{2,4,8}v_{log,log10,exp}: at most 4 ulp from the correctly rounded value, glibc
 * manual "Errors in Math Functions"), at the vector width `atk_kernel_level` allows. The last
 * partial vector is padded and goes through the same function, so a value gives the same result
 * wherever it sits in an array. */
#include "CKernels.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>

/* The vector ABI's names (x86_64 vector function ABI: b SSE, d AVX2, e AVX-512). */
#define DECLARE(fn)                                                        \
    __m128d _ZGVbN2v_##fn(__m128d);                                        \
    __attribute__((target("avx2"))) __m256d _ZGVdN4v_##fn(__m256d);       \
    __attribute__((target("avx512f"))) __m512d _ZGVeN8v_##fn(__m512d);
DECLARE(log)
DECLARE(log10)
DECLARE(exp)

/* One width: whole vectors, then the rest padded with ones. */
#define WIDTH(fn, lanes, attribute, type, load, store, vector)                                   \
    attribute static void fn##_##lanes(double *x, size_t n) {                                   \
        size_t i = 0;                                                                            \
        for (; i + lanes <= n; i += lanes) store(x + i, vector(load(x + i)));                     \
        if (i < n) {                                                                             \
            double pad[lanes];                                                                   \
            for (size_t k = 0; k < lanes; k++) pad[k] = 1;                                       \
            memcpy(pad, x + i, (n - i) * sizeof *x);                                             \
            store(pad, vector(load(pad)));                                                       \
            memcpy(x + i, pad, (n - i) * sizeof *x);                                             \
        }                                                                                        \
    }

#define FUNCTION(fn)                                                                                              \
    WIDTH(fn, 2, , __m128d, _mm_loadu_pd, _mm_storeu_pd, _ZGVbN2v_##fn)                                          \
    WIDTH(fn, 4, __attribute__((target("avx2,fma"))), __m256d, _mm256_loadu_pd, _mm256_storeu_pd, _ZGVdN4v_##fn) \
    WIDTH(fn, 8, __attribute__((target("avx512f"))), __m512d, _mm512_loadu_pd, _mm512_storeu_pd, _ZGVeN8v_##fn)   \
    void atk_##fn##_array(double *x, size_t n) {                                                                  \
        switch (atk_kernel_level()) {                                                                             \
        case 3: fn##_8(x, n); return;                                                                             \
        case 2: fn##_4(x, n); return;                                                                             \
        default: fn##_2(x, n); return;                                                                            \
        }                                                                                                         \
    }
#else
#define FUNCTION(fn)                                              \
    void atk_##fn##_array(double *x, size_t n) {                  \
        for (size_t i = 0; i < n; i++) x[i] = fn(x[i]);           \
    }
#endif

FUNCTION(log)
FUNCTION(log10)
FUNCTION(exp)
