/* `rktlcs calibrate` (plan.h): the rates of this machine for auto. Each work kind of the cost
 * model runs as a child of this program on synthetic inputs, on each backend, the size growing
 * until its compute stage is long enough to time; the child's auto logs how it weighed the job
 * (RKTLCS_COST_LOG) and the model's rates are scaled until its estimate is the measured time.
 * The children are the tool itself, so a rate is what a user's job of that kind gets. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include "mpi/plan/plan.h"
#include "io/json.h"
#include "io/rio.h"
#include "io/fmt.h"

#define CAL_CPU_MIN_S 0.2    /* a CPU probe's compute long enough to trust its rate */
#define CAL_GPU_MIN_S 0.05   /* ... the GPU's beyond its start and fixed costs */
#define CAL_STEPS 6          /* sizes a probe may try, each grow times the last */
#define CAL_RESERVE 1.0      /* of --seconds, kept back: a probe's last size may overrun its share */
#define CAL_PATH_FIXED_MAX 1.0  /* s: the most a GPU job's paths may add before its first pair */

typedef struct {
	rmpi_work_t kind;
	const char *mode;        /* the child's mode and arguments after the inputs */
	const char *args;
	int64_t n0[2];           /* first size on the CPU, on the GPU */
	int grow;
	int band;                /* long: a pair 1% apart (the CPU's band), else unrelated (every cell) */
	int path;                /* pairs with --path: the paths' cost over the table's weight of them */
	int pow;                 /* the work grows as the size to this power: 2 for reads' pairs or a pair's cells */
} cal_probe_t;

/* sizes: reads (rkt, --all), sequences (hamming), pairs (pairs), bases (long) */
static const cal_probe_t cal_probes[RMPI_W_KINDS] = {
	/* the GPU's first sizes time a second one within the probe's share (its line then gives
	 * gpu_fixed): from 8,000 reads the next took 1 s, and from 500k pairs the next did not fit */
	{ RMPI_W_RKT, "rkt", "-k 3 -t 10 -tau 15", { 1000, 4000 }, 2, 0, 0, 2 },
	{ RMPI_W_HAM, "hamming", "--max-dist 5", { 1000, 4000 }, 2, 0, 0, 2 },
	/* the CPU's from 80k pairs: 20k computed in 7 ms on 4 cores, too short to time */
	{ RMPI_W_DP_PAIRS, "lev", "", { 80000, 250000 }, 2, 0, 0, 1 },
	/* the CPU's first size fills 16 threads' wavefront, as the table's 1 Mb pairs did: a smaller
	 * pair leaves threads idle and reads as a slower machine */
	{ RMPI_W_DP_LONG, "lev", "", { 250000, 1000000 }, 2, 0, 0, 2 },
	{ RMPI_W_DP_ALL, "lev", "--all", { 800, 3000 }, 2, 0, 0, 2 },
};
/* the CPU's band (cpu_band): a pair 1% apart, as users' long pairs are; its threads and its
 * bound scale apart from the dense wavefront's */
static const cal_probe_t cal_band = { RMPI_W_DP_LONG, "lev", "", { 1000000, 0 }, 2, 1, 0, 2 };
/* short pairs' paths on each backend (cpu_path, gpu_path): the table weighs a path at one
 * figure per backend, and a machine's device traces back at its own speed (the emulated
 * quarter of an H200's SMs took lcs --seq --path on 1 kb pairs 1.6x its estimate) */
static const cal_probe_t cal_path = { RMPI_W_DP_PAIRS, "lev", "--path", { 20000, 250000 }, 2, 0, 1, 1 };

static const char *cal_name(const cal_probe_t *p) { return p->band ? "band" : p->path ? "path" : rmpi_rates_kind_key(p->kind); }

static uint64_t cal_rng = 0x9e3779b97f4a7c15ull;
static uint64_t cal_next(void)
{
	cal_rng ^= cal_rng << 13; cal_rng ^= cal_rng >> 7; cal_rng ^= cal_rng << 17;
	return cal_rng;
}
static char cal_nt(void) { return "ACGT"[(cal_next() >> 33) & 3]; }

