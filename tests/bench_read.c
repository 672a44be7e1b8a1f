/* The reader alone (issue 15's input-speed row): parse FILE as the modes do and print the
 * records, bases and GB/s of the file's bytes. Usage: rkt_readbench FILE [THREADS] */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "io/rio.h"

int main(int argc, char **argv)
{
	if (argc < 2) { fprintf(stderr, "usage: rkt_readbench FILE [THREADS]\n"); return 1; }
	struct stat sb;
	if (stat(argv[1], &sb)) { perror(argv[1]); return 1; }
	rk_tune_init();   /* RKTLCS_READ_WINDOW */
	rio_set_threads(argc > 2 ? atoi(argv[2]) : 1);
	rio_reads_t r;
	double t0 = rk_realtime();
	rk_status_t st = rio_read_all(argv[1], &r);
	double dt = rk_realtime() - t0;
	if (st) { fprintf(stderr, "%s\n", rk_error()); return 1; }
	printf("%lld records, %lld bases, %.3f s, %.3f GB/s, %d slice(s)\n", (long long)r.n, (long long)r.n_bases, dt,
	       sb.st_size / dt / 1e9, rio_read_slices());
	rio_reads_free(&r);
	return 0;
}
