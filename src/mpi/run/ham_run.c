/* hamming under MPI (ham_run.h). */
#include <stdlib.h>
#include <string.h>
#include "mpi/run/ham_run.h"
#include "gpu/ham_gpu.h"

void ham_run_opt_init(ham_run_opt_t *o)
{
	memset(o, 0, sizeof *o);
	rk_common_init(&o->c);
	ham_opt_init(&o->algo);
	o->lay.max_dist = -1;
}

rk_status_t ham_run_opt_check(const ham_run_opt_t *o)
{
	if (!o->input) { rk_set_error("no input file given (see rktlcs hamming --help)"); return RK_EINPUT; }
	if (o->c.format == RK_FMT_PAF) { rk_set_error("--format paf is for alignments (lev and lcs with --path); hamming writes tsv or json"); return RK_EINPUT; }
	if (o->lay.max_dist >= 0 && (o->lay.molten || o->lay.lower)) {
		rk_set_error("--max-dist writes pairs; it does not combine with -m or -L");
		return RK_EINPUT;
	}
	/* snp-dists ignores -t without -m; a header asked for and not written would be a surprise */
	if (o->lay.header && !o->lay.molten && o->lay.max_dist < 0) {
		rk_set_error("-t adds a header line to the long formats: give it with -m or --max-dist");
		return RK_EINPUT;
	}
	return RK_OK;
}

/* Equal lengths and non-empty names, or an error naming the first offending record. */
static rk_status_t ham_check(const char *input, const rio_reads_t *r)
{
	for (int64_t i = 0; i < r->n; i++) {
		if (!rio_name(r, i)[0]) {
			rk_set_error("%s: record %lld: empty name", input, (long long)i + 1);
			return RK_EINPUT;
		}
		if (rio_len(r, i) != rio_len(r, 0)) {
			rk_set_error("%s: record %lld (%s): length %lld, but record 1 (%s) has %lld; hamming needs equal lengths",
			             input, (long long)i + 1, rio_name(r, i), (long long)rio_len(r, i), rio_name(r, 0),
			             (long long)rio_len(r, 0));
			return RK_EINPUT;
		}
	}
	return RK_OK;
}

/* What rank 0 does with each rank's part of the output. */
typedef struct {
	const ham_run_opt_t *o;
	const rio_reads_t *r;
	const int64_t *bounds;
	rio_out_t *out;
	rio_ham_meta_t meta;
	uint32_t *M;              /* matrix layouts: n x n on rank 0 */
	int64_t written, size;    /* sparse: pairs written so far; ranks */
	int started;              /* sparse: the output's head is written */
	int nth;                  /* threads that format rank 0's rows */
} ham_gather_t;

/* One piece of a rank's pairs (the JSON head with the first; the tail after the last piece of
 * every rank, in ham_send_pairs). */
static rk_status_t ham_take_pairs(void *ctx, int rank, const void *data, uint64_t n)
{
	ham_gather_t *g = ctx;
	int64_t np = (int64_t)(n / sizeof(ham_pair_t));
	(void)rank;
	if (!np && g->started) return RK_OK;
	rk_status_t st = rio_ham_write_pairs(g->out, &g->meta, g->r, data, np, g->written, !g->started, 0, g->nth);
	g->started = 1;
	g->written += np;
	return st;
}

/* Each rank's sorted pairs to rank 0 in rank order, in pieces of rk_tune.ham_piece bytes (4 MB):
 * rank 0 holds one piece of another rank's at a time, never its whole share. */
static rk_status_t ham_send_pairs(const rmpi_t *w, ham_gather_t *g, const ham_pair_t *p, int64_t n, rk_status_t st)
{
	rmpi_pieces_t pc = { ham_take_pairs, g, RK_OK };
	const int64_t k = (rk_tune.ham_piece > 0 ? rk_tune.ham_piece : 4ll << 20) / (int64_t)sizeof *p + 1;
	int64_t q = 0;
	for (; !st && n - q > k; q += k) rmpi_pieces_put(w, &pc, p + q, sizeof *p * (uint64_t)k);
	if (st) q = n;
	st = rmpi_pieces_end(w, &pc, p + q, sizeof *p * (uint64_t)(n - q), st);
	if (w->rank == 0 && !st && (st = rio_ham_write_pairs(g->out, &g->meta, g->r, 0, 0, g->written, !g->started, 1, g->nth)) != RK_OK)
		rk_err("%s", rk_error());
	return rmpi_agree(w, st);
}

static rk_status_t ham_take_band(void *ctx, int rank, const void *data, uint64_t n)
{
	ham_gather_t *g = ctx;
	int64_t a = g->bounds[rank], b = g->bounds[rank + 1], nn = g->r->n;
	if (rank == 0 || b <= a) return RK_OK;  /* rank 0 computed into M directly */
	if (n != sizeof(uint32_t) * (uint64_t)(b - a) * (uint64_t)(nn - a)) { rk_set_error("rank %d sent a band of the wrong size", rank); return RK_ERES; }
	const uint32_t *v = data;
	for (int64_t i = a; i < b; i++) memcpy(g->M + i * nn + a, v + (i - a) * (nn - a), sizeof(uint32_t) * (size_t)(nn - a));
	return RK_OK;
}

