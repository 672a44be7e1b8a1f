/* The plan of a split pair: how many ranks take part (split_plan.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "mpi/split/split_plan.h"
#include "mpi/split/split_engine.h"

/* ---- the plan: how many ranks take part (docs/lev.md, "One pair on many ranks") ----
 * Rank 0 finds the bound the one-rank computation prunes with and times its own dense pass on
 * a sample (the others asleep), then weighs three ways against each other:
 *  - one rank: the band of the bound (the Ukkonen region: bound wide at the start, narrowing
 *    as the cost d accumulates), three times over with the path (Hirschberg's levels);
 *  - two banded halves (split_band_half): each rank the wide end of the band over half of the
 *    rows, then its half of the path;
 *  - every rank over every cell: la lb / (the ranks' summed speed), with the pipeline's fill,
 *    the pipelines from the cut and the pieces for the path.
 * A way with more ranks must be PLAN_MARGIN faster. When more ranks could win at rank 0's
 * speed alone, all ranks time their pass at once, and rank 0 decides with their summed speed
 * and the speed ranks 0 and 1 keep side by side (cores shared as threads of one core, or by
 * more ranks than cores, keep less). The estimates are for one thread: threads divide all
 * three alike. The constants: lev and lcs, 1 Mb pairs at 0.5-40% and random, this 2-core
 * machine (docs/BENCHMARKS.md). */

#define PLAN_W0 1400.0      /* columns a pruned strip computes besides the band (its height, chunk ends) */
#define PLAN_PATH_ROW 1.5e4 /* cells' worth of a path's cost per row (Hirschberg's levels, base cases, preps) */
#define PLAN_BETA(kind) ((kind) == SPLIT_LEV ? 0.7 : 0.6)   /* a pruned sweep's speed, of a dense pass's */
#define PLAN_FIXED 2e-3     /* seconds of a split's messages and wake-ups */
#define PLAN_MARGIN 1.15
#define PLAN_RUN 2e-3       /* seconds of each of rank 0's three timed runs alone (the fastest counts) */
#define PLAN_TOGETHER 1e-2  /* seconds of the one run of every rank at once: long enough to share cores */
#define PLAN_SPEED(kind) ((kind) == SPLIT_LEV ? 1.3e11 : 2.3e11)   /* a dense pass, cells/s (one thread, this machine) */
#define PLAN_WORTH 0.2      /* seconds more ranks must be able to save to be measured at all */

/* Cells of rows [0, n) of a band bound wide at row 0 that narrows by d over la rows. */
static double plan_cells(double n, double la, double lb, double bound, double d)
{
	if (bound < 0) return n * lb;
	const double end = d > 0 ? bound * la / d : 1e300, m = n < end ? n : end;
	const double c = m * bound - d * m * m / (2 * la) + PLAN_W0 * m;
	return c < n * lb ? c : n * lb;
}

/* Seconds for one rank of speed v. */
static double plan_one(int kind, int path, double la, double lb, double bound, double d, double v)
{
	if (bound < 0) return (path ? 1.6 : 1.0) * la * lb / v;
	const double c = plan_cells(la, la, lb, bound, d);
	return (path ? 3 * c + PLAN_PATH_ROW * la : c) / (PLAN_BETA(kind) * v);
}

/* Two banded halves (bound >= 0): the wide end of the band over half of the rows, then half of the path. */
static double plan_band(int kind, int path, double la, double lb, double bound, double d, double v)
{
	double t = plan_cells(la / 2, la, lb, bound, d) / (PLAN_BETA(kind) * v);
	if (path) t += plan_one(kind, 1, la / 2, lb / 2, d / 2, d / 2, v);
	return t + PLAN_FIXED;
}

/* R ranks of summed speed V (slabs of rows from three on: a fill of a chunk per rank of a
 * half, twice with the path, whose pipelines from the cut add half of the cells) */
static double plan_all(int kind, int path, double la, double lb, int R, double V, double bound, double d)
{
	const double vr = V / R, fill = R >= 3 ? (R / 2 - 1) * (double)SPLIT_CHUNK * (la / R) / vr : 0;
	double t = la * lb / V + fill;
	if (path) t += (R >= 3 ? 0.5 * la * lb / V + fill : 0) + plan_one(kind, 1, la / R, lb / R, bound < 0 ? -1 : d / R, d / R, vr);
	return t + PLAN_FIXED;
}

/* Rank 0 alone on `alone` threads against `n`: one long pair's band on the CPU, as auto
 * weighs it (rmpi_cost_band_speed) */
static double plan_gain(int n, int alone)
{
	return alone > n ? rmpi_cost_band_speed(alone) / rmpi_cost_band_speed(n) : 1;
}

