/* hamming's sparse output on the CPU (src/algo/ham.c, ham_sort.c): ham_pairs_sort on 1-5
 * threads against the C library's qsort (random keys, every key equal, sorted, reversed, few
 * rows, rows that start far from 0; sizes on both sides of the threaded sort's threshold, so
 * both the merge tree and the row buckets run), and ham_pairs against ham_dist
 * pair by pair on sets of one word and of several (default and -a), so every row kernel runs.
 * Usage: test_ham_sort */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "algo/ham.h"
#include "io/rio.h"

static int cmp(const void *x, const void *y)
{
	const ham_pair_t *a = x, *b = y;
	if (a->i != b->i) return a->i < b->i ? -1 : 1;
	return (a->j > b->j) - (a->j < b->j);
}

static void check_sort(int64_t n, int shape, int threads)
{
	ham_pair_t *p = malloc(sizeof *p * (size_t)(n + 1)), *q = malloc(sizeof *p * (size_t)(n + 1));
	for (int64_t k = 0; k < n; k++) {
		switch (shape) {
		case 0: p[k].i = (int32_t)tu_range(0, 20000); p[k].j = (int32_t)tu_range(0, 20000); break;
		case 1: p[k].i = 7; p[k].j = 9; break;
		case 2: p[k].i = (int32_t)(k / 1000); p[k].j = (int32_t)(k % 1000); break;
		case 3: p[k].i = (int32_t)((n - k) / 1000); p[k].j = (int32_t)((n - k) % 1000); break;
		case 4: p[k].i = (int32_t)tu_range(0, 2); p[k].j = (int32_t)tu_range(0, 1 << 30); break;
		default: p[k].i = 100000 + (int32_t)tu_range(0, 300); p[k].j = (int32_t)tu_range(0, 400); break;  /* rows from far on */
		}
		p[k].d = (uint32_t)(p[k].i ^ p[k].j);  /* equal keys carry equal values: any order of them is one output */
	}
	memcpy(q, p, sizeof *p * (size_t)n);
	qsort(q, (size_t)n, sizeof *q, cmp);
	ham_pairs_sort(p, n, threads);
	CHECK(n == 0 || !memcmp(p, q, sizeof *p * (size_t)n), "ham_pairs_sort: %lld pairs, shape %d, %d threads differ from qsort",
	      (long long)n, shape, threads);
	free(p); free(q);
}

/* n sequences of length L over ACGT, cv of whose columns each differ from the base in pct% of
 * them (a random symbol or N); ham_pairs within maxd against ham_dist */
static void check_pairs(int n, int L, int cv, int pct, int all, uint32_t maxd, int threads)
{
	rio_reads_t r;
	memset(&r, 0, sizeof r);
	char *base = malloc((size_t)L + 1), *s = malloc((size_t)L + 1);
	for (int c = 0; c < L; c++) base[c] = "ACGT"[tu_range(0, 3)];
	for (int i = 0; i < n; i++) {
		char name[32];
		memcpy(s, base, (size_t)L);
		for (int v = 0; v < cv; v++)
			if (tu_range(0, 99) < pct) s[(int64_t)v * L / cv] = "ACGTN"[tu_range(0, 4)];
		snprintf(name, sizeof name, "s%d", i);
		rio_reads_push(&r, name, s, (size_t)L);
	}
	ham_opt_t o;
	ham_opt_init(&o);
	o.all = all; o.n_threads = threads;
	ham_set_t h;
	ham_pair_t *pairs = 0;
	int64_t np = 0, want = 0, bad = 0;
	CHECK(ham_set_init(&h, &r, &o) == RK_OK, "ham_set_init");
	CHECK(ham_pairs(&h, &o, 0, n, maxd, &pairs, &np) == RK_OK, "ham_pairs");
	int64_t k = 0;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			const uint32_t d = ham_dist(&h, i, j, UINT32_MAX);
			if (d > maxd) continue;
			want++;
			if (k >= np || pairs[k].i != i || pairs[k].j != j || pairs[k].d != d) bad++;
			k++;
		}
	CHECK(np == want && !bad, "ham_pairs: %d x %d (%lld words, -a %d, within %u, %d threads): %lld pairs, %lld wanted, %lld wrong",
	      n, L, (long long)h.words, all, maxd, threads, (long long)np, (long long)want, (long long)bad);
	free(pairs);
	ham_set_free(&h);
	rio_reads_free(&r);
	free(base); free(s);
}

int main(void)
{
	const int64_t sizes[] = { 0, 1, 17, 65535, 65536, 200003 };
	for (int t = 1; t <= 5; t++)
		for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++)
			for (int shape = 0; shape < 6; shape++) check_sort(sizes[z], shape, t);
	for (int t = 1; t <= 3; t += 2)
		for (int all = 0; all < 2; all++) {
			check_pairs(700, 3000, 40, 5, all, 3, t);     /* one word: pairs past the sort's threshold */
			check_pairs(300, 400, 400, 30, all, 250, t);  /* several words */
			check_pairs(200, 50, 50, 60, all, 30, t);     /* one word, every column varies */
		}
	return tu_done("test_ham_sort");
}
