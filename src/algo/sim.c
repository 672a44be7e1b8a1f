/* How far apart two long sequences are, guessed in about a millisecond (aln.h): the cost
 * model of --backend auto needs it, since both backends compute a similar pair in a band
 * (0.055 s on 32 threads for 1 Mb at 1%, against 0.48 s for a random pair of that size). */
#define _GNU_SOURCE  /* memmem */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "algo/aln.h"

#define SIM_SAMPLES 64  /* probes looked for in a wide window: are A and B related at all */
#define SIM_FINE 960    /* more probes near the wide ones' hits, for the guess's precision */
#define SIM_Q 16        /* bases of each probe: an exact hit survives divergence p with (1-p)^16 */

/* probe s of n: its place in A, evenly spread; the fine ones at even steps of the half, the
 * wide ones at odd (with la >= 2 SIM_Q SIM_FINE the two never round to one place) */
static int64_t sim_at(int64_t la, int s, int n, int fine)
{
	return (la - SIM_Q) * (2 * (int64_t)s + !fine) / (2 * (int64_t)n);
}

static int sim_find(const char *a, int64_t x, const char *b, int64_t lb, int64_t y, int64_t slack, int64_t *at)
{
	int64_t lo = y - slack, hi = y + slack + SIM_Q;
	if (lo < 0) lo = 0;
	if (hi > lb) hi = lb;
	if (hi - lo < SIM_Q) return 0;
	const char *h = memmem(b + lo, (size_t)(hi - lo), a + x, SIM_Q);
	if (h && at) *at = h - b;
	return h != 0;
}

/* the indels' drift of the diagonal over d bases: 4 sd of a walk with every base an indel, plus 64 */
static int64_t sim_drift(int64_t d)
{
	return (int64_t)(4 * sqrt((double)(d < 0 ? -d : d))) + 64;
}

/* The wide hits that are anchors: a hit whose diagonal (its offset from the line x lb / la)
 * is within the drift of a neighbouring hit's. The wide window takes memmem's first match, and
 * in a repeat that is another copy, kb away from the alignment: fine probes placed by it would
 * miss and read as divergence. Every hit where none agrees (too few to tell). Returns the count. */
static int sim_anchors(int64_t la, int64_t lb, const int64_t *hx, const int64_t *hy, int nh, int64_t *ax, int64_t *ay)
{
	int na = 0;
	for (int k = 0; k < nh; k++) {
		const double o = (double)hy[k] - (double)hx[k] * (double)lb / (double)la;
		int ok = 0;
		for (int q = k - 1; q <= k + 1 && !ok; q += 2)
			if (q >= 0 && q < nh)
				ok = fabs(o - ((double)hy[q] - (double)hx[q] * (double)lb / (double)la)) <= (double)sim_drift(hx[q] - hx[k]);
		if (ok) { ax[na] = hx[k]; ay[na] = hy[k]; na++; }
	}
	if (na > 0) return na;
	memcpy(ax, hx, sizeof *ax * (size_t)nh);
	memcpy(ay, hy, sizeof *ay * (size_t)nh);
	return nh;
}

/* The fine probes: each looked for around the diagonal of the nearest anchor (x, y pairs in
 * ax, ay, in order of x), within the drift since it, and where that misses around the nearest
 * on the other side. A narrow window finds what a wide one would, at a thousandth of the scan. */
static int sim_fine(const char *a, int64_t la, const char *b, int64_t lb, const int64_t *ax, const int64_t *ay, int na)
{
	int hits = 0, k = 0;
	for (int s = 0; s < SIM_FINE; s++) {
		const int64_t x = sim_at(la, s, SIM_FINE, 1);
		while (k + 1 < na && llabs(ax[k + 1] - x) <= llabs(ax[k] - x)) k++;
		const int o = ax[k] > x ? k - 1 : k + 1;  /* the other side's */
		hits += sim_find(a, x, b, lb, ay[k] + (x - ax[k]), sim_drift(x - ax[k]), 0) ||
		        (o >= 0 && o < na && sim_find(a, x, b, lb, ay[o] + (x - ax[o]), sim_drift(x - ax[o]), 0));
	}
	return hits;
}

double aln_sim_divergence(const char *a, int64_t la, const char *b, int64_t lb)
{
	if (la < 4 * SIM_Q || lb < 4 * SIM_Q) return 1;
	/* a probe of A at x is looked for in B around x's place on the diagonal, within the
	 * length difference and 2% of the length (indels drift the diagonal) */
	const int64_t slack = (la > lb ? la - lb : lb - la) + lb / 50 + 64;
	int64_t hx[SIM_SAMPLES], hy[SIM_SAMPLES];
	int hits = 0;
	for (int s = 0; s < SIM_SAMPLES; s++) {
		const int64_t x = sim_at(la, s, SIM_SAMPLES, 0);
		/* first near the last hit's diagonal: the wide window's scan (400 kb at 10 Mb) only
		 * where that misses (9 -> 2 ms on the 10 Mb pair 1% apart) */
		const int64_t d = hits ? x - hx[hits - 1] : 0;
		if ((hits && sim_find(a, x, b, lb, hy[hits - 1] + d, sim_drift(d), &hy[hits])) ||
		    sim_find(a, x, b, lb, (int64_t)((double)x * (double)lb / (double)la), slack, &hy[hits]))
			hx[hits++] = x;
	}
	if (hits == 0) return 1;
	int n = SIM_SAMPLES;
	/* 64 probes alone guessed a pair 2% apart at 1.2% (a probe's hit is a coin of (1-p)^16:
	 * +-0.5% at 2%), and auto took the CPU at 1.7x the GPU's wall (call AM). Up to ~10% a pair
	 * is banded and the guess sets the band's cost: there 1,024 probes, +-0.13% at 2%. Not on
	 * A under 30 kb, where the fine probes would overlap (and their hits go together) */
	if (hits >= SIM_SAMPLES / 5 && la >= 2 * SIM_Q * SIM_FINE) {
		int64_t ax[SIM_SAMPLES], ay[SIM_SAMPLES];
		hits += sim_fine(a, la, b, lb, ax, ay, sim_anchors(la, lb, hx, hy, hits, ax, ay));
		n += SIM_FINE;
	}
	/* (1 - p)^16 = hits / probes */
	const double p = 1 - pow((double)hits / n, 1.0 / SIM_Q);
	return p < 0 ? 0 : p;
}
