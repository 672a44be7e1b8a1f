/* The lev mode's command line (docs/lev.md). */
#include <string.h>
#include "cli/cli.h"
#include "mpi/run/lev_run.h"

static void lev_usage(FILE *fp)
{
	fprintf(fp,
"rktlcs lev %s - Levenshtein (unit edit) distance and CIGAR of sequence pairs\n"
"\n"
"Usage: rktlcs lev [options] A B            record r of A against record r of B (or one record\n"
"                                            against every record of the other file)\n"
"       rktlcs lev --all [options] A        every pair i < j of A, in (i, j) order\n"
"       mpirun -np N rktlcs lev [options] A B\n"
"\n"
"Distance:\n"
"  -k INT                  only distances <= INT are needed (banded, faster); larger ones print *\n"
"      --mode M            global: A against all of B [global]; prefix: against B[0, end), the\n"
"                          end free (edlib SHW); infix: against B[start, end), both free (HW);\n"
"                          prefix and infix add the column ends (every end of B with the best\n"
"                          distance, one past its last symbol) and, with --path, start\n"
"      --path              add the canonical alignment as an extended CIGAR (=, X, I, D); with\n"
"                          prefix or infix, of A against B[start, end) for the first end\n"
"      --all               every pair of records of A\n"
"      --max-dist INT      with --all: keep the pairs with distance <= INT\n"
"Output (--format paf: one PAF line per pair, needs --path):\n", RKTLCS_VERSION);
	rcli_common_usage(fp, 1, 1);
	fprintf(fp,
"\n"
"Columns: name_a name_b len_a len_b distance [ends] [start cigar]. CIGAR as in SAM with A as\n"
"the query:\n"
"= and X consume both, I a symbol of A only, D a symbol of B only. Among optimal alignments\n"
"the one that takes I, then =/X, then D first at every step (the leftmost path).\n"
"PAF: qname qlen qstart qend + tname tlen tstart tend matches block_len 255 NM:i: cg:Z:, A as\n"
"the query, B as the target; a pair beyond -k: qname qlen 0 0 * tname tlen 0 0 0 0 0.\n"
"Summary on stderr: pairs, cells, ranks, threads, backend, time, cells/s.\n" RCLI_DETAILS("lev.md")
"Exit status: 0 success, 1 bad input or usage, 2 resource failure.\n");
}

static int lev_opt(void *op, rcli_args_t *a, rk_status_t *st)
{
	lev_run_opt_t *o = op;
	if (rcli_is(a, "-k", "--max-edits")) *st = rcli_int(a, 0, INT64_MAX, &o->algo.k);
	else if (rcli_is(a, "--path", 0)) o->algo.path = 1;
	else if (rcli_is(a, "--mode", 0)) {
		const char *v = rcli_value(a);
		if (!v) *st = RK_EINPUT;
		else if (!strcmp(v, "global")) o->algo.mode = LEV_GLOBAL;
		else if (!strcmp(v, "prefix")) o->algo.mode = LEV_PREFIX;
		else if (!strcmp(v, "infix")) o->algo.mode = LEV_INFIX;
		else { rk_set_error("--mode: '%s' is not global, prefix or infix", v); *st = RK_EINPUT; }
	}
	else if (rcli_is(a, "--all", 0)) o->all = 1;
	else if (rcli_is(a, "--max-dist", 0)) *st = rcli_int(a, 0, INT64_MAX, &o->max_dist);
	else return 0;
	return 1;
}

static void lev_inputs(void *op, const char **in, int n)
{
	lev_run_opt_t *o = op;
	o->in_a = n > 0 ? in[0] : 0;
	o->in_b = n > 1 ? in[1] : 0;
}

static rk_status_t lev_check(const void *o) { return lev_run_opt_check(o); }
static rk_status_t lev_run(const rmpi_t *w, const void *o) { return rmpi_lev_run(w, o); }
static double lev_guess(const void *op, double th, rmpi_guess_t *g)
{
	const lev_run_opt_t *o = op;
	return rmpi_guess_pairs(o->in_a, o->in_b, o->all, o->max_dist, 0, o->algo.path, th, g);
}

static int lev_gpu_ranks(const void *op)
{
	const lev_run_opt_t *o = op;
	return rmpi_guess_pair_ranks(o->in_a, o->in_b, o->all);
}

int rcli_lev_main(int argc, char **argv)
{
	static const rcli_ops_t ops = { "rktlcs lev --help", 2, lev_usage, lev_opt, lev_inputs, lev_check, lev_run, 0, lev_guess,
	                                lev_gpu_ranks };
	lev_run_opt_t o;
	lev_run_opt_init(&o);
	return rcli_mode(argc, argv, &o, &o.c, &ops);
}
