/* hamming under MPI: rank 0 reads and broadcasts; each rank takes a band of rows of the
 * upper triangle (balanced by cost) and computes it; rank 0 assembles and writes. */
#include <stdlib.h>
#include <string.h>
#include "mpi/rmpi.h"
#include "gpu/rgpu.h"

/* Equal lengths and non-empty names, or an error naming the first offending record. */
static rk_status_t ham_check(const rmpi_opt_t *o, const rio_reads_t *r)
{
	for (int64_t i = 0; i < r->n; i++) {
		if (!rio_name(r, i)[0]) {
			rk_set_error("%s: record %lld: empty name", o->input, (long long)i + 1);
			return RK_EINPUT;
		}
		if (rio_len(r, i) != rio_len(r, 0)) {
			rk_set_error("%s: record %lld (%s): length %lld, but record 1 (%s) has %lld; hamming needs equal lengths",
			             o->input, (long long)i + 1, rio_name(r, i), (long long)rio_len(r, i), rio_name(r, 0),
			             (long long)rio_len(r, 0));
			return RK_EINPUT;
		}
	}
	return RK_OK;
}

#define RMPI_FAIL(s) do { st = (s); if (st) rk_log("error: %s", rk_error()); } while (0)
#define RMPI_COMM_FAIL() do { rk_log("error: MPI communication failed"); MPI_Abort(w->comm, 2); } while (0)

