/* The pairwise driver (pair_run.h): read, distribute, plan, compute item by item (blocks of
 * pairs: pair_block.c; a huge pair split across the ranks: mpi/split), write. */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "mpi/run/pair_int.h"

static rk_status_t pair_take(void *ctx, int rank, const void *data, uint64_t n)
{
	pair_gather_t *g = ctx;
	const char *s = data;
	(void)rank;
	if (!n) return RK_OK;
	if (g->first && g->json && s[0] == ',') { s++; n--; }
	g->first = 0;
	rio_buf_t b = { (char *)s, n, n, 0 };  /* borrowed: not freed here */
	return rio_buf_write(&b, g->out->fp, rio_out_name(g->out));
}

/* Rows past PAIR_CHUNK bytes go to rank 0 now: rank 0's to the output at once, another rank's
 * when rank 0 comes to it in the round's gather (it waits until then). */
rk_status_t pair_flush(pair_job_t *j)
{
	if (j->rows.l < PAIR_CHUNK) return RK_OK;
	rk_debug("%s: rank %d sends %zu bytes of rows before the end of the round", pair_mode(j->s),
	         j->w->rank, (size_t)j->rows.l);
	const double t = rk_realtime();
	rk_status_t st = rmpi_pieces_put(j->w, j->pieces, j->rows.s, j->rows.l);
	if (j->w->rank) j->waited += rk_realtime() - t;  /* waiting for rank 0, not this rank's pace */
	j->tb[3] += rk_realtime() - t;
	j->flushed += j->rows.l;
	j->rows.l = 0;
	return st;
}
/* read: the outputs checked, the backend chosen, the inputs on every rank, the pairing checked */
static rk_status_t pair_read(pair_job_t *j)
{
	const rmpi_t *w = j->w;
	const rmpi_pairs_t *s = j->s;
	const char *outs[2] = { s->c->output, s->c->stats }, *ins[2] = { s->in_a, s->in_b };
	rk_status_t st;
	if ((st = rmpi_check_outputs(w, outs, 2, ins, s->in_b ? 2 : 1)) != RK_OK) return st;
	if ((st = rmpi_backend(w, s->c, s->mode.gpu != 0, "this build has no GPU code for the mode", &j->be)) != RK_OK) return st;
	rk_debug("%s: backend chosen %.3f s after the start", pair_mode(s), rk_realtime() - j->t0);
	if ((st = s->in_b ? rmpi_read_two(w, s->in_a, s->in_b, 0, &j->A, &j->B, &j->clk) : rmpi_read_reads(w, s->in_a, 0, &j->A, &j->clk)) != RK_OK)
		return st;
	j->Bp = &j->A;
	j->n_items = j->A.n;  /* --all: rows i, each with its pairs (i, j > i) */
	if (!s->in_b) return RK_OK;
	j->Bp = &j->B;
	if (w->rank == 0 && j->A.n != j->B.n && j->A.n != 1 && j->B.n != 1) {
		rk_err("%s has %lld records and %s has %lld: pairs need equal counts, or one record against many", s->in_a,
		       (long long)j->A.n, s->in_b, (long long)j->B.n);
		st = RK_EINPUT;
	}
	j->n_items = j->A.n > j->B.n ? j->A.n : j->B.n;
	return rmpi_agree(w, st);
}

/* R's reads as arrays of sequences and lengths; the caller frees both (on failure both are 0) */
rk_status_t pair_table(const rio_reads_t *R, const char ***seqs, int64_t **lens)
{
	*seqs = malloc(sizeof **seqs * (size_t)(R->n + 1));
	*lens = malloc(sizeof **lens * (size_t)(R->n + 1));
	if (!*seqs || !*lens) {
		free(*seqs); free(*lens);
		*seqs = 0; *lens = 0;
		rk_err("out of memory");
		return RK_ERES;
	}
	for (int64_t i = 0; i < R->n; i++) { (*seqs)[i] = rio_seq(R, i); (*lens)[i] = rio_len(R, i); }
	return RK_OK;
}

/* every read of A as arrays (j->seqs, j->lens), once for --all's filter, the device's copy
 * and the CPU's plane table alike */
rk_status_t pair_seqs(pair_job_t *j)
{
	if (j->seqs && j->lens) return RK_OK;
	free(j->seqs); free(j->lens);
	return pair_table(&j->A, &j->seqs, &j->lens);
}

/* the ranks' sampling of the filter (aln_near_team_t): sums of doubles across them */
static void pair_team_sum(void *ctx, double *x, int64_t m) { rmpi_sum_vec((const rmpi_t *)ctx, x, m); }
static void pair_team_bcast(void *ctx, void *buf, int64_t bytes, int root) { rmpi_bcast((const rmpi_t *)ctx, root, buf, (size_t)bytes); }

/* --all --max-dist: the filter the cost model picks (near.h), or none; with one, a row's cost
 * is its lookups and its candidates, measured on sample rows that the ranks share out. Every
 * rank must reach the same plan and costs (they split the rows by them): the pair's price and
 * the filter's threads are the ranks' largest, their failures agreed. */
