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

/* End of a piece of a claimed range [a, hi) that fits the buffers the plan sized (its
 * largest chunk's codes, tasks, counters and reads): at least read a, which a plan chunk held. */
static int64_t rg_ichunk_fit(const rkt_set_t *s, int64_t a, int64_t hi, int32_t tau, uint64_t code_max, uint64_t task_max,
                             uint64_t S_max, uint64_t read_max)
{
	uint64_t nt = 0, ns = 0;
	int64_t b = a;
	while (b < hi) {
		const uint64_t L = s->len[b] >= tau ? (uint64_t)(s->len[b] - tau + 1) : 0;
		if (b > a && (s->off[b + 1] - s->off[a] > code_max || nt + L > task_max || ns + rg_ncounters(s->len[b], tau) > S_max ||
		              (uint64_t)(b - a) >= read_max))
			break;
		nt += L; ns += rg_ncounters(s->len[b], tau);
		b++;
	}
	return b;
}

/* The plan of one call: j-chunks of the sets, what is left for an i-chunk, and the largest
 * i-chunk's needs, which size the buffers. */
typedef struct {
	int64_t *jcut, n_jchunk;        /* j-chunk c: sets [jcut[c], jcut[c + 1]) */
	uint64_t row_b, meta, icap, ne_max;
	uint64_t code_max, task_max, S_max, read_max;
} rg_plan_t;

/* j-chunks: contiguous j-sets whose rows fit half of what the budget leaves (all of them when
 * they fit) */
static rk_status_t rg_plan_j(const rg_pack_t *pk, uint64_t budget, rg_plan_t *pl)
{
	const uint64_t row_b = RG_ROW * 4, meta = (uint64_t)pk->n_sets * 13 + 64;
	uint64_t avail = budget > meta ? budget - meta : 0, ne_all = (uint64_t)pk->n_rows * row_b, ne_cap;
	pl->row_b = row_b;
	pl->meta = meta;
	/* j-chunks: contiguous j-sets whose rows fit ne_cap */
	ne_cap = ne_all <= avail / 2 ? ne_all : avail / 2;
	pl->jcut = (int64_t *)malloc(sizeof(int64_t) * (size_t)(pk->n_sets + 1));
	if (!pl->jcut) { rk_set_error("out of memory"); return RK_ERES; }
	pl->jcut[0] = 0;
	uint64_t ne_max = 0;
	for (int64_t q = 0; q < pk->n_sets;) {
		int64_t e = q;
		while (e < pk->n_sets && (uint64_t)(pk->jrow[e + 1] - pk->jrow[q]) * row_b <= ne_cap &&
		       (!rk_tune.gpu_chunk_sets || e - q < rk_tune.gpu_chunk_sets)) e++;
		if (e == q) {
			rk_set_error("device memory limit of %.3g MB is too small for one set of 1024 reads (%.3g MB); raise --device-memory",
			             budget / 1e6, (double)(pk->jrow[q + 1] - pk->jrow[q]) * row_b / 1e6);
			return RK_ERES;
		}
		uint64_t b = (uint64_t)(pk->jrow[e] - pk->jrow[q]) * row_b;
		if (b > ne_max) ne_max = b;
		pl->jcut[++pl->n_jchunk] = q = e;
	}
	pl->ne_max = ne_max;
	pl->icap = avail > ne_max ? avail - ne_max : 0;
	return RK_OK;
}

/* i-chunk sizes: the largest chunk sets the buffers */
static rk_status_t rg_plan_i(const rkt_set_t *s, int64_t lo, int64_t hi, int32_t tau, uint64_t budget, rg_plan_t *pl,
                             rgpu_stats_t *sp)
{
	for (int64_t a = lo; a < hi;) {
		int64_t b = rg_ichunk_end(s, a, hi, tau, pl->icap, rk_tune.gpu_chunk_reads);
		uint64_t nt = 0, ns = 0;
		for (int64_t r = a; r < b; r++) {
			uint64_t L = s->len[r] >= tau ? (uint64_t)(s->len[r] - tau + 1) : 0;
			nt += L; ns += rg_ncounters(s->len[r], tau);
		}
		if (b == a) {
			rk_set_error("device memory limit of %.3g MB is too small for read %lld; raise --device-memory", budget / 1e6, (long long)a + 1);
			return RK_ERES;
		}
		if (s->off[b] - s->off[a] > pl->code_max) pl->code_max = s->off[b] - s->off[a];
		if (nt > pl->task_max) pl->task_max = nt;
		if (ns > pl->S_max) pl->S_max = ns;
		if ((uint64_t)(b - a) > pl->read_max) pl->read_max = (uint64_t)(b - a);
		sp->n_ichunk++;
		a = b;
	}
	sp->n_jchunk = pl->n_jchunk;
	return RK_OK;
}

