/* `rktlcs calibrate`: this machine's rates for --backend auto (docs/calibrate.md). */
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "mpi/plan/plan.h"

static void cal_usage(FILE *fp)
{
	fprintf(fp,
"rktlcs calibrate %s - measure this machine's rates for --backend auto\n"
"\n"
"Usage: rktlcs calibrate [options]\n"
"\n"
"Runs each kind of work of auto's cost model (Rkt-LCS pairs, hamming words, short pairs' cells,\n"
"a long pair's cells and steps, lev --all pairs, a GPU context's start) on synthetic inputs, on\n"
"the CPU at the threads the modes use and on the GPU, and writes their rates with a description\n"
"of the machine. Later jobs' auto uses them where the machine and version match, and the\n"
"built-in table otherwise (-v says which). One process: under mpirun, run it once per node type.\n"
"\n"
"Options:\n"
"      --rates FILE        where to write [$RKTLCS_RATES, else\n"
"                          $XDG_CACHE_HOME or ~/.cache, /rktlcs/rates-HOST.json]\n"
"      --backend B         cpu: the CPU's rates alone (the GPU's stay the built-in table's);\n"
"                          gpu: the GPU's alone; auto: both where a GPU is usable [auto]\n"
"      --seconds S         about how long the probes may take [10]\n"
"      --threads INT       CPU threads of the probes [every core, as the modes take them]\n"
"  -q, --quiet             errors only\n"
"  -v, --verbose           each probe's size, time and speed\n"
"  -h, --help              this help;  --version  print the version\n"
"\n"
"The file: JSON, docs/calibrate.md. A shared file system: one file per node type, named with\n"
"--rates or RKTLCS_RATES in the jobs.\n" RCLI_DETAILS("calibrate.md")
"Exit status: 0 success, 1 usage, 2 a probe failed or the file cannot be written.\n", RKTLCS_VERSION);
}

static int cal_opt(void *op, rcli_args_t *a, rk_status_t *st)
{
	rmpi_calib_opt_t *o = op;
	const char *v;
	if (rcli_is(a, "--backend", 0)) {
		if (!(v = rcli_value(a))) *st = RK_EINPUT;
		else if (!strcmp(v, "cpu")) o->cpu = 1, o->gpu = 0;
		else if (!strcmp(v, "gpu")) o->cpu = 0, o->gpu = 1;
		else if (!strcmp(v, "auto")) o->cpu = o->gpu = 1;
		else { rk_set_error("--backend: '%s' is not cpu, gpu or auto", v); *st = RK_EINPUT; }
	} else if (rcli_is(a, "--seconds", 0)) {
		int64_t x;
		if ((*st = rcli_int(a, 1, 3600, &x)) == RK_OK) o->budget = (double)x;
	} else return 0;
	return 1;
}

static void cal_inputs(void *op, const char **in, int n) { (void)op; (void)in; (void)n; }
static rk_status_t cal_check(const void *o) { (void)o; return RK_OK; }

static rk_status_t cal_run(const rmpi_t *w, const void *op)
{
	rmpi_calib_opt_t o = *(const rmpi_calib_opt_t *)op;
	if (w->size > 1) {
		if (w->rank == 0) rk_err("calibrate runs as one process (it starts its own probes): run it without mpirun, once per node type");
		return RK_EINPUT;
	}
	o.threads = o.c.threads_given ? o.c.threads : 0;
	o.rates = o.c.rates;
	rk_status_t st = rmpi_calibrate(&o);
	if (st) rk_err("%s", rk_error());
	return st;
}

/* no GPU context in this process: its probes make their own */
static double cal_guess(const void *o, double th, rmpi_guess_t *g) { (void)o; (void)th; g->gpu_min = 1; return 0; }

int rcli_calibrate_main(int argc, char **argv)
{
	static const rcli_ops_t ops = { "rktlcs calibrate --help", 0, cal_usage, cal_opt, cal_inputs, cal_check, cal_run, 0, cal_guess, 0 };
	static char self[4096];
	rmpi_calib_opt_t o;
	rmpi_calib_opt_init(&o);
	const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) { self[n] = 0; o.self = self; }
	return rcli_mode(argc, argv, &o, &o.c, &ops);
}