/* len random bases, 32 from each draw: the inputs' writing is part of the budget */
static void cal_fill(char *s, int64_t len)
{
	for (int64_t i = 0; i < len; i += 32) {
		uint64_t x = cal_next();
		for (int64_t k = i; k < len && k < i + 32; k++, x >>= 2) s[k] = "ACGT"[x & 3];
	}
}

/* bases to the next change, each base changed with probability q (geometric) */
static int64_t cal_gap(double q)
{
	const double u = ((cal_next() >> 11) + 0.5) * (1.0 / 9007199254740992.0);
	if (q <= 0) return INT64_MAX;
	const double g = q >= 1 ? 0 : log(u) / log1p(-q);
	return g < 9e18 ? (int64_t)g : INT64_MAX;
}

/* one record's sequence into s (2 len + 2) and its length, with the newline after it: base with
 * a point change in pct of every 100 bases (pct < 0: random); with indels a third of them
 * insertions and a third deletions, as long pairs drift */
static int64_t cal_body(const char *base, char *s, int64_t len, int pct, int indels)
{
	int64_t m = 0;
	if (pct < 0) cal_fill(s, m = len);
	for (int64_t i = 0; pct >= 0 && i < len;) {
		int64_t g = cal_gap(pct / 100.0);
		if (g > len - i) g = len - i;
		memcpy(s + m, base + i, (size_t)g);
		m += g, i += g;
		if (i == len) break;
		const int what = indels ? (int)((cal_next() >> 40) % 3) : 0;
		if (what == 1) { s[m++] = cal_nt(); s[m++] = base[i]; }   /* an insertion before base[i] */
		else if (what == 0) s[m++] = cal_nt();
		i++;
	}
	s[m] = '\n';
	return m + 1;
}

static int cal_put(FILE *fp, const char *name, int64_t r, const char *s, int64_t m)
{
	return fprintf(fp, ">%s%lld\n", name, (long long)r) < 0 || fwrite(s, 1, (size_t)m, fp) != (size_t)m;
}

#define CAL_PAIRS_KEPT 4096   /* distinct pairs; more pairs repeat them (writing them was most of a probe) */

/* n records of length len into pa: copies of one random base, pct apart (pct < 0: each
 * random); with pb, the i-th record of pb is the i-th of pa's base pct apart, each base new;
 * indels: pb's changes include insertions and deletions */
static rk_status_t cal_write(const char *pa, const char *pb, int64_t n, int64_t len, int pct, int indels)
{
	FILE *fa = fopen(pa, "w"), *fb = pb ? fopen(pb, "w") : 0;
	const int64_t kept = pb ? (n < CAL_PAIRS_KEPT ? n : CAL_PAIRS_KEPT) : 0, wb = 2 * len + 2;
	char *base = malloc((size_t)len + 1), *s = malloc((size_t)wb), *ka = kept ? malloc((size_t)(kept * (len + 1))) : 0;
	char *kb = kept ? malloc((size_t)(kept * wb)) : 0;
	int64_t *mb = kept ? malloc(sizeof(int64_t) * (size_t)kept) : 0;
	rk_status_t st = RK_OK;
	if (!fa || (pb && !fb)) { rk_set_error("calibrate: %s: %s", fa ? pb : pa, strerror(errno)); st = RK_ERES; goto out; }
	if (!base || !s || (kept && (!ka || !kb || !mb))) { rk_set_error("calibrate: %s: out of memory", pa); st = RK_ERES; goto out; }
	cal_fill(base, len);
	for (int64_t r = 0; r < kept; r++) {
		cal_fill(ka + r * (len + 1), len);
		ka[r * (len + 1) + len] = '\n';
		mb[r] = cal_body(ka + r * (len + 1), kb + r * wb, len, pct, indels);
	}
	for (int64_t r = 0; r < n && !st; r++) {
		int e;
		if (kept) e = cal_put(fa, "a", r, ka + (r % kept) * (len + 1), len + 1) || cal_put(fb, "b", r, kb + (r % kept) * wb, mb[r % kept]);
		else e = cal_put(fa, "a", r, s, cal_body(base, s, len, pct, 0));
		if (e) { rk_set_error("calibrate: writing %s: %s", pa, strerror(errno)); st = RK_ERES; }
	}
out:
	if (fa && fclose(fa) && !st) { rk_set_error("calibrate: writing %s: %s", pa, strerror(errno)); st = RK_ERES; }
	if (fb && fclose(fb) && !st) { rk_set_error("calibrate: writing %s: %s", pb, strerror(errno)); st = RK_ERES; }
	free(base); free(s); free(ka); free(kb); free(mb);
	return st;
}

