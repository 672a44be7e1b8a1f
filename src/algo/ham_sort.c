/* The order of hamming's sparse output, (i, j), sorted on the job's threads: a list of millions
 * of pairs sorted on one thread cost more than computing them (docs/BENCHMARKS.md, issue 60). */
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "algo/ham.h"

static inline int hp_less(const ham_pair_t *a, const ham_pair_t *b)
{
	return a->i != b->i ? a->i < b->i : a->j < b->j;
}

static inline void hp_swap(ham_pair_t *a, ham_pair_t *b) { ham_pair_t t = *a; *a = *b; *b = t; }

/* qsort's comparator through a pointer was most of the sort: a quicksort with the order
 * inline (median of three, insertion below 16, the smaller side recursed) */
static void hp_qsort(ham_pair_t *p, int64_t n)
{
	while (n > 16) {
		int64_t m = n / 2, lo = 0, hi = n - 1;
		if (hp_less(&p[m], &p[0])) hp_swap(&p[m], &p[0]);
		if (hp_less(&p[n - 1], &p[m])) {
			hp_swap(&p[n - 1], &p[m]);
			if (hp_less(&p[m], &p[0])) hp_swap(&p[m], &p[0]);
		}
		const ham_pair_t v = p[m];
		for (;;) {  /* Hoare's partition: both sides stop on keys equal to the pivot */
			while (hp_less(&p[lo], &v)) lo++;
			while (hp_less(&v, &p[hi])) hi--;
			if (lo >= hi) break;
			hp_swap(&p[lo++], &p[hi--]);
		}
		const int64_t left = hi + 1;  /* [0, left) <= v <= [left, n) */
		if (left < n - left) { hp_qsort(p, left); p += left; n -= left; }
		else { hp_qsort(p + left, n - left); n = left; }
	}
	for (int64_t i = 1; i < n; i++) {
		const ham_pair_t x = p[i];
		int64_t k = i;
		for (; k > 0 && hp_less(&x, &p[k - 1]); k--) p[k] = p[k - 1];
		p[k] = x;
	}
}

/* [x0, x1) and [y0, y1) of s, each sorted, into d */
static void hp_merge(const ham_pair_t *s, int64_t x0, int64_t x1, int64_t y0, int64_t y1, ham_pair_t *d)
{
	while (x0 < x1 && y0 < y1) *d++ = hp_less(&s[y0], &s[x0]) ? s[y0++] : s[x0++];
	if (x0 < x1) memcpy(d, s + x0, sizeof *s * (size_t)(x1 - x0));
	else if (y0 < y1) memcpy(d, s + y0, sizeof *s * (size_t)(y1 - y0));
}

/* the merge tree: chunks sorted on k threads, then merged in pairs (t: n pairs of room) */
static void hp_merge_sort(ham_pair_t *p, int64_t n, int k, ham_pair_t *t)
{
	int64_t b[65];
	for (int c = 0; c <= k; c++) b[c] = n * c / k;
#pragma omp parallel for num_threads(k) schedule(static, 1)
	for (int c = 0; c < k; c++) hp_qsort(p + b[c], b[c + 1] - b[c]);
	/* runs of w chunks merged in pairs, each round on as many threads as it has merges */
	ham_pair_t *s = p, *d = t;
	for (int w = 1; w < k; w *= 2) {
#pragma omp parallel for num_threads(k) schedule(static, 1)
		for (int g = 0; g < k; g += 2 * w) {
			const int m = g + w < k ? g + w : k, e = g + 2 * w < k ? g + 2 * w : k;
			hp_merge(s, b[g], b[m], b[m], b[e], d + b[g]);
		}
		ham_pair_t *x = s; s = d; d = x;
	}
	if (s != p) {
#pragma omp parallel for num_threads(k) schedule(static, 1)
		for (int c = 0; c < k; c++) memcpy(p + b[c], s + b[c], sizeof *p * (size_t)(b[c + 1] - b[c]));
	}
}

/* rows i0..i0+R-1 of p bucketed into t by a counting pass on k threads, each row's run then
 * sorted by j: linear in the pairs where the merge tree is n log n, and every round of it
 * parallel; 0 when the counters do not fit */
static int hp_row_sort(ham_pair_t *p, int64_t n, int k, ham_pair_t *t, int32_t i0, int64_t R)
{
	int64_t *cnt = calloc((size_t)k * (size_t)R + 1, sizeof *cnt), *row = malloc(sizeof *row * (size_t)(R + 1));
	if (!cnt || !row) { free(cnt); free(row); return 0; }
#pragma omp parallel num_threads(k)
	{
		const int c = omp_get_thread_num(), T = omp_get_num_threads();
		int64_t *h = cnt + (size_t)c * (size_t)R;
		const int64_t lo = n * c / T, hi = n * (c + 1) / T;
		for (int64_t x = lo; x < hi; x++) h[p[x].i - i0]++;
#pragma omp barrier
#pragma omp single
		{   /* a row's pairs from thread 0 first, then 1, ...: the scatter keeps their order */
			int64_t o = 0;
			for (int64_t r = 0; r < R; r++) {
				row[r] = o;
				for (int d = 0; d < T; d++) { const int64_t v = cnt[(size_t)d * (size_t)R + r]; cnt[(size_t)d * (size_t)R + r] = o; o += v; }
			}
			row[R] = o;
		}
		for (int64_t x = lo; x < hi; x++) t[h[p[x].i - i0]++] = p[x];
#pragma omp barrier
#pragma omp for schedule(dynamic, 256)
		for (int64_t r = 0; r < R; r++) hp_qsort(t + row[r], row[r + 1] - row[r]);
#pragma omp for schedule(static)
		for (int64_t x = 0; x < n; x++) p[x] = t[x];
	}
	free(cnt); free(row);
	return 1;
}

void ham_pairs_sort(ham_pair_t *p, int64_t n, int n_threads)
{
	int k = n_threads > 0 ? n_threads : omp_get_max_threads();
	if (k > 64) k = 64;
	if (n < 65536 || k < 2) { hp_qsort(p, n); return; }
	ham_pair_t *t = malloc(sizeof *p * (size_t)n);
	if (!t) { hp_qsort(p, n); return; }  /* no room for another copy: one thread */
	int32_t lo = p[0].i, hi = p[0].i;
#pragma omp parallel for num_threads(k) reduction(min : lo) reduction(max : hi)
	for (int64_t x = 0; x < n; x++) { if (p[x].i < lo) lo = p[x].i; if (p[x].i > hi) hi = p[x].i; }
	/* counters of every row on every thread: a few pairs a row pays for them */
	const int64_t R = (int64_t)hi - lo + 1;
	if (R * k > n || !hp_row_sort(p, n, k, t, lo, R)) hp_merge_sort(p, n, k, t);
	free(t);
}
