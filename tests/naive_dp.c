/* See naive_dp.h. Full (la + 1) x (lb + 1) int32 matrices: meant for tests up to ~20 kb. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "naive_dp.h"

static char *reverse_ops(char *buf, int64_t n)
{
	for (int64_t i = 0; i < n / 2; i++) {
		char t = buf[i];
		buf[i] = buf[n - 1 - i];
		buf[n - 1 - i] = t;
	}
	buf[n] = 0;
	return buf;
}

int64_t naive_lev(const char *a, int64_t la, const char *b, int64_t lb, char **ops)
{
	int64_t W = lb + 1;
	int32_t *D = malloc(sizeof(int32_t) * (size_t)(la + 1) * (size_t)W);
	if (!D) { fprintf(stderr, "naive_lev: out of memory\n"); exit(2); }
	for (int64_t j = 0; j <= lb; j++) D[j] = (int32_t)j;
	for (int64_t i = 1; i <= la; i++) {
		D[i * W] = (int32_t)i;
		for (int64_t j = 1; j <= lb; j++) {
			int32_t best = D[(i - 1) * W + j - 1] + (a[i - 1] != b[j - 1]);
			if (D[(i - 1) * W + j] + 1 < best) best = D[(i - 1) * W + j] + 1;
			if (D[i * W + j - 1] + 1 < best) best = D[i * W + j - 1] + 1;
			D[i * W + j] = best;
		}
	}
	int64_t d = D[la * W + lb];
	if (ops) {
		char *o = malloc((size_t)(la + lb + 1));
		int64_t n = 0, i = la, j = lb;
		while (i > 0 || j > 0) {
			int32_t cur = D[i * W + j];
			if (j > 0 && D[i * W + j - 1] + 1 == cur) { o[n++] = 'D'; j--; continue; }
			if (i > 0 && j > 0) {
				int mm = a[i - 1] != b[j - 1];
				if (D[(i - 1) * W + j - 1] + mm == cur) { o[n++] = mm ? 'X' : '='; i--; j--; continue; }
			}
			o[n++] = 'I';
			i--;
		}
		*ops = reverse_ops(o, n);
	}
	free(D);
	return d;
}

int64_t naive_lcs(const char *a, int64_t la, const char *b, int64_t lb, char **ops)
{
	int64_t W = lb + 1;
	int32_t *L = calloc((size_t)(la + 1) * (size_t)W, sizeof(int32_t));
	if (!L) { fprintf(stderr, "naive_lcs: out of memory\n"); exit(2); }
	for (int64_t i = 1; i <= la; i++)
		for (int64_t j = 1; j <= lb; j++) {
			int32_t best = L[(i - 1) * W + j];
			if (L[i * W + j - 1] > best) best = L[i * W + j - 1];
			if (a[i - 1] == b[j - 1] && L[(i - 1) * W + j - 1] + 1 > best) best = L[(i - 1) * W + j - 1] + 1;
			L[i * W + j] = best;
		}
	int64_t r = L[la * W + lb];
	if (ops) {
		char *o = malloc((size_t)(la + lb + 1));
		int64_t n = 0, i = la, j = lb;
		while (i > 0 || j > 0) {
			int32_t cur = L[i * W + j];
			if (j > 0 && L[i * W + j - 1] == cur) { o[n++] = 'D'; j--; continue; }
			if (i > 0 && j > 0 && a[i - 1] == b[j - 1] && L[(i - 1) * W + j - 1] + 1 == cur) {
				o[n++] = 'M'; i--; j--; continue;
			}
			o[n++] = 'I';
			i--;
		}
		*ops = reverse_ops(o, n);
	}
	free(L);
	return r;
}

int64_t naive_lcs_len(const char *a, int64_t la, const char *b, int64_t lb)
{
	int32_t *prev = calloc((size_t)lb + 1, sizeof(int32_t)), *cur = calloc((size_t)lb + 1, sizeof(int32_t));
	if (!prev || !cur) { fprintf(stderr, "naive_lcs_len: out of memory\n"); exit(2); }
	for (int64_t i = 1; i <= la; i++) {
		for (int64_t j = 1; j <= lb; j++) {
			int32_t best = prev[j] > cur[j - 1] ? prev[j] : cur[j - 1];
			if (a[i - 1] == b[j - 1] && prev[j - 1] + 1 > best) best = prev[j - 1] + 1;
			cur[j] = best;
		}
		int32_t *t = prev; prev = cur; cur = t;
	}
	int64_t r = prev[lb];
	free(prev);
	free(cur);
	return r;
}

char *naive_cigar(const char *ops)
{
	size_t n = strlen(ops), m = 0;
	char *c = malloc(n * 21 + 1);
	for (size_t i = 0; i < n;) {
		size_t e = i;
		while (e < n && ops[e] == ops[i]) e++;
		m += (size_t)sprintf(c + m, "%zu%c", e - i, ops[i]);
		i = e;
	}
	c[m] = 0;
	return c;
}
