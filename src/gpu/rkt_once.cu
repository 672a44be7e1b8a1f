/* Rkt-LCS on the GPU, each unordered pair of owned reads walked once (rkt_once.h): the
 * memory plan, the units of work, the launches. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/rkt_once.h"
#include "gpu/rkt_gpu.h"
#include "gpu/rkt_kern.h"

#define RG_ONCE_LAUNCHES 64          /* launches at least (progress lines), */
#define RG_ONCE_MIN_UNITS (1 << 16)  /* of at least this many units */
/* A start survives its first tau steps with this probability at most on random reads, else
 * walk twice: the j side costs an atomic per read per surviving start, where the i side
 * counts 32 reads per instruction, so it only pays while survivors are rare (paper 5k at
 * k=10 tau=15, where most starts survive: 0.38 s once against 0.03 s twice). */
#define RG_ONCE_MAX_SURVIVE 1e-3

/* P(at most k mismatches in tau uniform random bases) */
static double rg_survive(int32_t k, int32_t tau)
{
	double p = 0;
	for (int32_t i = 0; i <= k && i <= tau; i++)
		p += exp(lgamma(tau + 1.0) - lgamma(i + 1.0) - lgamma(tau - i + 1.0) + i * log(0.75) + (tau - i) * log(0.25));
	return p;
}

typedef struct {
	uint32_t *ne, *own, *S, *T, *stamp;
	int64_t *jrow, *jbase;
	int32_t *jlen, *slen;
	uint8_t *jmixed, *setown, *codes;
	rg_read_t *reads;
	rg_unit_t *units;
	unsigned long long *next;
	rkt_cand_t *cand;
} rg_odev_t;

static void rg_odev_free(rg_odev_t *d)
{
	/* unchecked: runs on error paths too, where the first error is the one to report */
	cudaFree(d->ne); cudaFree(d->own); cudaFree(d->S); cudaFree(d->T); cudaFree(d->stamp); cudaFree(d->jrow);
	cudaFree(d->jbase); cudaFree(d->jlen); cudaFree(d->slen); cudaFree(d->jmixed); cudaFree(d->setown);
	cudaFree(d->codes); cudaFree(d->reads); cudaFree(d->units); cudaFree(d->next); cudaFree(d->cand);
	memset(d, 0, sizeof *d);
}

typedef struct { const rg_oparams_t *p; int warps, blocks; } rg_once_arg_t;
static cudaError_t rg_once_launch_cb(const void *a, cudaStream_t st)
{
	const rg_once_arg_t *x = (const rg_once_arg_t *)a;
	return rg_launch_once(x->p, x->warps, x->blocks, st);
}
typedef struct { const uint32_t *S; const rg_read_t *reads; int64_t nr; int32_t tau; int64_t t; rkt_cand_t *out; } rg_ocand_arg_t;
static cudaError_t rg_ocand_cb(const void *a, cudaStream_t st)
{
	const rg_ocand_arg_t *x = (const rg_ocand_arg_t *)a;
	return rg_launch_ocand(x->S, x->reads, x->nr, x->tau, x->t, x->out, st);
}

/* Host tables of the call: reads, ownership per slot and j-set, units. */
typedef struct {
	rg_read_t *reads;
	rg_unit_t *units;
	uint32_t *own;
	uint8_t *setown;
	int64_t *jbase;
	int32_t *slen;
	int64_t n_units, n_S;
} rg_ohost_t;

/* Within a launch, the costliest units first (longest-processing-time order): the warps
 * that finish early pick up the cheap ones, so the launch does not wait on one warp's last
 * full unit. The order changes no result: the supports are sums. */