/* the device buffers of the plan, and the j-sets' tables up */
static rk_status_t rg_dev_alloc(rg_dev_t *d, const rg_pack_t *pk, const rg_plan_t *pl, rgpu_stats_t *sp)
{
	const cudaStream_t stream = d->rt.st;
	const uint64_t row_b = pl->row_b;
	CUDA_CHECK(cudaMalloc(&d->ne, pl->ne_max + RG_PAD_ROWS * row_b));
	/* on the call's stream, like every other operation: the legacy default stream is
	 * not ordered with a non-blocking stream, so a plain cudaMemset here could land after
	 * the rows are uploaded (or after the kernel) and zero them (issue 8) */
	CUDA_CHECK(cudaMemsetAsync(d->ne, 0, pl->ne_max + RG_PAD_ROWS * row_b, stream));
	CUDA_CHECK(cudaMalloc(&d->jrow, sizeof(int64_t) * (size_t)(pk->n_sets + 1)));
	CUDA_CHECK(cudaMalloc(&d->jlen, sizeof(int32_t) * (size_t)(pk->n_sets + 1)));
	CUDA_CHECK(cudaMalloc(&d->jmixed, (size_t)pk->n_sets + 1));
	CUDA_CHECK(cudaMalloc(&d->codes, pl->code_max + 4));
	CUDA_CHECK(cudaMalloc(&d->tasks, sizeof(rg_task_t) * (pl->task_max + 1)));
	CUDA_CHECK(cudaMalloc(&d->S, 4 * (pl->S_max + 1)));
	CUDA_CHECK(cudaMalloc(&d->rtask, sizeof(int64_t) * (pl->read_max + 1)));
	CUDA_CHECK(cudaMalloc(&d->cand, sizeof(rkt_cand_t) * (pl->read_max + 1)));
	sp->dev_bytes = pl->ne_max + pl->meta + pl->code_max + sizeof(rg_task_t) * pl->task_max + 4 * pl->S_max + 32 * pl->read_max;
	CUDA_CHECK(cudaMemcpyAsync(d->jrow, pk->jrow, sizeof(int64_t) * (size_t)(pk->n_sets + 1), cudaMemcpyHostToDevice, stream));
	CUDA_CHECK(cudaMemcpyAsync(d->jlen, pk->jlen, sizeof(int32_t) * (size_t)pk->n_sets, cudaMemcpyHostToDevice, stream));
	CUDA_CHECK(cudaMemcpyAsync(d->jmixed, pk->jmixed, (size_t)pk->n_sets, cudaMemcpyHostToDevice, stream));
	return RK_OK;
}

/* the tasks (read x start) of reads [a, b), htask[hrtask[r - a], hrtask[r - a + 1]) being read
 * r's; returns their number, *n_S their support counters */
static int64_t rg_tasks(const rkt_set_t *s, const rg_pack_t *pk, int64_t a, int64_t b, int32_t tau, rg_task_t *htask,
                        int64_t *hrtask, int64_t *n_S)
{
	int64_t nt = 0, ns = 0;
	const uint64_t base = s->off[a];
	for (int64_t r = a; r < b; r++) {
		hrtask[r - a] = nt;
		for (int32_t x = 0; x + tau <= s->len[r]; x++) {
			rg_task_t *t = &htask[nt++];
			t->code = (int64_t)(s->off[r] - base) + x;
			t->soff = ns;
			t->slot = pk->slot_of[r];
			t->n = s->len[r] - x;
			ns += t->n - tau + 1;
		}
	}
	hrtask[b - a] = nt;
	*n_S = ns;
	return nt;
}

/* the loop over i-chunks: the kernels' parameters, and what is on the device */
typedef struct {
	rg_dev_t *d;
	const rg_pack_t *pk;
	const rg_plan_t *pl;
	rg_kparams_t p;
	int warps;
	int64_t per_launch;
	int64_t uploaded;               /* j-chunk whose rows are on the device */
	int64_t done_tasks;
	rk_progress_t *prog;
	rgpu_stats_t *sp;
} rg_loop_t;

/* One i-chunk, reads [a, b) with their nt tasks and ns counters on the host: its codes and
 * tasks up, the support kernel over every j-chunk (its rows up unless there already), the
 * candidate kernel, and the candidates back into out (read a's first). */
