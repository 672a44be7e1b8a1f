/* lev batches: each pair first by wavefronts up to the distance where they stop paying
 * (lev_wave.c), the rest through the bit-parallel lanes of aln_batch.c. Both give the one
 * distance and the one canonical path, so which strategy took a pair never shows. */
#include <stdlib.h>
#include <omp.h>
#include "algo/lev.h"
#include "algo/lev_wave.h"
#include "algo/aln_dp.h"

rk_status_t lev_batch(const lev_opt_t *o, const aln_pair_t *p, int64_t n, int64_t *dist, aln_path_t *paths)
{
	return lev_batch_reads(o, p, 0, n, dist, paths);
}

/* A thread that keeps failing on wavefronts (a divergent batch) stops trying them for a while:
 * it then loses at most a probe's worth a rest against the sweep alone. */
#define WAVE_PROBE 64
#define WAVE_REST 2048
#define WAVE_GUESS 2048   /* pairs from this long are guessed before a try */
#define LEV_FEW_SOLVED 16 /* at most a 16th solved: the sweep takes them all */
#define LEV_TUNE_PAIRS 16384   /* a batch from which a 16th left to the sweep pays the rates' measuring */
#define LEV_SAMPLE 1024        /* pairs of a batch whose distances choose its caps, at most */
#define LEV_SAMPLE_MIN 128     /* ... at least (or the whole batch) */
#define LEV_SAMPLE_PART 128    /* ... and otherwise a 128th of it: a failed try costs up to */
#define LEV_THETA_MAX 3.0      /* 3 sweeps (tries up to 3 times a pair's break-even d^2) */

/* How a pass caps its pairs: every pair to its end (tests), or caps from the rates m at theta
 * times the break-even (NULL: the built-in rule); again: only the pairs whose cap is above the
 * built-in one (a second pass, after the rates were measured). */
typedef struct { int every, again; const lev_cap_t *m; double theta; } wave_how_t;

static int64_t wave_cap(const wave_how_t *h, const aln_pair_t *q, int path)
{
	return h->every ? (q->la > q->lb ? q->la : q->lb) : lev_wave_cap(q->la, q->lb, path, h->m, h->theta);
}

/* The wavefronts over every pair not yet done, capped as h says. done[i] set where they ended
 * pair i (its distance, or above o->k). Returns how many they ended, or -1 on an error
 * (rk_error set). */
static int64_t wave_pass(const lev_opt_t *o, const aln_pair_t *p, int64_t n, int T, const wave_how_t *h, int64_t *dist,
                         aln_path_t *paths, uint8_t *done)
{
	const int every = h->every;
	int64_t solved = 0;
	int err = 0;
	/* a few long pairs must not all land in one thread's chunk */
	const int64_t per = n / (8 * (int64_t)T), chunk = per < 1 ? 1 : per > 256 ? 256 : per;
	#pragma omp parallel num_threads(T) reduction(+:solved)
	{
		lev_wave_t w = { 0 };
		int tries = 0, fails = 0, idle = 0;   /* idle: windows in a row given up */
		int64_t rest = 0;
		#pragma omp for schedule(dynamic, chunk)
		for (int64_t i = 0; i < n; i++) {
			int stop;
			#pragma omp atomic read
			stop = err;
			if (stop) continue;
			if (done[i]) continue;
			if (rest > 0) { rest--; continue; }
			const aln_pair_t *q = &p[i];
			int64_t cap = wave_cap(h, q, paths != 0);
			if (h->again && cap <= lev_wave_cap(q->la, q->lb, paths != 0, 0, 0)) continue;
			const int capped = o->k >= 0 && o->k < cap;
			if (capped) cap = o->k;
			/* a long pair's failed try costs milliseconds, and a block of a few pairs is too
			 * short for the give-up below: a guess of its distance first (a short pair's guess
			 * would cost what the try does) */
			if (!every && !capped && q->la >= WAVE_GUESS && q->lb >= WAVE_GUESS &&
			    aln_sim_divergence(q->a, q->la, q->b, q->lb) * (double)(q->la > q->lb ? q->la : q->lb) > 1.25 * (double)cap)
				continue;
			const int r = lev_wave(&w, q->a, q->la, q->b, q->lb, cap, paths != 0, &dist[i], paths ? &paths[i] : 0);
			if (r < 0) {
				#pragma omp atomic write
				err = 1;
				continue;
			}
			if (r == 0 && capped) {   /* above -k: the answer, not a failure */
				dist[i] = -1;
				if (paths) paths[i].n = 0;
			}
			if (r == 1 || (r == 0 && capped)) done[i] = 1, solved++;
			else fails++;
			if (++tries == WAVE_PROBE) {
				/* each window given up in a row rests twice as long, up to 16 times: a divergent
				 * batch then tries one pair in 500, not one in 33, and a batch that turns
				 * similar later is tried again within 32k pairs a thread */
				if (!every && fails > WAVE_PROBE / 2) rest = (int64_t)WAVE_REST << (idle < 4 ? idle++ : idle);
				else idle = 0;
				tries = fails = 0;
			}
		}
		lev_wave_free(&w);
	}
	return err ? -1 : solved;
}

