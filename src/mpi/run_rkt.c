/* Rkt-LCS under MPI: rank 0 reads, every rank computes the candidates of its share of
 * the reads against all reads, rank 0 gathers them and writes the result. */
#include <stdlib.h>
#include <string.h>
#include "mpi/rmpi.h"
#include "gpu/rgpu.h"

static void rmpi_json_str(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') fprintf(fp, "\\%c", c);
		else if (c < 0x20) fprintf(fp, "\\u%04x", c);
		else fputc(c, fp);
	}
	fputc('"', fp);
}

static void rmpi_cand_row(FILE *fp, rmpi_fmt_t fmt, const rio_reads_t *r, int64_t i, const rkt_cand_t *c)
{
	const char *s = rio_seq(r, i) + (c->pos >= 0 ? c->pos : 0);
	int n = (int)c->len;
	if (fmt == RMPI_FMT_TSV) {
		fprintf(fp, "%lld\t%s\t%lld\t%lld\t%lld\t%.*s\n", (long long)i + 1, rio_name(r, i), (long long)c->pos,
		        (long long)c->len, (long long)c->support, n, s);
		return;
	}
	fprintf(fp, "{\"index\":%lld,\"name\":", (long long)i + 1);
	rmpi_json_str(fp, rio_name(r, i));
	fprintf(fp, ",\"pos\":%lld,\"len\":%lld,\"support\":%lld,\"substring\":\"%.*s\"}", (long long)c->pos,
	        (long long)c->len, (long long)c->support, n, s);
}

static void rmpi_comment(FILE *fp, const rmpi_opt_t *o, int64_t n)
{
	fprintf(fp, "#rktlcs %s rkt k=%lld t=%lld tau=%lld reads=%lld input=%s\n", RKTLCS_VERSION, (long long)o->rkt.k,
	        (long long)o->rkt.t, (long long)o->rkt.tau, (long long)n, o->input);
}

static const char *rmpi_cols = "index\tname\tpos\tlen\tsupport\tsubstring\n";

static rk_status_t rmpi_write_result(const rmpi_opt_t *o, const rio_reads_t *r, const rkt_cand_t *c, int64_t win,
                                     const rkt_occ_t *occ, int64_t n_occ)
{
	rio_out_t out;
	rk_status_t st = rio_out_open(&out, o->output);
	if (st) return st;
	FILE *fp = out.fp;
	if (o->format == RMPI_FMT_TSV) {
		rmpi_comment(fp, o, r->n);
		fputs(rmpi_cols, fp);
		if (win >= 0) rmpi_cand_row(fp, o->format, r, win, &c[win]);
		if (win >= 0 && o->occurrences) {
			fputs("#occurrences of the winner: supporting read, smallest start, mismatches\n", fp);
			fputs("index\tname\tpos\tmismatches\n", fp);
			for (int64_t q = 0; q < n_occ; q++)
				fprintf(fp, "%lld\t%s\t%lld\t%lld\n", (long long)occ[q].j + 1, rio_name(r, occ[q].j),
				        (long long)occ[q].y, (long long)occ[q].mm);
		}
	} else {
		fprintf(fp, "{\"program\":\"rktlcs\",\"version\":\"%s\",\"mode\":\"rkt\",\"input\":", RKTLCS_VERSION);
		rmpi_json_str(fp, o->input);
		fprintf(fp, ",\"k\":%lld,\"t\":%lld,\"tau\":%lld,\"reads\":%lld,\"winner\":", (long long)o->rkt.k,
		        (long long)o->rkt.t, (long long)o->rkt.tau, (long long)r->n);
		if (win >= 0) rmpi_cand_row(fp, o->format, r, win, &c[win]);
		else fputs("null", fp);
		if (o->occurrences) {
			fputs(",\"occurrences\":[", fp);
			for (int64_t q = 0; q < n_occ; q++) {
				fprintf(fp, "%s{\"index\":%lld,\"name\":", q ? "," : "", (long long)occ[q].j + 1);
				rmpi_json_str(fp, rio_name(r, occ[q].j));
				fprintf(fp, ",\"pos\":%lld,\"mismatches\":%lld}", (long long)occ[q].y, (long long)occ[q].mm);
			}
			fputs("]", fp);
		}
		fputs("}\n", fp);
	}
	return rio_out_commit(&out);
}

