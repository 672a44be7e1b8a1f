/* Helpers of the lev/lcs tests: sequence generators (random, mutated copies) and path replay.
 * Independent of src/ (paths are read through their public run encoding only). */
#ifndef DP_TESTUTIL_H
#define DP_TESTUTIL_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "testutil.h"

/* a random symbol: one of the first `alpha` bases, or with punk percent an unknown symbol */
static inline char dt_sym(int alpha, int punk)
{
	static const char base[] = "ACGT", unk[] = "NRY.-*";
	if (tu_range(0, 99) < punk) return unk[tu_range(0, 5)];
	return base[tu_range(0, alpha - 1)];
}

static inline void dt_random(char *s, int64_t n, int alpha, int punk)
{
	for (int64_t i = 0; i < n; i++) s[i] = dt_sym(alpha, punk);
	s[n] = 0;
}

/* Mutated copy of a (la) into b (room for 2 la + 1024), returns its length. kind: 0 point
 * edits (pct percent, substitutions and 1-3 symbol indels), 1 plus long indels, 2 a tandem
 * duplication and a long deletion, 3 identical. */
static inline int64_t dt_mutate(const char *a, int64_t la, char *b, int kind, int pct, int alpha, int punk)
{
	int64_t n = 0;
	if (kind == 3) { memcpy(b, a, (size_t)la); b[la] = 0; return la; }
	for (int64_t i = 0; i < la; i++) {
		long r = tu_range(0, 9999);
		if (r < pct * 100) {
			long e = tu_range(0, 2);
			if (e == 0) b[n++] = dt_sym(alpha, punk);
			else if (e == 1) { long m = tu_range(1, 3); for (long q = 0; q < m; q++) b[n++] = dt_sym(alpha, punk); b[n++] = a[i]; }
			else i += tu_range(0, 2);   /* deletion of 1-3 */
		} else if (kind == 1 && r > 9990 && n < la) {
			if (tu_range(0, 1)) i += tu_range(10, 200);
			else { long m = tu_range(10, 200); for (long q = 0; q < m && n < 2 * la + 512; q++) b[n++] = dt_sym(alpha, punk); }
			if (i < la) b[n++] = a[i];
		} else b[n++] = a[i];
		if (n > 2 * la + 600) break;
	}
	if (kind == 2 && n > 20) {
		int64_t s = tu_range(0, n - 10), l = tu_range(1, n - s < 300 ? n - s : 300);
		if (n + l <= 2 * la + 1000) { memmove(b + s + l, b + s, (size_t)(n - s)); n += l; }   /* tandem copy */
		int64_t d = tu_range(0, n - 1), dl = tu_range(1, n - d < 150 ? n - d : 150);
		memmove(b + d, b + d + dl, (size_t)(n - d - dl));
		n -= dl;
	}
	b[n] = 0;
	return n;
}

/* Replay a path (runs len << 3 | op, ops "=XIDM") on a, b. lev: returns the cost (X, I, D)
 * or -1 when it does not consume both exactly or = / M meets unequal or X equal symbols;
 * with lcs, the number of M (kept pairs) instead. */
static inline int64_t dt_replay(const uint64_t *run, int64_t n, const char *a, int64_t la, const char *b, int64_t lb,
                                int lcs)
{
	int64_t i = 0, j = 0, c = 0, m = 0;
	for (int64_t q = 0; q < n; q++) {
		int op = (int)(run[q] & 7);
		int64_t l = (int64_t)(run[q] >> 3);
		if (l <= 0 || op > 4) return -1;
		if (q && (int)(run[q - 1] & 7) == op) return -1;   /* runs must be merged */
		for (int64_t t = 0; t < l; t++) {
			if (op == 2) { if (i >= la) return -1; i++; c++; continue; }
			if (op == 3) { if (j >= lb) return -1; j++; c++; continue; }
			if (i >= la || j >= lb) return -1;
			if (op == 0 || op == 4) {
				if (a[i] != b[j] || (lcs != (op == 4))) return -1;
				m++;
			} else {
				if (a[i] == b[j] || lcs) return -1;
				c++;
			}
			i++, j++;
		}
	}
	if (i != la || j != lb) return -1;
	return lcs ? m : c;
}

