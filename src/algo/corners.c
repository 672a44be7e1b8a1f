/* B's cut points for the diagonal pieces of a long pair (corners.h) */
#include <string.h>
#include "algo/corners.h"

#define GAP_AFTER 64   /* cuts in a row without a match: from then on look at every 64th */

/* the j in [c - w, c + w] nearest to c (the left one first on a tie) with B[j, j + n) = s[0, n),
 * or -1. n >= 8: the first 8 bytes compared as one word (an unrelated pair looks at ~33k places
 * a cut: a byte's compare and memcmp call each were 5% of a 25 kb pair's time) */
static int64_t nearest(const char *b, int64_t lb, const char *s, int64_t n, int64_t c, int64_t w)
{
	uint64_t s8, x;
	memcpy(&s8, s, 8);
	for (int64_t o = 0; o <= w; o++)
		for (int side = 0; side < 2; side++) {
			if (o == 0 && side) continue;
			const int64_t j = side ? c + o : c - o;
			if (j < 0 || j + n > lb) continue;
			memcpy(&x, b + j, 8);
			if (x == s8 && !memcmp(b + j + 8, s + 8, (size_t)(n - 8))) return j;
		}
	return -1;
}

int64_t aln_corners(const char *a, int64_t la, const char *b, int64_t lb, int64_t K, int64_t *bq)
{
	const int64_t n = ALN_CORNER_LEN, step = 32;
	int64_t la0 = 0, lb0 = 0, miss = 0, hits = 0;   /* the last cut found (A, B); cuts a match placed */
	bq[0] = 0;
	for (int64_t q = 1; q < K; q++) {
		const int64_t aq = q * la / K;
		/* look where a diagonal from the last cut found goes (homologous stretches align
		 * diagonally: an indel moves it, an overall length ratio does not) */
		const int64_t c = lb0 + (aq - la0);
		int64_t at = 0;
		int found = 0;
		/* an unrelated pair (or stretch) finds nothing: after GAP_AFTER misses, look rarely */
		if (miss < GAP_AFTER || q % GAP_AFTER == 0)
			for (int wide = 0; wide < (miss < 3 || q % GAP_AFTER == 0 ? 2 : 1) && !found; wide++)   /* then wider: a long indel moved the drift */
				for (int64_t t = 0; t < ALN_CORNER_TRIES && !found; t++) {
					const int64_t ap = aq + t * step;
					if (ap + n > la) break;
					const int64_t j = nearest(b, lb, a + ap, n, c + t * step, wide ? ALN_CORNER_WIDE : ALN_CORNER_WIN);
					if (j >= 0) {
						at = j - t * step;
						found = 1;
					}
				}
		int64_t v;
		if (found) {
			v = at;
			miss = 0;
		} else {
			/* none: in proportion from the last cut found to the end (an unrelated pair: the
			 * proportional cuts) */
			v = lb0 + (int64_t)((double)(aq - la0) * (double)(lb - lb0) / (double)(la - la0));
			miss++;
		}
		if (v < bq[q - 1]) v = bq[q - 1];
		if (v > lb) v = lb;
		bq[q] = v;
		if (found) { la0 = aq; lb0 = v; hits++; }
	}
	bq[K] = lb;
	return hits;
}
