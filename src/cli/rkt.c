/* The rkt mode's command line (docs/rkt.md). -tau is accepted with one dash so that the
 * paper's "rktlcs reads.fq -k 10 -t 1000 -tau 15" works verbatim. */
#include <string.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "mpi/run/rkt_run.h"

/* input bytes from which the ranks map each other's GPU memory: on 4 H200 (64 cores) the host
 * sum cost 1.5 s of 10.6 at 354k reads of 51 bp on 2 GPUs (22 MB) and 3.7 s of 13.3 at 500k on
 * 4 (31 MB), against 0.25 s a device for the driver to start them all (~7 us a read at 4
 * ranks against 0.75 s: about 100k reads, 6 MB) */
#define RKT_PEER_BYTES 6.0e6

static void rkt_usage(FILE *fp)
{
	fprintf(fp,
"rktlcs %s - compare sequencing reads at scale\n"
"\n"
"Usage: rktlcs [rkt] [options] READS            (READS: FASTA/FASTQ, plain/gzip/BGZF, '-' = stdin)\n"
"       mpirun -np N rktlcs READS -k K -t T -tau TAU\n"
"       rktlcs MODE --help                       (modes below; also: rktlcs help MODE, rktlcs version)\n"
"\n", RKTLCS_VERSION);
	for (int i = 0; i < rcli_n_modes; i++) fprintf(fp, "  %-8s %s\n", rcli_modes[i].name, rcli_modes[i].summary);
	fprintf(fp,
"\n"
"Rkt-LCS: the longest substring of a read, length >= TAU, occurring with at most K\n"
"mismatches in at least T other reads.\n"
"\n"
"Required:\n"
"  -k, --mismatches INT    mismatches allowed per occurrence (>= 0)\n"
"  -t, --min-reads INT     other reads that must contain it (>= 1)\n"
"  -tau, --tau INT         minimum length (>= 1)\n"
"Output:\n"
"      --candidates FILE   also write every read's candidate to FILE\n"
"      --occurrences       list the winner's occurrence in each supporting read\n");
	rcli_common_usage(fp, 1, 0);
	fprintf(fp,
"\n"
"Output columns: index (1-based), name, pos (0-based), len, support, substring. The winner is\n"
"the longest candidate; ties go to the smallest read index, then the smallest pos.\n"
"Summary on stderr: reads, bases, ranks, threads, backend, time, read pairs/s; then the\n"
"time of each stage.\n" RCLI_DETAILS("rkt.md")
"Exit status: 0 success (also when no candidate exists), 1 bad input or usage,\n"
"2 resource failure (memory, device).\n");
}

static int rkt_opt(void *op, rcli_args_t *a, rk_status_t *st)
{
	rkt_run_opt_t *o = op;
	/* "-tau15", as "-k1" and "-t1000" (which the common parser splits) */
	if (!strncmp(a->name, "-tau", 4) && a->name[4] >= '0' && a->name[4] <= '9' && !a->eq) {
		a->eq = a->name + 4;
		a->name = "-tau";
	}
	if (rcli_is(a, "-k", "--mismatches")) *st = rcli_int(a, 0, INT64_MAX, &o->algo.k);
	else if (rcli_is(a, "-t", "--min-reads")) *st = rcli_int(a, 1, INT64_MAX, &o->algo.t);
	else if (rcli_is(a, "-tau", "--tau")) *st = rcli_int(a, 1, INT64_MAX, &o->algo.tau);
	else if (rcli_is(a, "--candidates", 0)) *st = (o->candidates = rcli_file(a)) ? RK_OK : RK_EINPUT;
	else if (rcli_is(a, "--occurrences", 0)) o->occurrences = 1;
	else return 0;
	return 1;
}

static void rkt_inputs(void *o, const char **in, int n) { ((rkt_run_opt_t *)o)->input = n ? in[0] : 0; }
static rk_status_t rkt_check(const void *o) { return rkt_run_opt_check(o); }
static rk_status_t rkt_run(const rmpi_t *w, const void *o) { return rmpi_rkt_run(w, o); }
static double rkt_guess(const void *o, double th, rmpi_guess_t *g) { return rmpi_guess_rkt(((const rkt_run_opt_t *)o)->input, th, g); }
/* GPU ranks of one node add each other's supports in device memory (CUDA IPC), which needs
 * every device visible: worth the driver starting them all (~0.25 s each) only where the host
 * sum would take longer (RKT_PEER_BYTES); smaller inputs sum through the host with one device
 * visible per rank */
static int rkt_gpu_ranks(const void *op) { return rmpi_guess_rkt_ranks(((const rkt_run_opt_t *)op)->input); }
static int rkt_peers(const void *op)
{
	const rkt_run_opt_t *o = op;
	struct stat sb;
	if (rk_tune.rkt_host_sum || !o->input || stat(o->input, &sb) != 0) return 0;
	const size_t n = strlen(o->input);
	const double bytes = (double)sb.st_size * (n > 3 && !strcmp(o->input + n - 3, ".gz") ? 4 : 1);
	return bytes >= RKT_PEER_BYTES;
}

int rcli_rkt_main(int argc, char **argv)
{
	static const rcli_ops_t ops = { "rktlcs --help", 1, rkt_usage, rkt_opt, rkt_inputs, rkt_check, rkt_run, rkt_peers, rkt_guess,
	                                rkt_gpu_ranks };
	rkt_run_opt_t o;
	rkt_run_opt_init(&o);
	return rcli_mode(argc, argv, &o, &o.c, &ops);
}
