/*
 * A paced ALSA device for the device tests, as an external ioplug PCM plugin (alsa-lib's
 * pcm_ioplug.h): its hardware pointer advances with CLOCK_MONOTONIC at the negotiated rate from
 * the moment the stream starts, as a sound card's does. Capture reports an overrun (-EPIPE) when
 * the application has fallen more than a buffer behind, and delivers a faint alternating hiss (float ±1e-4, 16-bit ±3 counts: a quiet room's microphone never
 * gives exact zeros; other formats silence); playback discards
 * what it is given (its underruns are found by alsa-lib's ioplug layer).
 * A timerfd firing once a period is the poll descriptor. Options: `busy 1` (the open fails with
 * EBUSY, as a card another program holds), `vanish_ms N` (after N ms of running the device is
 * gone: the pointer, prepare and start report ENODEV, as for an unplugged USB microphone),
 * `broken 1` (every pointer call reports an overrun, so no recovery ever helps). Not part of the toolkit: built by the test
 *   gcc -shared -fPIC -o libasound_module_pcm_atkpaced.so alsa-paced-capture.c -lasound
 * and named in an asoundrc:  pcm_type.atkpaced { lib "DIR/libasound_module_pcm_atkpaced.so" }
 *                            pcm.paced { type atkpaced }
 */
#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    snd_pcm_ioplug_t io;
    int timer;
    int running;
    struct timespec start;
    uint64_t consumed;
    long vanish_ms;
    int gone;
    int broken;
} paced_t;

static uint64_t elapsed_frames(const paced_t *p) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double seconds = (double)(now.tv_sec - p->start.tv_sec) + (double)(now.tv_nsec - p->start.tv_nsec) * 1e-9;
    return seconds <= 0 ? 0 : (uint64_t)(seconds * p->io.rate);
}

static int paced_start(snd_pcm_ioplug_t *io) {
    paced_t *p = io->private_data;
    if (p->gone) return -ENODEV;
    clock_gettime(CLOCK_MONOTONIC, &p->start);
    p->consumed = 0;
    p->running = 1;
    long period_ns = (long)((double)io->period_size / io->rate * 1e9);
    struct itimerspec spec = {{period_ns / 1000000000, period_ns % 1000000000}, {period_ns / 1000000000, period_ns % 1000000000}};
    return timerfd_settime(p->timer, 0, &spec, NULL) == 0 ? 0 : -errno;
}

static int paced_stop(snd_pcm_ioplug_t *io) {
    paced_t *p = io->private_data;
    struct itimerspec off = {{0, 0}, {0, 0}};
    p->running = 0;
    timerfd_settime(p->timer, 0, &off, NULL);
    return 0;
}

static int paced_prepare(snd_pcm_ioplug_t *io) {
    paced_t *p = io->private_data;
    if (p->gone) return -ENODEV;
    p->consumed = 0;
    p->running = 0;
    return 0;
}

static snd_pcm_sframes_t paced_pointer(snd_pcm_ioplug_t *io) {
    paced_t *p = io->private_data;
    if (p->gone) return -ENODEV;
    if (!p->running) return 0;
    if (p->broken) return -EPIPE;
    uint64_t captured = elapsed_frames(p);
    if (p->vanish_ms > 0 && captured * 1000 / io->rate >= (uint64_t)p->vanish_ms) {
        p->gone = 1;
        return -ENODEV;
    }
    if (io->stream == SND_PCM_STREAM_CAPTURE && captured > p->consumed + io->buffer_size) return -EPIPE;
    return (snd_pcm_sframes_t)(captured % io->buffer_size);
}

