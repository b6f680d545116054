#ifndef ACTIVETASKKIT_CSNDFILE_SHIM_H
#define ACTIVETASKKIT_CSNDFILE_SHIM_H
#include <sndfile.h>
#endif
