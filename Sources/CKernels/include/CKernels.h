#ifndef ATK_CKERNELS_H
#define ATK_CKERNELS_H
/* The toolkit's own hot loops in C, each compiled three times (AVX-512, AVX2 with FMA, and the
 * x86-64 baseline SSE2; elsewhere the compiler's default) and chosen once at run time by what
 * the processor supports (`atk_kernel_level`). Pure functions of their arguments: no allocation,
 * no global state but the dispatch, and no reading or writing outside the ranges given. */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* First-order exponential averaging y[n] = y[n-1] + alpha*(x[n] - y[n-1]) of `input[0..<count]`
 * starting from *state (updated to y[count-1]). Writes every y[n] to `output` unless it is NULL
 * and returns the largest y[n] (-infinity when count is 0). */
double atk_exponential_average(double alpha, double *state, const double *input, double *output, size_t count);

/* Squares `input[0..<count]` into `output` and returns their sum (four-lane partial sums). */
double atk_square(const double *input, double *output, size_t count);

/* The instruction set the kernels run with: 3 AVX-512, 2 AVX2 + FMA, 1 baseline. */
int atk_kernel_level(void);

#ifdef __cplusplus
}
#endif
#endif