static rk_status_t rg_ichunk_run(rg_loop_t *L, const rkt_opt_t *o, const rkt_set_t *s, int64_t a, int64_t b, int32_t tau,
                                 const rg_task_t *htask, const int64_t *hrtask, int64_t nt, int64_t ns, rkt_cand_t *out)
{
	rg_dev_t *d = L->d;
	const rg_pack_t *pk = L->pk;
	const cudaStream_t stream = d->rt.st;
	const uint64_t base = s->off[a];
	rg_kparams_t *p = &L->p;
	rk_status_t st;
	CUDA_CHECK(cudaMemcpyAsync(d->codes, s->code + base, s->off[b] - base, cudaMemcpyHostToDevice, stream));
	CUDA_CHECK(cudaMemcpyAsync(d->tasks, htask, sizeof(rg_task_t) * (size_t)nt, cudaMemcpyHostToDevice, stream));
	CUDA_CHECK(cudaMemcpyAsync(d->rtask, hrtask, sizeof(int64_t) * (size_t)(b - a + 1), cudaMemcpyHostToDevice, stream));
	CUDA_CHECK(cudaMemsetAsync(d->S, 0, 4 * (size_t)ns, stream));
	for (int64_t jc = 0; jc < L->pl->n_jchunk; jc++) {
		p->j0 = (int32_t)L->pl->jcut[jc]; p->j1 = (int32_t)L->pl->jcut[jc + 1]; p->row0 = pk->jrow[p->j0];
		if (L->uploaded != jc) {
			CUDA_CHECK(cudaMemcpyAsync(d->ne, pk->ne + (size_t)p->row0 * RG_ROW,
			                           (size_t)(pk->jrow[p->j1] - p->row0) * RG_ROW * 4, cudaMemcpyHostToDevice, stream));
			L->uploaded = jc;
		}
		for (int64_t tb = 0; tb < nt; tb += L->per_launch) {
			p->tasks = d->tasks + tb;
			p->n_tasks = nt - tb < L->per_launch ? nt - tb : L->per_launch;
			rg_sup_arg_t sa = { p, L->warps };
			if ((st = rgpu_rt_timed(&d->rt, rg_sup_launch, &sa)) != RK_OK) return st;
			L->done_tasks += p->n_tasks;
			if (L->prog) rk_progress(L->prog, (double)L->done_tasks);
		}
	}
	rg_cand_arg_t ca = { d->S, d->rtask, d->tasks, b - a, tau, o->t, d->cand };
	if ((st = rgpu_rt_timed(&d->rt, rg_cand_launch, &ca)) != RK_OK) return st;
	L->sp->n_launch--;  /* launches count the support kernels */
	CUDA_CHECK(cudaMemcpyAsync(out, d->cand, sizeof(rkt_cand_t) * (size_t)(b - a), cudaMemcpyDeviceToHost, stream));
	CUDA_CHECK(cudaStreamSynchronize(stream));
	return RK_OK;
}

/* Reads of a claimed range: pieces that fit the plan's buffers, candidates into out (read lo's
 * first). Claims at least enough starts for about eight tasks a resident warp. */
static rk_status_t rg_rows_loop(rg_loop_t *L, const rkt_opt_t *o, const rkt_set_t *s, int64_t lo, int32_t tau, rkt_rows_t *rows,
                                rg_task_t *htask, int64_t *hrtask, rkt_cand_t *out)
{
	int dev = 0, sms = 0;
	CUDA_CHECK(cudaGetDevice(&dev));
	CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	const double starts = s->n ? (double)(s->n_bases - s->n * (tau - 1)) / (double)s->n : 1;
	int64_t least = (int64_t)((double)sms * 32 * 8 / (starts >= 1 ? starts : 1)) + 1, a, m;
	if (least > (int64_t)L->pl->read_max) least = (int64_t)L->pl->read_max;
	rk_status_t st;
	while ((m = rows->claim(rows, least, (int64_t)L->pl->read_max, &a)) > 0) {
		for (const int64_t e = a + m; a < e;) {
			const int64_t b = rg_ichunk_fit(s, a, e, tau, L->pl->code_max, L->pl->task_max, L->pl->S_max, L->pl->read_max);
			int64_t ns = 0;
			const int64_t nt = rg_tasks(s, L->pk, a, b, tau, htask, hrtask, &ns);
			if ((st = rg_ichunk_run(L, o, s, a, b, tau, htask, hrtask, nt, ns, out + (a - lo)))) return st;
			a = b;
		}
	}
	return RK_OK;
}

