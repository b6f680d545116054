#ifndef ACTIVETASKKIT_CALSA_H
#define ACTIVETASKKIT_CALSA_H
// libasound's declarations, and its functions loaded on first use (dlopen) instead of linked:
// linked, libasound is mapped and relocated at every command's start (0.3–0.4 ms of the 1 s
// `score spl`'s CPU; docs/cli.md, "Start-up"), and only a capture or playback on an alsa: device
// needs it. Call libasound only through atk_alsa_load()'s table.
#include <alsa/asoundlib.h>
#include <errno.h>

// Every function AlsaPCM calls.
#define ATK_ALSA_FUNCTIONS(X) \
    X(snd_strerror) \
    X(snd_device_name_hint) \
    X(snd_device_name_get_hint) \
    X(snd_device_name_free_hint) \
    X(snd_pcm_open) \
    X(snd_pcm_close) \
    X(snd_pcm_prepare) \
    X(snd_pcm_drain) \
    X(snd_pcm_recover) \
    X(snd_pcm_readi) \
    X(snd_pcm_writei) \
    X(snd_pcm_hw_params) \
    X(snd_pcm_hw_params_malloc) \
    X(snd_pcm_hw_params_free) \
    X(snd_pcm_hw_params_any) \
    X(snd_pcm_hw_params_set_access) \
    X(snd_pcm_hw_params_test_format) \
    X(snd_pcm_hw_params_set_format) \
    X(snd_pcm_hw_params_set_channels_near) \
    X(snd_pcm_hw_params_set_rate_near) \
    X(snd_pcm_hw_params_set_buffer_time_near) \
    X(snd_pcm_hw_params_set_period_time_near) \
    X(snd_pcm_hw_params_get_period_size) \
    X(snd_pcm_hw_params_get_buffer_size)

/// libasound's functions, each with its own type.
struct atk_alsa {
#define ATK_ALSA_FIELD(name) __typeof__(name) *name;
    ATK_ALSA_FUNCTIONS(ATK_ALSA_FIELD)
#undef ATK_ALSA_FIELD
};

/// The table, every entry set, after loading libasound.so.2 (once per process); NULL when it
/// cannot be loaded, `*message` then says why.
const struct atk_alsa *atk_alsa_load(const char **message);
#endif