typedef struct { int64_t cost; int64_t i; } rg_ucost_t;
static int rg_ucost_cmp(const void *a, const void *b)
{
	const rg_ucost_t *x = (const rg_ucost_t *)a, *y = (const rg_ucost_t *)b;
	if (x->cost != y->cost) return x->cost > y->cost ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static rk_status_t rg_units_lpt(rg_unit_t *u, int64_t n, const rg_read_t *reads, const int32_t *jlen, int64_t n_sets,
                                int32_t tau, int64_t per)
{
	rg_ucost_t *c = (rg_ucost_t *)malloc(sizeof(rg_ucost_t) * (size_t)(per + 1));
	rg_unit_t *tmp = (rg_unit_t *)malloc(sizeof(rg_unit_t) * (size_t)(per + 1));
	int64_t *pre = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n_sets + 1));
	if (!c || !tmp || !pre) { free(c); free(tmp); free(pre); rk_set_error("out of memory ordering the GPU units"); return RK_ERES; }
	pre[0] = 0;
	for (int64_t g = 0; g < n_sets; g++) pre[g + 1] = pre[g] + (jlen[g] >= tau ? jlen[g] - tau + 1 : 1);
	for (int64_t b = 0; b < n; b += per) {
		const int64_t m = n - b < per ? n - b : per;
		for (int64_t q = 0; q < m; q++) {
			const rg_unit_t *x = &u[b + q];
			c[q].cost = (int64_t)(reads[x->read].len - tau + 1) * (pre[x->s1] - pre[x->s0]);
			c[q].i = q;
		}
		qsort(c, (size_t)m, sizeof *c, rg_ucost_cmp);
		for (int64_t q = 0; q < m; q++) tmp[q] = u[b + c[q].i];
		memcpy(u + b, tmp, sizeof(rg_unit_t) * (size_t)m);
	}
	free(c); free(tmp); free(pre);
	return RK_OK;
}

static void rg_ohost_free(rg_ohost_t *h)
{
	free(h->reads); free(h->units); free(h->own); free(h->setown); free(h->jbase); free(h->slen);
	memset(h, 0, sizeof *h);
}

static rk_status_t rg_ohost_build(rg_ohost_t *h, const rkt_set_t *s, int64_t lo, int64_t hi, const rg_pack_t *pk, int32_t tau,
                                  int share, int nshare)
{
	const int64_t nslot = pk->n_sets * RG_SET, nr = hi - lo;
	int64_t *pref = 0;
	memset(h, 0, sizeof *h);
	h->reads = (rg_read_t *)malloc(sizeof(rg_read_t) * (size_t)(nr + 1));
	h->own = (uint32_t *)calloc((size_t)pk->n_sets * 32 + 1, 4);
	h->setown = (uint8_t *)malloc((size_t)pk->n_sets + 1);
	h->jbase = (int64_t *)malloc(sizeof(int64_t) * (size_t)(nslot + 1));
	h->slen = (int32_t *)malloc(sizeof(int32_t) * (size_t)(nslot + 1));
	pref = (int64_t *)malloc(sizeof(int64_t) * (size_t)(pk->n_sets + 1));
	if (!h->reads || !h->own || !h->setown || !h->jbase || !h->slen || !pref) goto oom;
	for (int64_t r = lo; r < hi; r++) {
		rg_read_t *d = &h->reads[r - lo];
		d->code = (int64_t)(s->off[r] - s->off[lo]);
		d->soff = h->n_S;
		d->slot = pk->slot_of[r];
		d->len = s->len[r];
		h->n_S += (int64_t)rg_ncounters(s->len[r], tau);
	}
	pref[0] = 0;
	for (int64_t g = 0; g < pk->n_sets; g++) {
		int all = 1;
		for (int64_t q = g * RG_SET; q < (g + 1) * RG_SET; q++) {
			const int64_t r = pk->read_of[q];
			const int owned = r >= lo && r < hi;
			if (owned) h->own[q / 32] |= 1u << (q % 32);
			else if (r >= 0) all = 0;
			h->jbase[q] = owned ? h->reads[r - lo].soff : -1;
			h->slen[q] = r >= 0 ? s->len[r] : 0;
		}
		h->setown[g] = (uint8_t)all;
		pref[g + 1] = pref[g] + all;
	}
	/* units: owned reads in slot order, the j-sets they walk in runs of RG_UNIT_SETS; a run of
	 * owned j-sets before the read's own is walked by the reads in it. A share takes every
	 * nshare-th unit (their work falls with the slot, so interleaving balances the shares). */
	for (int pass = 0; pass < 2; pass++) {
		int64_t n = 0, all_n = 0;
		for (int64_t q = 0; q < nslot; q++) {
			const int64_t r = pk->read_of[q];
			if (r < lo || r >= hi || s->len[r] < tau) continue;
			const int64_t si = q / RG_SET;
			for (int64_t c0 = 0; c0 < pk->n_sets; c0 += RG_UNIT_SETS) {
				const int64_t c1 = c0 + RG_UNIT_SETS < pk->n_sets ? c0 + RG_UNIT_SETS : pk->n_sets;
				if (c1 <= si && pref[c1] - pref[c0] == c1 - c0) continue;
				if (all_n++ % nshare != share) continue;
				if (pass) { rg_unit_t *u = &h->units[n]; u->read = (int32_t)(r - lo); u->s0 = (int32_t)c0; u->s1 = (int32_t)c1; }
				n++;
			}
		}
		if (!pass) {
			h->n_units = n;
			h->units = (rg_unit_t *)malloc(sizeof(rg_unit_t) * (size_t)(n + 1));
			if (!h->units) goto oom;
		}
	}
	free(pref);
	return RK_OK;
oom:
	free(pref);
	rg_ohost_free(h);
	rk_set_error("out of memory planning the GPU walk");
	return RK_ERES;
}