/* the probe's inputs of size n in dir; their names into in (in[1] "" for one input) */
static rk_status_t cal_inputs(const char *dir, const cal_probe_t *p, int64_t n, char in[2][700])
{
	snprintf(in[0], 700, "%s/a.fa", dir);
	snprintf(in[1], 700, "%s/b.fa", dir);
	switch (p->kind) {
	case RMPI_W_RKT: in[1][0] = 0; return cal_write(in[0], 0, n, 51, 3, 0);
	case RMPI_W_HAM: in[1][0] = 0; return cal_write(in[0], 0, n, 3000, 1, 0);
	/* 150 bp, as users' short reads: 100 bp reads ran 2.7x slower a cell on the H200 host's CPU
	 * and took `lev --all` of 3,000 reads of 150 bp to the GPU at 1.6x the CPU's wall */
	case RMPI_W_DP_ALL: in[1][0] = 0; return cal_write(in[0], 0, n, 150, -1, 0);
	case RMPI_W_DP_LONG: return cal_write(in[0], in[1], 1, n, p->band ? 1 : -1, p->band);
	default: return cal_write(in[0], in[1], n, 150, 5, 0);
	}
}

/* the child: self MODE INPUTS ARGS --backend auto --threads T -v --stats S -o O, with auto's
 * answer forced to `be`; its wall into *wall. RK_OK when it exited 0. */
static rk_status_t cal_child(const char *self, const char *dir, const cal_probe_t *p, char in[2][700], const char *be, int threads,
                             double *wall)
{
	char cmd[4096], th[32] = "";
	if (threads > 0) snprintf(th, sizeof th, "--threads %d", threads);
	snprintf(cmd, sizeof cmd,
	         "RKTLCS_AUTO=%s RKTLCS_COST_LOG='%s/cost.jsonl' RKTLCS_RATES=builtin RKTLCS_PROBE=0 '%s' %s '%s' %s%s%s %s --backend auto %s -v "
	         "--stats '%s/stats.json' -o '%s/out' 2> '%s/err'",
	         be, dir, self, p->mode, in[0], in[1][0] ? "'" : "", in[1], in[1][0] ? "'" : "", p->args, th, dir, dir, dir);
	const double t0 = rk_realtime();
	const int r = system(cmd);
	*wall = rk_realtime() - t0;
	if (r != 0) {
		rk_set_error("calibrate: the %s probe on the %s failed (exit %d): see %s/err", cal_name(p), be,
		             WIFEXITED(r) ? WEXITSTATUS(r) : -1, dir);
		return RK_ERES;
	}
	return RK_OK;
}

