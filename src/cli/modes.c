/* The mode table and the program's entry: dispatch, global help and version, and the end
 * of every mode's main (parse result, MPI start, run, exit status). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/cli.h"
#include "algo/rkt.h"
#include "algo/ham.h"
#include "algo/aln.h"
#include "gpu/rgpu.h"
#include "io/rio.h"

const rcli_mode_t rcli_modes[] = {
	{ "rkt", "Rkt-LCS: the longest substring of a read shared (<= k mismatches) by >= t other reads", rcli_rkt_main },
	{ "hamming", "pairwise SNP / Hamming distances of an alignment (snp-dists compatible)", rcli_ham_main },
	{ "lev", "Levenshtein distance and CIGAR of sequence pairs", rcli_lev_main },
	{ "lcs", "longest common subsequence of sequence pairs: length, subsequence, path", rcli_lcs_main },
	{ "calibrate", "measure this machine's rates for --backend auto (a file auto then reads)", rcli_calibrate_main },
};
const int rcli_n_modes = (int)(sizeof rcli_modes / sizeof rcli_modes[0]);

void rcli_version(FILE *fp)
{
	/* what this build can run on, the way samtools --version lists its features: each
	 * mode's CPU kernels as its dispatch picks them on this CPU (RKTLCS_SIMD counts) */
	const char *lev = aln_simd_name(aln_simd_level(-1));
	fprintf(fp, "rktlcs %s\ncpu: OpenMP; kernels: rkt %s, hamming %s, lev %s, lcs %s\n", RKTLCS_VERSION, rkt_simd_name(),
	        ham_simd_name(), lev, lev);
#ifdef RKTLCS_HAVE_CUDA
	int nd = rgpu_device_count();
	char name[256] = "";
	if (nd > 0 && rgpu_device_name(0, name, sizeof name) == RK_OK)
		fprintf(fp, "gpu: CUDA, %d device%s (%s)\n", nd, nd > 1 ? "s" : "", name);
	else fprintf(fp, "gpu: CUDA, no usable device\n");
#else
	fprintf(fp, "gpu: not built (no CUDA compiler at build time)\n");
#endif
}

/* Edit distance of two short words with a swap of neighbours as one edit ("lsc" is 1 from
 * "lcs", 2 from "lev"), for "did you mean". */
static int rcli_edit(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), d[3][64];  /* rows i-2, i-1, i */
	if (la > 60 || lb > 60) return 99;
	for (int j = 0; j <= lb; j++) d[0][j] = j;
	for (int i = 1; i <= la; i++) {
		int *p2 = d[(i + 1) % 3], *p1 = d[(i + 2) % 3], *r = d[i % 3];
		r[0] = i;
		for (int j = 1; j <= lb; j++) {
			int v = p1[j - 1] + (a[i - 1] != b[j - 1]);
			if (p1[j] + 1 < v) v = p1[j] + 1;
			if (r[j - 1] + 1 < v) v = r[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && p2[j - 2] + 1 < v) v = p2[j - 2] + 1;
			r[j] = v;
		}
	}
	return d[la % 3][lb];
}

/* The mode that a word which is no file most likely meant: the start of a mode's name
 * ("ham"), or the nearest name within 2 edits; "" if none; names at the same distance: all. */
static void rcli_suggest(const char *m, char *out, size_t n)
{
	int best = 3;
	out[0] = 0;
	for (int i = 0; i < rcli_n_modes; i++) {
		const char *name = rcli_modes[i].name;
		int d = strlen(m) >= 2 && strncmp(m, name, strlen(m)) == 0 ? 0 : rcli_edit(m, name);
		if (d >= (int)strlen(name)) continue;
		if (d < best) { best = d; snprintf(out, n, "'%s'", name); }
		else if (d == best) { size_t l = strlen(out); snprintf(out + l, n - l, " or '%s'", name); }
	}
}

