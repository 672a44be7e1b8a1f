/* algo layer, inside lev: a short pair's distance by diagonal wavefronts (Landau and Vishkin
 * 1989, the edit-distance case of WFA), O((la + lb) + d^2) for distance d, against the
 * bit-parallel sweep's O(la lb / 64): the batch's strategy for pairs at low divergence.
 * Every wavefront is kept, so the canonical (leftmost, aln.h) path is traced back from them
 * in O(la + lb) with no second pass. Not for other files than the lev batch and the tests. */
#ifndef LEV_WAVE_H
#define LEV_WAVE_H

#include <stdint.h>
#include "rktlcs.h"
#include "algo/aln.h"
#include "algo/lev_tune.h"

/* One thread's scratch, reused pair after pair: zero-initialize; free with lev_wave_free. */
typedef struct {
	int32_t *L;        /* wavefront s at L + s * s, diagonals -s .. s */
	int64_t cap;       /* ints in L */
	uint64_t *run;     /* the path's runs (aln_path_t's form), traced back from the end */
	int64_t rcap;
	char *pad;         /* a long pair's copies, each with a stop after it (lev_wave.c) */
	int64_t pcap;
} lev_wave_t;

void lev_wave_free(lev_wave_t *w);

/* The distance of a[0, la) and b[0, lb) if it is at most cap: 1 and *dist, with want_path the
 * canonical path appended to *path (reset first). 0 when the distance exceeds cap, 2 when the
 * wavefronts found no memory before the answer (*dist and *path untouched: another strategy
 * takes the pair). RK_ERES (negative) when the path found no memory. */
int lev_wave(lev_wave_t *w, const char *a, int64_t la, const char *b, int64_t lb, int64_t cap, int want_path,
             int64_t *dist, aln_path_t *path);

/* The largest distance worth trying by wavefronts before the bit-parallel batch (with path:
 * the sweep's traceback too): where the wavefronts' d^2 cells cost about what the sweep does.
 * m: this machine's rates for the short pairs (lev_tune.h), or NULL for the built-in rule;
 * theta: with m, the cap's d^2 is theta times the break-even one (lev_cap_choose), at least 4^2. */
int64_t lev_wave_cap(int64_t la, int64_t lb, int path, const lev_cap_t *m, double theta);

#endif
