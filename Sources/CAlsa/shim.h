#ifndef ACTIVETASKKIT_CALSA_SHIM_H
#define ACTIVETASKKIT_CALSA_SHIM_H
#include <alsa/asoundlib.h>
#include <errno.h>
#endif
