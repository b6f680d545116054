#include "CAlsa.h"
#include "LibraryLoader.h"

ATK_LIBRARY_LOADER(atk_alsa, "libasound.so.2", "libasound2", ATK_ALSA_FUNCTIONS)