/* h->theta from some of the batch's short pairs spread over it (lev_cap_choose), each
 * tried up to LEV_THETA_MAX times its break-even d^2 and kept where solved. Returns how many it
 * solved, or -1 on an error. */
static int64_t wave_theta(const lev_opt_t *o, const aln_pair_t *p, int64_t n, int T, wave_how_t *h, int64_t *dist,
                          aln_path_t *paths, uint8_t *done)
{
	int64_t k = n / LEV_SAMPLE_PART;
	k = k < LEV_SAMPLE_MIN ? LEV_SAMPLE_MIN : k > LEV_SAMPLE ? LEV_SAMPLE : k;
	if (k > n) k = n;
	double *d2 = malloc(sizeof(double) * 2 * (size_t)k), *w = d2 + k;
	if (!d2) { rk_set_error("out of memory for a batch's sample"); return -1; }
	int64_t solved = 0, used = 0;
	int err = 0;
	#pragma omp parallel num_threads(T) reduction(+:solved, err)
	{
		lev_wave_t lw = { 0 };   /* a thread's scratch, pair after pair, as wave_pass's */
		#pragma omp for schedule(dynamic, 8)
		for (int64_t j = 0; j < k; j++) {
			const int64_t i = j * (n / k);
			const aln_pair_t *q = &p[i];
			d2[j] = -2;   /* not in the sample: long, or solved before */
			if (q->la > 512 || done[i]) continue;
			int64_t cap = lev_wave_cap(q->la, q->lb, paths != 0, h->m, LEV_THETA_MAX);
			const int capped = o->k >= 0 && o->k < cap;
			if (capped) cap = o->k;
			const int r = lev_wave(&lw, q->a, q->la, q->b, q->lb, cap, paths != 0, &dist[i], paths ? &paths[i] : 0);
			if (r < 0) { err++; continue; }
			if (r == 0 && capped) { dist[i] = -1; if (paths) paths[i].n = 0; }
			const int ok = r == 1 || (r == 0 && capped);
			if (ok) done[i] = 1, solved++;
			const double d = r == 1 ? (double)dist[i] : (double)cap;
			d2[j] = ok ? d * d : -1;
			w[j] = (double)((q->la + 63) / 64) * (double)q->lb;
		}
		lev_wave_free(&lw);
	}
	for (int64_t j = 0; j < k; j++)
		if (d2[j] > -2) d2[used] = d2[j], w[used] = w[j], used++;
	h->theta = used ? lev_cap_choose(h->m, d2, w, used, LEV_THETA_MAX) : 1;
	free(d2);
	return err ? -1 : solved;
}