/* the child's view of its job (the cost log's last line) and its compute stage */
static rk_status_t cal_result(const char *dir, rmpi_cost_t *j, double *left, double *compute)
{
	char f[700], line[2048] = "", last[2048] = "";
	rio_json_t v, s;
	snprintf(f, sizeof f, "%s/cost.jsonl", dir);
	FILE *fp = fopen(f, "r");
	while (fp && fgets(line, sizeof line, fp)) memcpy(last, line, sizeof line);
	if (fp) fclose(fp);
	if (!last[0]) { rk_set_error("calibrate: the probe's auto weighed no job (%s)", f); return RK_ERES; }
	if (rio_json_parse(last, strlen(last), &v)) { rio_json_free(&v); return RK_ERES; }
	memset(j, 0, sizeof *j);
	j->work = rio_json_num(rio_json_get(&v, "work"), 0);
	j->items = rio_json_num(rio_json_get(&v, "items"), 0);
	j->bytes = rio_json_num(rio_json_get(&v, "bytes"), 0);
	j->span = rio_json_num(rio_json_get(&v, "span"), 0);
	j->threads = rio_json_num(rio_json_get(&v, "threads"), 1);
	j->cpu_x = rio_json_num(rio_json_get(&v, "cpu_x"), 1);
	j->gpu_x = rio_json_num(rio_json_get(&v, "gpu_x"), 1);
	j->chain_bound = (int)rio_json_num(rio_json_get(&v, "chain_bound"), 0);
	j->cpu_beside = rio_json_num(rio_json_get(&v, "cpu_beside"), 0);
	*left = rio_json_num(rio_json_get(&v, "start_left"), 0);
	rio_json_free(&v);
	snprintf(f, sizeof f, "%s/stats.json", dir);
	if (rio_json_read_file(f, &s)) { rio_json_free(&s); return RK_ERES; }
	*compute = rio_json_num(rio_json_get(rio_json_get(&s, "stages"), "compute"), -1);
	rio_json_free(&s);
	return *compute >= 0 ? RK_OK : (rk_set_error("calibrate: no compute stage in %s", f), RK_ERES);
}

/* the child's context start (its -v line "GPU start-up on its thread: driver X s, context Y s") */
static double cal_start(const char *dir)
{
	char f[700], line[1024];
	double d, c, t = -1;
	snprintf(f, sizeof f, "%s/err", dir);
	FILE *fp = fopen(f, "r");
	while (fp && fgets(line, sizeof line, fp)) {
		const char *p = strstr(line, "GPU start-up on its thread: driver ");
		if (p && sscanf(p, "GPU start-up on its thread: driver %lf s, context %lf s", &d, &c) == 2) t = d + c;
	}
	if (fp) fclose(fp);
	return t;
}

typedef struct {
	int done;                /* measured */
	double scale;            /* the built-in rates' speed times this is the measured one */
	int64_t n;               /* the last size */
	double compute, model;   /* its compute stage, and the built-in table's estimate of it */
	int fixed_done;          /* the GPU's fixed cost measured (two sizes timed) */
	double fixed;            /* ... in s: what the sizes' line leaves at size 0, less the start */
} cal_fit_t;

/* the scale that makes the estimate of job j (rates r) the measured compute: every term of a
 * backend's time but its fixed ones (the CPU's start beside a context, the GPU's fixed cost and
 * what is left of its context's start) is inversely proportional to its speed */
static double cal_scale(const rmpi_cost_t *j, const rmpi_rates_t *r, int gpu, double left, double compute, double *model)
{
	double tg, tc;
	rmpi_cost_pick(j, r, left, &tg, &tc);
	*model = gpu ? tg : tc;
	const double fixed = gpu ? left + r->gpu_fixed : j->cpu_beside, var = *model - fixed, meas = compute - fixed;
	return meas > 1e-3 && var > 0 ? var / meas : var > 0 ? var / 1e-3 : 1;
}

/* A job's context start (start_s): the least of the first CAL_COLD GPU children's, which start
 * cold (the first may pay once-only costs: the driver's files read, an MPS server's first
 * client). The parent then holds the driver, so every later child starts warm (its start
 * cancels in the fit) instead of paying the cold driver again. */
#define CAL_COLD 2
typedef struct { double s; int cold; } cal_start_t;