/* Case it of a short sequence against a long one, in either order (odd it: the long one
 * first): 1-64 symbols (every fourth case 65-200) against 20-100 kb (5-30 kb for the longer
 * short ones). The long one is over two symbols, with a mutated copy of the short one (over
 * four) at a multiple of 8192 columns give or take a few (the blocks of the long traceback),
 * or anywhere; one case in five has no copy and four symbols. Both malloc'ed, NUL-terminated. */
static inline void dt_short_long(long it, char **a, int64_t *la, char **b, int64_t *lb)
{
	int64_t ns = it % 4 == 3 ? tu_range(65, 200) : tu_range(1, 64);
	int64_t nl = ns > 64 ? tu_range(5000, 30000) : tu_range(20000, 100000);
	char *s = malloc((size_t)ns + 1), *l = malloc((size_t)nl + 1), *m = malloc((size_t)(2 * ns + 1024));
	int punk = it % 3 == 0 ? (int)tu_range(1, 5) : 0;
	dt_random(s, ns, 4, punk);
	dt_random(l, nl, it % 5 == 4 ? 4 : 2, punk);
	if (it % 5 != 4) {
		int64_t nm = dt_mutate(s, ns, m, (int)tu_range(0, 3), (int)tu_range(0, 15), 4, punk), at;
		if (nm > nl) nm = nl;
		if (tu_range(0, 2)) at = 8192 * tu_range(1, nl / 8192 + 1) + tu_range(-nm - 3, 3);
		else at = tu_range(0, nl - nm);
		at = at < 0 ? 0 : at > nl - nm ? nl - nm : at;
		memcpy(l + at, m, (size_t)nm);
	}
	free(m);
	if (it & 1) { *a = l; *la = nl; *b = s; *lb = ns; }
	else { *a = s; *la = ns; *b = l; *lb = nl; }
}

/* SIMD levels to test: 0 and whatever the CPU has of 2, 3 and 4 */
static inline int dt_levels(int *lv, int best)
{
	int n = 0;
	lv[n++] = 0;
	for (int l = 2; l <= 4; l++)
		if (best >= l) lv[n++] = l;
	return n;
}
/* All records of a plain FASTA file, normalized (upper case, U -> T, whitespace dropped).
 * Returns the count (0 when unreadable); *seq and *len are malloc'ed arrays. */
static inline int dt_read_fasta(const char *path, char ***seq, int64_t **len)
{
	FILE *f = fopen(path, "r");
	if (!f) return 0;
	int n = 0, cap = 0;
	char **s = 0;
	int64_t *l = 0, m = 0;
	int c, head = 0;
	while ((c = getc(f)) != EOF) {
		if (c == '>') {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				s = realloc(s, sizeof(char *) * (size_t)cap);
				l = realloc(l, sizeof(int64_t) * (size_t)cap);
			}
			s[n] = 0; l[n] = 0; m = 0; n++; head = 1;
			continue;
		}
		if (head) { if (c == '\n') head = 0; continue; }
		if (!n || c == '\n' || c == '\r' || c == ' ' || c == '\t') continue;
		if (c >= 'a' && c <= 'z') c -= 32;
		if (c == 'U') c = 'T';
		if (l[n - 1] + 1 >= m) { m = m ? 2 * m : 1 << 15; s[n - 1] = realloc(s[n - 1], (size_t)m); }
		s[n - 1][l[n - 1]++] = (char)c;
		s[n - 1][l[n - 1]] = 0;
	}
	fclose(f);
	*seq = s;
	*len = l;
	return n;
}
#endif