static rk_status_t pair_near(pair_job_t *j)
{
	const rmpi_t *w = j->w;
	const rmpi_pairs_t *s = j->s;
	const int64_t n = j->n_items;
	double L = 0, est[3] = { 0 };
	const double t_near = rk_realtime();
	rk_status_t st = pair_seqs(j);
	if ((st = rmpi_agree(w, st)) != RK_OK) return st;
	for (int64_t i = 0; i < n; i++) L += (double)j->lens[i];
	L = n ? L / (double)n : 0;
	/* a pair on one thread: the banded CPU kernel, or the GPU's batch rate; on a GPU rank every
	 * pair is the device's whole rate and the filter runs on the rank's threads (100,000 x
	 * 72 bp at D 10 on one H100 and 16 cores took 4.99 s as every pair on the GPU, which the
	 * one-thread estimate of the pieces, 10.8 s, chose; 1.52 s by the pieces on the CPU) */
	double x[2] = { j->be.use_gpu ? PAIR_NS_GPU * L : PAIR_NS_CPU * L * (1 + (double)s->max_dist / 32),
	                j->be.use_gpu ? (double)rmpi_threads(w, s->c) : 1 };
	rmpi_max_vec(w, x, 2);   /* exact in any order: the same on every rank */
	const double pair_ns = x[0], par = x[1];
	/* the filter's index (20-30 MB at 20,000 reads) is sent between the ranks of a node, where
	 * it is a copy (a few ms, against 0.1 s to build); ranks on several nodes build it each */
	const aln_near_team_t team = { pair_team_sum, (void *)w, w->rank, w->size, w->nodes == 1 ? pair_team_bcast : 0 };
	int plan = rk_tune.near_plan;
	if (plan == ALN_NEAR_FULL) return RK_OK;
	if (plan) {
		if ((st = aln_near_build(&j->near, n, j->seqs, j->lens, s->max_dist, plan)) != RK_OK) rk_err("%s", rk_error());
		if ((st = rmpi_agree(w, st)) != RK_OK) return st;
	} else
		plan = aln_near_choose(&j->near, n, j->seqs, j->lens, s->max_dist, pair_ns, par, rmpi_threads(w, s->c), &team, est);
	const double t_plan = rk_realtime();
	if (!rk_tune.near_plan && w->rank == 0)
		rk_debug("lev --all --max-dist %lld: estimates: every pair %.3g s, exact segments %.3g s, approximate pieces %.3g s: %s (%d)",
		        (long long)s->max_dist, est[0] * 1e-9, est[1] * 1e-9, est[2] * 1e-9,
		        plan == ALN_NEAR_FULL ? "every pair" : plan == ALN_NEAR_EXACT ? "exact segments" : "approximate pieces", plan);
	/* a failure here is every rank's (the sampled sums carry it) */
	if (j->near && (st = aln_near_costs(j->near, pair_ns, &team, j->cost)) != RK_OK) rk_err("%s", rk_error());
	rk_debug("lev --all --max-dist: rank %d: plan %.3f s, row costs %.3f s", w->rank, t_plan - t_near, rk_realtime() - t_plan);
	return st;
}

/* distribute: each item's cost for the split by cells (--all --max-dist: the filter's index) */
static rk_status_t pair_distribute(pair_job_t *j)
{
	const rmpi_pairs_t *s = j->s;
	const rio_reads_t *A = &j->A;
	const int64_t n = j->n_items;
	rk_status_t st = RK_OK;
	j->cost = malloc(sizeof *j->cost * (size_t)(n + 1));
	j->bounds = malloc(sizeof *j->bounds * ((size_t)j->w->size + 1));
	if (!j->cost || !j->bounds || rmpi_pace_init(j->w, &j->pace) != RK_OK) { rk_err("out of memory"); st = RK_ERES; }
	else if (s->all && s->max_dist >= 0 && !rk_tune.all_nofilter && (st = pair_near(j)) != RK_OK) {
		/* logged */
	} else if (s->all) {
		double suffix = 0;  /* bases of the records after i */
		for (int64_t i = n - 1; i >= 0 && !j->near; i--) {
			j->cost[i] = (double)rio_len(A, i) * suffix + PAIR_OVERHEAD * (double)(n - 1 - i);
			suffix += (double)rio_len(A, i);
		}
	} else
		for (int64_t q = 0; q < n; q++) {
			int64_t a, b;
			pair_ix(A->n, j->Bp->n, q, &a, &b);
			j->cost[q] = (double)rio_len(A, a) * (double)rio_len(j->Bp, b) + PAIR_OVERHEAD;
		}
	return rmpi_agree(j->w, st);
}

/* auto: the GPU or the CPU by this rank's share of the cost (rmpi_backend_cost). A long
 * similar pair is computed in a band on either backend: its cells are weighted by each band's
 * part at a guess of its divergence (aln_sim_divergence, rmpi_cost_band). */
