#include "CSndFile.h"
#include "LibraryLoader.h"

ATK_LIBRARY_LOADER(atk_sndfile, "libsndfile.so.1", "libsndfile1", ATK_SNDFILE_FUNCTIONS)
