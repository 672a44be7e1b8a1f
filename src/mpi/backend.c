/* The backend policy every mode shares (rmpi.h). */
#include <stdio.h>
#include <string.h>
#include "mpi/rmpi.h"

rk_status_t rmpi_backend(const rmpi_t *w, const rk_common_t *c, int gpu_fits, const char *why_not, rmpi_be_t *be)
{
	memset(be, 0, sizeof *be);
	rgpu_opt_init(&be->g);
	be->g.mem_limit = c->device_memory;
	rk_status_t st = RK_OK;
	int ndev = c->backend == RK_BACKEND_CPU ? 0 : rgpu_device_count();
	if (c->backend == RK_BACKEND_GPU && ndev == 0) {
#ifdef RKTLCS_HAVE_CUDA
		rk_err("--backend gpu: no usable CUDA device on rank %d", w->rank);
#else
		rk_err("--backend gpu: this rktlcs was built without CUDA");
#endif
		st = RK_ERES;
	}
	if ((st = rmpi_agree(w, st)) != RK_OK) return st;
	if (ndev == 0) return RK_OK;
	if (c->backend == RK_BACKEND_AUTO && !gpu_fits) {
		if (w->rank == 0 && why_not) rk_info("%s; using the CPU", why_not);
		rgpu_warm_drop();
		return RK_OK;
	}
	be->use_gpu = 1;
	be->g.device = w->local_rank % ndev;
	if (rgpu_device_name(be->g.device, be->name, sizeof be->name) != RK_OK) snprintf(be->name, sizeof be->name, "?");
	return RK_OK;
}

int rmpi_gpu_failed(const rk_common_t *c, rmpi_be_t *be, rk_status_t st)
{
	if (c->backend == RK_BACKEND_AUTO && st != RK_EINPUT) {
		rk_warn("GPU: %s; using the CPU", rk_error());
		rk_clear_error();
		be->use_gpu = 0;
		return 1;
	}
	rk_err("%s", rk_error());
	return 0;
}

void rmpi_backend_desc(const rmpi_be_t *be, const char *cpu, char *buf, size_t size)
{
	const rgpu_stats_t *s = &be->stats;
	if (!be->use_gpu) { snprintf(buf, size, "cpu (%s)", cpu); return; }
	char chunks[96] = "";
	if (s->n_ichunk || s->n_jchunk)
		snprintf(chunks, sizeof chunks, ", %lld i-chunk%s, %lld j-chunk%s", (long long)s->n_ichunk, s->n_ichunk == 1 ? "" : "s",
		         (long long)s->n_jchunk, s->n_jchunk == 1 ? "" : "s");
	snprintf(buf, size, "gpu (%s; kernels %.3f s, %lld launch%s%s on rank 0)", be->name, s->kernel_s, (long long)s->n_launch,
	         s->n_launch == 1 ? "" : "es", chunks);
}