static rk_status_t pair_backend_cost(pair_job_t *j)
{
	const rmpi_pairs_t *s = j->s;
	const int64_t n = j->n_items;
	double tot = 0, bytes = 0, span = 0;
	int64_t big = -1;
	for (int64_t q = 0; q < n; q++) {
		tot += j->cost[q];
		if (big < 0 || j->cost[q] > j->cost[big]) big = q;
	}
	const rio_reads_t *R[2] = { &j->A, j->Bp };
	for (int r = 0; r < (R[1] == R[0] ? 1 : 2); r++)
		for (int64_t i = 0; i < R[r]->n; i++) {
			bytes += (double)rio_len(R[r], i);
			if (rio_len(R[r], i) > span) span = (double)rio_len(R[r], i);
		}
	rmpi_work_t kind = RMPI_W_DP_PAIRS;
	double items = (double)n, p = -1;
	if (s->all) {
		kind = RMPI_W_DP_ALL;
		/* with --max-dist the filter's candidates are not known yet: a row's lookups each */
		if (!j->near) items = (double)n * (double)(n - 1) / 2;
	} else if (big >= 0 && j->cost[big] >= PAIR_LONG_CELLS) {
		kind = RMPI_W_DP_LONG;
		int64_t a, b;
		pair_ix(j->A.n, j->Bp->n, big, &a, &b);
		p = aln_sim_divergence(rio_seq(&j->A, a), rio_len(&j->A, a), rio_seq(j->Bp, b), rio_len(j->Bp, b));
		rk_debug("auto: the longest pair (%lld) looks %.1f%% divergent", (long long)big + 1, 100 * p);
	}
	const int R_ = j->w->size;
	rmpi_cost_t cj = { kind, tot / R_, items / R_, bytes, 2 * span, rmpi_threads(j->w, s->c), 0, 0, 0, 0, 0 };
	rmpi_cost_weights(&cj, s->meta.mode == RIO_LCS, s->mode.want_path);
	if (p >= 0) rmpi_cost_band(&cj, p, s->meta.mode == RIO_LCS, s->mode.want_path);
	/* lev --mode prefix|infix on the GPU: a launch a pair over every cell (rgpu_lev_mode_batch),
	 * against the CPU's bounded search: ~50x the work */
	if (s->mode.want_ends) cj.gpu_x *= 50;
	rmpi_backend_cost(j->w, s->c, &cj, &j->be);
	j->cj = cj;
	/* GPU and CPU ranks side by side: the first round's shares by their rates, then their paces */
	double *wt = malloc(sizeof(double) * (size_t)j->w->size);
	rk_status_t st = wt ? RK_OK : RK_ERES;
	if (!wt) rk_set_error("out of memory");
	if (!rmpi_any(j->w, !wt) && (st = rmpi_share_weights(j->w, s->c, &cj, 1, &j->be, wt)) == RK_OK) rmpi_pace_seed(&j->pace, wt);
	if (st) rk_err("%s", rk_error());
	free(wt);
	return rmpi_agree(j->w, st);
}

/* --all on the CPU: the code planes of every read once, not of both reads of every pair */
static rk_status_t pair_rtab(pair_job_t *j)
{
	const rmpi_pairs_t *s = j->s;
	const int64_t n = j->n_items;
	rk_status_t st = RK_OK;
	if (s->all && !j->be.use_gpu && s->mode.cpu_reads && n >= 2) {   /* a rank's own choice: the agreement below is every rank's */
		st = pair_seqs(j);
		if (!st && (st = aln_rplanes_init(&j->rtab, n, j->seqs, j->lens, PAIR_RTAB_BYTES, j->nth)) != RK_OK) rk_err("%s", rk_error());
	}
	return rmpi_agree(j->w, st);
}

/* rank 0 opens the output and writes the head; the rows follow segment by segment */
static rk_status_t pair_open(pair_job_t *j)
{
	rk_status_t st = RK_OK;
	j->nth = j->be.g.n_threads = rmpi_be_threads(j->w, j->s->c, &j->be);
	j->nth = rmpi_threads_free(j->w, j->s->c, &j->cj, &j->be, j->nth);
	/* a block's arrays once for the job: a fresh one per block was faulted in again each time */
	for (int b = 0; b < PAIR_NBLK; b++) {
		pair_blk_t *k = &j->blk[b];
		k->ai = rk_malloc_huge(sizeof *k->ai * PAIR_BLOCK_PAIRS_GPU);
		k->bi = rk_malloc_huge(sizeof *k->bi * PAIR_BLOCK_PAIRS_GPU);
		k->p = rk_malloc_huge(sizeof *k->p * PAIR_BLOCK_PAIRS_GPU);
		k->val = rk_malloc_huge(sizeof *k->val * PAIR_BLOCK_PAIRS_GPU);
		if (!k->ai || !k->bi || !k->p || !k->val) { rk_err("out of memory"); st = RK_ERES; }
	}
	j->g = (pair_gather_t){ &j->out, 1, j->s->meta.format == RK_FMT_JSON };
	if (!st && j->w->rank == 0) {
		rio_buf_t h = { 0 };
		rio_pair_head(&h, &j->s->meta);
		if ((st = rio_out_open(&j->out, j->s->c->output)) == RK_OK) {
			j->out_open = 1;
			st = rio_buf_write(&h, j->out.fp, rio_out_name(&j->out));
		}
		rio_buf_free(&h);
		if (st) rk_err("%s", rk_error());
	}
	return rmpi_agree(j->w, st);
}

