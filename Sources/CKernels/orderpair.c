/* Two adjacent order statistics by three-way partitions (CKernels.h, atk_order_pair). */
#include "vectors.h"

#include <math.h>
#include <stdlib.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* A three-way partition around p of cur[i..count), the counts of cur[0..i) given (`below`,
 * *over): the values below p moved down to follow the others below (each written at or before
 * where it was read), those above p copied to above[*over…], those equal to p only counted.
 * Returns the count below; *over ends as the count above. Branch-free: every value is written
 * to both places and the counts advance by the comparisons. */
INLINE size_t partition_from(double *cur, size_t i, size_t count, double p, double *above, size_t below, size_t *over) {
    for (; i < count; i++) {
        const double x = cur[i];
        cur[below] = x;
        below += x < p;
        above[*over] = x;
        *over += x > p;
    }
    return below;
}

/* The partition of cur[0..count). */
INLINE size_t partition_body(double *cur, size_t count, double p, double *above, size_t *above_count) {
    *above_count = 0;
    return partition_from(cur, 0, count, p, above, 0, above_count);
}

static size_t partition_1(double *cur, size_t count, double p, double *above, size_t *above_count) {
    return partition_body(cur, count, p, above, above_count);
}

#if defined(__x86_64__)
/* The vpermps indices that bring the doubles of the lanes set in a 4-bit mask to the front, in
 * their order (double j as floats 2j and 2j + 1; the lanes after them 0): row m lists, for each
 * set bit j of m from the lowest, 2j and 2j + 1. */
static const int compress4[16][8] = {
    {0, 0, 0, 0, 0, 0, 0, 0}, {0, 1, 0, 0, 0, 0, 0, 0}, {2, 3, 0, 0, 0, 0, 0, 0}, {0, 1, 2, 3, 0, 0, 0, 0},
    {4, 5, 0, 0, 0, 0, 0, 0}, {0, 1, 4, 5, 0, 0, 0, 0}, {2, 3, 4, 5, 0, 0, 0, 0}, {0, 1, 2, 3, 4, 5, 0, 0},
    {6, 7, 0, 0, 0, 0, 0, 0}, {0, 1, 6, 7, 0, 0, 0, 0}, {2, 3, 6, 7, 0, 0, 0, 0}, {0, 1, 2, 3, 6, 7, 0, 0},
    {4, 5, 6, 7, 0, 0, 0, 0}, {0, 1, 4, 5, 6, 7, 0, 0}, {2, 3, 4, 5, 6, 7, 0, 0}, {0, 1, 2, 3, 4, 5, 6, 7}};

/* Four values at a time: each side's values moved to the front of a register by a permutation
 * (compress4) and stored whole, the lanes past them written but not counted (each store ends at
 * or before i + 4: the values below at cur[below…] with below ≤ i, those above at above[over…]
 * with over ≤ i), the scalar body for the last 0–3. cur[0…below) and above[0…over) hold what
 * partition_1 leaves there; the places after them, what the whole stores left. */
LEVEL_2 static size_t partition_2(double *cur, size_t count, double p, double *above, size_t *above_count) {
    const __m256d pivot = _mm256_set1_pd(p);
    size_t below = 0, over = 0, i = 0;
    for (; i + 4 <= count; i += 4) {
        const __m256d x = _mm256_loadu_pd(cur + i);
        const int lt = _mm256_movemask_pd(_mm256_cmp_pd(x, pivot, _CMP_LT_OQ)), gt = _mm256_movemask_pd(_mm256_cmp_pd(x, pivot, _CMP_GT_OQ));
        const __m256 lanes = _mm256_castpd_ps(x);
        _mm256_storeu_ps((float *)(cur + below), _mm256_permutevar8x32_ps(lanes, _mm256_loadu_si256((const __m256i *)compress4[lt])));
        _mm256_storeu_ps((float *)(above + over), _mm256_permutevar8x32_ps(lanes, _mm256_loadu_si256((const __m256i *)compress4[gt])));
        below += (size_t)__builtin_popcount((unsigned)lt);
        over += (size_t)__builtin_popcount((unsigned)gt);
    }
    *above_count = over;
    return partition_from(cur, i, count, p, above, below, above_count);
}

/* Eight values at a time: each side's values compressed into one register and stored with a mask
 * of as many lanes (a compressing store to memory is slow on some processors; a masked store is
 * not), the scalar body for the last 0–7. */
LEVEL_3 static size_t partition_3(double *cur, size_t count, double p, double *above, size_t *above_count) {
    const __m512d pivot = _mm512_set1_pd(p);
    size_t below = 0, over = 0, i = 0;
    for (; i + 8 <= count; i += 8) {
        const __m512d x = _mm512_loadu_pd(cur + i);
        const __mmask8 lt = _mm512_cmp_pd_mask(x, pivot, _CMP_LT_OQ), gt = _mm512_cmp_pd_mask(x, pivot, _CMP_GT_OQ);
        const unsigned nl = (unsigned)__builtin_popcount(lt), ng = (unsigned)__builtin_popcount(gt);
        _mm512_mask_storeu_pd(cur + below, (__mmask8)((1u << nl) - 1), _mm512_maskz_compress_pd(lt, x));
        _mm512_mask_storeu_pd(above + over, (__mmask8)((1u << ng) - 1), _mm512_maskz_compress_pd(gt, x));
        below += nl;
        over += ng;
    }
    *above_count = over;
    return partition_from(cur, i, count, p, above, below, above_count);
}
#endif

static int ascending(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void atk_order_pair(double *a, size_t n, size_t k, double *scratch, double *kth, double *next) {
    double *cur = a, *spare = scratch;
    size_t count = n;
    /* The smallest value left above the part still searched (+∞: none yet). */
    double floor_above = INFINITY;
    int rounds = 2 * (int)(8 * sizeof(size_t) - (size_t)__builtin_clzll((unsigned long long)n | 1)) + 4;
    while (count > 16 && rounds-- > 0) {
        /* The median of the first, middle and last value. */
        double x0 = cur[0], x1 = cur[count / 2], x2 = cur[count - 1], t;
        if (x1 < x0) t = x0, x0 = x1, x1 = t;
        if (x2 < x1) x1 = x2;
        const double p = x1 < x0 ? x0 : x1;
        size_t over;
        const size_t below = LEVEL_CALL(partition, cur, count, p, spare, &over);
        const size_t equal = count - below - over;
        if (k < below) {
            floor_above = p < floor_above ? p : floor_above;
            count = below;
        } else if (k < below + equal) {
            *kth = p;
            if (k + 1 < below + equal) {
                *next = p;
            } else {
                double smallest = floor_above;
                for (size_t j = 0; j < over; j++) smallest = spare[j] < smallest ? spare[j] : smallest;
                *next = smallest;
            }
            return;
        } else {
            k -= below + equal;
            double *swap = cur;
            cur = spare;
            spare = swap;
            count = over;
        }
    }
    if (count <= 16) {
        for (size_t i = 1; i < count; i++) {
            const double x = cur[i];
            size_t j = i;
            for (; j > 0 && cur[j - 1] > x; j--) cur[j] = cur[j - 1];
            cur[j] = x;
        }
    } else {
        qsort(cur, count, sizeof *cur, ascending);
    }
    *kth = cur[k];
    *next = k + 1 < count && cur[k + 1] < floor_above ? cur[k + 1] : floor_above;
}
