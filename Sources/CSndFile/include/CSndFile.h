#ifndef ACTIVETASKKIT_CSNDFILE_H
#define ACTIVETASKKIT_CSNDFILE_H
// libsndfile's declarations, and its functions loaded on first use (dlopen) instead of linked:
// linked, libsndfile and the seven codec libraries it needs (FLAC, Vorbis, Opus, Ogg, mpg123,
// LAME) are mapped and relocated at every command's start (0.7 ms of CPU; docs/cli.md,
// "Start-up"), and only a command that reads or writes audio needs them. Call libsndfile only
// through atk_sndfile_load()'s table.
#include <sndfile.h>

// Every function SoundFile and WAVWriter call.
#define ATK_SNDFILE_FUNCTIONS(X) \
    X(sf_open) \
    X(sf_open_fd) \
    X(sf_open_virtual) \
    X(sf_close) \
    X(sf_command) \
    X(sf_error) \
    X(sf_strerror) \
    X(sf_format_check) \
    X(sf_seek) \
    X(sf_readf_short) \
    X(sf_readf_float) \
    X(sf_readf_double) \
    X(sf_writef_float) \
    X(sf_writef_double) \
    X(sf_write_sync)

/// libsndfile's functions, each with its own type.
struct atk_sndfile {
#define ATK_SNDFILE_FIELD(name) __typeof__(name) *name;
    ATK_SNDFILE_FUNCTIONS(ATK_SNDFILE_FIELD)
#undef ATK_SNDFILE_FIELD
};

/// The table, every entry set, after loading libsndfile.so.1 (once per process); NULL when it
/// cannot be loaded, `*message` then says why.
const struct atk_sndfile *atk_sndfile_load(const char **message);
#endif