static snd_pcm_sframes_t paced_transfer(snd_pcm_ioplug_t *io, const snd_pcm_channel_area_t *areas, snd_pcm_uframes_t offset,
                                        snd_pcm_uframes_t size) {
    paced_t *p = io->private_data;
    if (io->stream == SND_PCM_STREAM_CAPTURE) {
        snd_pcm_areas_silence(areas, offset, io->channels, size, io->format);
        for (unsigned int c = 0; c < io->channels; c++) {
            char *base = (char *)areas[c].addr + (areas[c].first + areas[c].step * offset) / 8;
            for (snd_pcm_uframes_t k = 0; k < size; k++) {
                char *sample = base + k * areas[c].step / 8;
                int sign = (p->consumed + k) % 2 ? -1 : 1;
                if (io->format == SND_PCM_FORMAT_FLOAT_LE) { float v = sign * 1e-4f; memcpy(sample, &v, sizeof v); }
                else if (io->format == SND_PCM_FORMAT_S16_LE) { int16_t v = (int16_t)(sign * 3); memcpy(sample, &v, sizeof v); }
            }
        }
    }
    p->consumed += size;
    return (snd_pcm_sframes_t)size;
}

static int paced_poll_revents(snd_pcm_ioplug_t *io, struct pollfd *fds, unsigned int count, unsigned short *revents) {
    paced_t *p = io->private_data;
    uint64_t expirations;
    (void)fds;
    (void)count;
    while (read(p->timer, &expirations, sizeof expirations) > 0) {}
    *revents = POLLIN;
    return 0;
}

static int paced_close(snd_pcm_ioplug_t *io) {
    paced_t *p = io->private_data;
    close(p->timer);
    free(p);
    return 0;
}

static const snd_pcm_ioplug_callback_t callbacks = {
    .start = paced_start,
    .stop = paced_stop,
    .prepare = paced_prepare,
    .pointer = paced_pointer,
    .transfer = paced_transfer,
    .poll_revents = paced_poll_revents,
    .close = paced_close,
};

SND_PCM_PLUGIN_DEFINE_FUNC(atkpaced) {
    (void)root;
    long busy = 0, vanish_ms = 0, broken = 0;
    snd_config_iterator_t i, next;
    snd_config_for_each(i, next, conf) {
        snd_config_t *entry = snd_config_iterator_entry(i);
        const char *id;
        if (snd_config_get_id(entry, &id) < 0) continue;
        if (strcmp(id, "busy") == 0) snd_config_get_integer(entry, &busy);
        if (strcmp(id, "vanish_ms") == 0) snd_config_get_integer(entry, &vanish_ms);
        if (strcmp(id, "broken") == 0) snd_config_get_integer(entry, &broken);
    }
    if (busy) return -EBUSY;
    paced_t *p = calloc(1, sizeof *p);
    if (!p) return -ENOMEM;
    p->vanish_ms = vanish_ms;
    p->broken = (int)broken;
    p->timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    p->io.version = SND_PCM_IOPLUG_VERSION;
    p->io.name = "ActiveTaskKit paced test device";
    p->io.callback = &callbacks;
    p->io.private_data = p;
    p->io.poll_fd = p->timer;
    p->io.poll_events = POLLIN;
    int err = snd_pcm_ioplug_create(&p->io, name, stream, mode);
    if (err < 0) {
        close(p->timer);
        free(p);
        return err;
    }
    static const unsigned int access[] = {SND_PCM_ACCESS_RW_INTERLEAVED};
    static const unsigned int formats[] = {SND_PCM_FORMAT_S16_LE};
    if ((err = snd_pcm_ioplug_set_param_list(&p->io, SND_PCM_IOPLUG_HW_ACCESS, 1, access)) < 0
        || (err = snd_pcm_ioplug_set_param_list(&p->io, SND_PCM_IOPLUG_HW_FORMAT, 1, formats)) < 0
        || (err = snd_pcm_ioplug_set_param_minmax(&p->io, SND_PCM_IOPLUG_HW_CHANNELS, 1, 2)) < 0
        || (err = snd_pcm_ioplug_set_param_minmax(&p->io, SND_PCM_IOPLUG_HW_RATE, 8000, 48000)) < 0
        || (err = snd_pcm_ioplug_set_param_minmax(&p->io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, 64, 65536)) < 0
        || (err = snd_pcm_ioplug_set_param_minmax(&p->io, SND_PCM_IOPLUG_HW_PERIODS, 2, 64)) < 0) {
        snd_pcm_ioplug_delete(&p->io);
        return err;
    }
    *pcmp = p->io.pcm;
    return 0;
}
SND_PCM_PLUGIN_SYMBOL(atkpaced);
