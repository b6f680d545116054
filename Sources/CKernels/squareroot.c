/* Square roots of an array in place (CKernels.h, atk_sqrt_array). */
#include "vectors.h"

/* Eight values per step (the vector's lanes at the level's width), the last 0–7 one by one: √ is
 * correctly rounded, so every level gives each value the scalar result. */
INLINE void sqrt_body(double *x, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        v8 v;
        memcpy(&v, x + i, sizeof v);
        v = __builtin_elementwise_sqrt(v);
        memcpy(x + i, &v, sizeof v);
    }
    for (; i < n; i++) x[i] = __builtin_elementwise_sqrt(x[i]);
}

static void sqrt_1(double *x, size_t n) { sqrt_body(x, n); }
#if defined(__x86_64__)
LEVEL_2 static void sqrt_2(double *x, size_t n) { sqrt_body(x, n); }
LEVEL_3 static void sqrt_3(double *x, size_t n) { sqrt_body(x, n); }
#endif

void atk_sqrt_array(double *x, size_t n) { LEVEL_CALL(sqrt, x, n); }