rk_status_t rmpi_ham_run(const rmpi_t *w, const ham_run_opt_t *o)
{
	double t0 = rk_realtime();
	rio_reads_t reads;
	ham_set_t hs;
	ham_opt_t ho = o->algo;
	rio_out_t out;
	rk_status_t st;
	uint32_t *M = 0, *band = 0;
	ham_pair_t *pairs = 0;
	int64_t n_pairs = 0, *bounds = 0;
	double *wt = 0;
	int out_open = 0;
	rmpi_be_t be;
	rmpi_shm_t shm;
	int have_shm = 0;
	memset(&hs, 0, sizeof hs);
	memset(&out, 0, sizeof out);

	const char *outs[2] = { o->c.output, o->c.stats };
	rmpi_clock_t clk;
	rmpi_clock_start(&clk);
	memset(&reads, 0, sizeof reads);
	if ((st = rmpi_check_outputs(w, outs, 2, &o->input, 1)) != RK_OK) return st;
	if ((st = rmpi_backend(w, &o->c, 1, 0, &be)) != RK_OK) return st;
	ho.n_threads = be.g.n_threads = rmpi_threads(w, &o->c);
	if (w->size > 1) {
		/* read once, in parallel, compacted, one copy per node */
		if ((st = rmpi_ham_load(w, o, &ho, &hs, &reads, &shm, &have_shm, &clk)) != RK_OK) goto done;
	} else {
		if ((st = rmpi_read_reads(w, o->input, o->keep_case, &reads, &clk)) != RK_OK) goto done;
		if ((st = ham_check(o->input, &reads)) != RK_OK) rk_err("%s", rk_error());
		if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
		if ((st = ham_set_init(&hs, &reads, &ho)) != RK_OK) rk_err("%s", rk_error());
		if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	}
	/* this rank's share of the pairs, each over the informative columns' words and planes */
	/* (a job too small for a context on every rank of the node, rmpi_guess_ham_ranks: all of it) */
	const int shares = o->c.gpu_ranks == 1 ? 1 : w->size;
	const double npairs = (double)hs.n * (double)(hs.n - 1) / 2 / shares;
	rmpi_cost_t cj = { RMPI_W_HAM, npairs * (double)hs.stride, npairs, 8.0 * (double)hs.n * (double)hs.stride, 0, ho.n_threads, 0, 0, 0, 0, 0 };
	rmpi_backend_cost(w, &o->c, &cj, &be);
	const int solo = rmpi_backend_solo(w, &o->c, &be);
	if (solo && w->rank == 0) rk_debug("hamming: %.3g pairs, too few to pay for a GPU context on each of the node's ranks: rank 0's GPU takes them all", npairs);
	bounds = malloc(sizeof(int64_t) * ((size_t)w->size + 1));
	wt = malloc(sizeof(double) * (size_t)w->size);
	if (!bounds || !wt) { rk_err("out of memory"); st = RK_ERES; }
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	if (!solo && (st = rmpi_share_weights(w, &o->c, &cj, 1, &be, wt)) != RK_OK) rk_err("%s", rk_error());
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	if (solo) for (int r = 0; r <= w->size; r++) bounds[r] = r ? hs.n : 0;
	else rmpi_partition_tri(hs.n, w->size, wt, bounds);
	ho.n_threads = be.g.n_threads = rmpi_be_threads(w, &o->c, &be);
	int64_t n = hs.n, lo = bounds[w->rank], hi = bounds[w->rank + 1];
	ham_gather_t g = { o, &reads, bounds, &out, { o->input, o->algo.all, o->keep_case, o->algo.cap, o->lay, o->c.format }, 0, 0, w->size, 0, ho.n_threads };

	/* progress of rank 0's band (the ranks' bands are alike): tiles of pairs, read by the ticker */
	rk_progress_t prog;
	if (w->rank == 0) {
		rk_progress_start(&prog, "hamming: pairs", (double)(hi - lo) * ((double)n - 0.5 * (double)(lo + hi)) + 1);
		if (!be.use_gpu) rk_progress_tick_start(&prog);
	}
	if (o->lay.max_dist >= 0) {
		/* sparse: each band's pairs are sorted, bands are in row order */
		uint32_t maxd = (uint32_t)o->lay.max_dist;
#ifdef RKTLCS_HAVE_CUDA
		if (be.use_gpu && (st = rgpu_ham_pairs(&hs, &ho, lo, hi, maxd, &be.g, &pairs, &n_pairs, &be.stats)) != RK_OK &&
		    rmpi_gpu_failed(&o->c, &be, st))
			st = RK_OK;
#endif
		if (!be.use_gpu && (st = ham_pairs(&hs, &ho, lo, hi, maxd, &pairs, &n_pairs)) != RK_OK) rk_err("%s", rk_error());
		if (w->rank == 0) rk_progress_end(&prog);
		rmpi_clock_lap(&clk, RMPI_COMPUTE);
		/* rank 0 writes each rank's pairs as they arrive: the output opens now */
		if (!st && w->rank == 0) {
			if ((st = rio_out_open(&out, o->c.output)) != RK_OK) rk_err("%s", rk_error());
			out_open = !st;
		}
		if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
		/* rank 0 writes each rank's pairs as they come: gathering and writing are one stage */
		if ((st = ham_send_pairs(w, &g, pairs, n_pairs, st)) != RK_OK) goto done;
		rmpi_clock_lap(&clk, RMPI_GATHER);
	} else {
		/* matrix: rank 0 holds N x N; each rank computes its band of the upper triangle */
		if (w->rank == 0) {
			M = malloc(sizeof(uint32_t) * (size_t)n * (size_t)n + 1);
			if (!M) {
				rk_err("out of memory: the %lld x %lld matrix needs %.1f GB; use --max-dist for the sparse output",
				       (long long)n, (long long)n, 4.0 * n * n / 1e9);
				st = RK_ERES;
			}
		} else if (hi > lo) {
			band = malloc(sizeof(uint32_t) * (size_t)(hi - lo) * (size_t)(n - lo));
			if (!band) { rk_err("out of memory for rows %lld-%lld", (long long)lo + 1, (long long)hi); st = RK_ERES; }
		}
		if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
		uint32_t *dst = w->rank == 0 ? M + lo * n + lo : band;
		int64_t ld = w->rank == 0 ? n : n - lo;
#ifdef RKTLCS_HAVE_CUDA
		if (be.use_gpu && hi > lo && (st = rgpu_ham_block(&hs, &ho, lo, hi, &be.g, dst, ld, &be.stats)) != RK_OK &&
		    rmpi_gpu_failed(&o->c, &be, st))
			st = RK_OK;
#endif
		if (!be.use_gpu && hi > lo) ham_block(&hs, &ho, lo, hi, lo, n, 1, dst, ld);
		if (w->rank == 0) rk_progress_end(&prog);
		rmpi_clock_lap(&clk, RMPI_COMPUTE);
		if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
		g.M = M;
		if ((st = rmpi_gather_each(w, band, band ? sizeof(uint32_t) * (uint64_t)(hi - lo) * (uint64_t)(n - lo) : 0, ham_take_band, &g)) != RK_OK)
			goto done;
		rmpi_clock_lap(&clk, RMPI_GATHER);
		if (w->rank == 0) {
#pragma omp parallel for num_threads(ho.n_threads) schedule(dynamic, 64)
			for (int64_t i = 0; i < n; i++)
				for (int64_t j = 0; j < i; j++) M[i * n + j] = M[j * n + i];
			if ((st = rio_out_open(&out, o->c.output)) != RK_OK) rk_err("%s", rk_error());
			else {
				out_open = 1;
				if ((st = rio_ham_write_matrix(&out, &g.meta, &reads, M, ho.n_threads)) != RK_OK) rk_err("%s", rk_error());
			}
		}
	}
	if (w->rank == 0 && out_open) {
		if (st) rio_out_abort(&out);
		else if ((st = rio_out_commit(&out)) != RK_OK) rk_err("%s", rk_error());
		out_open = 0;
	}
	rmpi_clock_lap(&clk, RMPI_WRITE);
	if (w->rank == 0 && !st) {
		double dt = rk_realtime() - t0, np = (double)n * (n - 1) / 2;
		char extra[64] = "", desc[320];
		if (o->lay.max_dist >= 0) snprintf(extra, sizeof extra, ", %lld pairs within %lld", (long long)g.written, (long long)o->lay.max_dist);
		rmpi_backend_desc(&be, "bit-sliced", desc, sizeof desc);
		rk_info("hamming: %lld sequences x %lld columns (%lld informative), %d rank%s, %d thread%s/rank, backend %s, %.3f s, %.3g pairs/s%s",
		        (long long)n, (long long)hs.len, (long long)hs.n_cols, w->size, w->size > 1 ? "s" : "", ho.n_threads,
		        ho.n_threads > 1 ? "s" : "", desc, dt, np / (dt > 0 ? dt : 1e-9), extra);
	}
	if ((st = rmpi_agree(w, st)) == RK_OK) st = rmpi_clock_report(w, &o->c, &clk, "hamming", 0);
done:
	rk_progress_tick_stop();   /* an error between the band's start and end leaves it running */
	if (out_open) rio_out_abort(&out);
	free(M); free(band); free(pairs); free(bounds); free(wt);
	if (have_shm) { hs.bits = 0; rmpi_shm_free(&shm); }
	ham_set_free(&hs);
	rio_reads_free(&reads);
	return st;
}