int rg_once_warps(const rkt_opt_t *o, const rkt_set_t *s)
{
	const int32_t tau = (int32_t)o->tau, k = (int32_t)(o->k < s->max_len ? o->k : s->max_len);
	const int32_t lr = s->max_len - tau + 1, lpad = rg_lpad(s->max_len);
	if (rk_tune.rkt_gpu_twice > 0 || s->max_len > RG_ONCE_MAXLEN || lr < 1) return 0;
	if (!rk_tune.rkt_gpu_twice && rg_survive(k, tau) > RG_ONCE_MAX_SURVIVE) return 0;  /* -1: forced (tests) */
	for (int w = 8; w >= 1; w /= 2)
		if (w * rg_osmem_warp(lr, lpad) <= (size_t)(w > 1 ? RG_SMEM_SHARED : RG_SMEM_MAX)) return w;
	return 0;
}

extern "C" int rgpu_rkt_walks_twice(const rkt_opt_t *o, const rkt_set_t *s)
{
	return o->tau >= 1 && o->k >= 0 && !rg_once_warps(o, s);
}

#define UP(dst, src, n) CUDA_CHECK_GOTO(cudaMemcpyAsync((dst), (src), (n), cudaMemcpyHostToDevice, st_), done)

rk_status_t rg_once_run(const rkt_opt_t *o, const rkt_set_t *s, int64_t lo, int64_t hi, const rg_pack_t *pk, rgpu_rt_t *rt,
                        int share, int nshare, rkt_cand_t *out, rg_okeep_t *keep, int *ran)
{
	const int32_t tau = (int32_t)o->tau, k = (int32_t)(o->k < s->max_len ? o->k : s->max_len);
	const int32_t lr = s->max_len - tau + 1, lpad = rg_lpad(s->max_len);
	const int64_t nr = hi - lo, nslot = pk->n_sets * RG_SET;
	const cudaStream_t st_ = rt->st;
	rgpu_stats_t *sp = rt->stats;
	rk_status_t st = RK_OK;
	rg_odev_t d;
	rg_ohost_t h;
	rg_oparams_t p;
	rk_progress_t prog;
	int warps = 0, blocks = 0;
	memset(&d, 0, sizeof d);
	memset(&h, 0, sizeof h);
	memset(&p, 0, sizeof p);
	memset(&prog, 0, sizeof prog);
	*ran = 0;
	if (!(warps = rg_once_warps(o, s))) return RK_OK;
	p.k = k; p.tau = tau; p.lr = lr; p.lpad = lpad; p.ny = lr; p.carveout = rk_tune.gpu_carveout;
	p.minb = rk_tune.gpu_once_minb;
	CUDA_CHECK(rg_once_blocks(&p, warps, &blocks));
	if ((st = rg_ohost_build(&h, s, lo, hi, pk, tau, share, nshare)) != RK_OK) return st;
	{
		const uint64_t slots = (uint64_t)blocks * warps, ne_b = (uint64_t)(pk->n_rows + RG_PAD_ROWS) * RG_ROW * 4;
		const uint64_t T_b = slots * RG_SET * (uint64_t)lr * 4, code_b = s->off[hi] - s->off[lo] + 4;
		const uint64_t need = ne_b + T_b + slots * 4 + 4 * (uint64_t)h.n_S + code_b + (uint64_t)nr * (sizeof(rg_read_t) + sizeof(rkt_cand_t)) +
		                      (uint64_t)h.n_units * sizeof(rg_unit_t) + (uint64_t)pk->n_sets * (32 * 4 + 1 + 8 + 4 + 1) +
		                      (uint64_t)nslot * 12 + 64;
		if (need > rt->budget) {
			rk_debug("rkt gpu: walk-once needs %.3g MB of the %.3g MB budget; each pair is walked from both reads",
			         need / 1e6, rt->budget / 1e6);
			rg_ohost_free(&h);
			return RK_OK;
		}
		*ran = 1;
		sp->n_ichunk = sp->n_jchunk = 1;
		sp->dev_bytes = need;
		CUDA_CHECK_GOTO(cudaMalloc(&d.ne, ne_b), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.T, T_b), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.stamp, slots * 4), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.S, 4 * (uint64_t)h.n_S + 4), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.codes, code_b), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.reads, sizeof(rg_read_t) * (size_t)(nr + 1)), done);
		if (!keep) CUDA_CHECK_GOTO(cudaMalloc(&d.cand, sizeof(rkt_cand_t) * (size_t)(nr + 1)), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.units, sizeof(rg_unit_t) * (size_t)(h.n_units + 1)), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.own, (size_t)pk->n_sets * 32 * 4 + 4), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.setown, (size_t)pk->n_sets + 1), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.jrow, sizeof(int64_t) * (size_t)(pk->n_sets + 1)), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.jlen, sizeof(int32_t) * (size_t)(pk->n_sets + 1)), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.jmixed, (size_t)pk->n_sets + 1), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.jbase, sizeof(int64_t) * (size_t)(nslot + 1)), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.slen, sizeof(int32_t) * (size_t)(nslot + 1)), done);
		CUDA_CHECK_GOTO(cudaMalloc(&d.next, sizeof(unsigned long long)), done);
		/* rows past the last j-set are read by starts past the end (RG_PAD_ROWS): zero them */
		CUDA_CHECK_GOTO(cudaMemsetAsync(d.ne, 0, ne_b, st_), done);
		UP(d.ne, pk->ne, (size_t)pk->n_rows * RG_ROW * 4);
		CUDA_CHECK_GOTO(cudaMemsetAsync(d.T, 0, T_b, st_), done);
		CUDA_CHECK_GOTO(cudaMemsetAsync(d.stamp, 0, slots * 4, st_), done);
		CUDA_CHECK_GOTO(cudaMemsetAsync(d.S, 0, 4 * (uint64_t)h.n_S + 4, st_), done);
		UP(d.codes, s->code + s->off[lo], s->off[hi] - s->off[lo]);
		UP(d.reads, h.reads, sizeof(rg_read_t) * (size_t)nr);
		int64_t per = (h.n_units + RG_ONCE_LAUNCHES - 1) / RG_ONCE_LAUNCHES;
		if (per < RG_ONCE_MIN_UNITS) per = RG_ONCE_MIN_UNITS;
		if ((st = rg_units_lpt(h.units, h.n_units, h.reads, pk->jlen, pk->n_sets, tau, per)) != RK_OK) goto done;
		UP(d.units, h.units, sizeof(rg_unit_t) * (size_t)h.n_units);
		UP(d.own, h.own, (size_t)pk->n_sets * 32 * 4);
		UP(d.setown, h.setown, (size_t)pk->n_sets);
		UP(d.jrow, pk->jrow, sizeof(int64_t) * (size_t)(pk->n_sets + 1));
		UP(d.jlen, pk->jlen, sizeof(int32_t) * (size_t)pk->n_sets);
		UP(d.jmixed, pk->jmixed, (size_t)pk->n_sets);
		UP(d.jbase, h.jbase, sizeof(int64_t) * (size_t)nslot);
		UP(d.slen, h.slen, sizeof(int32_t) * (size_t)nslot);

		p.ne = d.ne; p.jrow = d.jrow; p.jlen = d.jlen; p.jmixed = d.jmixed; p.codes = d.codes; p.reads = d.reads;
		p.own = d.own; p.setown = d.setown; p.jbase = d.jbase; p.slen = d.slen; p.S = d.S; p.T = d.T;
		p.stamp = d.stamp; p.next = d.next;
		rk_progress_start(&prog, "rkt gpu: units (read x 32 j-sets), each pair once", (double)h.n_units);
		for (int64_t ub = 0; ub < h.n_units; ub += per) {
			p.units = d.units + ub;
			p.n_units = h.n_units - ub < per ? h.n_units - ub : per;
			CUDA_CHECK_GOTO(cudaMemsetAsync(d.next, 0, sizeof(unsigned long long), st_), done);
			rg_once_arg_t a = { &p, warps, (int)(p.n_units < blocks * (int64_t)warps ? (p.n_units + warps - 1) / warps : blocks) };
			if ((st = rgpu_rt_timed(rt, rg_once_launch_cb, &a)) != RK_OK) goto done;
			rk_progress(&prog, (double)(ub + p.n_units));
		}
		if (keep) {  /* the supports and the reads' table stay on the device, the rest is freed */
			keep->S = d.S; keep->reads = d.reads; keep->nr = nr; keep->n_S = (uint64_t)h.n_S;
			d.S = 0; d.reads = 0;
		} else {
			rg_ocand_arg_t ca = { d.S, d.reads, nr, tau, o->t, d.cand };
			if ((st = rgpu_rt_timed(rt, rg_ocand_cb, &ca)) != RK_OK) goto done;
			sp->n_launch--;  /* launches count the support kernels */
			CUDA_CHECK_GOTO(cudaMemcpyAsync(out, d.cand, sizeof(rkt_cand_t) * (size_t)nr, cudaMemcpyDeviceToHost, st_), done);
		}
		CUDA_CHECK_GOTO(cudaStreamSynchronize(st_), done);
	}
