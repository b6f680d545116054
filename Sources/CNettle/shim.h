#ifndef ACTIVETASKKIT_CNETTLE_SHIM_H
#define ACTIVETASKKIT_CNETTLE_SHIM_H
// SHA-256 (FIPS 180-4) from Nettle: the content keys of files, archive entries and calibrations.
#include <nettle/sha2.h>
#endif
