/* Rkt-LCS on the GPU: device memory plan, chunked launches, candidates back to the host.
 *
 * Memory: the j-set rows stay resident when they take at most half of the budget, else
 * they are streamed in j-chunks. The owned reads are processed in i-chunks sized so that
 * their codes, tasks and support counters fit what is left. */
#include <stdlib.h>
#include <string.h>
#include "gpu/rgpu_rt.h"
#include "gpu/rkt_gpu.h"
#include "gpu/rkt_kern.h"
#include "gpu/rkt_pack.h"
#include "gpu/rkt_once.h"

#define RG_LAUNCH_TASKS (1 << 20)    /* tasks per launch: progress lines, short kernels */


/* Warps per block and tasks per warp for this shared-memory need; 0 if none fits. */
static int rg_plan_block(int32_t lr, int32_t lpad, int *warps, int *tpw)
{
	for (int w = 8; w >= 1; w /= 2)
		for (int t = 4; t >= 1; t /= 2)
			if (rg_smem_bytes(w, lr, lpad, t) <= (size_t)(w > 1 ? RG_SMEM_SHARED : RG_SMEM_MAX)) {
				*warps = w; *tpw = t;
				return 1;
			}
	return 0;
}

extern "C" int32_t rgpu_rkt_max_len(int64_t tau)
{
	int w, t;
	int32_t lo = 1, hi = 1 << 16;
	if (tau < 1) tau = 1;
	while (lo < hi) {  /* the largest length whose block still fits */
		int32_t mid = lo + (hi - lo + 1) / 2;
		int32_t lr = mid - (int32_t)tau + 1;
		if (lr < 1 || rg_plan_block(lr, rg_lpad(mid), &w, &t)) lo = mid;
		else hi = mid - 1;
	}
	return lo;
}

/* Device buffers of one call. */
typedef struct {
	uint32_t *ne, *S;
	int64_t *jrow, *rtask;
	int32_t *jlen;
	uint8_t *jmixed, *codes;
	rg_task_t *tasks;
	rkt_cand_t *cand;
	rgpu_rt_t rt;
} rg_dev_t;

static void rg_dev_free(rg_dev_t *d)
{
	/* unchecked: runs on error paths too, where the first error is the one to report */
	cudaFree(d->ne); cudaFree(d->S); cudaFree(d->jrow); cudaFree(d->rtask); cudaFree(d->jlen);
	cudaFree(d->jmixed); cudaFree(d->codes); cudaFree(d->tasks); cudaFree(d->cand);
	rgpu_rt_free(&d->rt);
	memset(d, 0, sizeof *d);
}

/* launches through rgpu_rt_timed */
typedef struct { const rg_kparams_t *p; int warps; } rg_sup_arg_t;
static cudaError_t rg_sup_launch(const void *a, cudaStream_t st)
{
	const rg_sup_arg_t *x = (const rg_sup_arg_t *)a;
	return rg_launch_support(x->p, x->warps, st);
}
typedef struct { const uint32_t *S; const int64_t *rtask; const rg_task_t *tasks; int64_t nr; int32_t tau; int64_t t; rkt_cand_t *out; } rg_cand_arg_t;
static cudaError_t rg_cand_launch(const void *a, cudaStream_t st)
{
	const rg_cand_arg_t *x = (const rg_cand_arg_t *)a;
	return rg_launch_cand(x->S, x->rtask, x->tasks, x->nr, x->tau, x->t, x->out, st);
}

/* Bytes an owned read needs on the device while its i-chunk runs. */
static uint64_t rg_read_bytes(const rkt_set_t *s, int64_t r, int32_t tau)
{
	uint64_t L = s->len[r] >= tau ? (uint64_t)(s->len[r] - tau + 1) : 0;
	return (uint64_t)s->len[r] + RKT_PAD + L * sizeof(rg_task_t) + rg_ncounters(s->len[r], tau) * 4 + 8 + sizeof(rkt_cand_t);
}

/* End of the i-chunk that starts at read a: as many reads as fit icap bytes. */
static int64_t rg_ichunk_end(const rkt_set_t *s, int64_t a, int64_t hi, int32_t tau, uint64_t icap, int64_t cap_reads)
{
	uint64_t used = 0;
	int64_t b = a;
	while (b < hi && used + rg_read_bytes(s, b, tau) <= icap && (!cap_reads || b - a < cap_reads))
		used += rg_read_bytes(s, b++, tau);
	return b;
}