static const rcli_mode_t *rcli_find_mode(const char *m)
{
	for (int i = 0; i < rcli_n_modes; i++)
		if (strcmp(m, rcli_modes[i].name) == 0) return &rcli_modes[i];
	return 0;
}

/* an error before MPI starts: every rank parsed the same words, so rank 0 says it and gives
 * the job its status; the others end quietly with 0, since a launcher that saw their 1 first
 * would kill rank 0 before its line is out */
static int rcli_early_error(void)
{
	return rmpi_rank_hint() > 0 ? 0 : 1;
}

/* help, version and errors before MPI starts: every rank parsed the same words, rank 0 says them */
static int rcli_dispatch(int argc, char **argv)
{
	if (argc > 1) {
		const char *m = argv[1];
		const rcli_mode_t *mode = rcli_find_mode(m);
		if (mode) return mode->main(argc - 1, argv + 1);
		/* samtools' "help [MODE]" and "version"; a reads file of that name is ./help */
		if (strcmp(m, "help") == 0) {
			if (argc > 2 && !rcli_find_mode(argv[2])) {
				if (rmpi_rank_hint() == 0) fprintf(stderr, "[rktlcs] error: help: unknown mode '%s' (modes: rkt, hamming, lev, lcs)\n", argv[2]);
				return rcli_early_error();
			}
			char *h[] = { argv[0], argc > 2 ? argv[2] : (char *)"rkt", (char *)"--help", 0 };
			return rcli_dispatch(3, h);
		}
		if (strcmp(m, "version") == 0) { if (rmpi_rank_hint() == 0) rcli_version(stdout); return 0; }
		/* a word that is no file but close to a mode's name is a typo, not the input */
		struct stat sb;
		char near[64];
		if (m[0] != '-' && stat(m, &sb) != 0) {
			rcli_suggest(m, near, sizeof near);
			if (near[0]) {
				if (rmpi_rank_hint() == 0) fprintf(stderr, "[rktlcs] error: unknown mode '%s' (did you mean %s?)\n", m, near);
				return rcli_early_error();
			}
		}
	}
	return rcli_rkt_main(argc, argv);  /* the default mode */
}

/* The GPU driver's files, whose release (~0.1 s at exit) a process that is done leaves to a
 * child (rk_exit_handoff); 0 with RKTLCS_EXIT_TEARDOWN=1 (the runtime's own teardown) */
static const char *rcli_driver_files(void)
{
	const char *td = getenv("RKTLCS_EXIT_TEARDOWN");
	return td && *td && *td != '0' ? 0 : RGPU_DRIVER_FILES;
}

int rcli_main(int argc, char **argv)
{
	if (rk_tune_init() != RK_OK) {
		if (rmpi_rank_hint() == 0) rk_err("%s", rk_error());
		return 1;
	}
	rio_cleanup_install();
	int r = rcli_dispatch(argc, argv);
	rio_cleanup_normal_exit();
	/* the driver up without a context kept (--version, a context dropped for the CPU) */
	const char *drv = rcli_driver_files();
	if (drv && rk_files_open(drv) > 0 && rgpu_release_shared()) {
		fflush(NULL);
		rk_exit_handoff(drv, r, 0, 0);
	}
	return r;
}

/* One option word: whole ("-tau", "--path", "-k 1", "--max-dist=3"), else getopt's forms of
 * one-letter options: a value attached ("-k1") or flags bundled ("-bcL"; the last letter may
 * take the next word or the rest of this one as its value). */