done:
	rk_progress_end(&prog);
	rg_odev_free(&d);
	rg_ohost_free(&h);
	return st;
}

/* ---- a share's supports kept on the device (rkt_gpu.h) ---- */

#define RG_ADD_CHUNK ((uint64_t)1 << 24)  /* counters per peer copy and add (64 MB) */

struct rgpu_rkt_sup_s {
	rgpu_rt_t rt;
	rgpu_stats_t *stats, own;  /* the caller's, else own */
	rg_okeep_t k;
	int32_t tau;
	int64_t t;
	uint32_t **peer;   /* other ranks' supports, opened through CUDA IPC */
	int n_peer;
	uint32_t *tmp;     /* up to RG_ADD_CHUNK counters copied from a peer */
	uint64_t tmp_n;
};

extern "C" void rgpu_rkt_sup_free(rgpu_rkt_sup_t *u)
{
	if (!u) return;
	/* unchecked: runs on error paths too, where the first error is the one to report */
	rgpu_rkt_sup_close_peers(u);
	free(u->peer);
	cudaFree(u->k.S); cudaFree(u->k.reads); cudaFree(u->tmp);
	rgpu_rt_free(&u->rt);
	free(u);
}

extern "C" rk_status_t rgpu_rkt_sup_run(const rkt_opt_t *o, const rkt_set_t *s, int share, int nshare, const rgpu_opt_t *g,
                                        rgpu_rkt_sup_t **sup, rgpu_stats_t *stats)
{
	rk_status_t st;
	rg_pack_t pk;
	int ran = 0;
	double t_start = rk_realtime();
	*sup = 0;
	if (o->k < 0 || o->t < 1 || o->tau < 1 || o->tau > s->max_len || s->max_len > rgpu_rkt_max_len(o->tau)) return RK_OK;
	rgpu_rkt_sup_t *u = (rgpu_rkt_sup_t *)calloc(1, sizeof *u);
	if (!u) { rk_set_error("out of memory"); return RK_ERES; }
	u->stats = stats ? stats : &u->own;
	u->tau = (int32_t)o->tau; u->t = o->t;
	memset(u->stats, 0, sizeof *u->stats);
	if ((st = rgpu_rt_init(&u->rt, g, u->stats)) == RK_OK && (st = rg_pack_build(&pk, s, g->n_threads)) == RK_OK) {
		st = rg_once_run(o, s, 0, s->n, &pk, &u->rt, share, nshare, 0, &u->k, &ran);
		rg_pack_free(&pk);
	}
	u->stats->total_s = rk_realtime() - t_start;
	if (st || !ran) { rgpu_rkt_sup_free(u); return st; }
	*sup = u;
	return RK_OK;
}

