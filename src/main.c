/* rktlcs: thin entry point; everything else is in the library. */
#include <stdio.h>
#include "rktlcs.h"
#include "mpi/rmpi.h"

int main(int argc, char **argv)
{
	rmpi_opt_t o;
	rmpi_opt_init(&o);
	rk_status_t st = rmpi_parse(&o, argc, argv);
	if (o.help) { rmpi_usage(stdout, o.mode); return 0; }
	if (o.version) { printf("rktlcs %s\n", RKTLCS_VERSION); return 0; }
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
	st = rmpi_run_rkt(&w, &o);
	rmpi_finalize(&w);
	return rk_exit_code(st);
}
