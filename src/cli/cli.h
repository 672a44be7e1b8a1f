/* cli layer: the mode table (modes.c), the argument iterator and the options every mode
 * shares (args.c), and one file per mode that owns its options, usage and entry point.
 * Adding a mode: docs/DEVELOPING.md. */
#ifndef RCLI_H
#define RCLI_H

#include <stdio.h>
#include <stdint.h>
#include "rktlcs.h"
#include "mpi/plan/plan.h"

/* One row of the mode table, as samtools' command table. */
typedef struct {
	const char *name, *summary;
	int (*main)(int argc, char **argv);  /* argv[0] is the mode's name; returns the exit status */
} rcli_mode_t;

extern const rcli_mode_t rcli_modes[];
extern const int rcli_n_modes;

/* The whole program: dispatch on argv[1] (a mode, or the default rkt mode). */
int rcli_main(int argc, char **argv);

/* ---- argument iterator: "-x V", "--opt V", "--opt=V", the paper's "-tau V"; "--" ends
 * the options; "-" is a file name (stdin). rcli_parse (modes.c) also takes getopt's forms
 * for every mode: a value attached to a one-letter option ("-k1", "-x5", "-@4") and
 * one-letter flags bundled ("-bcL", "-bx 5"), tried only when the whole word is no option
 * ("-tau" stays one option) ---- */
typedef struct {
	int argc, i;
	char **argv;
	const char *name;   /* the option, without "=value" */
	const char *eq;     /* the value given as --opt=value, or NULL */
	const char *pos;    /* a positional argument */
	int only_pos;       /* after "--" */
	int eq_used;        /* the option's handler took eq as its value */
	char buf[64];
} rcli_args_t;

enum { RCLI_END = 0, RCLI_OPT = 1, RCLI_POS = 2 };

void rcli_args_init(rcli_args_t *a, int argc, char **argv);
int rcli_next(rcli_args_t *a);
int rcli_is(const rcli_args_t *a, const char *s1, const char *s2);
/* The option's value; NULL with rk_error() set when it is missing or looks like another
 * option (a value must not start with '-', except "-" itself and negative numbers). */
const char *rcli_value(rcli_args_t *a);
/* rcli_value for a file name: NULL with rk_error() set when it is also empty. */
const char *rcli_file(rcli_args_t *a);
rk_status_t rcli_int(rcli_args_t *a, int64_t min, int64_t max, int64_t *out);

/* Help, version and the options of rk_common_t, -q and -v (these set the log level).
 * Returns 1 when the current option was one of them (*st tells whether its value was
 * good), 0 when it is not a shared option. */
typedef struct { int help, version; } rcli_flags_t;
int rcli_common(rcli_args_t *a, rk_common_t *c, rcli_flags_t *f, rk_status_t *st);
/* The end of each mode's --help: the manual page and the installed docs, which the user has
 * (cmake --install), not the source tree, which they may not. */
#define RCLI_DETAILS(page) "Details: man rktlcs, and " page " in PREFIX/share/doc/rktlcs (PREFIX: where\n" \
	"rktlcs is installed, /usr/local by default).\n"
/* Usage lines of the shared options, for each mode's --help. */
void rcli_common_usage(FILE *fp, int with_backend, int with_paf);

/* What a mode gives the shared main loop (rcli_mode). */
typedef void (*rcli_usage_f)(FILE *fp);
typedef struct {
	const char *help;      /* how to get the mode's help, for messages ("rktlcs hamming --help") */
	int max_inputs;        /* positional arguments it takes */
	rcli_usage_f usage;
	/* one of the mode's own options: 1 if the current option was one (*st: its value was
	 * good), 0 if not */
	int (*opt)(void *o, rcli_args_t *a, rk_status_t *st);
	void (*inputs)(void *o, const char **in, int n);
	rk_status_t (*check)(const void *o);
	rk_status_t (*run)(const rmpi_t *w, const void *o);
	/* 1 if the job would map another GPU's memory when its node has several GPU ranks (0 or
	 * no function: each rank sees only its own device, rgpu_visible_own) */
	int (*peers)(const void *o);
	/* the job's seconds on `threads` CPU threads, guessed from its inputs (-1 or no function:
	 * unknown), and the least the GPU could take: with auto, a job the CPU ends sooner starts no
	 * GPU context ahead (rmpi_guess_*) */
	double (*cpu_guess)(const void *o, double threads, rmpi_guess_t *g);
	/* the ranks, from rank 0, that may use a GPU for the job as its inputs' heads show it (0
	 * or no function: every rank); the others start no GPU context ahead (rmpi_guess_pair_ranks) */
	int (*gpu_ranks)(const void *o);
} rcli_ops_t;

/* A mode's main: parse argv into o (c: its shared options), then help, version or usage
 * errors, or the distributed run. Returns the exit status. */
int rcli_mode(int argc, char **argv, void *o, rk_common_t *c, const rcli_ops_t *ops);
void rcli_version(FILE *fp);

int rcli_rkt_main(int argc, char **argv);
int rcli_ham_main(int argc, char **argv);
int rcli_lev_main(int argc, char **argv);
int rcli_lcs_main(int argc, char **argv);
int rcli_calibrate_main(int argc, char **argv);

#endif