extern "C" rk_status_t rgpu_rkt_sup_to_host(rgpu_rkt_sup_t *u, int n_threads, uint32_t **S, uint64_t *n_S)
{
	void *stage = 0;
	const size_t nb = 4 * (size_t)u->k.n_S, blk = (size_t)1 << 27;
	const double t0 = rk_realtime();
	rk_status_t st = RK_OK;
	*n_S = u->k.n_S;
	if (!(*S = (uint32_t *)malloc(nb + 4))) { rk_set_error("out of memory for %llu support counters", (unsigned long long)u->k.n_S); return RK_ERES; }
	/* through a pinned buffer: a pageable copy runs at ~1.6 GB/s (H200 host) */
	CUDA_CHECK_GOTO(cudaMallocHost(&stage, blk < nb ? blk : nb + 4), done);
	for (size_t o = 0; o < nb; o += blk) {
		const size_t c = nb - o < blk ? nb - o : blk;
		CUDA_CHECK_GOTO(cudaMemcpyAsync(stage, (const char *)u->k.S + o, c, cudaMemcpyDeviceToHost, u->rt.st), done);
		CUDA_CHECK_GOTO(cudaStreamSynchronize(u->rt.st), done);
		rg_par_memcpy((char *)*S + o, stage, c, n_threads);
	}
	rk_debug("rkt gpu: %.3g GB of supports to the host in %.3f s", 1e-9 * (double)nb, rk_realtime() - t0);
done:
	if (stage) cudaFreeHost(stage);
	if (st) { free(*S); *S = 0; }
	return st;
}

