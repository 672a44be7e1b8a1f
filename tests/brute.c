#include <stdlib.h>
#include "brute.h"

static int bf_match(char a, char b)
{
	int base = a == 'A' || a == 'C' || a == 'G' || a == 'T';
	return base && a == b;
}

long bf_lcp(const char *a, long la, long x, const char *b, long lb, long y, long k)
{
	long L = 0, mm = 0;
	while (x + L < la && y + L < lb) {
		if (!bf_match(a[x + L], b[y + L]) && ++mm > k) break;
		L++;
	}
	return L;
}

long bf_maxlcp(const char *a, long la, long x, const char *b, long lb, long k)
{
	long best = 0;
	for (long y = 0; y < lb; y++) {
		long v = bf_lcp(a, la, x, b, lb, y, k);
		if (v > best) best = v;
	}
	return best;
}

void bf_candidates(int m, char **s, const long *len, long k, long t, long tau, bf_cand_t *out)
{
#pragma omp parallel for schedule(dynamic, 1)
	for (int i = 0; i < m; i++) {
		long *ml = malloc(sizeof(long) * (size_t)(len[i] * m + 1));
		for (long x = 0; x < len[i]; x++)
			for (int j = 0; j < m; j++)
				ml[x * m + j] = j == i ? -1 : bf_maxlcp(s[i], len[i], x, s[j], len[j], k);
		out[i].pos = -1; out[i].len = 0; out[i].support = 0;
		/* largest l first, then smallest x */
		for (long l = len[i]; l >= tau && out[i].pos < 0; l--)
			for (long x = 0; x + l <= len[i]; x++) {
				long sup = 0;
				for (int j = 0; j < m; j++) sup += j != i && ml[x * m + j] >= l;
				if (sup >= t) { out[i].pos = x; out[i].len = l; out[i].support = sup; break; }
			}
		free(ml);
	}
}

long bf_winner(int m, const bf_cand_t *c)
{
	long w = -1;
	for (int i = 0; i < m; i++)
		if (c[i].len > 0 && (w < 0 || c[i].len > c[w].len)) w = i;
	return w;
}