/* compute and write item q0, one huge pair: every rank takes a slab of its rows */
static rk_status_t pair_split_one(pair_job_t *j, int64_t q0)
{
	const rmpi_t *w = j->w;
	const rmpi_pairs_t *s = j->s;
	const rio_reads_t *A = &j->A, *Bp = j->Bp;
	int64_t a, b, v = -1;
	pair_ix(A->n, Bp->n, q0, &a, &b);
	aln_path_t path = { 0 };
	rmpi_split_prof_t one;
	int alone = rmpi_threads_alone(w, s->c);
	if (j->be.alone_free > 0 && alone > j->be.alone_free) alone = j->be.alone_free;
	rmpi_clock_lap(&j->clk, -1);
	rk_status_t st = rmpi_split_pair(w, s->mode.split_kind, s->mode.k, rio_seq(A, a), rio_len(A, a), rio_seq(Bp, b),
	                                 rio_len(Bp, b), s->mode.want_path, j->nth, alone, s->mode.gpu ? &j->be : 0, &v,
	                                 &path, &one);
	rmpi_split_prof_add(&j->sprof, &one);
	j->n_split++;
	rmpi_clock_lap(&j->clk, RMPI_COMPUTE);
	if (!st && w->rank == 0) {
		j->rows.l = 0;
		rio_pair_row(&j->rows, &s->meta, rio_name(A, a), rio_len(A, a), rio_name(Bp, b), rio_len(Bp, b), rio_seq(A, a), v,
		             s->mode.want_path ? &path : 0, 0);
		st = pair_take(&j->g, 0, j->rows.s, j->rows.l);
		if (st) rk_err("%s", rk_error());
	}
	rmpi_clock_lap(&j->clk, RMPI_WRITE);
	aln_path_free(&path);
	j->cells += w->rank == 0 ? (double)rio_len(A, a) * (double)rio_len(Bp, b) : 0;
	j->n_rows += w->rank == 0;
	j->done_cost += j->cost[q0];
	rk_progress(&j->prog, j->done_cost);
	return rmpi_agree(w, st);
}

#ifdef RKTLCS_HAVE_CUDA
/* the reads on the device for pair_all_gpu, once; j->all_off when they do not suit */
static rk_status_t pair_all_open(pair_job_t *j)
{
	const rio_reads_t *A = &j->A;
	const int64_t n = A->n;
	rk_status_t st = RK_OK;
	if (pair_seqs(j) != RK_OK) return RK_ERES;
	if (!(j->suf = malloc(sizeof *j->suf * (size_t)(n + 1)))) { rk_err("out of memory"); return RK_ERES; }
	j->suf[n] = 0;
	for (int64_t i = n - 1; i >= 0; i--) j->suf[i] = j->suf[i + 1] + (double)j->lens[i];
	st = rgpu_dp_all_open(j->s->meta.mode == RIO_LEV ? RGPU_DP_LEV : RGPU_DP_LCS, &j->be.g, j->seqs, j->lens, n, &j->allg, &j->be.stats);
	if (st && rmpi_gpu_failed(j->s->c, &j->be, st)) st = RK_OK;  /* logged; the CPU takes the pairs */
	if (!j->allg) j->all_off = 1;
	return st;
}

/* --all, every pair computed, on the device: rows [q0, q1) a tile of pairs at a time, only
 * the rows kept coming back (dpg_all.cu). *next: the first row not done (q1, or where the
 * device failed under auto: the CPU goes on from there). */
static rk_status_t pair_all_gpu(pair_job_t *j, int64_t q0, int64_t q1, int64_t *next)
{
	const rmpi_t *w = j->w;
	const rmpi_pairs_t *s = j->s;
	const rio_reads_t *A = &j->A;
	const int64_t n = A->n;
	rk_status_t st = RK_OK;
	double mine = 0;
	*next = q0;
	if (!s->all || j->near || !j->be.use_gpu || !s->mode.gpu || s->mode.want_path || s->mode.want_ends || j->all_off) return RK_OK;
	if (!j->allg && ((st = pair_all_open(j)) || !j->allg)) return st;
	for (int64_t q = q0; q < q1 && !st;) {
		int64_t r1 = q;
		double np = 0;
		do np += (double)(n - 1 - r1++);
		while (r1 < q1 && np + (double)(n - 1 - r1) <= PAIR_ALL_PAIRS);
		rgpu_dp_hit_t *h = 0;
		int64_t nh = 0;
		if ((st = rgpu_dp_all_rows(j->allg, s->mode.k, s->max_dist, q, r1, &h, &nh)) != RK_OK) {
			if (rmpi_gpu_failed(s->c, &j->be, st)) st = RK_OK;  /* logged; the CPU goes on from row q */
			rgpu_dp_all_close(j->allg);
			j->allg = 0;
			j->all_off = 1;
			return st;
		}
		for (int64_t x = 0; x < nh && !st; x++) {
			const int64_t a = h[x].i, b = h[x].j;
			rio_pair_row(&j->rows, &s->meta, rio_name(A, a), rio_len(A, a), rio_name(A, b), rio_len(A, b), rio_seq(A, a), h[x].v, 0, 0);
			if (j->rows.oom) { rk_err("out of memory formatting %lld rows", (long long)nh); st = RK_ERES; }
			else st = pair_flush(j);
		}
		free(h);
		for (; q < r1; q++) {
			j->cells += (double)j->lens[q] * j->suf[q + 1];
			j->n_rows += n - 1 - q;
			mine += j->cost[q];
		}
		*next = q;
		if (w->rank == 0) rk_progress(&j->prog, j->done_cost + mine * w->size);
	}
	return st;
}
#endif