extern "C" rk_status_t rgpu_rkt_sup_export(const rgpu_rkt_sup_t *u, unsigned char *h)
{
	cudaIpcMemHandle_t m;
	CUDA_CHECK(cudaIpcGetMemHandle(&m, u->k.S));
	memset(h, 0, RGPU_IPC_BYTES);
	memcpy(h, &m, sizeof m < RGPU_IPC_BYTES ? sizeof m : RGPU_IPC_BYTES);
	return RK_OK;
}

extern "C" rk_status_t rgpu_rkt_sup_open_peers(rgpu_rkt_sup_t *u, const unsigned char *h, int n, int self)
{
	if (!(u->peer = (uint32_t **)calloc((size_t)n + 1, sizeof *u->peer))) { rk_set_error("out of memory"); return RK_ERES; }
	u->n_peer = n;
	for (int q = 0; q < n; q++) {
		if (q == self) continue;
		cudaIpcMemHandle_t m;
		memcpy(&m, h + (size_t)q * RGPU_IPC_BYTES, sizeof m);
		const cudaError_t e = cudaIpcOpenMemHandle((void **)&u->peer[q], m, cudaIpcMemLazyEnablePeerAccess);
		if (e != cudaSuccess) {
			cudaGetLastError();
			rk_set_error("CUDA IPC: the supports of rank %d cannot be opened: %s", q, cudaGetErrorString(e));
			for (int r = 0; r < q; r++) if (u->peer[r]) cudaIpcCloseMemHandle(u->peer[r]);
			free(u->peer); u->peer = 0; u->n_peer = 0;
			return RK_ERES;
		}
	}
	return RK_OK;
}

extern "C" void rgpu_rkt_sup_close_peers(rgpu_rkt_sup_t *u)
{
	/* unchecked: also on error paths, where the first error is the one to report */
	for (int q = 0; q < u->n_peer; q++) if (u->peer[q]) { cudaIpcCloseMemHandle(u->peer[q]); u->peer[q] = 0; }
}

