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

/* The wavefronts over every pair not yet done, capped by the rates m (NULL: the built-in
 * rule); again: only the pairs whose cap under m is above the built-in one (tried before).
 * done[i] set where they ended pair i (its distance, or above o->k). Returns how many they
 * ended, or -1 on an error (rk_error set). */
static int64_t wave_pass(const lev_opt_t *o, const aln_pair_t *p, int64_t n, int T, int every, const lev_cap_t *m, int again,
                         int64_t *dist, aln_path_t *paths, uint8_t *done)
{
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
			int64_t cap = every ? (q->la > q->lb ? q->la : q->lb) : lev_wave_cap(q->la, q->lb, paths != 0, m);
			if (again && cap <= lev_wave_cap(q->la, q->lb, paths != 0, 0)) continue;
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
	int64_t solved = wave_pass(o, p, n, T, rk_tune.lev_wave > 0, rates, 0, dist, paths, done);
	/* short pairs left to the sweep in a large batch, before this machine's rates are known:
	 * measure them, and the pairs whose cap they raise try again */
	if (!rates && solved >= 0 && rk_tune.lev_wave == 0 && n >= LEV_TUNE_PAIRS && n - solved >= n / LEV_FEW_SOLVED &&
	    p[n / 2].la <= 512 && (rates = lev_cap_measure(paths != 0, T, simd))) {
		const int64_t more = wave_pass(o, p, n, T, 0, rates, 1, dist, paths, done);
		solved = more < 0 ? more : solved + more;
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
