#ifndef ACTIVETASKKIT_CFFTW_SHIM_H
#define ACTIVETASKKIT_CFFTW_SHIM_H
// Deliberately without <complex.h>: fftw_complex then imports as a (Double, Double) tuple.
#include <fftw3.h>
#endif