static void cal_seen_start(double seen, cal_start_t *t)
{
	if (t->cold >= CAL_COLD || seen <= 0) return;
	t->s = t->cold++ && t->s < seen ? t->s : seen;
	if (t->cold == CAL_COLD && rgpu_device_count() <= 0) rk_debug("calibrate: the driver not held: every GPU probe starts cold");
}

/* a child's seconds at g times the size of one that took `took`, var of it variable: that
 * grows as the work, the rest as the size (the size alone once sent lev --all on the GPU to 16x
 * its pairs, priced at 4x). A GPU child's variable part can read as nothing where its start is
 * taken for most of its compute, so at least half the compute counts as variable. */
static double cal_next_s(const cal_probe_t *p, double took, double compute, double var, int g)
{
	if (p->pow != 2) return took * g;
	const double v = var > compute / 2 ? var : compute / 2, rest = took > v ? took - v : 0;
	return rest * g + v * g * g;
}

/* one kind on one backend: sizes from the probe's first, growing while the compute stage is too
 * short to time and the budget allows; *start: the context's start the GPU children saw */
static rk_status_t cal_probe(const rmpi_calib_opt_t *o, const char *dir, const cal_probe_t *p, int gpu, double budget, int simd,
                             cal_fit_t *f, cal_start_t *start)
{
	int64_t n = p->n0[gpu];
	double spent = 0, prev_t = 0, prev_v = 0;
	rk_status_t st = RK_OK;
	memset(f, 0, sizeof *f);
	for (int step = 0; step < CAL_STEPS; step++, n *= p->grow) {
		char in[2][700], log[700];
		double wall, left, compute, model;
		rmpi_cost_t j;
		rmpi_rates_t r;
		snprintf(log, sizeof log, "%s/cost.jsonl", dir);
		unlink(log);
		const double t0 = rk_realtime();
		if ((st = cal_inputs(dir, p, n, in)) || (st = cal_child(o->self, dir, p, in, gpu ? "gpu" : "cpu", o->threads, &wall)) ||
		    (st = cal_result(dir, &j, &left, &compute)))
			return st;
		const double took = rk_realtime() - t0;   /* the inputs' writing too */
		spent += took;
		rmpi_rates_for(p->kind, 0, simd, &r);
		if (gpu) {
			const double seen = cal_start(dir), nominal = rmpi_rates_start(RMPI_START_NOMINAL);
			cal_seen_start(seen, start);
			/* left: the start the child's auto counted as left; its real rest from what it saw */
			const double since = left < nominal ? nominal - left : 0;
			left = seen > 0 ? (seen > since ? seen - since : 0) : left;
		}
		const double fixed = gpu ? left + r.gpu_fixed : j.cpu_beside, one = cal_scale(&j, &r, gpu, gpu ? left : 0, compute, &model);
		const double var = compute - fixed, vmodel = model - fixed;
		/* two sizes: the difference of their times cancels what is fixed (a GPU child's start,
		 * reading); one size: where its variable part is most of its time */
		if (step && compute - prev_t > 0.02 && vmodel > prev_v) {
			f->scale = (vmodel - prev_v) / (compute - prev_t), f->done = 1;
			/* the line through both sizes at size 0, less the context's start: the GPU's fixed
			 * cost on this machine (the table's 0.03 s made a job of 0.085 s look like 0.115 s) */
			const double fx = compute - vmodel / f->scale - left, most = p->path ? CAL_PATH_FIXED_MAX : 4 * r.gpu_fixed;
			f->fixed = fx < 0 ? 0 : fx > most ? most : fx;
			f->fixed_done = gpu;
		} else if (var > 0.02 && var > 0.3 * compute) f->scale = one, f->done = 1;
		f->n = n;
		f->compute = compute;
		f->model = model;
		rk_debug("calibrate: %s on the %s, size %lld: compute %.3f s of %.3f s (%.3f s with its inputs; built-in estimate %.3f s), speed %s%.3gx the table's",
		         cal_name(p), gpu ? "GPU" : "CPU", (long long)n, compute, wall, took, model, f->done ? "" : "not yet timed; ", f->done ? f->scale : 1.0);
		prev_t = compute;
		prev_v = vmodel;
		/* a child costs its start and read whatever its size (0.3-0.4 s on the H200 host): a
		 * variable part far below the aim skips a size */
		const double aim = gpu ? CAL_GPU_MIN_S : CAL_CPU_MIN_S;
		const double room = f->done ? budget : 3 * budget + 1;
		const int g2 = p->grow * p->grow;
		const int grow = var < aim / 8 && spent + cal_next_s(p, took, compute, var, g2) * 1.2 <= room ? g2 : p->grow;
		const double next = spent + cal_next_s(p, took, compute, var, grow) * 1.2;
		if (f->done && ((var >= aim && (step || !gpu)) || next > budget)) break;
		/* not timed yet: a file without this kind's rate is worth a few times its share (a slow,
		 * sanitized or busy machine) */
		if (!f->done && next > room) break;
		n *= grow / p->grow;   /* (the loop's step grows it once more) */
	}
	return st;
}

