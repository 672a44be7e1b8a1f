/* Before MPI starts: is the job so small that the CPU surely finishes it before a GPU context
 * would be up? Then no context is started ahead (modes.c): an abandoned start still costs its
 * current driver call at exit (~0.1 s, jobs/bench-auto.sh). The guesses take the input's
 * head (rio_peek_input) and the cost model's CPU rates (cost.c), and lean high: where a guess is
 * wrong the context starts late, not never. */
#include <math.h>
#include "mpi/plan/plan.h"
#include "algo/aln.h"
#include "io/rio.h"

#define GUESS_START 0.25  /* s: a context on one visible H100/H200 (jobs/bench-start.sh) */
/* s each further context of a node adds: the driver makes them in turn (4 ranks a GPU each on
 * 4 H100: 0.75-0.9 s of driver and context, against 0.25 s for one; docs/bench/rounds-2026-11-27.md, Round 6) */
#define GUESS_CTX_TURN 0.2
#define GUESS_HIGH 1.25   /* a banded long pair's guess over its estimate (guess_long) */
#define GUESS_CLOSE 1.5   /* a CPU guess within this many times the GPU's least: either may win (at 3x, jobs
                           * the GPU won by 4x lost their start's overlap with the host's work before it) */
#define GUESS_HIDES 0.25  /* ... and a read shorter than this part of the start hides too little of it */
#define GUESS_READ_THREAD 0.6e9   /* bytes/s the reader takes in a thread, and at most (jobs/bench-read.sh) */
#define GUESS_READ_MAX 3.5e9

/* a kind's rates: this machine's where calibrated (rmpi_rates_load has run), else the table's
 * on the fastest SIMD level, so that a guess leans towards the CPU's end coming early */
static void guess_rates(rmpi_work_t kind, rmpi_rates_t *r)
{
	if (rmpi_rates_calibrated()) rmpi_rates_here(kind, r);
	else rmpi_rates_for(kind, 0, 512, r);
}

/* the CPU's rate of a kind on `threads`, of which it keeps at most the model's cpu_par busy
 * (and its cost a pair, when cpu_item), and the GPU's least cost */
static double guess_rate(rmpi_work_t kind, double items, double threads, double *gpu_min, double *cpu_item)
{
	rmpi_rates_t r;
	guess_rates(kind, &r);
	const double th = rmpi_cost_threads(&r, threads);
	*gpu_min = rmpi_rates_start(GUESS_START) + r.gpu_fixed + items * r.gpu_item;
	if (cpu_item) *cpu_item = r.cpu_item / th;
	return r.cpu_rate * th;
}

/* the seconds of reading `bytes` on `threads` */
static double guess_read(double bytes, double threads)
{
	const double r = GUESS_READ_THREAD * (threads > 1 ? threads : 1);
	return bytes / (r < GUESS_READ_MAX ? r : GUESS_READ_MAX);
}

/* A context started ahead hides its start behind the read, and slows a CPU job it runs beside
 * (lev --all of short reads, docs/BENCHMARKS.md "the 2026-12-04 fifth round"). So none where the
 * CPU surely ends first, nor where either may win and the read would hide little of the start:
 * the GPU, if taken, starts late by that little. */
int rmpi_guess_warm(double guess, const rmpi_guess_t *g)
{
	if (guess < 0) return 1;
	if (guess < g->gpu_min) return 0;
	const double start = rmpi_rates_start(GUESS_START);
	return !(guess < GUESS_CLOSE * g->gpu_min && g->read_s < GUESS_HIDES * start);
}

double rmpi_guess_rkt(const char *input, double threads, rmpi_guess_t *g)
{
	rio_peek_t p;
	if (!rio_peek_input(input, &p)) return -1;
	g->read_s = guess_read(p.bytes, threads);
	return p.records * p.records / 2 * p.mean_len / guess_rate(RMPI_W_RKT, 0, threads, &g->gpu_min, 0);
}