/* Rank 0's choice: the fastest way, fewer ranks unless more are PLAN_MARGIN faster; V: the
 * ranks' summed speed (0: not measured yet; then PLAN_MEASURE when every rank could win,
 * PLAN_MEASURE2 when only two banded halves could). */
static int plan_choose(split_plan_t *p, int kind, int path, int64_t la, int64_t lb, int R, double V)
{
	const double vb = p->v * (V > 0 ? p->pair : 1);   /* a half's speed */
	/* the cost the band narrows by: the static band's, else (-k) the bound itself, the
	 * narrowest band and so the fewest ranks */
	const double d = (double)(p->ub >= 0 ? p->ub : p->bound >= 0 ? p->bound : 0), bound = (double)p->bound;
	p->one = plan_one(kind, path, (double)la, (double)lb, bound, d, p->v) / (p->gain > 0 ? p->gain : 1);
	p->band = la > 128 && lb > 0 && bound >= 0 ? plan_band(kind, path, (double)la, (double)lb, bound, d, vb) : 0;
	p->all = plan_all(kind, path, (double)la, (double)lb, R, V > 0 ? V : R * p->v, bound, d);
	const double few = p->band > 0 && p->band * PLAN_MARGIN < p->one ? p->band : p->one;
	/* the measurements and their messages take 20-50 ms on the loaded 2-core machine: not
	 * worth it where more ranks could save less than PLAN_WORTH (2 Mb at 1%, lcs: 0.05 s) */
	p->why = "";
	if (V <= 0 && p->one - (p->all < few ? p->all : few) < PLAN_WORTH) {
		p->why = " (more ranks could save under 0.2 s: not worth measuring)";
		return PLAN_ONE;
	}
	if (V <= 0) return p->all * PLAN_MARGIN < few ? PLAN_MEASURE : few == p->one ? PLAN_ONE : PLAN_MEASURE2;
	if (p->all * PLAN_MARGIN >= few) return few == p->one ? PLAN_ONE : PLAN_BAND;
	return PLAN_ALL;
}

