/* A block of pairs of the pairwise driver (pair_int.h): its pairs enumerated, its values and
 * paths computed on the CPU or, on a helper thread, the device, and its rows formatted by
 * several threads, while the driver goes on. */
#include <stdlib.h>
#include <string.h>
#include "mpi/run/pair_int.h"

/* the block's pairs, values and paths (as many as its ai, bi) */
static rk_status_t pair_blk_prep(pair_job_t *j, pair_blk_t *k)
{
	const rio_reads_t *A = &j->A, *B = j->Bp;
	const int64_t n = k->n, m = n ? n : 1;
	k->paths = j->s->mode.want_path ? calloc((size_t)m, sizeof *k->paths) : 0;
	k->ends = j->s->mode.want_ends ? calloc((size_t)m, sizeof *k->ends) : 0;
	if ((j->s->mode.want_path && !k->paths) || (j->s->mode.want_ends && !k->ends)) {
		rk_err("out of memory for a block of %lld pairs", (long long)n);
		return RK_ERES;
	}
	/* on every thread: on one, this loop was a serial 1.5% of lev --all (its cells are
	 * integers well under 2^53: any order sums them exactly) */
	double cells = 0;
	#pragma omp parallel for schedule(static) reduction(+ : cells) num_threads(n >= 8192 ? j->nth : 1)
	for (int64_t q = 0; q < n; q++) {
		aln_pair_t *x = &k->p[q];
		x->a = rio_seq(A, k->ai[q]); x->la = rio_len(A, k->ai[q]);
		x->b = rio_seq(B, k->bi[q]); x->lb = rio_len(B, k->bi[q]);
		cells += (double)x->la * (double)x->lb;
	}
	j->cells += cells;
	return RK_OK;
}

void pair_blk_free(pair_blk_t *k)
{
	if (k->paths) for (int64_t q = 0; q < k->n; q++) aln_path_free(&k->paths[q]);
	if (k->ends) for (int64_t q = 0; q < k->n; q++) aln_ends_free(&k->ends[q]);
	free(k->paths); free(k->ends);   /* p and val are the job's, kept from block to block (pair_open) */
	k->paths = 0; k->ends = 0;
	k->n = 0;
}

/* Long pairs go alone with every thread, unless the block holds enough of them that a thread
 * a pair keeps every thread busy, and none is so large that one thread's pair is the wall. */
static int pair_blk_solo(const pair_job_t *j, const pair_blk_t *k)
{
	int64_t n_long = 0;
	for (int64_t q = 0; q < k->n; q++) {
		const double c = (double)k->p[q].la * (double)k->p[q].lb;
		if (c >= PAIR_SOLO_CELLS) return 1;
		n_long += c >= PAIR_LONG_CELLS;
	}
	return n_long > 0 && n_long < 2 * (int64_t)j->nth;
}

/* the block's values on the CPU: the long pairs alone, with every thread (pair_blk_solo), the
 * rest as a batch */
static rk_status_t pair_blk_cpu(pair_job_t *j, pair_blk_t *k)
{
	const rmpi_pairs_t *s = j->s;
	const aln_pair_t *p = k->p;
	const double solo = pair_blk_solo(j, k) ? PAIR_LONG_CELLS : 1e300;
	rk_status_t st = RK_OK;
	int64_t q0 = 0;
	for (int64_t q = 0; q <= k->n && !st; q++) {
		if (q < k->n && (double)p[q].la * (double)p[q].lb < solo) continue;
		if (q > q0 && j->rtab.fw && s->mode.cpu_reads) {
			const aln_rsrc_t r = { &j->rtab, k->ai + q0, k->bi + q0 };
			st = s->mode.cpu_reads(s->mode.algo, p + q0, &r, q - q0, j->nth, k->val + q0, k->paths ? k->paths + q0 : 0);
		} else if (q > q0)
			st = s->mode.cpu(s->mode.algo, p + q0, q - q0, j->nth, k->val + q0, k->paths ? k->paths + q0 : 0, k->ends ? k->ends + q0 : 0);
		if (!st && q < k->n)
			st = s->mode.cpu(s->mode.algo, p + q, 1, j->nth, k->val + q, k->paths ? k->paths + q : 0, k->ends ? k->ends + q : 0);
		q0 = q + 1;
	}
	if (st) rk_err("%s", rk_error());
	return st;
}

