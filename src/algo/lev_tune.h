/* algo layer, inside lev: this machine's rates behind the short pairs' wavefront cap
 * (lev_wave_cap), measured once per process, kind and thread count on synthetic pairs. Which
 * strategy is cheaper at a distance differs by machine more than a fixed rule covers (the
 * same 15% pairs: the wavefronts 1.2x the sweep on one CPU, 0.8x on another; docs/BENCHMARKS.md,
 * "lev batches"). The rates only choose a strategy; every strategy gives the same bytes. */
#ifndef LEV_TUNE_H
#define LEV_TUNE_H

#include <stdint.h>

typedef struct {
	double a, b;   /* the wavefronts: a + b d^2 seconds of a batch's wall a pair at distance d */
	double s;      /* the sweep's lanes: s seconds a word step (ceil(la / 64) lb a pair) */
} lev_cap_t;

/* The d^2 at which a pair of `words` word steps costs the wavefronts what it costs the sweep */
static inline double lev_cap_even(const lev_cap_t *m, double words) { return (m->s * words - m->a) / m->b; }

/* A batch's theta (caps at theta times each pair's break-even d^2) from k of its pairs: d2[j]
 * their d^2 found by wavefronts capped at tmax times theirs (-1: above it), w[j] their word
 * steps. The theta of least modelled cost: the solved pairs' tries, the failed ones' tries
 * and sweeps; 0: no wavefronts at all. */
double lev_cap_choose(const lev_cap_t *m, const double *d2, const double *w, int64_t k, double tmax);

/* The rates of this kind (path 0 or 1) measured at T threads, or forced; NULL when neither. */
const lev_cap_t *lev_cap_get(int path, int T);
/* The rates of this kind measured last (not forced) and *T their threads; NULL when none. */
const lev_cap_t *lev_cap_measured(int path, int *T);
/* Measures them on a few thousand synthetic 150 bp pairs (milliseconds), once per process, kind
 * and thread count, thread-safe. NULL when the fit is unusable (a busy machine): the built-in
 * rule stays, and this kind is not measured again at T. Owned here; never freed by callers. */
const lev_cap_t *lev_cap_measure(int path, int T, int simd);
/* tests: c as this kind's rates at every thread count; NULL forgets them. _next: the next
 * measurement of this kind gives c instead of its timings (a batch's re-try made certain). */
void lev_cap_force(int path, const lev_cap_t *c);
void lev_cap_force_next(int path, const lev_cap_t *c);

#endif