/* hamming's 64-column words a pair of the input (head p) compares: its informative columns,
 * guessed from the columns where the head's records differ. Segregating sites grow with the
 * sample as a(n) = 1 + 1/2 + ... + 1/(n - 1) (Watterson), so S(n) ~ S(k) a(n) / a(k), and
 * twice that (leaning high). Every column where the head says nothing. 20k x 30 kb of
 * rkt_genaln (295 informative columns): counted as every one, 3.75 s of kernels, every rank of
 * a 4-GPU node started a context and np 4 took 1.07-1.21 s against one process's 0.44 s. */
static double guess_ham_words(const char *input, const rio_peek_t *p)
{
	int64_t k = 0;
	const int64_t d = rio_peek_varying(input, &k);
	double cols = p->mean_len;
	if (d >= 0 && k >= 2 && p->records > (double)k) {
		double ak = 0;
		for (int64_t i = 1; i < k; i++) ak += 1.0 / (double)i;
		const double n1 = p->records - 1, an = log(n1) + 0.5772 + 0.5 / n1, s = 2 * (double)d * an / ak + 64;
		if (s < cols) cols = s;
	}
	return ceil(cols / 64);
}

/* 1 when `kern` seconds of kernels dealt out to every rank would save less than the node's
 * other contexts cost (GUESS_CTX_TURN each, in turn): every rank pays `local` contexts and
 * 1/size of the kernels, rank 0 alone one context and all of them */
static int guess_solo(double kern, int size, int local)
{
	return size > 1 && local > 1 && kern * (1 - 1.0 / size) < GUESS_CTX_TURN * (local - 1);
}

/* Rkt-LCS (kind RMPI_W_RKT) or hamming (RMPI_W_HAM) on rank 0 alone: the launcher's sizes or
 * the tests' switch decide alone where they can, else the kernels the input's head predicts */
static int guess_ranks(const char *input, rmpi_work_t kind)
{
	const int size = rmpi_size_hint(), local = rmpi_local_size_hint();
	rio_peek_t p;
	if (size <= 1 || local <= 1 || rk_tune.gpu_ranks) return size != 1 && rk_tune.gpu_ranks > 0;
	if (!rio_peek_input(input, &p)) return 0;
	rmpi_rates_t r;
	guess_rates(kind, &r);
	/* Rkt-LCS: pairs x the starts a pair walks (the paper's 5k reads: ~0.01 s of kernels,
	 * against 0.6 s more of contexts at 4 a node); hamming: pairs x the informative columns'
	 * words, in 4 planes, as rmpi_guess_ham */
	const double pairs = p.records * p.records / 2, per = kind == RMPI_W_RKT ? p.mean_len : guess_ham_words(input, &p) * 4;
	return guess_solo(pairs * per / r.gpu_rate, size, local);
}

int rmpi_guess_rkt_ranks(const char *input) { return guess_ranks(input, RMPI_W_RKT); }
int rmpi_guess_ham_ranks(const char *input) { return guess_ranks(input, RMPI_W_HAM); }

double rmpi_guess_ham(const char *input, double threads, rmpi_guess_t *g)
{
	rio_peek_t p;
	if (!rio_peek_input(input, &p)) return -1;
	g->read_s = guess_read(p.bytes, threads);
	/* the informative columns' words, in 4 planes */
	double item;
	const double pairs = p.records * p.records / 2, rate = guess_rate(RMPI_W_HAM, 0, threads, &g->gpu_min, &item);
	return pairs * (guess_ham_words(input, &p) * 4) / rate + pairs * item;
}

/* Long pairs: their cells in the CPU's band at the heads' divergence (rmpi_cost_band, as
 * pair_run.c's model), on the CPU's long-pair rate. It returned 0 before, so that a random 3 Mb
 * pair started no context ahead and its GPU began 0.11 s late (auto 0.89-0.93 s against
 * --backend gpu's 0.76-0.80 s on one H100). */
