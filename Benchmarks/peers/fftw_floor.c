/* The FFT floor for Benchmarks/peers/compare.py: FFTW 3 called directly from C on the plan the
 * toolkit's FFT wrapper makes (real forward, FFTW_ESTIMATE, planned on FFTW-allocated arrays,
 * executed with the new-array interface on aligned buffers), in the loop shape of
 * `peer-workloads fft`: `calls` transforms of one buffer, median of 7 loops. Prints the same JSON
 * line as peer-workloads.
 *
 *   cc -O2 -o fftw_floor fftw_floor.c -lfftw3 -lfftw3f -lm && ./fftw_floor 1024 double
 */
#include <fftw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: fftw_floor SIZE double|float\n");
        return 2;
    }
    int n = atoi(argv[1]);
    int single = strcmp(argv[2], "float") == 0;
    int bits = (int)log2((double)n);
    long calls = 50000000L / ((long)n * (bits > 1 ? bits : 1));
    if (calls < 20) calls = 20;
    double times[7], check = 0;
    if (single) {
        float *in = fftwf_alloc_real(n);
        fftwf_complex *out = fftwf_alloc_complex(n / 2 + 1);
        float *planIn = fftwf_alloc_real(n);
        fftwf_complex *planOut = fftwf_alloc_complex(n / 2 + 1);
        fftwf_plan plan = fftwf_plan_dft_r2c_1d(n, planIn, planOut, FFTW_ESTIMATE);
        for (int i = 0; i < n; i++) in[i] = (float)sin(i * 0.01);
        for (long c = 0; c < calls; c++) fftwf_execute_dft_r2c(plan, in, out);
        for (int r = 0; r < 7; r++) {
            double start = now();
            for (long c = 0; c < calls; c++) fftwf_execute_dft_r2c(plan, in, out);
            times[r] = (now() - start) / calls;
        }
        check = out[1][0];
    } else {
        double *in = fftw_alloc_real(n);
        fftw_complex *out = fftw_alloc_complex(n / 2 + 1);
        double *planIn = fftw_alloc_real(n);
        fftw_complex *planOut = fftw_alloc_complex(n / 2 + 1);
        fftw_plan plan = fftw_plan_dft_r2c_1d(n, planIn, planOut, FFTW_ESTIMATE);
        for (int i = 0; i < n; i++) in[i] = sin(i * 0.01);
        for (long c = 0; c < calls; c++) fftw_execute_dft_r2c(plan, in, out);
        for (int r = 0; r < 7; r++) {
            double start = now();
            for (long c = 0; c < calls; c++) fftw_execute_dft_r2c(plan, in, out);
            times[r] = (now() - start) / calls;
        }
        check = out[1][0];
    }
    qsort(times, 7, sizeof(double), compare);
    printf("{\"workload\":\"fft %d %s\",\"seconds\":%.9g,\"repeats\":7,\"peakResidentMB\":null,\"check\":%.17g}\n",
           n, argv[2], times[3], check);
    return 0;
}