/* the file: this machine, the scaled rates of every kind, the probes behind them */
/* a backend's path factor: the pairs' speed over the path probe's, both against the table
 * (1 where either was not timed), within what a path can cost */
static double cal_path_x(const cal_fit_t *pairs, const cal_fit_t *path)
{
	if (!path->done || !(path->scale > 0)) return 1;
	const double x = (pairs->done ? pairs->scale : 1) / path->scale;
	return x < 0.25 ? 0.25 : x > 8 ? 8 : x;
}

static void cal_write_probe(rio_buf_t *b, const char *name, const cal_fit_t *f, int *first)
{
	if (!f->done) return;
	rio_buf_printf(b, "%s\"%s\": {\"size\": %lld, \"compute_s\": %.4g, \"table_s\": %.4g, \"speed\": %.4g", *first ? "" : ", ", name,
	               (long long)f->n, f->compute, f->model, f->scale);
	if (f->fixed_done) rio_buf_printf(b, ", \"fixed_s\": %.4g", f->fixed);
	rio_buf_chr(b, '}');
	*first = 0;
}

static rk_status_t cal_write_file(const rmpi_calib_opt_t *o, const char *path, const rmpi_machine_t *m, const cal_fit_t fit[][2],
                                  const cal_fit_t *band, const cal_fit_t pfit[2], double start, int simd, double secs)
{
	rio_buf_t b = { 0 };
	char when[64];
	const time_t now = time(0);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	rio_buf_printf(&b, "{\n  \"format\": \"rktlcs-rates\",\n  \"format_version\": 1,\n  \"source\": \"rktlcs calibrate\",\n  \"version\": ");
	rio_buf_json(&b, RKTLCS_VERSION);
	rio_buf_printf(&b, ",\n  \"date\": \"%s\",\n  \"seconds\": %.2f,\n  \"threads\": %d,\n  \"machine\": {\"host\": ", when, secs, o->threads);
	rio_buf_json(&b, m->host); rio_buf_str(&b, ", \"cpu\": "); rio_buf_json(&b, m->cpu);
	rio_buf_printf(&b, ", \"cpus\": %d, \"simd\": %d, \"gpu\": ", m->cpus, m->simd);
	rio_buf_json(&b, m->gpu);
	rio_buf_printf(&b, ", \"gpus\": %d, \"driver\": ", m->gpus);
	rio_buf_json(&b, m->driver);
	rio_buf_printf(&b, "},\n  \"start_s\": %.4g,\n  \"rates\": {", start);
	for (int k = 0; k < RMPI_W_KINDS; k++) {
		rmpi_rates_t r;
		rmpi_rates_for((rmpi_work_t)k, 0, simd, &r);
		const double sc = fit[k][0].done ? fit[k][0].scale : 1, sg = fit[k][1].done ? fit[k][1].scale : 1;
		r.cpu_rate *= sc; r.cpu_item /= sc;
		r.gpu_rate *= sg; r.gpu_bw *= sg; r.gpu_item /= sg; r.gpu_step /= sg;
		/* the band's speed was measured against the table's cpu_rate, now scaled by sc */
		if (k == RMPI_W_DP_LONG && band->done) r.cpu_band *= band->scale / sc;
		if (fit[k][1].fixed_done) r.gpu_fixed = fit[k][1].fixed;
		if (k == RMPI_W_DP_PAIRS) {
			r.cpu_path = cal_path_x(&fit[k][0], &pfit[0]), r.gpu_path = cal_path_x(&fit[k][1], &pfit[1]);
			r.gpu_path_fixed = pfit[1].fixed_done ? pfit[1].fixed : 0;
		}
		rio_buf_printf(&b, "%s\n    \"%s\": {\"gpu_fixed\": %.4g, \"gpu_rate\": %.4g, \"gpu_item\": %.4g, \"gpu_bw\": %.4g, \"gpu_step\": %.4g, "
		               "\"cpu_rate\": %.4g, \"cpu_item\": %.4g, \"cpu_par\": %.4g, \"cpu_band\": %.4g, \"cpu_path\": %.4g, \"gpu_path\": %.4g, \"gpu_path_fixed\": %.4g,\n      \"probes\": {",
		               k ? "," : "", rmpi_rates_kind_key((rmpi_work_t)k), r.gpu_fixed, r.gpu_rate, r.gpu_item, r.gpu_bw, r.gpu_step, r.cpu_rate,
		               r.cpu_item, r.cpu_par, r.cpu_band, r.cpu_path, r.gpu_path, r.gpu_path_fixed);
		int first = 1;
		cal_write_probe(&b, "cpu", &fit[k][0], &first);
		cal_write_probe(&b, "gpu", &fit[k][1], &first);
		if (k == RMPI_W_DP_LONG) cal_write_probe(&b, "cpu_band", band, &first);
		if (k == RMPI_W_DP_PAIRS) cal_write_probe(&b, "cpu_path", &pfit[0], &first), cal_write_probe(&b, "gpu_path", &pfit[1], &first);
		rio_buf_str(&b, "}}");
	}
	rio_buf_str(&b, "\n  }\n}\n");
	/* its folder first (~/.cache/rktlcs), as mkdir -p */
	char dir[600];
	snprintf(dir, sizeof dir, "%s", path);
	for (char *s = dir + 1; *s; s++)
		if (*s == '/') { *s = 0; mkdir(dir, 0755); *s = '/'; }
	rio_out_t out;
	rk_status_t st = b.oom ? (rk_set_error("out of memory"), RK_ERES) : rio_out_open(&out, path);
	if (!st) {
		if ((st = rio_buf_write(&b, out.fp, rio_out_name(&out))) == RK_OK) st = rio_out_commit(&out);
		else rio_out_abort(&out);
	}
	rio_buf_free(&b);
	return st;
}