/* compute this rank's share [q0, q1) of a run of items into j->rows */
static rk_status_t pair_compute(pair_job_t *j, int64_t q0, int64_t q1)
{
	const rmpi_t *w = j->w;
	const rmpi_pairs_t *s = j->s;
	const rio_reads_t *A = &j->A, *Bp = j->Bp;
	const int64_t n_items = j->n_items;
	const int gpu = j->be.use_gpu && s->mode.gpu;
	const int64_t bmax = gpu ? PAIR_BLOCK_PAIRS_GPU : PAIR_BLOCK_PAIRS;
	const double t_in = rk_realtime();
	double bcells = 0, mine = 0, pend = 0;   /* pend: the cost of pairs not yet submitted (not --all) */
	int64_t nlong = 0;
	rk_status_t st = RK_OK;
#ifdef RKTLCS_HAVE_CUDA
	if ((st = pair_all_gpu(j, q0, q1, &q0)) != RK_OK) return st;
#endif
	for (int64_t q = q0; q < q1 && !st; q++) {
		int64_t j0 = s->all ? q + 1 : 0, j1 = s->all ? n_items : 1;
		if (j->near) {
			if (q >= j->nq1) {  /* the candidates of the next rows, on every thread */
				free(j->noff); free(j->js); j->noff = j->js = 0;
				int64_t nrow = PAIR_NEAR_SLOTS / (n_items > 0 ? n_items : 1);
				nrow = nrow < 256 ? 256 : nrow > PAIR_NEAR_ROWS ? PAIR_NEAR_ROWS : nrow;
				j->nq0 = q; j->nq1 = q + nrow < q1 ? q + nrow : q1;
				if ((st = aln_near_rows(j->near, j->nq0, j->nq1, j->nth, &j->noff, &j->js)) != RK_OK) { rk_err("%s", rk_error()); break; }
			}
			j0 = j->noff[q - j->nq0]; j1 = j->noff[q - j->nq0 + 1]; j->n_cand += j1 - j0;
		}
		for (int64_t x = j0; x < j1 && !st; x++) {
			int64_t a = q, b = j->near ? j->js[x] : x;
			if (!s->all) pair_ix(A->n, Bp->n, q, &a, &b);
			pair_blk_t *k = &j->blk[j->cur];
			k->ai[k->n] = a; k->bi[k->n] = b; k->n++;
			const double c = (double)rio_len(A, a) * (double)rio_len(Bp, b);
			bcells += c;
			nlong += c >= PAIR_LONG_CELLS;
			/* on the CPU a block of long pairs waits for two a thread, which then take a pair
			 * each (pair_blk_solo) */
			const int full = gpu ? bcells >= PAIR_BLOCK_CELLS_GPU
			                     : bcells >= PAIR_BLOCK_CELLS && (!nlong || nlong >= 2 * (int64_t)j->nth || c >= PAIR_SOLO_CELLS ||
			                                                      bcells >= PAIR_BLOCK_CELLS_LONG);
			if (!s->all) pend += j->cost[q];
			if (k->n == bmax || full) {
				st = pair_submit(j);
				bcells = 0, nlong = 0, pend = 0;
			}
		}
		mine += j->cost[q];
		/* rank 0's share as the pace; a pair of short reads is too little to read the clock for */
		if (w->rank == 0 && (s->all || !(q & 255) || j->cost[q] >= PAIR_PROGRESS_CELLS))
			rk_progress(&j->prog, j->done_cost + (mine - pend) * w->size);
	}
	if (!st && j->blk[j->cur].n) st = pair_submit(j);
	rk_status_t sd = pair_drain(j, !st);
	pair_blk_free(&j->blk[j->cur]);   /* left filled by an error */
	if (gpu)
		rk_debug("%s: rank %d's GPU blocks, host side, of %.3f s: %.3f s waiting for values, %.3f s preparing, %.3f s formatting; rows sent in %.3f s",
		         pair_mode(s), w->rank, rk_realtime() - t_in, j->tb[0], j->tb[1], j->tb[2], j->tb[3]);
	else
		rk_debug("%s: rank %d's blocks on %d thread%s, of %.3f s: %.3f s computing values, %.3f s preparing, %.3f s formatting; rows sent in %.3f s",
		         pair_mode(s), w->rank, j->nth, j->nth > 1 ? "s" : "", rk_realtime() - t_in, j->tb[0], j->tb[1], j->tb[2], j->tb[3]);
	memset(j->tb, 0, sizeof j->tb);
	return st ? st : sd;
}

