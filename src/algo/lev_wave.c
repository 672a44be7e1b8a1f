/* lev by diagonal wavefronts (lev_wave.h). L[s][k] is the furthest row i on diagonal k = j - i
 * with D(i, i + k) <= s. D never decreases along a diagonal, so D(i, j) <= s exactly when
 * i <= L[s][j - i]: the kept wavefronts answer every predecessor test of the canonical
 * traceback (aln.h: from the end, the first of D, the diagonal, I that is consistent) in O(1),
 * and the path is the full matrix's, whatever the strategy that found the distance. */
#include <stdlib.h>
#include <string.h>
#include "algo/lev_wave.h"

#define WAVE_PAD_CAP 4          /* caps from which the copies for extend_pad pay: from the batch's least cap on, the unbounded extends beat the copies even at 1% */
#define NONE (INT32_MIN / 2)   /* no cell of the diagonal within s; NONE + 1 stays below any row */

void lev_wave_free(lev_wave_t *w)
{
	free(w->L);
	free(w->run);
	free(w->pad);
	memset(w, 0, sizeof *w);
}

int64_t lev_wave_cap(int64_t la, int64_t lb, int path, const lev_cap_t *m, double theta)
{
	const double gain = path ? 1.5 : 1.0;   /* the sweep's path costs it more than its distance */
	const int64_t most = la > lb ? la : lb;
	int64_t c = 4;
	if (la <= 512) {
		/* in the lanes (aln_batch.c: A up to 512): words x lb word steps, 8 pairs a vector,
		 * against d^2 cells, each an extension that stops at a mismatch and costs about 2.5
		 * word steps (docs/BENCHMARKS.md, "lev batches"): they pay up to d^2 = words / 2.5 */
		const double words = (double)((la + 63) / 64) * (double)lb;
		/* measured: where a + b d^2 reaches the sweep's s a word step */
		const double d2 = m ? theta * lev_cap_even(m, words) : 0.4 * words * gain;
		while (c < most && (double)(c + 1) * (double)(c + 1) <= d2) c++;
	} else {
		/* a longer pair's sweep stays in a band about its distance d, about la d steps, where
		 * the wavefronts take d^2 cells at some 20-55 such steps each (docs/BENCHMARKS.md, "lev
		 * batches": 10 kb and 100 kb pairs): even near d = la / 40; the sweep's path (its
		 * Hirschberg halves) costs it 3.4-4.2 times its distance, the wavefronts' about nothing */
		const int64_t m = la < lb ? la : lb;
		const int64_t b = (int64_t)((double)m / 40.0 * (path ? 3.5 : 1.0));
		if (b > c) c = b;
		if (c > 4096) c = 4096;   /* the wavefronts' memory: up to c^2 ints a thread */
	}
	return c < most ? c : most;
}

/* Matches from a[i], b[j] on: the row where the diagonal's run ends. */
static inline int64_t extend(const char *a, int64_t la, const char *b, int64_t lb, int64_t i, int64_t j)
{
	while (i + 8 <= la && j + 8 <= lb) {
		uint64_t x, y;
		memcpy(&x, a + i, 8);
		memcpy(&y, b + j, 8);
		if (x != y) return i + (__builtin_ctzll(x ^ y) >> 3);
		i += 8, j += 8;
	}
	while (i < la && j < lb && a[i] == b[j]) i++, j++;
	return i;
}

/* Matches backwards from a[i - 1], b[j - 1], at most n of them. */
static inline int64_t extend_back(const char *a, const char *b, int64_t i, int64_t j, int64_t n)
{
	int64_t r = 0;
	while (r + 8 <= n) {
		uint64_t x, y;
		memcpy(&x, a + i - r - 8, 8);
		memcpy(&y, b + j - r - 8, 8);
		if (x != y) return r + (__builtin_clzll(x ^ y) >> 3);
		r += 8;
	}
	while (r < n && a[i - r - 1] == b[j - r - 1]) r++;
	return r;
}

static inline int32_t wget(const int32_t *L, int64_t s, int64_t k)
{
	return s < 0 || k < -s || k > s ? NONE : L[s * s + k + s];
}