/* rgpu_rkt_candidates, or with rows its claims of [lo, hi), each pair walked from both reads */
static rk_status_t rg_candidates(const rkt_opt_t *o, const rkt_set_t *s, int64_t lo, int64_t hi, const rgpu_opt_t *g,
                                 rkt_rows_t *rows, rkt_cand_t *out, rgpu_stats_t *stats)
{
	rgpu_stats_t dummy;
	rgpu_stats_t *sp = stats ? stats : &dummy;
	rk_status_t st = RK_OK;
	rg_pack_t pk;
	rg_dev_t d;
	rg_plan_t pl;
	rg_task_t *htask = 0;
	int64_t *hrtask = 0;
	double t_start = rk_realtime();
	rk_progress_t prog;
	memset(&prog, 0, sizeof prog);
	memset(sp, 0, sizeof *sp);
	memset(&pk, 0, sizeof pk);
	memset(&d, 0, sizeof d);
	memset(&pl, 0, sizeof pl);

	/* (rows: other workers write the rows they claim, at the same time) */
	for (int64_t r = lo; !rows && r < hi; r++) { out[r - lo].pos = -1; out[r - lo].len = 0; out[r - lo].support = 0; }
	if (o->k < 0 || o->t < 1 || o->tau < 1) { rk_set_error("invalid parameters"); return RK_EINPUT; }
	if (hi > lo && o->tau > s->max_len && rows) {  /* no read has a candidate: the claimed rows say so */
		int64_t a, n;
		while ((n = rows->claim(rows, 1, hi - lo, &a)) > 0)
			for (int64_t r = a; r < a + n; r++) { out[r - lo].pos = -1; out[r - lo].len = 0; out[r - lo].support = 0; }
	}
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
	if ((st = rg_pack_build(&pk, s, g->n_threads)) != RK_OK) { rg_dev_free(&d); return st; }
	if (!rows) {
		int ran = 0;
		if ((st = rg_once_run(o, s, lo, hi, &pk, &d.rt, 0, 1, out, 0, &ran)) != RK_OK || ran) goto done;
	}
	if ((st = rg_plan_j(&pk, budget, &pl)) || (st = rg_plan_i(s, lo, hi, tau, budget, &pl, sp)) ||
	    (st = rg_dev_alloc(&d, &pk, &pl, sp)))
		goto done;
	htask = (rg_task_t *)malloc(sizeof(rg_task_t) * (pl.task_max + 1));
	hrtask = (int64_t *)malloc(sizeof(int64_t) * (pl.read_max + 1));
	if (!htask || !hrtask) { st = RK_ERES; rk_set_error("out of memory"); goto done; }
	{
		rg_loop_t L;
		memset(&L, 0, sizeof L);
		L.d = &d;
		L.pk = &pk;
		L.pl = &pl;
		rg_kparams_t *p = &L.p;
		p->jrow = d.jrow; p->jlen = d.jlen; p->jmixed = d.jmixed; p->ne = d.ne; p->codes = d.codes;
		p->carveout = rk_tune.gpu_carveout;
		p->S = d.S; p->k = k; p->tau = tau; p->lr = lr; p->lpad = lpad; p->tpw = tpw;
		int64_t total_tasks = 0;
		for (int64_t r = lo; r < hi; r++) total_tasks += s->len[r] >= tau ? s->len[r] - tau + 1 : 0;
		total_tasks *= pl.n_jchunk;
		if (!rows) rk_progress_start(&prog, "rkt gpu: tasks (read x start)", (double)total_tasks);  /* else the claims' owner's */
		L.prog = rows ? 0 : &prog;
		L.sp = sp;
		L.warps = warps;
		L.per_launch = RG_LAUNCH_TASKS - RG_LAUNCH_TASKS % (warps * tpw);
		L.uploaded = -1;
		if (rows) st = rg_rows_loop(&L, o, s, lo, tau, rows, htask, hrtask, out);
		else for (int64_t a = lo; a < hi;) {
			const int64_t b = rg_ichunk_end(s, a, hi, tau, pl.icap, rk_tune.gpu_chunk_reads);
			int64_t ns = 0;
			const int64_t nt = rg_tasks(s, &pk, a, b, tau, htask, hrtask, &ns);
			if ((st = rg_ichunk_run(&L, o, s, a, b, tau, htask, hrtask, nt, ns, out + (a - lo)))) goto done;
			a = b;
		}
	}
done:
	rk_progress_end(&prog);
	rg_dev_free(&d);
	rg_pack_free(&pk);
	free(htask); free(hrtask); free(pl.jcut);
	sp->total_s = rk_realtime() - t_start;
	return st;
}

extern "C" rk_status_t rgpu_rkt_candidates(const rkt_opt_t *o, const rkt_set_t *s, int64_t lo, int64_t hi,
                                           const rgpu_opt_t *g, rkt_cand_t *out, rgpu_stats_t *stats)
{
	return rg_candidates(o, s, lo, hi, g, 0, out, stats);
}

extern "C" rk_status_t rgpu_rkt_candidates_rows(const rkt_opt_t *o, const rkt_set_t *s, int64_t lo, int64_t hi,
                                                const rgpu_opt_t *g, rkt_rows_t *rows, rkt_cand_t *out, rgpu_stats_t *stats)
{
	return rg_candidates(o, s, lo, hi, g, rows, out, stats);
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