/* 1 when the paces' seeds give every item to one rank */
static int pair_one_rank(const rmpi_pace_t *p)
{
	int n = 0;
	for (int r = 0; r < p->n; r++) n += p->seed[r] > 0;
	return n == 1;
}

/* the pairs of item q (under --max-dist, the most it can have) */
static double pair_weight(const pair_job_t *j, int64_t q)
{
	return j->s->all ? (double)(j->n_items - 1 - q) : 1;
}

/* Compute and gather a run of ordinary items [q0, q1) round by round: each round's items are
 * split by cost across the ranks, computed, and gathered to rank 0, which writes the rows in
 * order as they come. A round is sized from the bytes a pair of the last one for about
 * PAIR_ROUND bytes of rows a rank (at most 4 times the last round's pairs, at least one
 * item), so the ranks compute at once and each sends its rows at the end; a rank that has
 * formatted PAIR_CHUNK bytes sends them before (pair_flush). No rank holds more rows than
 * that, whatever the size of the output. Several ranks need the rounds: with pieces alone,
 * rank 2 could send nothing before rank 0 had written rank 1's rows, and would wait. One rank
 * needs none: its pieces go to the output as they come (rounds would each end in a serial
 * write while idle OpenMP threads spin: 3x the CPU time on 1.1M pairs of 16 bp, 2 threads). */
static rk_status_t pair_items(pair_job_t *j, int64_t q0, int64_t q1)
{
	const rmpi_t *w = j->w;
	rk_status_t st = RK_OK;
	while (q0 < q1 && !st) {
		double goal = j->per_pair > 0 ? (double)PAIR_ROUND * w->size / j->per_pair : PAIR_FIRST * w->size, got = 0;
		if (j->last > 0 && goal > 4 * j->last) goal = 4 * j->last;
		/* one round where one rank computes all (the others beyond the node's GPUs take nothing):
		 * it writes its rows as they come anyway */
		if (w->size == 1 || pair_one_rank(&j->pace)) goal = HUGE_VAL;
		int64_t r1 = q0;
		do got += pair_weight(j, r1++);
		while (r1 < q1 && got + pair_weight(j, r1) <= goal);
		rk_debug("%s: a round of items %lld-%lld, up to %.0f pairs", pair_mode(j->s),
		         (long long)q0 + 1, (long long)r1, got);
		rmpi_pace_split(&j->pace, j->cost + q0, r1 - q0, j->bounds);
		rmpi_pieces_t pieces = { pair_take, &j->g, RK_OK };
		j->pieces = &pieces;
		j->rows.l = 0;
		j->flushed = 0;
		j->waited = 0;
		const int64_t m0 = q0 + j->bounds[w->rank], m1 = q0 + j->bounds[w->rank + 1];
		const double tc = rk_realtime();
		st = pair_compute(j, m0, m1);
		const double dt = rk_realtime() - tc - j->waited;
		rmpi_clock_lap(&j->clk, RMPI_COMPUTE);
		const double bytes = (double)(j->rows.l + j->flushed);
		st = rmpi_pieces_end(w, &pieces, j->rows.s, j->rows.l, st);
		j->pieces = 0;
		rmpi_clock_lap(&j->clk, RMPI_GATHER);
		for (int64_t q = q0; q < r1; q++) j->done_cost += j->cost[q];
		rk_progress(&j->prog, j->done_cost);
		if (st) return st;
		double mine = 0;
		for (int64_t q = m0; q < m1; q++) mine += j->cost[q];
		const double all = rmpi_pace_round(w, &j->pace, mine, dt, bytes);   /* every rank sizes and splits the next round alike */
		if (got > 0) {
			j->per_pair = all > 0 ? all / got : 1;
			j->last = got;
		}
		q0 = r1;
	}
	return st;
}

/* Several huge pairs on GPU ranks (two assemblies compared chromosome by chromosome): each
 * whole on one rank, the ranks' shares as pair_items cuts its first round, when that ends
 * sooner than each pair split in turn. A split speeds its pair up at most 1.9x on GPU ranks:
 * two GPUs meet on a column and the others wait (10 Mb random, 1.5-1.9x); a rank alone on its
 * pair runs at the one-rank rate, and ranks sharing a GPU count as their GPUs. Not where any
 * rank computes on its CPU. CPU ranks' split keeps every rank busy: 4 random pairs of 300 kb
 * at np 2 on the 2-core CI machine took 3.56 s split and 4.47 s spread (np 1 7.3 s).
 * Collective, the same on every rank (the costs are everyone's); RKTLCS_SPLIT_PLAN=spread
 * forces it (tests). */