/* Room for wavefronts 0 .. s, grown as s does: a pair's memory follows its distance, not its cap. */
static int wave_room(lev_wave_t *w, int64_t s)
{
	const int64_t need = (s + 1) * (s + 1);
	if (need <= w->cap) return 1;
	int64_t c = w->cap > 64 ? w->cap : 64;
	while (c < need) c *= 2;
	int32_t *L = realloc(w->L, sizeof(int32_t) * (size_t)c);
	if (!L) return 0;
	w->L = L, w->cap = c;
	return 1;
}

static int run_room(lev_wave_t *w, int64_t v)
{
	const int64_t runs = 2 * v + 4;
	if (runs <= w->rcap) return 1;
	uint64_t *r = realloc(w->run, sizeof(uint64_t) * (size_t)runs);
	if (!r) return 0;
	w->run = r, w->rcap = runs;
	return 1;
}

static inline int32_t max32(int32_t x, int32_t y) { return x > y ? x : y; }

/* Matches from a[i], b[j] on, both copied with 8 bytes after them that differ from the other
 * sequence and from each other (wave_pad): the run ends by itself, with no bound to test. */
static inline int64_t extend_pad(const char *a, const char *b, int64_t i, int64_t j)
{
	for (;; i += 8, j += 8) {
		uint64_t x, y;
		memcpy(&x, a + i, 8);
		memcpy(&y, b + j, 8);
		if (x != y) return i + (__builtin_ctzll(x ^ y) >> 3);
	}
}

/* Wavefront s from s - 1: a mismatch on the diagonal, D from the one left of it (same row), I
 * from the one right of it (next row); the furthest, clipped to the grid, then extended. NONE
 * loses every max. Two passes: the maxima over the inner diagonals have no branch and
 * vectorize, and only the extension walks the sequences. */
static inline __attribute__((always_inline)) void wave_step(int32_t *L, int64_t s, const char *a, int64_t la, const char *b,
                                                            int64_t lb, const int padded)
{
	int32_t *cur = L + s * s + s;                          /* cur[k], k in [-s, s] */
	const int32_t *pv = L + (s - 1) * (s - 1) + (s - 1);   /* pv[k], k in [1 - s, s - 1] */
	const int64_t lo = -s > -la ? -s : -la, hi = s < lb ? s : lb;
	for (int64_t k = -s; k <= s; k++) {
		if (k > 1 - s && k < s - 1) {   /* every neighbour in wavefront s - 1 */
			const int64_t e = s - 2;
			for (int64_t q = 2 - s; q <= e; q++) cur[q] = max32(max32(pv[q] + 1, pv[q - 1]), pv[q + 1] + 1);
			k = e;
			continue;
		}
		const int32_t m = k > -s && k < s ? pv[k] : NONE, dl = k - 1 > -s ? pv[k - 1] : NONE, il = k + 1 < s ? pv[k + 1] : NONE;
		cur[k] = max32(max32(m + 1, dl), il + 1);
	}
	for (int64_t k = -s; k < lo; k++) cur[k] = NONE;
	for (int64_t k = hi + 1; k <= s; k++) cur[k] = NONE;
	for (int64_t k = lo; k <= hi; k++) {
		const int32_t best = cur[k];
		if (best < 0) { cur[k] = NONE; continue; }
		const int64_t top = la < lb - k ? la : lb - k, i = best > top ? top : best;
		cur[k] = (int32_t)(padded ? extend_pad(a, b, i, i + k) : extend(a, la, b, lb, i, i + k));
	}
}

static void wave_next(int32_t *L, int64_t s, const char *a, int64_t la, const char *b, int64_t lb)
{
	wave_step(L, s, a, la, b, lb, 0);
}

static void wave_next_pad(int32_t *L, int64_t s, const char *a, int64_t la, const char *b, int64_t lb)
{
	wave_step(L, s, a, la, b, lb, 1);
}

/* Copies of a and b for extend_pad: a ends in 0 bytes, b in 1 bytes, when neither byte occurs
 * in the other sequence (sequences' letters never do). 0 to extend with bounds instead. */