static double guess_long(const char *in_a, const char *in_b, double cells, double len, int lcs, int path, double threads,
                         double *gpu_min)
{
	static char ha[65536], hb[65536];
	const int64_t la = rio_peek_first(in_a, ha, sizeof ha), lb = rio_peek_first(in_b, hb, sizeof hb);
	/* the model's weights and band, as pair_run.c's: the mode and --path (lev --path of the
	 * 10 Mb pair 0.5% apart is the GPU's, 4.8 s on the CPU) */
	rmpi_cost_t j = { .kind = RMPI_W_DP_LONG, .span = 2 * len };
	rmpi_cost_weights(&j, lcs, path);
	rmpi_cost_band(&j, la > 0 && lb > 0 ? aln_sim_divergence(ha, la, hb, lb) : 1, lcs, path);
	const double t = cells * j.cpu_x / guess_rate(RMPI_W_DP_LONG, 1, threads, gpu_min, 0);
	if (!j.chain_bound) return t;
	/* a banded pass: the GPU's least is its context and its chain. A 10 Mb pair 0.5% apart
	 * (CPU 0.46-0.58 s, the GPU 0.72-0.84 on 16 cores) started a context it never used, and
	 * the CPU's run beside its start-up took 0.11 s more (RMPI_CPU_BESIDE). The guess leans
	 * high by GUESS_HIGH, since a context started late costs the GPU's run all of it */
	rmpi_rates_t r;
	guess_rates(RMPI_W_DP_LONG, &r);
	*gpu_min += j.span * r.gpu_step;
	return t * GUESS_HIGH;
}

double rmpi_guess_pairs(const char *in_a, const char *in_b, int all, int64_t max_dist, int lcs, int path, double threads, rmpi_guess_t *g)
{
	rio_peek_t a, b;
	double *gpu_min = &g->gpu_min;
	*gpu_min = rmpi_rates_start(GUESS_START);
	if (all && max_dist >= 0 && !rk_tune.all_nofilter) return 0;  /* the filter's candidates decide, after the read */
	if (!rio_peek_input(in_a, &a) || (!all && !rio_peek_input(in_b, &b))) return -1;
	g->read_s = guess_read(a.bytes + (all ? 0 : b.bytes), threads);
	/* --all: the GPU's least counts its pairs, as a batch's does; without them a close job
	 * looked the GPU's and started a context ahead that slowed the CPU's run (BENCHMARKS, auto) */
	if (all) {
		const double all_pairs = a.records * a.records / 2;
		return all_pairs * a.mean_len * a.mean_len / guess_rate(RMPI_W_DP_ALL, all_pairs, threads, gpu_min, 0);
	}
	const double pairs = a.records > b.records ? a.records : b.records, cells = pairs * a.mean_len * b.mean_len;
	if (pairs <= 16) return guess_long(in_a, in_b, cells, a.mean_len > b.mean_len ? a.mean_len : b.mean_len, lcs, path, threads, gpu_min);
	return cells / guess_rate(RMPI_W_DP_PAIRS, pairs, threads, gpu_min, 0);
}

int rmpi_guess_pair_ranks(const char *in_a, const char *in_b, int all)
{
	rio_peek_t a, b;
	if (all || !rio_peek_input(in_a, &a) || !rio_peek_input(in_b, &b)) return 0;
	/* more than one record in either head: a batch of pairs, spread over every rank */
	if (a.records != 1 || b.records != 1) return 0;
	/* one pair: rank 0 computes it alone below the split's size (a quarter of it, since the
	 * head's bytes count names and line ends), ranks 0 and 1 meet on a column above it
	 * (split_plan.c: GPU ranks), unless they share the node's one GPU */
	if (a.mean_len * b.mean_len < rk_tune.split_cells / 4) return 1;
	/* one GPU on a node of several ranks: ranks 0 and 1 would share it, and rank 0 computes
	 * the pair alone (rmpi_split_shared) */
	return rgpu_node_devices() == 1 && rmpi_local_size_hint() >= 2 ? 1 : 2;
}