static rk_status_t rcli_option(rcli_args_t *a, void *o, rk_common_t *c, const rcli_ops_t *ops, rcli_flags_t *f)
{
	rk_status_t st = RK_OK;
	const char *word = a->argv[a->i];
	if (ops->opt(o, a, &st) || rcli_common(a, c, f, &st)) {
		if (!st && a->eq && !a->eq_used) {
			rk_set_error("option %s takes no value ('%s')", a->name, word);
			return RK_EINPUT;
		}
		return st;
	}
	if (word[1] == '-' || !word[2]) {
		rk_set_error("unknown option '%s' (see %s)", word, ops->help);
		return RK_EINPUT;
	}
	for (const char *p = word + 1; *p; p++) {
		a->buf[0] = '-'; a->buf[1] = *p; a->buf[2] = 0;
		a->name = a->buf;
		a->eq = p[1] ? p + 1 : 0;
		a->eq_used = 0;
		if (!ops->opt(o, a, &st) && !rcli_common(a, c, f, &st)) {
			if (p == word + 1) rk_set_error("unknown option '%s' (see %s)", word, ops->help);
			else rk_set_error("unknown option '-%c' in '%s' (see %s)", *p, word, ops->help);
			return RK_EINPUT;
		}
		if (st || a->eq_used) return st;
	}
	return RK_OK;
}

static rk_status_t rcli_parse(int argc, char **argv, void *o, rk_common_t *c, const rcli_ops_t *ops, rcli_flags_t *f)
{
	rcli_args_t a;
	rk_status_t st = RK_OK;
	const char *in[8];
	int n = 0, r;
	rcli_args_init(&a, argc, argv);
	while (!st && (r = rcli_next(&a)) != RCLI_END) {
		if (r == RCLI_POS) {
			if (n == ops->max_inputs) {
				if (n == 1) rk_set_error("more than one input file: '%s' and '%s'", in[0], a.pos);
				else rk_set_error("too many input files: '%s' (see %s)", a.pos, ops->help);
				return RK_EINPUT;
			}
			for (int i = 0; i < n; i++)
				if (!strcmp(a.pos, "-") && !strcmp(in[i], "-")) {
					rk_set_error("standard input ('-') can be given once; give the other input as a file");
					return RK_EINPUT;
				}
			in[n++] = a.pos;
		} else if ((st = rcli_option(&a, o, c, ops, f)) != RK_OK) return st;
	}
	ops->inputs(o, in, n);
	if (st || f->help || f->version) return st;
	return ops->check(o);
}

static void rcli_warm_note(void)
{
	double drv, ctx;
	if (rgpu_warm_times(&drv, &ctx)) rk_debug("GPU start-up on its thread: driver %.3f s, context %.3f s", drv, ctx);
}


/* -v: where the start-up went, from the process's birth (kernel clock) to the mode's driver */
static void rcli_startup_note(const rmpi_t *w, double t_main, double t_init, int peers)
{
	if (w->rank != 0 || rk_get_log_level() < RK_LOG_DEBUG) return;
	const double born = rk_process_age();
	const int own = rgpu_visible_index();
	char vis[96] = "every GPU visible";
	if (own >= 0) snprintf(vis, sizeof vis, "GPU %d of the node's %d visible, alone", own, rgpu_node_devices());
	else if (peers) snprintf(vis, sizeof vis, "every GPU visible (the ranks map each other's memory)");
	rk_debug("start-up: process to main %.3f s, MPI start %.3f s, %s", born >= 0 ? born - (rk_realtime() - t_main) : -1.0,
	         t_init, vis);
}

/* A usage error under mpirun: every rank parsed the same words, so rank 0 says it once
 * (the others wait for it, so mpirun does not end it first). */
static int rcli_usage_error(int argc, const rcli_ops_t *ops, rk_status_t st)
{
	rmpi_t w;
	if (rmpi_is_launched() && rmpi_init(&w, 0, 0) == RK_OK) {
		if (w.rank == 0) {
			rk_err("%s", rk_error());
			if (argc <= 1) ops->usage(stderr);
		}
		/* agreed as a failure: mpirun's SIGTERM to ranks still finalizing adds no line */
		rmpi_agree(&w, st);
		rmpi_finalize(&w);
		return rk_exit_code(st);
	}
	rk_err("%s", rk_error());
	if (argc <= 1) ops->usage(stderr);
	return rk_exit_code(st);
}

