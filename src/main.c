/* rktlcs: thin entry point; everything else is in the library. */
#include <stdio.h>
#include "rktlcs.h"
#include "mpi/rmpi.h"
#include "gpu/rgpu.h"

int main(int argc, char **argv)
{
	rmpi_opt_t o;
	rmpi_opt_init(&o);
	rk_status_t st = rmpi_parse(&o, argc, argv);
	if (o.help) { rmpi_usage(stdout, o.mode); return 0; }
	if (o.version) {
		/* what this build can run on, the way samtools --version lists its features */
		int nd = rgpu_device_count();
		char name[256] = "";
		printf("rktlcs %s\ncpu: OpenMP, %s\n", RKTLCS_VERSION, rkt_simd_name(0));
#ifdef RKTLCS_HAVE_CUDA
		if (nd > 0 && rgpu_device_name(0, name, sizeof name) == RK_OK)
			printf("gpu: CUDA, %d device%s (%s)\n", nd, nd > 1 ? "s" : "", name);
		else printf("gpu: CUDA, no usable device\n");
#else
		(void)nd; (void)name;
		printf("gpu: not built (no CUDA compiler at build time)\n");
#endif
		return 0;
	}
	if (st) {
		fprintf(stderr, "[rktlcs] error: %s\n", rk_error());
		if (argc <= 1) rmpi_usage(stderr, o.mode);
		return 1;
	}
	if (o.quiet) rk_verbose = 0;
	rmpi_t w;
	if ((st = rmpi_init(&w, &argc, &argv)) != RK_OK) {
		fprintf(stderr, "[rktlcs] error: %s\n", rk_error());
		return 2;
	}
	st = o.mode == RMPI_MODE_HAMMING ? rmpi_run_ham(&w, &o) : rmpi_run_rkt(&w, &o);
	rmpi_finalize(&w);
	return rk_exit_code(st);
}