static int wave_pad(lev_wave_t *w, const char *a, int64_t la, const char *b, int64_t lb, const char **pa, const char **pb)
{
	if (memchr(b, 0, (size_t)lb) || memchr(a, 1, (size_t)la)) return 0;
	const int64_t need = la + lb + 32;
	if (need > w->pcap) {
		char *q = realloc(w->pad, (size_t)need);
		if (!q) return 0;
		w->pad = q, w->pcap = need;
	}
	char *x = w->pad, *y = w->pad + la + 16;
	memcpy(x, a, (size_t)la);
	memset(x + la, 0, 16);
	memcpy(y, b, (size_t)lb);
	memset(y + lb, 1, 16);
	*pa = x, *pb = y;
	return 1;
}

/* The canonical path of a distance-v pair from the kept wavefronts, runs from the end into
 * w->run, then forward into *path. */
static int wave_trace(lev_wave_t *w, const char *a, int64_t la, const char *b, int64_t lb, int64_t v, aln_path_t *path)
{
	const int32_t *L = w->L;
	uint64_t *run = w->run;
	int64_t nr = 0, i = la, j = lb;
	while (i > 0 || j > 0) {
		const int64_t k = j - i;
		int op;
		int64_t len = 1;
		if (j > 0 && wget(L, v - 1, k - 1) >= i) op = ALN_D, j--, v--;
		else if (i > 0 && j > 0 && a[i - 1] == b[j - 1]) {
			/* a run of matches, until D becomes consistent (row L[v-1][k-1]) */
			const int64_t g = wget(L, v - 1, k - 1), stop = g > 0 ? g : 0;
			const int64_t most = i - stop < j ? i - stop : j;
			len = extend_back(a, b, i, j, most);
			op = ALN_EQ, i -= len, j -= len;
		} else if (i > 0 && j > 0 && wget(L, v - 1, k) >= i - 1) op = ALN_X, i--, j--, v--;
		else if (i > 0 && wget(L, v - 1, k + 1) >= i - 1) op = ALN_I, i--, v--;
		else return 0;
		if (nr && (int)(run[nr - 1] & 7) == op) run[nr - 1] += (uint64_t)len << 3;
		else {
			if (nr == w->rcap) return 0;
			run[nr++] = (uint64_t)len << 3 | (uint64_t)op;
		}
	}
	if (v != 0) return 0;
	path->n = 0;
	for (int64_t q = nr - 1; q >= 0; q--)
		if (aln_path_push(path, (int)(run[q] & 7), (int64_t)(run[q] >> 3))) return -1;
	return 1;
}

int lev_wave(lev_wave_t *w, const char *a, int64_t la, const char *b, int64_t lb, int64_t cap, int want_path,
             int64_t *dist, aln_path_t *path)
{
	const int64_t kt = lb - la, most = la > lb ? la : lb;
	if (cap > most) cap = most;
	if (cap < 0 || (kt < 0 ? -kt : kt) > cap || la >= (1 << 30) || lb >= (1 << 30)) return 0;
	if (!wave_room(w, 0)) return 2;
	w->L[0] = (int32_t)extend(a, la, b, lb, 0, 0);
	int64_t s = 0;
	/* a long pair's extensions without bounds tests; a short one's copy would cost more */
	const char *pa = a, *pb = b;
	const int padded = cap >= WAVE_PAD_CAP && wave_pad(w, a, la, b, lb, &pa, &pb);
	while (wget(w->L, s, kt) < la) {
		if (++s > cap) return 0;
		if (!wave_room(w, s)) return 2;   /* the sweep's memory is linear: it takes the pair */
		if (padded) wave_next_pad(w->L, s, pa, la, pb, lb);
		else wave_next(w->L, s, a, la, b, lb);
	}
	if (want_path) {
		const int r = run_room(w, s) ? wave_trace(w, a, la, b, lb, s, path) : -1;
		if (r < 0) {
			rk_set_error("out of memory for the path of a %lld x %lld pair", (long long)la, (long long)lb);
			return RK_ERES;
		}
		if (r == 0) {   /* cannot happen: the kept wavefronts hold every value the trace asks */
			rk_set_error("lev_wave: the traceback lost its way on a %lld x %lld pair", (long long)la, (long long)lb);
			return RK_EINPUT;
		}
	}
	*dist = s;
	return 1;
}