static void *pair_blk_gpu(void *arg)
{
	pair_blk_t *k = arg;
	const rmpi_pairs_t *s = k->j->s;
#ifdef RKTLCS_HAVE_CUDA
	if (k->j->twog) {
		k->st = rgpu_dp_two_vals(k->j->twog, s->mode.k, k->ai, k->bi, k->n, k->val, &k->gs);
		return 0;
	}
#endif
	k->st = s->mode.gpu(s->mode.algo, k->p, k->n, &k->j->be.g, k->val, k->paths, k->ends, &k->gs);
	return 0;
}

/* a GPU block's values are in (k->st): under auto, the CPU redoes them when the GPU failed */
static rk_status_t pair_blk_done(pair_job_t *j, pair_blk_t *k)
{
	if (k->live) {
		pthread_join(k->thr, 0);
		rgpu_stats_t *t = &j->be.stats;
		t->kernel_s += k->gs.kernel_s; t->total_s += k->gs.total_s; t->n_launch += k->gs.n_launch;
		t->n_ichunk += k->gs.n_ichunk; t->n_jchunk += k->gs.n_jchunk; t->n_meet += k->gs.n_meet; t->n_fewer += k->gs.n_fewer;
		if (k->gs.dev_bytes > t->dev_bytes) t->dev_bytes = k->gs.dev_bytes;
	}
	k->live = 0;
	if (!k->st) return RK_OK;
	rk_status_t st = k->st;
	k->st = RK_OK;
	if (!rmpi_gpu_failed(j->s->c, &j->be, st)) return st;  /* logged */
	return pair_blk_cpu(j, k);
}

/* the block's rows into j->rows, in order: PAIR_FMT_ROWS rows a thread, then each part's bytes */
static rk_status_t pair_blk_format(pair_job_t *j, pair_blk_t *k)
{
	const rmpi_pairs_t *s = j->s;
	const rio_reads_t *A = &j->A, *B = j->Bp;
	const int64_t n = k->n, np = (n + PAIR_FMT_ROWS - 1) / PAIR_FMT_ROWS;
	rk_status_t st = RK_OK;
	if (np > j->n_fmt) {
		rio_buf_t *q = realloc(j->fmt, sizeof *q * (size_t)np);
		if (!q) { rk_err("out of memory formatting %lld rows", (long long)n); return RK_ERES; }
		memset(q + j->n_fmt, 0, sizeof *q * (size_t)(np - j->n_fmt));
		j->fmt = q;
		j->n_fmt = np;
	}
	rio_buf_t *part = j->fmt;
	#pragma omp parallel for schedule(dynamic, 1) num_threads(np > 1 ? j->nth : 1)
	for (int64_t t = 0; t < np; t++) {
		/* appended through a copy on this thread's stack: two parts share a cache line, and
		 * every byte appended writes the part's length */
		rio_buf_t b = part[t];
		for (int64_t q = t * PAIR_FMT_ROWS; q < n && q < (t + 1) * PAIR_FMT_ROWS; q++) {
			if (s->all && s->max_dist >= 0 && (k->val[q] < 0 || k->val[q] > s->max_dist)) continue;
			rio_pair_row(&b, &s->meta, rio_name(A, k->ai[q]), k->p[q].la, rio_name(B, k->bi[q]), k->p[q].lb, k->p[q].a, k->val[q],
			             k->paths ? &k->paths[q] : 0, k->ends ? &k->ends[q] : 0);
		}
		part[t] = b;
	}
	for (int64_t t = 0; t < np; t++) {
		if (!st && (part[t].oom || rio_buf_need(&j->rows, part[t].l))) { rk_err("out of memory formatting %lld rows", (long long)n); st = RK_ERES; }
		if (!st && part[t].l) { rio_buf_strn(&j->rows, part[t].s, part[t].l); st = pair_flush(j); }
		part[t].l = 0;
		if (part[t].m > PAIR_FMT_KEEP) rio_buf_free(&part[t]);   /* a long pair's rows: not held while later blocks run */
	}
	j->n_rows += n;
	return st;
}

