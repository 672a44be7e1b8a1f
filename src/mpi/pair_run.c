/* The pairwise driver (pair_run.h). */
#include <stdlib.h>
#include <string.h>
#include "mpi/pair_run.h"
#include "mpi/split_run.h"
#include "algo/near.h"

#define PAIR_BLOCK_PAIRS 65536          /* pairs computed (and their paths kept) at once */
#define PAIR_BLOCK_CELLS (1ll << 31)    /* ... or this many cells (CPU) */
#define PAIR_BLOCK_CELLS_GPU (1ll << 38) /* ... (GPU: long pairs are valued many a launch, up to as many as
                                         * its resident warps hold: 26 of 30 kb on an H100) */
#define PAIR_LONG_CELLS (1ll << 26)     /* a pair this large runs alone, with every thread */
#define PAIR_OVERHEAD 256.0             /* cells' worth of fixed cost per pair, for the split */
#define PAIR_NEAR_ROWS 65536            /* --all --max-dist: rows whose candidates are found at once, */
#define PAIR_NEAR_SLOTS (1ll << 24)     /* ... fewer when rows x reads (the most candidates) exceeds this */

/* The i-th pair of an explicit pairing (one against many, or record by record). */
static void pair_ix(int64_t na, int64_t nb, int64_t q, int64_t *a, int64_t *b)
{
	*a = na == 1 ? 0 : q;
	*b = nb == 1 ? 0 : q;
}

typedef struct {
	rio_out_t *out;
	int first;                /* no row written yet: drop the leading comma of a JSON row */
} pair_gather_t;

static rk_status_t pair_take(void *ctx, int rank, const void *data, uint64_t n)
{
	pair_gather_t *g = ctx;
	const char *s = data;
	(void)rank;
	if (!n) return RK_OK;
	if (g->first && s[0] == ',') { s++; n--; }
	g->first = 0;
	rio_buf_t b = { (char *)s, n, n, 0 };  /* borrowed: not freed here */
	return rio_buf_write(&b, g->out->fp, rio_out_name(g->out));
}

/* Compute pairs (ai[q], bi[q]) for q in [0, n) and format their rows into rows. */
static rk_status_t pair_block(const rmpi_pairs_t *s, rmpi_be_t *be, int nth, const rio_reads_t *A, const rio_reads_t *B,
                              const int64_t *ai, const int64_t *bi, int64_t n, rio_buf_t *rows, double *cells)
{
	aln_pair_t *p = malloc(sizeof *p * (size_t)(n ? n : 1));
	int64_t *val = malloc(sizeof *val * (size_t)(n ? n : 1));
	aln_path_t *paths = s->mode.want_path ? calloc((size_t)(n ? n : 1), sizeof *paths) : 0;
	rk_status_t st = RK_OK;
	if (!p || !val || (s->mode.want_path && !paths)) {
		rk_err("out of memory for a block of %lld pairs", (long long)n);
		st = RK_ERES;
		goto done;
	}
	for (int64_t q = 0; q < n; q++) {
		p[q].a = rio_seq(A, ai[q]); p[q].la = rio_len(A, ai[q]);
		p[q].b = rio_seq(B, bi[q]); p[q].lb = rio_len(B, bi[q]);
		*cells += (double)p[q].la * (double)p[q].lb;
	}
	if (be->use_gpu && s->mode.gpu) {
		st = s->mode.gpu(s->mode.algo, p, n, &be->g, val, paths, &be->stats);
		if (st && !rmpi_gpu_failed(s->c, be, st)) goto done;  /* logged; else the CPU redoes it */
		st = RK_OK;
	}
	if (!be->use_gpu || !s->mode.gpu) {
		/* the long pairs alone, with every thread; the rest as a batch */
		int64_t q0 = 0;
		for (int64_t q = 0; q <= n && !st; q++) {
			if (q < n && (double)p[q].la * (double)p[q].lb < PAIR_LONG_CELLS) continue;
			if (q > q0) st = s->mode.cpu(s->mode.algo, p + q0, q - q0, nth, val + q0, paths ? paths + q0 : 0);
			if (!st && q < n) st = s->mode.cpu(s->mode.algo, p + q, 1, nth, val + q, paths ? paths + q : 0);
			q0 = q + 1;
		}
		if (st) { rk_err("%s", rk_error()); goto done; }
	}
	for (int64_t q = 0; q < n; q++) {
		if (s->all && s->max_dist >= 0 && (val[q] < 0 || val[q] > s->max_dist)) continue;
		rio_pair_row(rows, &s->meta, rio_name(A, ai[q]), p[q].la, rio_name(B, bi[q]), p[q].lb, p[q].a, val[q], paths ? &paths[q] : 0);
	}
	if (rows->oom) { rk_err("out of memory formatting %lld rows", (long long)n); st = RK_ERES; }
done:
	if (paths) for (int64_t q = 0; q < n; q++) aln_path_free(&paths[q]);
	free(p); free(val); free(paths);
	return st;
}

