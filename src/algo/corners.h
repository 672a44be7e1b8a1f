/* algo layer: where to cut a long pair into diagonal pieces whose alignments, end to end,
 * align the pair (the GPU's first, narrow-band bound, src/gpu/dpg_long.cu). Cutting B in
 * proportion to A puts a piece's corners off the alignment wherever indels have moved it:
 * a 100 Mb pair 1% apart drifts up to ~800 columns from the straight line, more than a
 * piece's band of 256, and each such piece costs about half its length (the bound of that
 * pair came out at ~25% of the matrix, not ~1%). So B's cut points follow exact matches of
 * A's substrings near where the previous cut left the drift. Pure heuristic: any cuts give a
 * valid bound, only a tighter or looser one. */
#ifndef ALN_CORNERS_H
#define ALN_CORNERS_H

#include <stdint.h>

/* A is cut at q la / K (q = 0 .. K); writes B's cut points bq[0 .. K]: bq[0] = 0, bq[K] = lb,
 * nondecreasing. At each cut up to ALN_CORNER_TRIES substrings of ALN_CORNER_LEN bytes of A (from
 * q la / K on) are looked up in B within ALN_CORNER_WIN bytes either side of where the diagonal
 * from the last cut found puts them, nearest first;
 * without a match, within ALN_CORNER_WIDE (an indel longer than the window has moved the
 * drift), at the first three cuts in a row without one and at every 64th. An unrelated pair
 * finds none: after 64 cuts in a row without one, only every 64th cut looks at all. A cut without a
 * match goes in proportion from the last one found to (la, lb): no match at all, q lb / K.
 * Deterministic (one thread, bytes compared as they are). K >= 1; la, lb >= 0. Returns how
 * many of the K - 1 inner cuts a match placed (0: nothing of A was found, an unrelated pair). */
#define ALN_CORNER_LEN 20
#define ALN_CORNER_TRIES 8
#define ALN_CORNER_WIN 512
#define ALN_CORNER_WIDE 16384
int64_t aln_corners(const char *a, int64_t la, const char *b, int64_t lb, int64_t K, int64_t *bq);

#endif