#ifdef RKTLCS_HAVE_CUDA
/* The reads on the device once, for the blocks' values (dpg_two.cu): the host then sends a
 * block's indices, not both reads of each pair. j->two_off when they do not suit (a path or
 * ends wanted, an empty read or one over 320 bases, too little device memory). */
static rk_status_t pair_two_open(pair_job_t *j)
{
	const rmpi_pairs_t *s = j->s;
	const rio_reads_t *B = j->Bp;
	const int two = B != &j->A;
	j->two_off = 1;
	if (s->mode.want_path || s->mode.want_ends) return RK_OK;
	const char **sb = 0;
	int64_t *lb = 0;
	rk_status_t st = pair_seqs(j);
	if (!st && two) st = pair_table(B, &sb, &lb);
	if (st) return st;
	const double t = rk_realtime();
	st = rgpu_dp_two_open(s->meta.mode == RIO_LEV ? RGPU_DP_LEV : RGPU_DP_LCS, &j->be.g, j->seqs, j->lens, j->A.n, sb, lb, two ? B->n : 0,
	                      PAIR_BLOCK_PAIRS_GPU, &j->twog, &j->be.stats);
	free(sb); free(lb);
	if (st && rmpi_gpu_failed(s->c, &j->be, st)) st = RK_OK;  /* logged; the CPU takes the pairs */
	if (j->twog) {
		j->two_off = 0;
		rk_debug("%s: the reads on the device in %.3f s; blocks go up as indices", pair_mode(s), rk_realtime() - t);
	}
	return st;
}
#endif

/* The block being filled is full (or the last): computed and formatted. On the GPU its
 * values are computed by a helper thread (each call with its own stream) while the oldest of
 * the blocks before, now done, is formatted here: the host's formatting (and the next block's
 * enumeration) hides behind the GPU calls, two at once. pair_drain finishes those in flight. */
rk_status_t pair_submit(pair_job_t *j)
{
	pair_blk_t *k = &j->blk[j->cur], *o = &j->blk[(j->cur + 1) % PAIR_NBLK];
	rk_status_t st = RK_OK;
	double t = rk_realtime(), u;
	if (o->live || o->n) {   /* the oldest block: its values, before the GPU takes another */
		st = pair_blk_done(j, o);
		if (st) return st;
	}
	j->tb[0] += (u = rk_realtime()) - t;
	if ((st = pair_blk_prep(j, k))) return st;
	j->tb[1] += (t = rk_realtime()) - u;
#ifdef RKTLCS_HAVE_CUDA
	if (j->be.use_gpu && j->s->mode.gpu && !j->twog && !j->two_off && (st = pair_two_open(j))) return st;
#endif
	if (j->be.use_gpu && j->s->mode.gpu) {
		k->j = j;
		k->st = RK_OK;
		rgpu_warm_join();   /* here, not in two helper threads at once (rgpu_rt_init joins it too) */
		if (pthread_create(&k->thr, 0, pair_blk_gpu, k) == 0) k->live = 1;
		else pair_blk_gpu(k);
	} else {
		st = pair_blk_cpu(j, k);
		j->tb[0] += rk_realtime() - t;   /* the CPU's values: its "waiting" is computing them */
	}
	u = rk_realtime();
	if (!st && o->n) st = pair_blk_format(j, o);
	pair_blk_free(o);
	j->tb[2] += rk_realtime() - u;
	j->cur = (j->cur + 1) % PAIR_NBLK;
	return st;
}

/* the blocks in flight (or done, unformatted), oldest first: their values and rows; fmt 0
 * after an error (each is still waited for) */
rk_status_t pair_drain(pair_job_t *j, int fmt)
{
	rk_status_t st = RK_OK;
	for (int d = 1; d < PAIR_NBLK; d++) {
		pair_blk_t *o = &j->blk[(j->cur + d) % PAIR_NBLK];
		rk_status_t so = RK_OK;
		double t = rk_realtime(), u;
		if (o->live || o->n) so = pair_blk_done(j, o);
		if (!st) st = so;
		j->tb[0] += (u = rk_realtime()) - t;
		if (!st && fmt && o->n) st = pair_blk_format(j, o);
		pair_blk_free(o);
		j->tb[2] += rk_realtime() - u;
	}
	return st;
}
