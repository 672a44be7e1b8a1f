/* The lcs mode's command line (docs/lcs.md). */
#include <string.h>
#include "cli/cli.h"
#include "mpi/run/lcs_run.h"

static void lcs_usage(FILE *fp)
{
	fprintf(fp,
"rktlcs lcs %s - longest common subsequence of sequence pairs\n"
"\n"
"Usage: rktlcs lcs [options] A B            record r of A against record r of B (or one record\n"
"                                            against every record of the other file)\n"
"       mpirun -np N rktlcs lcs [options] A B\n"
"\n"
"Subsequence:\n"
"      --seq               add the subsequence\n"
"      --path              add the canonical alignment: runs of M (kept pair), I (a symbol of\n"
"                          A dropped), D (a symbol of B dropped)\n"
"Output (--format paf: one PAF line per pair, needs --path):\n", RKTLCS_VERSION);
	rcli_common_usage(fp, 1, 1);
	fprintf(fp,
"\n"
"Columns: name_a name_b len_a len_b lcs [subsequence] [path]. Among the longest common\n"
"subsequences, the one of the leftmost path: at every step I, then M, then D first.\n"
"PAF: qname qlen 0 qlen + tname tlen 0 tlen matches(=lcs) block_len 255 NM:i:(I+D)\n"
"cg:Z: with the kept pairs as = (they are equal symbols).\n"
"Summary on stderr: pairs, cells, ranks, threads, backend, time, cells/s.\n" RCLI_DETAILS("lcs.md")
"Exit status: 0 success, 1 bad input or usage, 2 resource failure.\n");
}

static int lcs_opt(void *op, rcli_args_t *a, rk_status_t *st)
{
	lcs_run_opt_t *o = op;
	(void)st;
	if (rcli_is(a, "--seq", 0)) o->seq = 1;
	else if (rcli_is(a, "--path", 0)) o->algo.path = 1;
	else return 0;
	return 1;
}

static void lcs_inputs(void *op, const char **in, int n)
{
	lcs_run_opt_t *o = op;
	o->in_a = n > 0 ? in[0] : 0;
	o->in_b = n > 1 ? in[1] : 0;
}

static rk_status_t lcs_check(const void *o) { return lcs_run_opt_check(o); }
static rk_status_t lcs_run(const rmpi_t *w, const void *o) { return rmpi_lcs_run(w, o); }
static double lcs_guess(const void *op, double th, rmpi_guess_t *g)
{
	const lcs_run_opt_t *o = op;
	return rmpi_guess_pairs(o->in_a, o->in_b, 0, -1, 1, o->algo.path || o->seq, th, g);
}

static int lcs_gpu_ranks(const void *o) { return rmpi_guess_pair_ranks(((const lcs_run_opt_t *)o)->in_a, ((const lcs_run_opt_t *)o)->in_b, 0); }

int rcli_lcs_main(int argc, char **argv)
{
	static const rcli_ops_t ops = { "rktlcs lcs --help", 2, lcs_usage, lcs_opt, lcs_inputs, lcs_check, lcs_run, 0, lcs_guess,
	                                lcs_gpu_ranks };
	lcs_run_opt_t o;
	lcs_run_opt_init(&o);
	return rcli_mode(argc, argv, &o, &o.c, &ops);
}