extern "C" rk_status_t rgpu_rkt_sup_add(rgpu_rkt_sup_t *u, const rgpu_rkt_sup_t *other, uint64_t off, uint64_t n)
{
	rk_status_t st = RK_OK;
	const uint64_t tn = n < RG_ADD_CHUNK ? n : RG_ADD_CHUNK;
	if (off + n > u->k.n_S || (other && off + n > other->k.n_S)) { rk_set_error("support range out of bounds"); st = RK_ERES; goto done; }
	if (tn > u->tmp_n) {
		cudaFree(u->tmp); u->tmp = 0; u->tmp_n = 0;
		CUDA_CHECK_GOTO(cudaMalloc(&u->tmp, 4 * tn), done);
		u->tmp_n = tn;
	}
	for (int q = 0; q < (other ? 1 : u->n_peer); q++) {
		const uint32_t *src = other ? other->k.S : u->peer[q];
		if (!src) continue;
		for (uint64_t a = 0; a < n; a += RG_ADD_CHUNK) {
			const uint64_t c = n - a < RG_ADD_CHUNK ? n - a : RG_ADD_CHUNK;
			/* a copy, not a kernel reading the peer: it takes NVLink or the host, whatever joins the two */
			CUDA_CHECK_GOTO(cudaMemcpyAsync(u->tmp, src + off + a, 4 * c, cudaMemcpyDefault, u->rt.st), done);
			CUDA_CHECK_GOTO(rg_launch_add(u->k.S + off + a, u->tmp, (int64_t)c, u->rt.st), done);
		}
	}
	CUDA_CHECK_GOTO(cudaStreamSynchronize(u->rt.st), done);
done:
	/* closed now, on every path, with no copy from them left queued: a peer may free its
	 * supports as soon as every rank is past this */
	if (st) cudaStreamSynchronize(u->rt.st);
	if (!other) rgpu_rkt_sup_close_peers(u);
	return st;
}

extern "C" rk_status_t rgpu_rkt_sup_cands(rgpu_rkt_sup_t *u, int64_t lo, int64_t hi, rkt_cand_t *out)
{
	rkt_cand_t *d = 0;
	rk_status_t st = RK_OK;
	if (lo < 0 || hi > u->k.nr || lo > hi) { rk_set_error("read range out of bounds"); return RK_ERES; }
	if (hi == lo) return RK_OK;
	CUDA_CHECK(cudaMalloc(&d, sizeof(rkt_cand_t) * (size_t)(hi - lo)));
	{
		rg_ocand_arg_t ca = { u->k.S, u->k.reads + lo, hi - lo, u->tau, u->t, d };
		if ((st = rgpu_rt_timed(&u->rt, rg_ocand_cb, &ca)) != RK_OK) goto done;
		u->stats->n_launch--;  /* launches count the support kernels */
		CUDA_CHECK_GOTO(cudaMemcpyAsync(out, d, sizeof(rkt_cand_t) * (size_t)(hi - lo), cudaMemcpyDeviceToHost, u->rt.st), done);
		CUDA_CHECK_GOTO(cudaStreamSynchronize(u->rt.st), done);
	}
done:
	cudaFree(d);
	return st;
}

extern "C" void rgpu_rkt_support_offs(const rkt_set_t *s, int64_t tau, const int64_t *at, int n_at, uint64_t *off)
{
	uint64_t tot = 0;
	int64_t q = 0;
	for (int a = 0; a < n_at; a++) {
		for (; q < at[a]; q++) tot += rg_ncounters(s->len[q], tau);
		off[a] = tot;
	}
}

extern "C" void rgpu_rkt_cands_from_supports(const rkt_set_t *s, int64_t tau, int64_t t, const uint32_t *S, int64_t lo,
                                             int64_t hi, rkt_cand_t *out)
{
	uint64_t off;
	rgpu_rkt_support_offs(s, tau, &lo, 1, &off);
	for (int64_t r = lo; r < hi; r++) {
		out[r - lo] = rg_cand_of(S + off, s->len[r], tau, t);
		off += rg_ncounters(s->len[r], tau);
	}
}
