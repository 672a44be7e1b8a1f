/* librktlcs's GPU backend (librktlcs.h, `gpu` >= 0): the command's device entry points, so
 * the GPU gives the CPU's results; without CUDA every call refuses with RKL_EDEVICE. */
#include "lib/lib_int.h"
#include "gpu/rgpu.h"
#include "gpu/lev_gpu.h"
#include "gpu/lcs_gpu.h"
#include "gpu/ham_gpu.h"
#include "gpu/rkt_gpu.h"

int rkl_gpu_count(void) { return rgpu_device_count(); }

#ifdef RKTLCS_HAVE_CUDA
/* the device dev with threads packing threads, or RKL_EDEVICE when there is no such device */
static rkl_status_t lib_gpu_opt(int dev, int threads, rgpu_opt_t *g)
{
	const int n = rgpu_device_count();
	if (dev >= n) { rk_set_error("no CUDA device %d (this machine has %d)", dev, n); return RKL_EDEVICE; }
	rgpu_opt_init(g);
	g->device = dev;
	g->n_threads = threads;
	return RKL_OK;
}

/* a device call's failure is the device's (memory, driver), not the input's */
static rkl_status_t lib_gpu_status(rk_status_t st) { return st == RK_OK ? RKL_OK : st == RK_ERES ? RKL_EDEVICE : RKL_EINPUT; }

rkl_status_t lib_gpu_lev(const lev_opt_t *o, const aln_pair_t *p, int64_t n, int dev, int64_t *d, aln_path_t *paths,
                         aln_ends_t *ends)
{
	rgpu_opt_t g;
	rgpu_stats_t st = { 0 };
	rkl_status_t s = lib_gpu_opt(dev, o->n_threads, &g);
	if (s) return s;
	return lib_gpu_status(ends ? rgpu_lev_mode_batch(o, p, n, &g, d, paths, ends, &st) : rgpu_lev_batch(o, p, n, &g, d, paths, &st));
}

rkl_status_t lib_gpu_lcs(const lcs_opt_t *o, const aln_pair_t *p, int64_t n, int dev, int64_t *len, aln_path_t *paths)
{
	rgpu_opt_t g;
	rgpu_stats_t st = { 0 };
	rkl_status_t s = lib_gpu_opt(dev, o->n_threads, &g);
	return s ? s : lib_gpu_status(rgpu_lcs_batch(o, p, n, &g, len, paths, &st));
}

rkl_status_t lib_gpu_ham_rows(const ham_set_t *h, const ham_opt_t *o, int dev, uint32_t *out)
{
	rgpu_opt_t g;
	rgpu_stats_t st = { 0 };
	rkl_status_t s = lib_gpu_opt(dev, o->n_threads, &g);
	return s ? s : lib_gpu_status(rgpu_ham_block(h, o, 0, h->n, &g, out, h->n, &st));
}

rkl_status_t lib_gpu_ham_pairs(const ham_set_t *h, const ham_opt_t *o, int dev, uint32_t maxd, ham_pair_t **pairs, int64_t *np)
{
	rgpu_opt_t g;
	rgpu_stats_t st = { 0 };
	rkl_status_t s = lib_gpu_opt(dev, o->n_threads, &g);
	return s ? s : lib_gpu_status(rgpu_ham_pairs(h, o, 0, h->n, maxd, &g, pairs, np, &st));
}

rkl_status_t lib_gpu_rkt(const rkt_opt_t *o, const rkt_set_t *set, int dev, rkt_cand_t *c)
{
	rgpu_opt_t g;
	rgpu_stats_t st = { 0 };
	rkl_status_t s = lib_gpu_opt(dev, o->n_threads, &g);
	if (s) return s;
	if (set->max_len > rgpu_rkt_max_len(o->tau)) {
		rk_set_error("reads of %d symbols: the GPU takes at most %d at tau %lld (use the CPU)", (int)set->max_len,
		             (int)rgpu_rkt_max_len(o->tau), (long long)o->tau);
		return RKL_EDEVICE;
	}
	return lib_gpu_status(rgpu_rkt_candidates(o, set, 0, set->n, &g, c, &st));
}
#else
static rkl_status_t lib_no_gpu(void) { rk_set_error("librktlcs was built without CUDA: only the CPU (gpu = -1)"); return RKL_EDEVICE; }
rkl_status_t lib_gpu_lev(const lev_opt_t *o, const aln_pair_t *p, int64_t n, int dev, int64_t *d, aln_path_t *paths,
                         aln_ends_t *ends)
{
	(void)o; (void)p; (void)n; (void)dev; (void)d; (void)paths; (void)ends;
	return lib_no_gpu();
}
rkl_status_t lib_gpu_lcs(const lcs_opt_t *o, const aln_pair_t *p, int64_t n, int dev, int64_t *len, aln_path_t *paths)
{
	(void)o; (void)p; (void)n; (void)dev; (void)len; (void)paths;
	return lib_no_gpu();
}
rkl_status_t lib_gpu_ham_rows(const ham_set_t *h, const ham_opt_t *o, int dev, uint32_t *out)
{
	(void)h; (void)o; (void)dev; (void)out;
	return lib_no_gpu();
}
rkl_status_t lib_gpu_ham_pairs(const ham_set_t *h, const ham_opt_t *o, int dev, uint32_t maxd, ham_pair_t **pairs, int64_t *np)
{
	(void)h; (void)o; (void)dev; (void)maxd; (void)pairs; (void)np;
	return lib_no_gpu();
}
rkl_status_t lib_gpu_rkt(const rkt_opt_t *o, const rkt_set_t *set, int dev, rkt_cand_t *c)
{
	(void)o; (void)set; (void)dev; (void)c;
	return lib_no_gpu();
}
#endif