/* Contiguous split of items of cost c[0..n) into parts of equal total: bounds[parts + 1]. */
static void pair_split(const double *c, int64_t n, int parts, int64_t *bounds)
{
	double tot = 0, acc = 0;
	for (int64_t i = 0; i < n; i++) tot += c[i];
	int64_t i = 0;
	bounds[0] = 0;
	for (int p = 1; p < parts; p++) {
		double goal = tot * p / parts;
		while (i < n && acc + c[i] * 0.5 < goal) acc += c[i++];
		bounds[p] = i;
	}
	bounds[parts] = n;
}

rk_status_t rmpi_pairs_run(const rmpi_t *w, const rmpi_pairs_t *s)
{
	double t0 = rk_realtime(), cells = 0;
	rio_reads_t A, B;
	rio_out_t out;
	rio_buf_t rows = { 0 };
	rmpi_be_t be;
	rk_status_t st;
	int64_t *bounds = 0, *ai = 0, *bi = 0, *js = 0, n_items = 0, n_rows = 0, n_split = 0;
	double *cost = 0;
	aln_near_t *near = 0;
	int64_t *noff = 0, nq0 = 0, nq1 = 0;  /* candidates of rows [nq0, nq1): js[noff[q - nq0] ..] */
	const char **seqs = 0;
	int64_t *lens = 0;
	rmpi_split_prof_t sprof;
	memset(&sprof, 0, sizeof sprof);
	int out_open = 0;
	memset(&A, 0, sizeof A); memset(&B, 0, sizeof B);

	const char *outs[2] = { s->c->output, s->c->stats }, *ins[2] = { s->in_a, s->in_b };
	rmpi_clock_t clk;
	rmpi_clock_start(&clk);
	if ((st = rmpi_check_outputs(w, outs, 2, ins, s->in_b ? 2 : 1)) != RK_OK) return st;
	if ((st = rmpi_backend(w, s->c, s->mode.gpu != 0, "this build has no GPU code for the mode", &be)) != RK_OK) return st;
	rk_debug("%s: backend chosen %.3f s after the start", s->meta.mode == RIO_LEV ? "lev" : "lcs", rk_realtime() - t0);
	if ((st = s->in_b ? rmpi_read_two(w, s->in_a, s->in_b, 0, &A, &B, &clk) : rmpi_read_reads(w, s->in_a, 0, &A, &clk)) != RK_OK)
		goto done;
	const rio_reads_t *Bp = &A;
	if (s->in_b) {
		Bp = &B;
		if (w->rank == 0 && A.n != B.n && A.n != 1 && B.n != 1) {
			rk_err("%s has %lld records and %s has %lld: pairs need equal counts, or one record against many", s->in_a,
			       (long long)A.n, s->in_b, (long long)B.n);
			st = RK_EINPUT;
		}
		if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
		n_items = A.n > B.n ? A.n : B.n;
	} else n_items = A.n;  /* --all: rows i, each with its pairs (i, j > i) */

	/* the split by cells */
	cost = malloc(sizeof *cost * (size_t)(n_items + 1));
	bounds = malloc(sizeof *bounds * ((size_t)w->size + 1));
	if (!cost || !bounds) { rk_err("out of memory"); st = RK_ERES; }
	else if (s->all && s->max_dist >= 0 && !rk_tune.all_nofilter) {
		/* only the pairs the pigeonhole filter lets through are computed (near.h): a row's
		 * cost is its lookups, about the same for every row */
		seqs = malloc(sizeof *seqs * (size_t)(n_items + 1));
		lens = malloc(sizeof *lens * (size_t)(n_items + 1));
		if (!seqs || !lens) { rk_err("out of memory"); st = RK_ERES; }
		else {
			for (int64_t i = 0; i < n_items; i++) {
				seqs[i] = rio_seq(&A, i); lens[i] = rio_len(&A, i);
				cost[i] = (double)lens[i] + PAIR_OVERHEAD;
			}
			if ((st = aln_near_build(&near, n_items, seqs, lens, s->max_dist)) != RK_OK) rk_err("%s", rk_error());
		}
	} else if (s->all) {
		double suffix = 0;  /* bases of the records after i */
		for (int64_t i = n_items - 1; i >= 0; i--) {
			cost[i] = (double)rio_len(&A, i) * suffix + PAIR_OVERHEAD * (double)(n_items - 1 - i);
			suffix += (double)rio_len(&A, i);
		}
	} else
		for (int64_t q = 0; q < n_items; q++) {
			int64_t a, b;
			pair_ix(A.n, Bp->n, q, &a, &b);
			cost[q] = (double)rio_len(&A, a) * (double)rio_len(Bp, b) + PAIR_OVERHEAD;
		}
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	const int nth = be.g.n_threads = rmpi_threads(w, s->c);
	ai = malloc(sizeof *ai * PAIR_BLOCK_PAIRS);
	bi = malloc(sizeof *bi * PAIR_BLOCK_PAIRS);
	if (!ai || !bi) { rk_err("out of memory"); st = RK_ERES; }

	/* rank 0 opens the output and writes the head; the rows follow segment by segment */
	pair_gather_t g = { &out, 1 };
	if (!st && w->rank == 0) {
		rio_buf_t h = { 0 };
		rio_pair_head(&h, &s->meta);
		if ((st = rio_out_open(&out, s->c->output)) == RK_OK) {
			out_open = 1;
			st = rio_buf_write(&h, out.fp, rio_out_name(&out));
		}
		rio_buf_free(&h);
		if (st) rk_err("%s", rk_error());
	}
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;

	rk_progress_t prog;
	double all_cost = 0, done_cost = 0, n_cand = 0;
	for (int64_t q = 0; q < n_items; q++) all_cost += cost[q];
	rk_progress_start(&prog, s->meta.mode == RIO_LEV ? "lev: cells" : "lcs: cells", all_cost);
	for (int64_t q0 = 0; q0 < n_items && !st;) {
		int64_t a, b;
		if (!s->all) pair_ix(A.n, Bp->n, q0, &a, &b);
		if (!s->all && w->size > 1 && cost[q0] >= rk_tune.split_cells) {
			/* one huge pair: every rank takes a slab of its rows */
			int64_t v = -1;
			aln_path_t path = { 0 };
			rmpi_split_prof_t one;
			rmpi_clock_lap(&clk, -1);
			st = rmpi_split_pair(w, s->mode.split_kind, s->mode.k, rio_seq(&A, a), rio_len(&A, a), rio_seq(Bp, b), rio_len(Bp, b),
			                     s->mode.want_path, nth, s->mode.gpu ? &be : 0, &v, &path, &one);
			rmpi_split_prof_add(&sprof, &one);
			n_split++;
			rmpi_clock_lap(&clk, RMPI_COMPUTE);
			if (!st && w->rank == 0) {
				rows.l = 0;
				rio_pair_row(&rows, &s->meta, rio_name(&A, a), rio_len(&A, a), rio_name(Bp, b), rio_len(Bp, b), rio_seq(&A, a), v,
				             s->mode.want_path ? &path : 0);
				st = pair_take(&g, 0, rows.s, rows.l);
				if (st) rk_err("%s", rk_error());
			}
			rmpi_clock_lap(&clk, RMPI_WRITE);
			aln_path_free(&path);
			cells += w->rank == 0 ? (double)rio_len(&A, a) * (double)rio_len(Bp, b) : 0;
			n_rows += w->rank == 0;
			done_cost += cost[q0++];
			rk_progress(&prog, done_cost);
			st = rmpi_agree(w, st);
			continue;
		}
		/* a run of ordinary items, split by cost across the ranks */
		int64_t q1 = q0 + 1;
		while (q1 < n_items && (s->all || w->size == 1 || cost[q1] < rk_tune.split_cells)) q1++;
		pair_split(cost + q0, q1 - q0, w->size, bounds);
		int64_t nb = 0;
		double bcells = 0, mine = 0;
		rows.l = 0;
		for (int64_t q = q0 + bounds[w->rank]; q < q0 + bounds[w->rank + 1] && !st; q++) {
			int64_t j0 = s->all ? q + 1 : 0, j1 = s->all ? n_items : 1;
			if (near) {
				if (q >= nq1) {  /* the candidates of the next rows, on every thread */
					free(noff); free(js); noff = js = 0;
					int64_t nrow = PAIR_NEAR_SLOTS / (n_items > 0 ? n_items : 1);
					nrow = nrow < 256 ? 256 : nrow > PAIR_NEAR_ROWS ? PAIR_NEAR_ROWS : nrow;
					nq0 = q; nq1 = q + nrow < q0 + bounds[w->rank + 1] ? q + nrow : q0 + bounds[w->rank + 1];
					if ((st = aln_near_rows(near, nq0, nq1, nth, &noff, &js)) != RK_OK) { rk_err("%s", rk_error()); break; }
				}
				j0 = noff[q - nq0]; j1 = noff[q - nq0 + 1]; n_cand += j1 - j0;
			}
			for (int64_t j = j0; j < j1 && !st; j++) {
				a = q, b = near ? js[j] : j;
				if (!s->all) pair_ix(A.n, Bp->n, q, &a, &b);
				ai[nb] = a; bi[nb] = b; nb++;
				bcells += (double)rio_len(&A, a) * (double)rio_len(Bp, b);
				if (nb == PAIR_BLOCK_PAIRS || bcells >= (be.use_gpu ? PAIR_BLOCK_CELLS_GPU : PAIR_BLOCK_CELLS)) {
					st = pair_block(s, &be, nth, &A, Bp, ai, bi, nb, &rows, &cells);
					n_rows += nb; nb = 0; bcells = 0;
				}
			}
			mine += cost[q];
			if (w->rank == 0) rk_progress(&prog, done_cost + mine * w->size);  /* rank 0's share as the pace */
		}
		if (!st && nb) { st = pair_block(s, &be, nth, &A, Bp, ai, bi, nb, &rows, &cells); n_rows += nb; }
		rmpi_clock_lap(&clk, RMPI_COMPUTE);
		if ((st = rmpi_agree(w, st)) != RK_OK) break;
		st = rmpi_gather_each(w, rows.s, rows.l, pair_take, &g);  /* rank 0 writes as the rows come */
		rmpi_clock_lap(&clk, RMPI_GATHER);
		for (int64_t q = q0; q < q1; q++) done_cost += cost[q];
		rk_progress(&prog, done_cost);
		q0 = q1;
	}
	rk_progress_end(&prog);
	if (st) goto done;
	if (w->rank == 0) {
		rio_buf_t t = { 0 };
		rio_pair_tail(&t, &s->meta);
		st = rio_buf_write(&t, out.fp, rio_out_name(&out));
		rio_buf_free(&t);
		if (!st) st = rio_out_commit(&out);
		else rio_out_abort(&out);
		out_open = 0;
		if (st) rk_err("%s", rk_error());
	}
	rmpi_clock_lap(&clk, RMPI_WRITE);
	double tot_cells = rmpi_sum(w, cells), tot_pairs = rmpi_sum(w, (double)n_rows), tot_cand = rmpi_sum(w, n_cand);
	if (near && w->rank == 0)
		rk_info("lev --all --max-dist %lld: %.0f of %.0f pairs passed the filter and were computed", (long long)s->max_dist,
		        tot_cand, (double)n_items * (double)(n_items - 1) / 2);
	if (w->rank == 0 && !st) {
		double dt = rk_realtime() - t0;
		char desc[320];
		rmpi_backend_desc(&be, aln_simd_name(aln_simd_level(-1)), desc, sizeof desc);
		rk_info("%s: %.0f pair%s, %.4g cells, %d rank%s, %d thread%s/rank, backend %s, %.3f s, %.3g cells/s",
		        s->meta.mode == RIO_LEV ? "lev" : "lcs", tot_pairs, tot_pairs == 1 ? "" : "s", tot_cells, w->size,
		        w->size > 1 ? "s" : "", nth, nth > 1 ? "s" : "", desc, dt, tot_cells / (dt > 0 ? dt : 1e-9));
	}
	if ((st = rmpi_agree(w, st)) == RK_OK) {
		rio_buf_t extra = { 0 };
		rio_buf_printf(&extra, "\"pairs\":%.0f,\"cells\":%.6g", tot_pairs, tot_cells);
		if (n_split) st = rmpi_split_prof_json(w, n_split, &sprof, &extra);
		if (!st) st = rmpi_clock_report(w, s->c, &clk, s->meta.mode == RIO_LEV ? "lev" : "lcs", extra.s);
		rio_buf_free(&extra);
	}
done:
	if (out_open) rio_out_abort(&out);
	rio_buf_free(&rows);
	free(bounds); free(cost); free(ai); free(bi); free(js); free(noff); free(seqs); free(lens);
	aln_near_free(near);
	rio_reads_free(&A); rio_reads_free(&B);
	return st;
}