static int pair_spread_huge(pair_job_t *j)
{
	const rmpi_t *w = j->w;
	const int R = w->size, all_gpu = !rmpi_any(w, !j->be.use_gpu), no_gpu = !rmpi_any(w, j->be.use_gpu);
	if (rk_tune.split_plan == 8) return 1;
	double huge = 0, small = 0;
	int64_t n_huge = 0;
	for (int64_t q = 0; q < j->n_items; q++) {
		if (j->cost[q] >= rk_tune.split_cells) { huge += j->cost[q]; n_huge++; }
		else small += j->cost[q];
	}
	/* CPU ranks with several huge pairs each: whole pairs keep every rank busy without the
	 * split's exchanges, and a similar pair whole costs a fraction of its cells (wavefronts,
	 * band) where its split pieces sweep on (100 x 100 kb 1% --path at np 2 on the CI VM:
	 * 2.25 s split, np 1 0.30 s) */
	if (no_gpu && n_huge >= 4 * (int64_t)R) return 1;
	/* every rank on a GPU: a whole 10 Mb pair on a CPU rank beside GPU ranks (auto on a node
	 * without a device) would take minutes where the split leaves it to ranks 0 and 1 */
	if (!all_gpu) return 0;
	if (n_huge < 2 || j->n_items > PAIR_FIRST * R) return 0;   /* one round of pair_items: the shares below */
	int64_t *b = j->bounds;   /* pair_items' room, R + 1 */
	rmpi_pace_split(&j->pace, j->cost, j->n_items, b);
	double most = 0;
	for (int r = 0; r < R; r++) {
		double c = 0;
		for (int64_t q = b[r]; q < b[r + 1]; q++) c += j->cost[q];
		if (c > most) most = c;
	}
	const int nd = rgpu_node_devices(), share = nd > 0 && w->local_size > nd ? (w->local_size + nd - 1) / nd : 1;
	const double spread = most * share, split = huge / 1.9 + small / R;
	if (w->rank == 0)
		rk_debug("split: %lld pairs over the split's size: %s (cells of the busiest rank %.3g%s, split in turn %.3g)", (long long)n_huge,
		         spread < split ? "each whole on one rank" : "each split over the ranks in turn", most, share > 1 ? " on a shared GPU" : "",
		         split);
	return spread < split;
}

/* every item in order: huge pairs split across the ranks, runs of the others between them */
static rk_status_t pair_all_items(pair_job_t *j)
{
	const rmpi_pairs_t *s = j->s;
	double all_cost = 0;
	rk_status_t st = RK_OK;
	for (int64_t q = 0; q < j->n_items; q++) all_cost += j->cost[q];
	rk_progress_start(&j->prog, s->meta.mode == RIO_LEV ? "lev: cells" : "lcs: cells", all_cost);
	/* a long pair's own loop says nothing until it ends: the ticker shows its kernels' cells */
	if (j->w->rank == 0 && !s->all) rk_progress_tick_start(&j->prog);
	/* the split runs global alignments only: prefix and infix pairs stay whole */
	int no_split = s->all || j->w->size == 1 || s->mode.want_ends, huge = 0;
	for (int64_t q = 0; q < j->n_items; q++) huge |= j->cost[q] >= rk_tune.split_cells;
	if (!no_split && huge && s->mode.gpu && !rk_tune.split_plan && !rk_tune.split_words && rmpi_split_shared(j->w, &j->be)) {
		no_split = 1;
		if (j->w->rank == 0) rk_debug("split: ranks 0 and 1 have no GPU each (one is shared, or rank 1 is beyond the node's GPUs): each pair on one rank, as with one rank (RKTLCS_SPLIT_PLAN splits it)");
	}
	if (!no_split && huge && (rk_tune.split_plan == 8 || (!rk_tune.split_plan && !rk_tune.split_words))) no_split = pair_spread_huge(j);
	for (int64_t q0 = 0; q0 < j->n_items && !st;) {
		if (j->w->rank == 0 && !s->all) rk_progress_tick_base(&j->prog, j->done_cost);
		if (!no_split && j->cost[q0] >= rk_tune.split_cells) {
			st = pair_split_one(j, q0++);
			continue;
		}
		int64_t q1 = q0 + 1;
		while (q1 < j->n_items && (no_split || j->cost[q1] < rk_tune.split_cells)) q1++;
		st = pair_items(j, q0, q1);
		q0 = q1;
	}
	rk_progress_end(&j->prog);
	return st;
}