int rcli_mode(int argc, char **argv, void *o, rk_common_t *c, const rcli_ops_t *ops)
{
	rcli_flags_t f = { 0, 0 };
	rk_status_t st = rcli_parse(argc, argv, o, c, ops, &f);
	if (f.help) { if (rmpi_rank_hint() == 0) ops->usage(stdout); return 0; }
	if (f.version) { if (rmpi_rank_hint() == 0) rcli_version(stdout); return 0; }
	if (st) return rcli_usage_error(argc, ops, st);
	rmpi_t w;
	/* the GPU context (0.1-0.3 s) starts while MPI_Init runs, not after it; a rank that maps no
	 * other GPU's memory sees only its own, so the driver starts one device, not the node's all */
	const int want_gpu = c->backend != RK_BACKEND_CPU;
	/* one long pair on 4 GPUs: ranks 2 and 3 wait, and their contexts would only slow ranks 0
	 * and 1's (4 contexts at once took 0.40-0.45 s on 4 H200, 2 took 0.20 s); a small Rkt-LCS
	 * or hamming job is rank 0's alone, which maps no other rank's memory */
	const int gpu_ranks = want_gpu && ops->gpu_ranks ? ops->gpu_ranks(o) : 0;
	const int peers = want_gpu && gpu_ranks != 1 && ops->peers && ops->peers(o) && rmpi_local_size_hint() != 1;
	/* with auto, a job the CPU ends before the GPU could starts no context ahead */
	const int ls = rmpi_local_size_hint();
	double th = c->threads > 0 ? c->threads : (double)sysconf(_SC_NPROCESSORS_ONLN) / (ls > 0 ? ls : 1);
	if (th < 1) th = 1;
	/* before any thread starts, so that every one of them gets the widened mask */
	const int unbound = rmpi_unbind_default((int)th);
	rmpi_guess_t gg = { 0, 0 };
	/* work dealt out to every rank: its share decides, as the cost model does after the read */
	const int nr = gpu_ranks == 0 ? rmpi_size_hint() : 1;
	if (c->backend == RK_BACKEND_AUTO) rmpi_rates_load(c->rates, 0);   /* the guesses weigh by this machine's rates too */
	double guess = c->backend == RK_BACKEND_AUTO && ops->cpu_guess ? ops->cpu_guess(o, th, &gg) : -1;
	if (guess > 0 && nr > 1) { guess /= nr; gg.read_s /= nr; }   /* (each rank reads its part) */
	int warm = want_gpu && rmpi_guess_warm(guess, &gg);
	const int rank_hint = gpu_ranks > 0 ? rmpi_rank_hint() : -1;
	c->gpu_ranks = gpu_ranks;
	if (gpu_ranks > 0 && rank_hint >= gpu_ranks) warm = 0;
	if (!rmpi_gpu_slot(rmpi_local_rank_hint())) warm = 0;   /* beyond the node's GPUs: no context */
	const int hint = warm ? rmpi_local_rank_hint() : -1;
	const double t_main = rk_realtime();
	if (want_gpu) rgpu_before_cuda();
	if (hint >= 0 && !peers) rgpu_visible_own(hint);
	/* MPI_Init sets environment variables while the driver's getenv runs on the context's
	 * thread: core/env.c's setenv never frees an array a reader may walk (glibc's did: a
	 * segfault in cuInit, one run of 36 at np 4 on 4 H200) */
	if (hint >= 0) rgpu_warm_start(hint);
	if ((st = rmpi_init(&w, 0, 0)) != RK_OK) { rgpu_warm_drop(); rk_err("%s", rk_error()); return rk_exit_code(st); }
	const double t_init = rk_realtime() - t_main;
	/* info and progress from rank 0 only; every rank reports its own warnings; errors are
	 * held and said once per job (rmpi_say_errors) */
	const int debug = rk_get_log_level() >= RK_LOG_DEBUG;   /* the same on every rank: -v */
	if (w.rank != 0 && rk_get_log_level() > RK_LOG_WARNING) rk_set_log_level(RK_LOG_WARNING);
	rk_log_hold(w.size > 1);
	if (unbound) rk_debug("rank 0's CPUs: %d, where mpirun's default binding gave it one core for its threads (--bind-to keeps a binding)", unbound);
	/* resolved once: every later rmpi_threads() returns it without a second warning */
	c->threads_alone = rmpi_threads_alone(&w, c);
	c->threads = rmpi_threads(&w, c);
	rio_set_threads(c->threads);
	rio_set_compress(c->compress);
	rio_set_sam(c->reference, c->keep_secondary, c->as_stored);
	if (want_gpu && hint < 0 && !peers) rgpu_visible_own(w.local_rank);
	/* warmed a device that is not this rank's (the device is the local rank modulo the count) */
	if (hint >= 0 && hint != w.local_rank) {
		const int own = rgpu_visible_index() >= 0;
		const int nd = own ? rgpu_node_devices() : rgpu_device_count();
		if (nd > 0 && hint % nd != w.local_rank % nd && own)
			rk_debug("rank %d: the launcher's local rank %d was not MPI's %d: sharing a GPU", w.rank, hint, w.local_rank);
		else if (nd <= 0 || hint % nd != w.local_rank % nd) rgpu_warm_drop();
	}
	if (warm && !(gpu_ranks > 0 && w.rank >= gpu_ranks) && rmpi_gpu_slot(w.local_rank)) rgpu_warm_start(w.local_rank);
	rcli_startup_note(&w, t_main, t_init, peers);
	if (gpu_ranks > 0 && gpu_ranks < w.size && w.rank == 0)
		rk_debug("the job's size: only rank%s %s start%s a GPU context ahead; the others start one only if they use it",
		         gpu_ranks == 1 ? "" : "s", gpu_ranks == 1 ? "0" : "0 and 1", gpu_ranks == 1 ? "s" : "");
	if (want_gpu && w.rank == 0 && guess >= 0)
		rk_debug("auto: ~%.2g s on %g CPU thread%s against the GPU's %.2g s at least, a read of ~%.2g s: %s%s", guess, th, th > 1 ? "s" : "",
		         gg.gpu_min, gg.read_s, warm ? "a GPU context ahead" : "no GPU context ahead",
		         warm || guess < gg.gpu_min ? "" : " (either may win, and the read would hide little of its start)");
	st = ops->run(&w, o);
	rmpi_say_errors(&w);
	/* -v: how many ranks made a GPU context (ranks beyond the node's GPUs make none) */
	if (debug && w.size > 1 && st == RK_OK) {
		const double ctx = rmpi_sum(&w, rgpu_context_made());
		if (w.rank == 0) rk_debug("GPU contexts: %.0f of %d ranks made one", ctx, w.size);
	}
	/* the CPU took a job while the driver was still starting: do not wait for it at exit. And
	 * no CUDA runtime teardown: the driver frees a process's GPU state when its files close,
	 * ~0.1 s whoever closes them, here a child once this process has ended (core/exit.c) */
	const char *drv = rcli_driver_files();
	if (rgpu_warm_pending() || (rgpu_context_made() && drv)) {
		if (w.rank == 0) rcli_warm_note();
		rmpi_finalize(&w);
		rio_cleanup_normal_exit();
		if (w.rank == 0 && rk_get_log_level() >= RK_LOG_DEBUG) rk_debug("exit: %.3f s after the process started", rk_process_age());
		fflush(NULL);
		rk_exit_handoff(drv && rgpu_release_shared() ? drv : 0, rk_exit_code(st), 0, rgpu_context_made());
	}
	rgpu_warm_join();
	if (w.rank == 0) rcli_warm_note();
	rmpi_finalize(&w);
	return rk_exit_code(st);
}
