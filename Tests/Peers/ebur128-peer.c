/* The loudness peer of LoudnessPeerTests: libebur128 (Debian libebur128-dev) on a WAV read with
 * libsndfile. Prints integrated loudness (LUFS), loudness range (LU), the largest momentary and
 * short-term loudness (LUFS) and the true peak (dBTP), one per line, full precision.
 * Build: gcc -O2 -o ebur128-peer ebur128-peer.c -lebur128 -lsndfile -lm */
#include <ebur128.h>
#include <math.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: ebur128-peer FILE.wav\n"); return 2; }
    SF_INFO info = {0};
    SNDFILE *file = sf_open(argv[1], SFM_READ, &info);
    if (!file) { fprintf(stderr, "%s: %s\n", argv[1], sf_strerror(NULL)); return 3; }
    ebur128_state *state = ebur128_init((unsigned) info.channels, (unsigned long) info.samplerate,
                                        EBUR128_MODE_I | EBUR128_MODE_LRA | EBUR128_MODE_TRUE_PEAK | EBUR128_MODE_M | EBUR128_MODE_S);
    if (info.channels == 5) { /* L R C Ls Rs */
        ebur128_set_channel(state, 3, EBUR128_LEFT_SURROUND);
        ebur128_set_channel(state, 4, EBUR128_RIGHT_SURROUND);
    }
    size_t block = 4800;
    double *buffer = malloc(sizeof(double) * block * (size_t) info.channels);
    double momentary = -HUGE_VAL, shortTerm = -HUGE_VAL, value;
    sf_count_t frames, total = 0;
    size_t hop = (size_t) info.samplerate / 10;  /* read in 100-ms hops so M and S are sampled every 100 ms */
    if (hop > block) hop = block;
    while ((frames = sf_readf_double(file, buffer, (sf_count_t) hop)) > 0) {
        ebur128_add_frames_double(state, buffer, (size_t) frames);
        total += frames;
        if (total >= info.samplerate * 4 / 10 && ebur128_loudness_momentary(state, &value) == EBUR128_SUCCESS && value > momentary) momentary = value;
        if (total >= info.samplerate * 3 && ebur128_loudness_shortterm(state, &value) == EBUR128_SUCCESS && value > shortTerm) shortTerm = value;
    }
    double integrated, range, peak = 0, channelPeak;
    ebur128_loudness_global(state, &integrated);
    ebur128_loudness_range(state, &range);
    for (unsigned c = 0; c < (unsigned) info.channels; c++) {
        ebur128_true_peak(state, c, &channelPeak);
        if (channelPeak > peak) peak = channelPeak;
    }
    printf("%.17g\n%.17g\n%.17g\n%.17g\n%.17g\n", integrated, range, momentary, shortTerm, 20 * log10(peak));
    free(buffer);
    ebur128_destroy(&state);
    sf_close(file);
    return 0;
}