/* write: rank 0 ends and commits the output; the summary and the stage report */
static rk_status_t pair_write(pair_job_t *j)
{
	const rmpi_t *w = j->w;
	const rmpi_pairs_t *s = j->s;
	rk_status_t st = RK_OK;
	if (w->rank == 0) {
		rio_buf_t t = { 0 };
		rio_pair_tail(&t, &s->meta);
		st = rio_buf_write(&t, j->out.fp, rio_out_name(&j->out));
		rio_buf_free(&t);
		if (!st) st = rio_out_commit(&j->out);
		else rio_out_abort(&j->out);
		j->out_open = 0;
		if (st) rk_err("%s", rk_error());
	}
	rmpi_clock_lap(&j->clk, RMPI_WRITE);
	double tot_cells = rmpi_sum(w, j->cells), tot_pairs = rmpi_sum(w, (double)j->n_rows), tot_cand = rmpi_sum(w, j->n_cand);
	if (j->near && w->rank == 0)
		rk_info("lev --all --max-dist %lld: %.0f of %.0f pairs passed the filter and were computed", (long long)s->max_dist,
		        tot_cand, (double)j->n_items * (double)(j->n_items - 1) / 2);
	if (w->rank == 0 && !st) {
		double dt = rk_realtime() - j->t0;
		char desc[320];
		rmpi_backend_desc(&j->be, aln_simd_name(aln_simd_level(-1)), desc, sizeof desc);
		/* one pair on this rank's CPU sweep: the cells it computed, fewer than n x m where it is banded */
		const double swept = w->size == 1 && j->n_items == 1 ? rk_live_total() : 0;
		char band[96] = "";
		if (swept > 0 && swept < 0.99 * tot_cells) snprintf(band, sizeof band, " (%.3g computed: banded)", swept);
		const double rate = (swept > 0 && swept < tot_cells ? swept : tot_cells) / (dt > 0 ? dt : 1e-9);
		rk_info("%s: %.0f pair%s, %.4g cells%s, %d rank%s, %d thread%s/rank, backend %s, %.3f s, %.3g cells/s",
		        pair_mode(s), tot_pairs, tot_pairs == 1 ? "" : "s", tot_cells, band, w->size,
		        w->size > 1 ? "s" : "", j->nth, j->nth > 1 ? "s" : "", desc, dt, rate);
	}
	if ((st = rmpi_agree(w, st)) == RK_OK) {
		rio_buf_t extra = { 0 };
		rio_buf_printf(&extra, "\"pairs\":%.0f,\"cells\":%.6g", tot_pairs, tot_cells);
		if (j->n_split) st = rmpi_split_prof_json(w, j->n_split, &j->sprof, &extra);
		if (!st) st = rmpi_clock_report(w, s->c, &j->clk, pair_mode(s), extra.s);
		rio_buf_free(&extra);
	}
	return st;
}

static void pair_job_free(pair_job_t *j)
{
	if (j->out_open) rio_out_abort(&j->out);
	rio_buf_free(&j->rows);
	for (int64_t t = 0; t < j->n_fmt; t++) rio_buf_free(&j->fmt[t]);
	free(j->fmt);
	free(j->bounds); free(j->cost); rmpi_pace_free(&j->pace); for (int b = 0; b < PAIR_NBLK; b++) { free(j->blk[b].ai); free(j->blk[b].bi); free(j->blk[b].p); free(j->blk[b].val); } free(j->js); free(j->noff); free(j->seqs); free(j->lens);
	aln_near_free(j->near);
#ifdef RKTLCS_HAVE_CUDA
	rgpu_dp_all_close(j->allg);
	rgpu_dp_two_close(j->twog);
#endif
	free(j->suf);
	rio_reads_free(&j->A); rio_reads_free(&j->B);
	aln_rplanes_free(&j->rtab);
}

static rk_status_t pair_job(const rmpi_t *w, const rmpi_pairs_t *s)
{
	pair_job_t j;
	memset(&j, 0, sizeof j);
	j.w = w;
	j.s = s;
	j.t0 = rk_realtime();
	if (w->rank == 0 && rk_get_log_level() >= RK_LOG_DEBUG)
		rk_debug("%s: the job starts %.3f s after the process", pair_mode(s), rk_process_age());
	rmpi_clock_start(&j.clk);
	rk_status_t st = pair_read(&j);
	if (!st) st = pair_distribute(&j);
	if (!st) st = pair_backend_cost(&j);
	if (!st) st = pair_open(&j);
	if (!st) st = pair_rtab(&j);
	if (!st) st = pair_all_items(&j);
	if (!st) st = pair_write(&j);
	const double tf = rk_realtime();
	pair_job_free(&j);
	rk_debug("%s: rank %d: the job's memory freed in %.3f s", pair_mode(s), w->rank, rk_realtime() - tf);
	return st;
}

rk_status_t rmpi_pairs_run(const rmpi_t *w, const rmpi_pairs_t *s)
{
	rmpi_t one;
	if (!rmpi_solo(w, s->c, &one)) return pair_job(w, s);
	rk_status_t st = RK_OK;
	if (w->rank == 0) {
		/* the threads of a rank alone on the node (rmpi_threads_alone), for its read too */
		rk_common_t c = *s->c;
		rmpi_pairs_t s1 = *s;
		c.threads = c.threads_alone;
		s1.c = &c;
		rio_set_threads(c.threads);
		st = pair_job(&one, &s1);
	}
	rmpi_sub_free(&one);
	return rmpi_agree_idle(w, st);
}
