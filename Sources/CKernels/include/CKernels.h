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

/* Two such averages of one input in one pass (`alpha2`, `state2`; `output2` may be NULL),
 * each as atk_exponential_average computes it; their maxima go to *maximum and *maximum2.
 * With state2 NULL only the first is computed. */
void atk_exponential_average_pair(double alpha, double *state, double *output, double *maximum, double alpha2,
                                  double *state2, double *output2, double *maximum2, const double *input, size_t count);

/* Squares `input[0..<count]` into `output` and returns their sum (four-lane partial sums). */
double atk_square(const double *input, double *output, size_t count);

/* Two cascades of `sections` (1 to 4) biquads in transposed direct form II, one per lane of an
 * SSE2 vector: lane 0 filters input0[0], input0[stride], … into output0[0..<count], lane 1 input1
 * into output1. `coefficients` holds, per section, b0, b1, b2, a1, a2 (a0 = 1), each as a pair
 * (lane 0, lane 1); `state` holds per section z1 and z2 as pairs, updated. Each lane rounds
 * exactly as the scalar cascade (no fused multiply-add). An output may be its own input when
 * stride is 1. Returns 0, or -1 (nothing done) for a section count outside 1…4. */
int atk_biquad_pair(const double *coefficients, double *state, size_t sections, const double *input0,
                    const double *input1, size_t stride, double *output0, double *output1, size_t count);

/* The instruction set the kernels run with: 3 AVX-512, 2 AVX2 + FMA, 1 baseline. */
int atk_kernel_level(void);

#ifdef __cplusplus
}
#endif
#endif