rk_status_t rmpi_run_ham(const rmpi_t *w, const rmpi_opt_t *o)
{
	double t0 = rk_realtime();
	rio_reads_t reads;
	rkt_ham_set_t hs;
	rkt_ham_opt_t ho;
	rio_out_t out;
	rk_status_t st = RK_OK;
	uint32_t *M = 0, *band = 0;
	rkt_ham_pair_t *pairs = 0;
	int64_t n_pairs = 0, *bounds = 0, total_pairs = 0;
	int out_open = 0;
	memset(&reads, 0, sizeof reads);
	memset(&hs, 0, sizeof hs);
	memset(&out, 0, sizeof out);

	int ndev = rgpu_device_count(), use_gpu = o->backend != RMPI_BACKEND_CPU && ndev > 0;
	rgpu_opt_t go;
	rgpu_stats_t gst;
	rgpu_opt_init(&go);
	memset(&gst, 0, sizeof gst);
	if (o->backend == RMPI_BACKEND_GPU && ndev == 0) {
		rk_log("error: --backend gpu: %s on rank %d",
#ifdef RKTLCS_HAVE_CUDA
		       "no usable CUDA device",
#else
		       "this rktlcs was built without CUDA",
#endif
		       w->rank);
		st = RK_ERES;
	}
	if ((st = rmpi_agree(w, st)) != RK_OK) return st;
	go.device = use_gpu ? w->local_rank % ndev : 0;
	go.mem_limit = o->device_memory;
	if (w->rank == 0) {
		RMPI_FAIL(rio_read_all_case(o->input, &reads, o->ham_keep_case));
		if (!st) RMPI_FAIL(ham_check(o, &reads));
	}
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	if ((st = rmpi_bcast_reads(w, &reads)) != RK_OK) goto done;
	rkt_ham_opt_init(&ho);
	ho.all = o->ham_all;
	ho.cap = (uint32_t)o->ham_cap;
	ho.n_threads = rmpi_threads(w, o);
	RMPI_FAIL(rkt_ham_set_init(&hs, &reads, &ho));
	bounds = malloc(sizeof(int64_t) * ((size_t)w->size + 1));
	if (!bounds && !st) { rk_log("error: out of memory"); st = RK_ERES; }
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	rmpi_partition_tri(reads.n, w->size, bounds);
	int64_t n = reads.n, lo = bounds[w->rank], hi = bounds[w->rank + 1];

	if (w->rank == 0) {
		RMPI_FAIL(rio_out_open(&out, o->output));
		out_open = !st;
	}
	if (o->ham_max_dist >= 0) {
		/* sparse: each band's pairs are sorted, bands are in row order */
		if (use_gpu) {
			st = rgpu_ham_pairs(&hs, &ho, lo, hi, (uint32_t)o->ham_max_dist, &go, &pairs, &n_pairs, &gst);
			if (st && o->backend == RMPI_BACKEND_AUTO) {  /* auto: the CPU does it instead */
				rk_log("warning: GPU: %s; using the CPU", rk_error());
				use_gpu = 0;
			} else if (st) rk_log("error: %s", rk_error());
		}
		if (!use_gpu) RMPI_FAIL(rkt_ham_pairs(&hs, &ho, lo, hi, (uint32_t)o->ham_max_dist, &pairs, &n_pairs));
		if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
		if (w->rank == 0) {
			RMPI_FAIL(rmpi_ham_write_pairs(out.fp, o, &reads, pairs, n_pairs, 0, 1, w->size == 1));
			total_pairs = n_pairs;
			for (int p = 1; p < w->size; p++) {
				int64_t np = 0;
				if (MPI_Recv(&np, 1, MPI_INT64_T, p, 6, w->comm, MPI_STATUS_IGNORE) != MPI_SUCCESS) RMPI_COMM_FAIL();
				rkt_ham_pair_t *v = malloc(sizeof *v * (size_t)(np ? np : 1));
				if (!v) { rk_log("error: out of memory"); MPI_Abort(w->comm, 2); }
				if (rmpi_recv_bytes(v, sizeof *v * (uint64_t)np, p, w->comm)) RMPI_COMM_FAIL();
				if (!st) RMPI_FAIL(rmpi_ham_write_pairs(out.fp, o, &reads, v, np, total_pairs, 0, p == w->size - 1));
				total_pairs += np;
				free(v);
			}
		} else {
			if (MPI_Send(&n_pairs, 1, MPI_INT64_T, 0, 6, w->comm) != MPI_SUCCESS ||
			    rmpi_send_bytes(pairs, sizeof *pairs * (uint64_t)n_pairs, 0, w->comm)) RMPI_COMM_FAIL();
		}
	} else {
		/* matrix: rank 0 holds N x N; each rank computes its band of the upper triangle */
		if (w->rank == 0) {
			M = malloc(sizeof(uint32_t) * (size_t)n * (size_t)n + 1);
			if (!M && !st) {
				rk_log("error: out of memory: the %lld x %lld matrix needs %.1f GB; use --max-dist for the sparse output",
				       (long long)n, (long long)n, 4.0 * n * n / 1e9);
				st = RK_ERES;
			}
		} else if (hi > lo) {
			band = malloc(sizeof(uint32_t) * (size_t)(hi - lo) * (size_t)(n - lo));
			if (!band) { rk_log("error: out of memory for rows %lld-%lld", (long long)lo + 1, (long long)hi); st = RK_ERES; }
		}
		if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
		uint32_t *dst = w->rank == 0 ? M + lo * n + lo : band;
		int64_t ld = w->rank == 0 ? n : n - lo;
		if (use_gpu && hi > lo) {
			st = rgpu_ham_block(&hs, &ho, lo, hi, &go, dst, ld, &gst);
			if (st && o->backend == RMPI_BACKEND_AUTO) {
				rk_log("warning: GPU: %s; using the CPU", rk_error());
				use_gpu = 0;
				st = RK_OK;
			} else if (st) rk_log("error: %s", rk_error());
		}
		if (!use_gpu && hi > lo) rkt_ham_block(&hs, &ho, lo, hi, lo, n, 1, dst, ld);
		if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
		if (w->rank == 0) {
			for (int p = 1; p < w->size; p++) {
				int64_t a = bounds[p], b = bounds[p + 1];
				if (b <= a) continue;
				uint32_t *v = malloc(sizeof(uint32_t) * (size_t)(b - a) * (size_t)(n - a));
				if (!v) { rk_log("error: out of memory"); MPI_Abort(w->comm, 2); }
				if (rmpi_recv_bytes(v, sizeof(uint32_t) * (uint64_t)(b - a) * (uint64_t)(n - a), p, w->comm)) RMPI_COMM_FAIL();
				for (int64_t i = a; i < b; i++) memcpy(M + i * n + a, v + (i - a) * (n - a), sizeof(uint32_t) * (size_t)(n - a));
				free(v);
			}
#pragma omp parallel for num_threads(ho.n_threads) schedule(dynamic, 64)
			for (int64_t i = 0; i < n; i++)
				for (int64_t j = 0; j < i; j++) M[i * n + j] = M[j * n + i];
			if (!st) RMPI_FAIL(rmpi_ham_write_matrix(out.fp, o, &reads, M, ho.n_threads));
		} else if (hi > lo && rmpi_send_bytes(band, sizeof(uint32_t) * (uint64_t)(hi - lo) * (uint64_t)(n - lo), 0, w->comm))
			RMPI_COMM_FAIL();
	}
	if (w->rank == 0 && out_open) {
		if (!st) RMPI_FAIL(rio_out_commit(&out));
		else rio_out_abort(&out);
		out_open = 0;
	}
	if (w->rank == 0 && !st && !o->quiet) {
		double dt = rk_realtime() - t0, np = (double)n * (n - 1) / 2;
		char extra[64] = "";
		if (o->ham_max_dist >= 0) snprintf(extra, sizeof extra, ", %lld pairs within %lld", (long long)total_pairs, (long long)o->ham_max_dist);
		char be[96];
		if (use_gpu) snprintf(be, sizeof be, "gpu (kernels %.3f s on rank 0)", gst.kernel_s);
		else snprintf(be, sizeof be, "cpu");
		rk_log("hamming: %lld sequences x %lld columns (%lld informative), %d rank%s, %d thread%s/rank, backend %s, %.3f s, %.3g pairs/s%s",
		       (long long)n, (long long)hs.len, (long long)hs.n_cols, w->size, w->size > 1 ? "s" : "", ho.n_threads,
		       ho.n_threads > 1 ? "s" : "", be, dt, np / (dt > 0 ? dt : 1e-9), extra);
	}
	st = rmpi_agree(w, st);
done:
	if (out_open) rio_out_abort(&out);
	free(M); free(band); free(pairs); free(bounds);
	rkt_ham_set_free(&hs);
	rio_reads_free(&reads);
	return st;
}
