/* Naive O(la lb) dynamic programming for lev and lcs with a full-matrix traceback that
 * implements the canonical (leftmost) path by its backward definition: from the end, take the
 * first of D (from the left), then the diagonal, then I (from above) whose predecessor value is
 * consistent. Shares no code with src/. Paths are returned as op strings over "=XIDM", one
 * char per step; the caller frees them. */
#ifndef NAIVE_DP_H
#define NAIVE_DP_H
#include <stdint.h>

/* distance; ops (may be NULL) gets a malloc'ed NUL-terminated op string */
int64_t naive_lev(const char *a, int64_t la, const char *b, int64_t lb, char **ops);
/* lcs length; ops as above (M, I, D) */
int64_t naive_lcs(const char *a, int64_t la, const char *b, int64_t lb, char **ops);
/* lcs length in two rows of memory (the benchmark baseline for long pairs) */
int64_t naive_lcs_len(const char *a, int64_t la, const char *b, int64_t lb);
/* run-length CIGAR of an op string into a malloc'ed string */
char *naive_cigar(const char *ops);
#endif