rk_status_t lev_batch_reads(const lev_opt_t *o, const aln_pair_t *p, const aln_rsrc_t *r, int64_t n, int64_t *dist,
                            aln_path_t *paths)
{
	const int T = o->n_threads > 0 ? o->n_threads : omp_get_max_threads(), simd = aln_simd_level(o->simd);
	if (rk_tune.lev_wave < 0 || n == 0) return aln_batch_reads(&aln_lev, p, r, n, o->k, simd, T, dist, paths);
	uint8_t *done = calloc((size_t)n, 1);
	if (!done) {
		rk_set_error("out of memory for a batch of %lld pairs", (long long)n);
		return RK_ERES;
	}
	const lev_cap_t *rates = lev_cap_get(paths != 0, T);
	const int tune = rk_tune.lev_wave == 0 && n >= LEV_TUNE_PAIRS && p[n / 2].la <= 512;
	wave_how_t h = { rk_tune.lev_wave > 0, 0, rates, 1 };
	int64_t solved = 0;
	/* the rates known: this batch's theta from a sample of it */
	if (tune && rates) solved = wave_theta(o, p, n, T, &h, dist, paths, done);
	if (solved >= 0 && h.theta > 0) {
		const int64_t more = wave_pass(o, p, n, T, &h, dist, paths, done);
		solved = more < 0 ? more : solved + more;
	}
	/* short pairs left to the sweep by the built-in rule: measure the rates, and the pairs
	 * whose cap they raise try again */
	if (tune && !rates && solved >= 0 && n - solved >= n / LEV_FEW_SOLVED && (h.m = lev_cap_measure(paths != 0, T, simd))) {
		const int64_t got = wave_theta(o, p, n, T, &h, dist, paths, done);
		h.again = 1;
		const int64_t more = got < 0 || h.theta <= 0 ? 0 : wave_pass(o, p, n, T, &h, dist, paths, done);
		solved = got < 0 || more < 0 ? -1 : solved + got + more;
	}
	if (solved < 0 || solved == n) {
		free(done);
		return solved < 0 ? RK_ERES : RK_OK;
	}
	/* a pass that solved few pairs (a divergent batch): the sweep takes every pair in place,
	 * those few again (it resets their paths), instead of a serial gather of the rest and a
	 * scatter back, which cost more than the pairs it spares (docs/BENCHMARKS.md, "lev batches") */
	if (solved <= n / LEV_FEW_SOLVED) {
		free(done);
		return aln_batch_reads(&aln_lev, p, r, n, o->k, simd, T, dist, paths);
	}
	/* the rest, gathered: their pairs, reads and paths (moved in and back out) */
	const int64_t m = n - solved;
	int64_t *idx = malloc(sizeof(int64_t) * (size_t)m * (r ? 4 : 2));
	aln_pair_t *q = malloc(sizeof(aln_pair_t) * (size_t)m);
	aln_path_t *qp = paths ? malloc(sizeof(aln_path_t) * (size_t)m) : 0;
	rk_status_t st = RK_OK;
	if (!idx || !q || (paths && !qp)) {
		rk_set_error("out of memory for a batch of %lld pairs", (long long)n);
		st = RK_ERES;
	} else {
		int64_t *qd = idx + m, *ai = r ? idx + 2 * m : 0, *bi = r ? idx + 3 * m : 0;
		int64_t t = 0;
		for (int64_t i = 0; i < n; i++) {
			if (done[i]) continue;
			idx[t] = i, q[t] = p[i];
			if (r) ai[t] = r->ai[i], bi[t] = r->bi[i];
			if (qp) qp[t] = paths[i];
			t++;
		}
		const aln_rsrc_t r2 = { r ? r->t : 0, ai, bi };
		st = aln_batch_reads(&aln_lev, q, r ? &r2 : 0, m, o->k, simd, T, qd, qp);
		for (t = 0; t < m; t++) {
			dist[idx[t]] = qd[t];
			if (qp) paths[idx[t]] = qp[t];
		}
	}
	free(done); free(idx); free(q); free(qp);
	return st;
}
