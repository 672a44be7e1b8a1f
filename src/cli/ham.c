/* The hamming mode's command line (docs/hamming.md): snp-dists' letters. */
#include <string.h>
#include "cli/cli.h"
#include "mpi/run/ham_run.h"
#include "io/rio.h"

static void ham_usage(FILE *fp)
{
	fprintf(fp,
"rktlcs hamming %s - pairwise SNP / Hamming distances (snp-dists compatible)\n"
"\n"
"Usage: rktlcs hamming [options] SEQS       (equal-length FASTA/FASTQ, plain/gzip, '-' = stdin)\n"
"       mpirun -np N rktlcs hamming [options] SEQS\n"
"\n"
"Distances:\n"
"  -a                      count every differing position [only A/C/G/T vs A/C/G/T]\n"
"  -k                      keep case (lowercase counts as unknown without -a)\n"
"  -x INT                  cap values at INT\n"
"Output (TSV matrix, top-left cell 'rktlcs-hamming'):\n"
"  -b                      blank top-left cell\n"
"  -c                      comma-separated\n"
"  -m                      long format: name1 name2 dist, all ordered pairs\n"
"  -L                      lower triangle only; with -m each pair once (name2 at or after name1)\n"
"  -t                      header line on the long formats (-m, --max-dist)\n"
"      --max-dist INT      long format of the pairs i < j with dist <= INT (sparse, scales)\n"
"  -j INT                  CPU threads per rank, as --threads\n", RKTLCS_VERSION);
	rcli_common_usage(fp, 1, 0);
	fprintf(fp,
"\n"
"snp-dists' options -a -b -c -j -k -L -m -q -t -x and -h mean the same here; its -v (version)\n"
"is rktlcs' -v (verbose): use --version. Values may be attached and flags bundled (-bcL -x5).\n"
"Matrix rows and columns in input order; -m: name1 name2 dist for every ordered pair;\n"
"--max-dist: name1 name2 dist for the pairs i < j within D, sorted by (i, j).\n"
"Summary on stderr: sequences, columns (informative), ranks, threads, backend, time, pairs/s.\n"
RCLI_DETAILS("hamming.md")
"Exit status: 0 success, 1 bad input or usage, 2 resource failure.\n");
}

static int ham_opt(void *op, rcli_args_t *a, rk_status_t *st)
{
	ham_run_opt_t *o = op;
	int64_t x;
	if (rcli_is(a, "-a", 0)) o->algo.all = 1;
	else if (rcli_is(a, "-k", 0)) o->keep_case = 1;
	else if (rcli_is(a, "-b", 0)) o->lay.blank = 1;
	else if (rcli_is(a, "-c", 0)) o->lay.csv = 1;
	else if (rcli_is(a, "-m", 0)) o->lay.molten = 1;
	else if (rcli_is(a, "-L", 0)) o->lay.lower = 1;
	else if (rcli_is(a, "-t", 0)) o->lay.header = 1;
	else if (rcli_is(a, "-j", 0)) { if ((*st = rcli_int(a, 1, INT32_MAX, &x)) == RK_OK) o->c.threads = (int)x; o->c.threads_given = 1; }
	else if (rcli_is(a, "-x", 0)) { if ((*st = rcli_int(a, 1, UINT32_MAX - 1, &x)) == RK_OK) o->algo.cap = (uint32_t)x; }
	else if (rcli_is(a, "--max-dist", 0)) *st = rcli_int(a, 0, UINT32_MAX - 1, &o->lay.max_dist);
	else return 0;
	return 1;
}

static void ham_inputs(void *o, const char **in, int n) { ((ham_run_opt_t *)o)->input = n ? in[0] : 0; }
static rk_status_t ham_check(const void *o) { return ham_run_opt_check(o); }
static rk_status_t ham_run(const rmpi_t *w, const void *o)
{
	rio_set_sam_refuse_aligned(1);   /* aligned reads are no alignment's columns */
	return rmpi_ham_run(w, o);
}
static int ham_gpu_ranks(const void *o) { return rmpi_guess_ham_ranks(((const ham_run_opt_t *)o)->input); }
static double ham_guess(const void *o, double th, rmpi_guess_t *g) { return rmpi_guess_ham(((const ham_run_opt_t *)o)->input, th, g); }

int rcli_ham_main(int argc, char **argv)
{
	static const rcli_ops_t ops = { "rktlcs hamming --help", 1, ham_usage, ham_opt, ham_inputs, ham_check, ham_run, 0, ham_guess,
	                                ham_gpu_ranks };
	ham_run_opt_t o;
	ham_run_opt_init(&o);
	return rcli_mode(argc, argv, &o, &o.c, &ops);
}