rk_status_t split_plan(const rmpi_t *w, int kind, int64_t k, const char *a, int64_t la, const char *b, int64_t lb,
                              int want_path, int n_threads, int n_alone, rmpi_be_t *be, split_plan_t *p, rmpi_split_prof_t *prof)
{
	const int simd = aln_simd_level(-1), forced = rk_tune.split_plan;
	memset(p, 0, sizeof *p);
	p->bound = k; p->ub = -1;
	p->gain = plan_gain(n_threads, n_alone);
	/* GPU ranks: their halves are banded already (split_cols); no model of their one-rank time.
	 * More than two GPU ranks take two: slabs of rows leave each GPU's SMs half empty (a 10 Mb
	 * random pair on 4 H200, in-process: lev 1.01 s on 2, 3.19 s on 4 in slabs; lev --path 3.22
	 * and 5.39 s; lcs --seq --path 2.22 and 2.81 s), and a 100 Mb pair 1% apart took 48 s on 2
	 * and over 80 s on 4. RKTLCS_SPLIT_PLAN=all or RKTLCS_SPLIT_WORDS keep the slabs (tests). */
	if (rmpi_any(w, be && be->use_gpu) || forced == PLAN_ALL || forced == PLAN_COLS) {
		p->how = PLAN_ALL;
		p->gpu_two = w->size > 2 && (forced == PLAN_COLS || (forced != PLAN_ALL && !rk_tune.split_words));
		rk_debug("split: %s", forced == PLAN_ALL ? "RKTLCS_SPLIT_PLAN=all: every rank over every cell"
		         : p->gpu_two ? (forced == PLAN_COLS ? "RKTLCS_SPLIT_PLAN=cols: ranks 0 and 1 meet on a column, the others wait"
		                                             : "GPU ranks: ranks 0 and 1 meet on a column, the others wait (slabs of rows on more GPUs are slower)")
		                      : "GPU ranks: every rank over every cell");
		return RK_OK;
	}
	int64_t msg[3] = { RK_OK, 0, 0 };  /* status, plan, bound */
	if (w->rank == 0) {
		/* the others wait asleep: the bound takes rank 0's threads alone */
		rk_status_t st = split_bound(kind, a, la, b, lb, k, simd, n_alone, &p->bound, &p->ub, want_path ? 0 : &p->pre);
		if (st) rk_err("%s", rk_error());
		/* rank 0's speed only where more ranks could win at all: a small or similar pair (a
		 * 65 kb pair 1% apart is 2 ms on one rank) is not worth the 10 ms of the samples */
		p->v = PLAN_SPEED(kind);
		p->how = plan_choose(p, kind, want_path, la, lb, w->size, 0);
		if (p->how != PLAN_ONE && !forced) {
			p->v = split_sample(kind, simd, n_threads, 0, a, la, b, lb, prof, 3, PLAN_RUN);
			p->measured = 1;
			p->how = plan_choose(p, kind, want_path, la, lb, w->size, 0);
		}
		if (forced) {
			const int f = forced == PLAN_TREE ? PLAN_BAND : forced;
			p->how = f == PLAN_BAND && !(la > 128 && lb > 0) ? PLAN_ONE : f;
		}
		msg[0] = st; msg[1] = p->how; msg[2] = p->bound;
	}
	rmpi_bcast_idle(w, 0, msg, sizeof msg);
	if (msg[0] != RK_OK) return (rk_status_t)msg[0];
	p->how = (int)msg[1]; p->bound = msg[2];
	if (p->how == PLAN_MEASURE || p->how == PLAN_MEASURE2) {
		/* More ranks could win at rank 0's speed alone: the ranks that would take part (all,
		 * or 0 and 1) time their pass at once, the others asleep, for their summed speed (the
		 * slabs need it anyway) and what ranks 0 and 1 keep of their speed alone: cores shared
		 * (threads of one core, other work) keep less. One continuous run: the fastest of
		 * several short ones missed the sharing. */
		const int n = p->how == PLAN_MEASURE ? w->size : 2;
		rmpi_agree(w, RK_OK);   /* a start within microseconds: Open MPI spins here */
		const double mine = w->rank < n ? split_sample(kind, simd, n_threads, be, a, la, b, lb, prof, 1, PLAN_TOGETHER) : 0;
		const double V = rmpi_sum_idle(w, mine), two = rmpi_sum_idle(w, w->rank < 2 ? mine : 0);
		int64_t how = 0;
		if (w->rank == 0) {
			p->pair = two / 2 / (p->v > 0 ? p->v : 1);
			if (p->pair > 1) p->pair = 1;
			/* with two only, every rank could not win at their full speed: it cannot at less */
			how = plan_choose(p, kind, want_path, la, lb, w->size, n == w->size ? V : w->size * p->v);
		}
		rmpi_bcast_idle(w, 0, &how, sizeof how);
		p->how = (int)how;
	}
	/* the path of two banded halves on every rank (split_tree.c): its levels below the first run
	 * side by side, so only where each rank of the node has a core of its own (rank 0's node
	 * decides; RKTLCS_SPLIT_PLAN=tree forces it) */
	p->tree = 2;
	if (p->how == PLAN_BAND && want_path && w->size > 2) {
		int64_t width = 2;
		if (w->rank == 0) {
			const long cores = sysconf(_SC_NPROCESSORS_ONLN);
			/* a power of two: with 3 ranks one side of the first level is one rank's alone, as
			 * with the halves, and the third rank gains nothing */
			int64_t p2 = 2;
			while (p2 * 2 <= w->size) p2 *= 2;
			width = forced == PLAN_TREE ? w->size : cores > 0 && w->local_size <= cores && p->pair >= 0.8 ? p2 : 2;
		}
		rmpi_bcast_idle(w, 0, &width, sizeof width);
		p->tree = (int)width;
	}
	char tree[48] = "";
	if (p->tree > 2) snprintf(tree, sizeof tree, ", the path on a tree of %d ranks", p->tree);
	static const char *const name[] = { "", "one rank", "two banded halves", "every rank over every cell" };
	char ub[48] = "", two[48] = "", alone[48] = "";
	if (p->ub >= 0) snprintf(ub, sizeof ub, ", static band %lld", (long long)p->ub);
	if (n_alone > n_threads) snprintf(alone, sizeof alone, " (on %d threads, the node's)", n_alone);
	if (p->pair > 0) snprintf(two, sizeof two, " (%.2f of it side by side)", p->pair);
	rk_debug("split: %s %lld x %lld: bound %lld (%s)%s, rank 0 %.3g cells/s%s%s; estimates: one rank %.3f s, two banded "
	         "halves %.3f s, %d ranks over every cell %.3f s: %s%s%s%s", kind == SPLIT_LEV ? "lev" : "lcs", (long long)la, (long long)lb,
	         (long long)p->bound, k >= 0 ? "-k" : p->bound >= 0 ? "the static band's" : "none: every cell", ub, p->v,
	         p->measured ? "" : " (nominal)", two, p->one, p->band, w->size, p->all, name[p->how], p->how == PLAN_ONE ? alone : "", tree,
	         forced ? " (RKTLCS_SPLIT_PLAN)" : p->why ? p->why : "");
	return RK_OK;
}