extern "C" rk_status_t rgpu_rkt_candidates(const rkt_opt_t *o, const rkt_set_t *s, int64_t lo, int64_t hi,
                                           const rgpu_opt_t *g, rkt_cand_t *out, rgpu_stats_t *stats)
{
	rgpu_stats_t dummy;
	rgpu_stats_t *sp = stats ? stats : &dummy;
	rk_status_t st = RK_OK;
	rg_pack_t pk;
	rg_dev_t d;
	rg_task_t *htask = 0;
	int64_t *hrtask = 0, *jcut = 0, n_jchunk = 0;
	double t_start = rk_realtime();
	rk_progress_t prog;
	memset(&prog, 0, sizeof prog);
	memset(sp, 0, sizeof *sp);
	memset(&pk, 0, sizeof pk);
	memset(&d, 0, sizeof d);

	for (int64_t r = lo; r < hi; r++) { out[r - lo].pos = -1; out[r - lo].len = 0; out[r - lo].support = 0; }
	if (o->k < 0 || o->t < 1 || o->tau < 1) { rk_set_error("invalid parameters"); return RK_EINPUT; }
	if (hi <= lo || o->tau > s->max_len) return RK_OK;
	const int32_t tau = (int32_t)o->tau, k = (int32_t)(o->k < s->max_len ? o->k : s->max_len);
	if (s->max_len > rgpu_rkt_max_len(tau)) {
		rk_set_error("reads of %d bp are longer than the GPU kernels take at tau=%d (%d bp); use --backend cpu",
		             s->max_len, tau, rgpu_rkt_max_len(tau));
		return RK_ERES;
	}
	const int32_t lr = s->max_len - tau + 1, lpad = rg_lpad(s->max_len);
	int warps = 1, tpw = 1;
	rg_plan_block(lr, lpad, &warps, &tpw);

	if ((st = rgpu_rt_init(&d.rt, g, sp)) != RK_OK) { rgpu_rt_free(&d.rt); return st; }
	const uint64_t budget = d.rt.budget;
	const cudaStream_t stream = d.rt.st;
	if ((st = rg_pack_build(&pk, s, g->n_threads)) != RK_OK) { rg_dev_free(&d); return st; }
	{
		int ran = 0;
		if ((st = rg_once_run(o, s, lo, hi, &pk, &d.rt, 0, 1, out, 0, &ran)) != RK_OK || ran) goto done;
	}
	{
		const uint64_t row_b = RG_ROW * 4, meta = (uint64_t)pk.n_sets * 13 + 64;
		uint64_t avail = budget > meta ? budget - meta : 0, ne_all = (uint64_t)pk.n_rows * row_b, ne_cap;
		/* j-chunks: contiguous j-sets whose rows fit ne_cap */
		ne_cap = ne_all <= avail / 2 ? ne_all : avail / 2;
		jcut = (int64_t *)malloc(sizeof(int64_t) * (size_t)(pk.n_sets + 1));
		if (!jcut) { st = RK_ERES; rk_set_error("out of memory"); goto done; }
		jcut[0] = 0;
		uint64_t ne_max = 0;
		for (int64_t q = 0; q < pk.n_sets;) {
			int64_t e = q;
			while (e < pk.n_sets && (uint64_t)(pk.jrow[e + 1] - pk.jrow[q]) * row_b <= ne_cap &&
			       (!rk_tune.gpu_chunk_sets || e - q < rk_tune.gpu_chunk_sets)) e++;
			if (e == q) {
				st = RK_ERES;
				rk_set_error("device memory limit of %.3g MB is too small for one set of 1024 reads (%.3g MB); raise --device-memory",
				             budget / 1e6, (double)(pk.jrow[q + 1] - pk.jrow[q]) * row_b / 1e6);
				goto done;
			}
			uint64_t b = (uint64_t)(pk.jrow[e] - pk.jrow[q]) * row_b;
			if (b > ne_max) ne_max = b;
			jcut[++n_jchunk] = q = e;
		}
		uint64_t icap = avail > ne_max ? avail - ne_max : 0;
		/* i-chunk sizes: the largest chunk sets the buffers */
		uint64_t code_max = 0, task_max = 0, S_max = 0, read_max = 0;
		for (int64_t a = lo; a < hi;) {
			int64_t b = rg_ichunk_end(s, a, hi, tau, icap, rk_tune.gpu_chunk_reads);
			uint64_t nt = 0, ns = 0;
			for (int64_t r = a; r < b; r++) {
				uint64_t L = s->len[r] >= tau ? (uint64_t)(s->len[r] - tau + 1) : 0;
				nt += L; ns += rg_ncounters(s->len[r], tau);
			}
			if (b == a) {
				st = RK_ERES;
				rk_set_error("device memory limit of %.3g MB is too small for read %lld; raise --device-memory", budget / 1e6, (long long)a + 1);
				goto done;
			}
			if (s->off[b] - s->off[a] > code_max) code_max = s->off[b] - s->off[a];
			if (nt > task_max) task_max = nt;
			if (ns > S_max) S_max = ns;
			if ((uint64_t)(b - a) > read_max) read_max = (uint64_t)(b - a);
			sp->n_ichunk++;
			a = b;
		}
		sp->n_jchunk = n_jchunk;
		CUDA_CHECK_GOTO(cudaMalloc(&d.ne, ne_max + RG_PAD_ROWS * row_b), done);
		/* on the call's stream, like every other operation: the legacy default stream is
		 * not ordered with a non-blocking stream, so a plain cudaMemset here could land after
		 * the rows are uploaded (or after the kernel) and zero them (issue 8) */
		CUDA_CHECK_GOTO(cudaMemsetAsync(d.ne, 0, ne_max + RG_PAD_ROWS * row_b, stream), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.jrow, sizeof(int64_t) * (size_t)(pk.n_sets + 1)), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.jlen, sizeof(int32_t) * (size_t)(pk.n_sets + 1)), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.jmixed, (size_t)pk.n_sets + 1), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.codes, code_max + 4), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.tasks, sizeof(rg_task_t) * (task_max + 1)), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.S, 4 * (S_max + 1)), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.rtask, sizeof(int64_t) * (read_max + 1)), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.cand, sizeof(rkt_cand_t) * (read_max + 1)), done);
		sp->dev_bytes = ne_max + meta + code_max + sizeof(rg_task_t) * task_max + 4 * S_max + 32 * read_max;
		htask = (rg_task_t *)malloc(sizeof(rg_task_t) * (task_max + 1));
		hrtask = (int64_t *)malloc(sizeof(int64_t) * (read_max + 1));
		if (!htask || !hrtask) { st = RK_ERES; rk_set_error("out of memory"); goto done; }
		CUDA_CHECK_GOTO(cudaMemcpyAsync(d.jrow, pk.jrow, sizeof(int64_t) * (size_t)(pk.n_sets + 1), cudaMemcpyHostToDevice, stream), done);
		CUDA_CHECK_GOTO(cudaMemcpyAsync(d.jlen, pk.jlen, sizeof(int32_t) * (size_t)pk.n_sets, cudaMemcpyHostToDevice, stream), done);
		CUDA_CHECK_GOTO(cudaMemcpyAsync(d.jmixed, pk.jmixed, (size_t)pk.n_sets, cudaMemcpyHostToDevice, stream), done);

		rg_kparams_t p;
		memset(&p, 0, sizeof p);
		p.jrow = d.jrow; p.jlen = d.jlen; p.jmixed = d.jmixed; p.ne = d.ne; p.codes = d.codes;
		p.carveout = rk_tune.gpu_carveout;
		p.S = d.S; p.k = k; p.tau = tau; p.lr = lr; p.lpad = lpad; p.tpw = tpw;
		int64_t total_tasks = 0, done_tasks = 0;
		for (int64_t r = lo; r < hi; r++) total_tasks += s->len[r] >= tau ? s->len[r] - tau + 1 : 0;
		total_tasks *= n_jchunk;
		rk_progress_start(&prog, "rkt gpu: tasks (read x start)", (double)total_tasks);
		int64_t per_launch = RG_LAUNCH_TASKS - RG_LAUNCH_TASKS % (warps * tpw);
		int64_t uploaded = -1;  /* j-chunk whose rows are on the device */
		for (int64_t a = lo; a < hi;) {
			const int64_t b = rg_ichunk_end(s, a, hi, tau, icap, rk_tune.gpu_chunk_reads);
			int64_t nt = 0, ns = 0;
			const uint64_t base = s->off[a];
			for (int64_t r = a; r < b; r++) {
				hrtask[r - a] = nt;
				for (int32_t x = 0; x + tau <= s->len[r]; x++) {
					rg_task_t *t = &htask[nt++];
					t->code = (int64_t)(s->off[r] - base) + x;
					t->soff = ns;
					t->slot = pk.slot_of[r];
					t->n = s->len[r] - x;
					ns += t->n - tau + 1;
				}
			}
			hrtask[b - a] = nt;
			CUDA_CHECK_GOTO(cudaMemcpyAsync(d.codes, s->code + base, s->off[b] - base, cudaMemcpyHostToDevice, stream), done);
			CUDA_CHECK_GOTO(cudaMemcpyAsync(d.tasks, htask, sizeof(rg_task_t) * (size_t)nt, cudaMemcpyHostToDevice, stream), done);
			CUDA_CHECK_GOTO(cudaMemcpyAsync(d.rtask, hrtask, sizeof(int64_t) * (size_t)(b - a + 1), cudaMemcpyHostToDevice, stream), done);
			CUDA_CHECK_GOTO(cudaMemsetAsync(d.S, 0, 4 * (size_t)ns, stream), done);
			for (int64_t jc = 0; jc < n_jchunk; jc++) {
				p.j0 = (int32_t)jcut[jc]; p.j1 = (int32_t)jcut[jc + 1]; p.row0 = pk.jrow[p.j0];
				if (uploaded != jc) {
					CUDA_CHECK_GOTO(cudaMemcpyAsync(d.ne, pk.ne + (size_t)p.row0 * RG_ROW,
					                                (size_t)(pk.jrow[p.j1] - p.row0) * RG_ROW * 4, cudaMemcpyHostToDevice, stream), done);
					uploaded = jc;
				}
				for (int64_t tb = 0; tb < nt; tb += per_launch) {
					p.tasks = d.tasks + tb;
					p.n_tasks = nt - tb < per_launch ? nt - tb : per_launch;
					rg_sup_arg_t sa = { &p, warps };
					if ((st = rgpu_rt_timed(&d.rt, rg_sup_launch, &sa)) != RK_OK) goto done;
					done_tasks += p.n_tasks;
					rk_progress(&prog, (double)done_tasks);
				}
			}
			rg_cand_arg_t ca = { d.S, d.rtask, d.tasks, b - a, tau, o->t, d.cand };
			if ((st = rgpu_rt_timed(&d.rt, rg_cand_launch, &ca)) != RK_OK) goto done;
			sp->n_launch--;  /* launches count the support kernels */
			CUDA_CHECK_GOTO(cudaMemcpyAsync(out + (a - lo), d.cand, sizeof(rkt_cand_t) * (size_t)(b - a), cudaMemcpyDeviceToHost, stream), done);
			CUDA_CHECK_GOTO(cudaStreamSynchronize(stream), done);
			a = b;
		}
	}
done:
	rk_progress_end(&prog);
	rg_dev_free(&d);
	rg_pack_free(&pk);
	free(htask); free(hrtask); free(jcut);
	sp->total_s = rk_realtime() - t_start;
	return st;
}

extern "C" rk_status_t rgpu_rkt_supports(const rkt_opt_t *o, const rkt_set_t *s, int share, int nshare, const rgpu_opt_t *g,
                                         uint32_t **S, uint64_t *n_S, rgpu_stats_t *stats)
{
	rgpu_rkt_sup_t *u = 0;
	rk_status_t st = rgpu_rkt_sup_run(o, s, share, nshare, g, &u, stats);
	*S = 0; *n_S = 0;
	if (!st && u) st = rgpu_rkt_sup_to_host(u, g->n_threads, S, n_S);
	rgpu_rkt_sup_free(u);
	return st;
}