/* the GPUs a child sees (its --version line "gpu: CUDA, N device"): asking the runtime here
 * would hold the driver awake before the cold children that give start_s */
static int cal_gpus(const char *self)
{
	char cmd[4200], line[512];
	int n = 0;
	snprintf(cmd, sizeof cmd, "'%s' --version 2> /dev/null", self);
	FILE *fp = popen(cmd, "r");
	while (fp && fgets(line, sizeof line, fp))
		if (sscanf(line, "gpu: CUDA, %d device", &n) == 1) break;
	if (fp) pclose(fp);
	return n;
}

rk_status_t rmpi_calibrate(const rmpi_calib_opt_t *o)
{
	const double t0 = rk_realtime();
	char path[512], dir[600];
	rk_status_t st;
	if ((st = rmpi_rates_path(o->rates, path, sizeof path))) return st;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/rktlcs-calibrate.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) { rk_set_error("calibrate: a folder in %s: %s", tmp && *tmp ? tmp : "/tmp", strerror(errno)); return RK_ERES; }
	rmpi_machine_t m;
	rmpi_machine_get(&m);
	const int simd = rmpi_simd_bits(), gpu = o->gpu && (o->start > 0 ? rgpu_device_count() : cal_gpus(o->self)) > 0, cpu = o->cpu;
	cal_fit_t fit[RMPI_W_KINDS][2], band, pfit[2];
	cal_start_t start = { o->start > 0 ? o->start : 0, o->start > 0 ? CAL_COLD : 0 };
	double left = o->budget > 2 * CAL_RESERVE ? o->budget - CAL_RESERVE : o->budget;
	memset(fit, 0, sizeof fit);
	memset(&band, 0, sizeof band);
	memset(pfit, 0, sizeof pfit);
	/* the probes in order, each with its share of what is left: the band beside its kind (run
	 * last, it got what the others left: 0.6 s on the H200 host, one size, and a fit of 0.45x
	 * that sent a 3 Mb pair 1% apart to the GPU at 3x the CPU's wall) */
	struct { const cal_probe_t *p; cal_fit_t *f; int gpu; } run[2 * RMPI_W_KINDS + 3];
	int np = 0;
	for (int k = 0; k <= RMPI_W_KINDS; k++) {   /* k == RMPI_W_KINDS: the paths */
		for (int g = 0; g < 2; g++)
			if (g ? gpu : cpu) {
				run[np].p = k < RMPI_W_KINDS ? &cal_probes[k] : &cal_path;
				run[np].f = k < RMPI_W_KINDS ? &fit[k][g] : &pfit[g];
				run[np++].gpu = g;
			}
		if (k == RMPI_W_DP_LONG && cpu) run[np].p = &cal_band, run[np].f = &band, run[np++].gpu = 0;
	}
	rk_info("calibrate: %s (%d CPUs, SIMD %d bits)%s%s%s, %d probes of about %.1f s", m.cpu, m.cpus, m.simd, gpu ? "; " : "",
	        gpu ? m.gpu : "", gpu ? "" : "; no GPU probed", np, np ? o->budget / np : 0);
	for (int i = 0; i < np && !st; i++) {
		const double t = rk_realtime();
		st = cal_probe(o, dir, run[i].p, run[i].gpu, left / (np - i), simd, run[i].f, &start);
		left -= rk_realtime() - t;
	}
	if (!start.cold) start.s = rmpi_rates_start(RMPI_START_NOMINAL);
	if (!st) st = cal_write_file(o, path, &m, (const cal_fit_t(*)[2])fit, &band, pfit, start.s, simd, rk_realtime() - t0);
	if (!st) {
		for (int k = 0; k < RMPI_W_KINDS; k++)
			rk_info("calibrate: %-8s cpu %s%.3gx, gpu %s%.3gx the built-in table's speed", rmpi_rates_kind_key((rmpi_work_t)k),
			        fit[k][0].done ? "" : "(not probed) ", fit[k][0].done ? fit[k][0].scale : 1, fit[k][1].done ? "" : "(not probed) ",
			        fit[k][1].done ? fit[k][1].scale : 1);
		rk_info("calibrate: band     cpu %s%.3gx the built-in table's speed", band.done ? "" : "(not probed) ", band.done ? band.scale : 1);
		rk_info("calibrate: paths    cpu %.3gx, gpu %.3gx the built-in table's cost of a short pair's path", cal_path_x(&fit[RMPI_W_DP_PAIRS][0], &pfit[0]),
		        cal_path_x(&fit[RMPI_W_DP_PAIRS][1], &pfit[1]));
		if (gpu) rk_info("calibrate: a GPU context's start %.3g s (%s)", start.s, o->start > 0 ? "this job's own" : start.cold ? "the least of the cold children's" : "none seen: the table's");
		rk_info("calibrate: wrote %s in %.1f s", path, rk_realtime() - t0);
		char cmd[700];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		if (system(cmd)) rk_debug("calibrate: %s left behind", dir);
	} else rk_info("calibrate: the probes' files are left in %s", dir);
	return st;
}