static rk_status_t rmpi_write_candidates(const rmpi_opt_t *o, const rio_reads_t *r, const rkt_cand_t *c)
{
	rio_out_t out;
	rk_status_t st = rio_out_open(&out, o->candidates);
	if (st) return st;
	FILE *fp = out.fp;
	if (o->format == RMPI_FMT_TSV) {
		rmpi_comment(fp, o, r->n);
		fputs(rmpi_cols, fp);
		for (int64_t i = 0; i < r->n; i++) rmpi_cand_row(fp, o->format, r, i, &c[i]);
	} else {
		fputs("{\"candidates\":[", fp);
		for (int64_t i = 0; i < r->n; i++) {
			if (i) fputc(',', fp);
			rmpi_cand_row(fp, o->format, r, i, &c[i]);
		}
		fputs("]}\n", fp);
	}
	return rio_out_commit(&out);
}

/* Gather every rank's candidates to rank 0, in read order. */
static rk_status_t rmpi_gather(const rmpi_t *w, const int64_t *bounds, const rkt_cand_t *mine, rkt_cand_t *all)
{
	if (!w->mpi) {
		memcpy(all, mine, sizeof(rkt_cand_t) * (size_t)bounds[1]);
		return RK_OK;
	}
	int *cnt = malloc(sizeof(int) * (size_t)w->size * 2), *dsp = cnt ? cnt + w->size : 0;
	if (!cnt) return RK_ERES;
	for (int p = 0; p < w->size; p++) {
		cnt[p] = (int)((bounds[p + 1] - bounds[p]) * (int64_t)sizeof(rkt_cand_t));
		dsp[p] = (int)(bounds[p] * (int64_t)sizeof(rkt_cand_t));
	}
	int rc = MPI_Gatherv(mine, cnt[w->rank], MPI_BYTE, all, cnt, dsp, MPI_BYTE, 0, w->comm);
	free(cnt);
	if (rc != MPI_SUCCESS) { rk_log("error: MPI gather failed"); MPI_Abort(w->comm, 2); }
	return RK_OK;
}

#define RMPI_FAIL(s) do { st = (s); if (st) rk_log("error: %s", rk_error()); } while (0)

rk_status_t rmpi_run_rkt(const rmpi_t *w, const rmpi_opt_t *o)
{
	double t0 = rk_realtime();
	rio_reads_t reads;
	rkt_set_t set;
	rkt_cand_t *mine = 0, *all = 0;
	rkt_occ_t *occ = 0;
	int64_t n_occ = 0, *bounds = 0;
	rk_status_t st = RK_OK;
	rgpu_stats_t gst;
	char gname[256] = "";
	memset(&gst, 0, sizeof gst);
	memset(&reads, 0, sizeof reads);
	memset(&set, 0, sizeof set);

	int ndev = rgpu_device_count(), use_gpu = 0;
	if (o->backend == RMPI_BACKEND_GPU && ndev == 0) {
#ifdef RKTLCS_HAVE_CUDA
		rk_log("error: --backend gpu: no usable CUDA device on rank %d", w->rank);
#else
		rk_log("error: --backend gpu: this rktlcs was built without CUDA");
#endif
		st = RK_ERES;
	}
	if ((st = rmpi_agree(w, st)) != RK_OK) return st;
	if (w->rank == 0) {
		RMPI_FAIL(rio_read_all(o->input, &reads));
		if (!st && reads.n < 2) {
			rk_log("error: %s: %lld record(s); Rkt-LCS needs at least 2 reads", o->input, (long long)reads.n);
			st = RK_EINPUT;
		}
	}
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	if ((st = rmpi_bcast_reads(w, &reads)) != RK_OK) goto done;
	RMPI_FAIL(rkt_set_init(&set, &reads));
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;

	/* auto: the GPU when this rank has one and the reads fit its kernels */
	if (o->backend == RMPI_BACKEND_GPU) use_gpu = 1;
	else if (o->backend == RMPI_BACKEND_AUTO && ndev > 0) {
		use_gpu = set.max_len <= rgpu_rkt_max_len(o->rkt.tau);
		if (!use_gpu && w->rank == 0 && !o->quiet)
			rk_log("rkt: reads of %d bp are too long for the GPU kernels at tau=%lld; using the CPU",
			       set.max_len, (long long)o->rkt.tau);
	}
	/* the cost model must be the same on every rank, or the ranks' bounds (and the gather's
	 * counts) disagree: a rank without a GPU next to one with a GPU is allowed */
	int gpu_cost = rmpi_any(w, use_gpu);
	bounds = malloc(sizeof(int64_t) * ((size_t)w->size + 1));
	if (!bounds) { rk_log("error: out of memory"); st = RK_ERES; }
	else rmpi_partition(set.len, set.n, w->size, gpu_cost ? (int32_t)(o->rkt.tau < set.max_len ? o->rkt.tau - 1 : set.max_len) : 0, bounds);
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	int64_t lo = bounds[w->rank], hi = bounds[w->rank + 1];
	rkt_opt_t ro = o->rkt;
	ro.n_threads = rmpi_threads(w, o);
	ro.progress = w->rank == 0 && !o->quiet;
	mine = malloc(sizeof(rkt_cand_t) * (size_t)(hi - lo + 1));
	if (!mine) { rk_log("error: out of memory"); st = RK_ERES; }
	else if (use_gpu) {
		rgpu_opt_t go;
		rgpu_opt_init(&go);
		go.device = w->local_rank % ndev;
		go.mem_limit = o->device_memory;
		go.progress = ro.progress;
		go.n_threads = ro.n_threads;
		RMPI_FAIL(rgpu_rkt_candidates(&ro, &set, lo, hi, &go, mine, &gst));
		if (!st && !o->quiet && rgpu_device_name(go.device, gname, sizeof gname) != RK_OK) snprintf(gname, sizeof gname, "?");
	} else RMPI_FAIL(rkt_candidates(&ro, &set, lo, hi, mine));
	if (w->rank == 0) {
		all = malloc(sizeof(rkt_cand_t) * (size_t)set.n);
		if (!all && !st) { rk_log("error: out of memory"); st = RK_ERES; }
	}
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	rmpi_gather(w, bounds, mine, all);

	if (w->rank == 0) {
		int64_t win = rkt_winner(all, set.n);
		if (win >= 0 && o->occurrences)
			RMPI_FAIL(rkt_occurrences(&ro, &set, win, all[win].pos, all[win].len, &occ, &n_occ));
		if (!st && o->candidates) RMPI_FAIL(rmpi_write_candidates(o, &reads, all));
		if (!st) RMPI_FAIL(rmpi_write_result(o, &reads, all, win, occ, n_occ));
		if (!st && win < 0 && !o->quiet)
			rk_log("no read has a substring of length >= %lld shared (<= %lld mismatches) with >= %lld other reads",
			       (long long)o->rkt.tau, (long long)o->rkt.k, (long long)o->rkt.t);
		if (!st && !o->quiet) {
			double dt = rk_realtime() - t0, pairs = (double)set.n * (set.n - 1) / 2;
			char be[320];
			if (use_gpu)
				snprintf(be, sizeof be, "gpu (%s; kernels %.3f s, %lld launch%s, %lld i-chunk%s, %lld j-chunk%s on rank 0)", gname,
				         gst.kernel_s, (long long)gst.n_launch, gst.n_launch == 1 ? "" : "es", (long long)gst.n_ichunk,
				         gst.n_ichunk == 1 ? "" : "s", (long long)gst.n_jchunk, gst.n_jchunk == 1 ? "" : "s");
			else snprintf(be, sizeof be, "cpu (%s)", rkt_simd_name(ro.force_scalar));
			rk_log("rkt: %lld reads, %lld bases, %d rank%s, %d thread%s/rank, backend %s, %.3f s, %.3g read pairs/s, peak RSS %.1f MB",
			       (long long)set.n, (long long)set.n_bases, w->size, w->size > 1 ? "s" : "", ro.n_threads,
			       ro.n_threads > 1 ? "s" : "", be, dt, pairs / (dt > 0 ? dt : 1e-9), rk_peak_rss_kb() / 1024.0);
		}
	}
	st = rmpi_agree(w, st);
done:
	free(bounds); free(mine); free(all); free(occ);
	rkt_set_free(&set);
	rio_reads_free(&reads);
	return st;
}
