/* auto's rates (plan.h): the built-in table, compiled in from rates_ref.json (its provenance is
 * there), and the calibrated file of this machine (`rktlcs calibrate`, docs/calibrate.md),
 * used where it matches the machine and this version. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <dirent.h>
#include <unistd.h>
#include "mpi/plan/plan.h"
#include "algo/aln.h"
#include "io/json.h"

extern const char rmpi_rates_ref_json[];   /* rates_ref.json, generated into the build (CMakeLists.txt) */

static const char *const kind_key[RMPI_W_KINDS] = { "rkt", "hamming", "pairs", "long", "all" };

const char *rmpi_rates_kind_key(rmpi_work_t k) { return k < RMPI_W_KINDS ? kind_key[k] : "?"; }

/* the fields of rmpi_rates_t in file order */
#define N_FIELDS 9
static const char *const field_key[N_FIELDS] = { "gpu_fixed", "gpu_rate", "gpu_item", "gpu_bw", "gpu_step", "cpu_rate", "cpu_item", "cpu_par",
	                                             "cpu_band" };

static double *field_at(rmpi_rates_t *r, int f)
{
	double *p[N_FIELDS] = { &r->gpu_fixed, &r->gpu_rate, &r->gpu_item, &r->gpu_bw, &r->gpu_step, &r->cpu_rate, &r->cpu_item, &r->cpu_par, &r->cpu_band };
	return p[f];
}

static void copy_line(char *dst, size_t n, const char *src)
{
	size_t l = 0;
	while (src[l] && src[l] != '\n' && l + 1 < n) { dst[l] = src[l]; l++; }
	while (l && (dst[l - 1] == ' ' || dst[l - 1] == '\t')) l--;
	dst[l] = 0;
}

/* the first "key: value" line of FILE whose key starts with `key`, its value into buf */
static int proc_field(const char *file, const char *key, char *buf, size_t n)
{
	FILE *fp = fopen(file, "r");
	char line[512];
	int found = 0;
	if (!fp) return 0;
	while (!found && fgets(line, sizeof line, fp)) {
		char *c = strchr(line, ':');
		if (!strncmp(line, key, strlen(key)) && c) {
			c++;
			while (*c == ' ' || *c == '\t') c++;
			copy_line(buf, n, c);
			found = 1;
		}
	}
	fclose(fp);
	return found;
}

int rmpi_simd_bits(void)
{
	const int lv = aln_simd_level(-1);
	return lv >= 3 ? 512 : lv == 2 ? 256 : 64;
}

void rmpi_machine_get(rmpi_machine_t *m)
{
	memset(m, 0, sizeof *m);
	m->host[sizeof m->host - 1] = 0;
	if (gethostname(m->host, sizeof m->host - 1)) snprintf(m->host, sizeof m->host, "unknown");
	if (!proc_field("/proc/cpuinfo", "model name", m->cpu, sizeof m->cpu)) snprintf(m->cpu, sizeof m->cpu, "unknown");
	const long n = sysconf(_SC_NPROCESSORS_ONLN);
	m->cpus = n > 0 ? (int)n : 1;
	m->simd = rmpi_simd_bits();
	/* the GPUs from the driver's /proc entries, without a CUDA call: auto asks while a context
	 * may be starting on another thread */
	DIR *d = opendir("/proc/driver/nvidia/gpus");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char f[512];
		if (e->d_name[0] == '.') continue;
		snprintf(f, sizeof f, "/proc/driver/nvidia/gpus/%s/information", e->d_name);
		char name[128];
		if (!proc_field(f, "Model", name, sizeof name)) continue;
		if (!m->gpus++) snprintf(m->gpu, sizeof m->gpu, "%s", name);
	}
	if (d) closedir(d);
	char v[128];
	if (proc_field("/proc/driver/nvidia/version", "NVRM version", v, sizeof v)) {
		const char *p = strstr(v, "Module");
		p = p ? p + 6 : v;
		while (*p == ' ') p++;
		copy_line(m->driver, sizeof m->driver, p);
		char *sp = strchr(m->driver, ' ');
		if (sp) *sp = 0;
	}
}

/* a file's "rates" into r (every kind, every field finite and >= 0) and start_s */
static rk_status_t rates_from(const rio_json_t *root, rmpi_rates_t r[RMPI_W_KINDS], double *start_s)
{
	const rio_json_t *rt = rio_json_get(root, "rates");
	if (!rt) { rk_set_error("no \"rates\""); return RK_EINPUT; }
	for (int k = 0; k < RMPI_W_KINDS; k++) {
		const rio_json_t *o = rio_json_get(rt, kind_key[k]);
		if (!o) { rk_set_error("no rates for \"%s\"", kind_key[k]); return RK_EINPUT; }
		for (int f = 0; f < N_FIELDS; f++) {
			const double x = rio_json_num(rio_json_get(o, field_key[f]), -1);
			if (!(x >= 0) || !isfinite(x)) { rk_set_error("\"%s\".\"%s\" missing or not a number >= 0", kind_key[k], field_key[f]); return RK_EINPUT; }
			*field_at(&r[k], f) = x;
		}
		if (!(r[k].cpu_rate > 0) || !(r[k].gpu_rate > 0) || !(r[k].cpu_band > 0)) { rk_set_error("\"%s\": a rate of 0", kind_key[k]); return RK_EINPUT; }
		/* optional (files before them, and the table, have none): the path factors 1, their fixed cost 0 */
		const char *const pk[3] = { "cpu_path", "gpu_path", "gpu_path_fixed" };
		double *pv[3] = { &r[k].cpu_path, &r[k].gpu_path, &r[k].gpu_path_fixed };
		for (int f = 0; f < 3; f++) {
			const rio_json_t *x = rio_json_get(o, pk[f]);
			*pv[f] = x ? rio_json_num(x, -1) : f < 2;
			if (!(f < 2 ? *pv[f] > 0 : *pv[f] >= 0) || !isfinite(*pv[f])) {
				rk_set_error("\"%s\".\"%s\" not a number %s", kind_key[k], pk[f], f < 2 ? "> 0" : ">= 0");
				return RK_EINPUT;
			}
		}
	}
	*start_s = rio_json_num(rio_json_get(root, "start_s"), -1);
	if (!(*start_s >= 0) || !isfinite(*start_s)) { rk_set_error("\"start_s\" missing or not a number >= 0"); return RK_EINPUT; }
	return RK_OK;
}

/* a parsed rates file (st: its parse) checked and read; frees root */
static rk_status_t rates_tree(rk_status_t st, rio_json_t *root_, const rmpi_machine_t *m, rmpi_rates_t r[RMPI_W_KINDS], double *start_s)
{
	rio_json_t root = *root_;
	if (!st && strcmp(rio_json_str(rio_json_get(&root, "format")) ? rio_json_str(rio_json_get(&root, "format")) : "", "rktlcs-rates")) {
		rk_set_error("not a rates file (no \"format\": \"rktlcs-rates\")");
		st = RK_EINPUT;
	}
	if (!st && rio_json_num(rio_json_get(&root, "format_version"), 0) != 1) {
		rk_set_error("format_version %g, this rktlcs reads 1", rio_json_num(rio_json_get(&root, "format_version"), 0));
		st = RK_EINPUT;
	}
	if (!st && m) {   /* another machine or version: its rates say nothing about this one */
		const rio_json_t *mc = rio_json_get(&root, "machine");
		const char *ver = rio_json_str(rio_json_get(&root, "version")), *cpu = rio_json_str(rio_json_get(mc, "cpu"));
		const char *gpu = rio_json_str(rio_json_get(mc, "gpu"));
		const int cpus = (int)rio_json_num(rio_json_get(mc, "cpus"), -1), simd = (int)rio_json_num(rio_json_get(mc, "simd"), -1);
		const int gpus = (int)rio_json_num(rio_json_get(mc, "gpus"), -1);
		st = RK_EINPUT;
		if (!ver || strcmp(ver, RKTLCS_VERSION)) rk_set_error("made by rktlcs %s, this is %s", ver ? ver : "(none)", RKTLCS_VERSION);
		else if (!cpu || strcmp(cpu, m->cpu) || cpus != m->cpus || simd != m->simd)
			rk_set_error("made on another CPU (%s, %d CPUs, SIMD %d bits; this one: %s, %d, %d)", cpu ? cpu : "?", cpus, simd, m->cpu, m->cpus, m->simd);
		else if (!gpu || strcmp(gpu, m->gpu) || gpus != m->gpus)
			rk_set_error("made with other GPUs (%d x '%s'; this machine: %d x '%s')", gpus, gpu ? gpu : "?", m->gpus, m->gpu);
		else st = RK_OK;
	}
	if (!st) st = rates_from(&root, r, start_s);
	rio_json_free(root_);
	return st;
}

rk_status_t rmpi_rates_parse(const char *text, size_t len, const rmpi_machine_t *m, rmpi_rates_t r[RMPI_W_KINDS], double *start_s)
{
	rio_json_t root;
	const rk_status_t st = rio_json_parse(text, len, &root);
	return rates_tree(st, &root, m, r, start_s);
}

/* the built-in table, parsed once; the calibrated rates where a file matched */
static struct {
	int init, cal;
	rmpi_rates_t ref[RMPI_W_KINDS], use[RMPI_W_KINDS];
	double ref_start, use_start;
	char from[600];
	int reload;   /* rmpi_rates_reload: the next load reads the file again */
	int said;     /* the note was said (or had nothing to say) */
	char note[900];   /* why the file is not used, "" if it is or there is none */
} R;

static void rates_builtin(void)
{
	if (R.init) return;
	R.init = 1;
	if (rmpi_rates_parse(rmpi_rates_ref_json, strlen(rmpi_rates_ref_json), 0, R.ref, &R.ref_start)) {
		/* the build checks the file (unit_cost): this cannot happen in a tested build */
		rk_warn("internal: the built-in rates do not parse: %s", rk_error());
		rk_clear_error();
	}
	memcpy(R.use, R.ref, sizeof R.ref);
	R.use_start = R.ref_start;
	snprintf(R.from, sizeof R.from, "the built-in table");
}

void rmpi_rates_ref(rmpi_work_t kind, rmpi_rates_t *r)
{
	rates_builtin();
	*r = R.ref[kind < RMPI_W_KINDS ? kind : RMPI_W_DP_PAIRS];
}

rk_status_t rmpi_rates_path(const char *given, char *buf, size_t n)
{
	const char *env = getenv("RKTLCS_RATES"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char host[256] = "";
	if (given && *given) { snprintf(buf, n, "%s", given); return RK_OK; }
	if (env && *env) { snprintf(buf, n, "%s", env); return RK_OK; }
	if (gethostname(host, sizeof host - 1)) snprintf(host, sizeof host, "unknown");
	for (char *p = host; *p; p++) if (*p == '/') *p = '_';
	if (xdg && *xdg) snprintf(buf, n, "%s/rktlcs/rates-%s.json", xdg, host);
	else if (home && *home) snprintf(buf, n, "%s/.cache/rktlcs/rates-%s.json", home, host);
	else { rk_set_error("no place for the rates file: set --rates FILE, RKTLCS_RATES, XDG_CACHE_HOME or HOME"); return RK_EINPUT; }
	return RK_OK;
}

/* the file's rates into R where it matches this machine; else R.note says why not */
static void rates_read(const char *given)
{
	char path[512];
	R.note[0] = 0;
	if (rmpi_rates_path(given, path, sizeof path)) { rk_clear_error(); return; }
	if (!strcmp(path, "builtin")) return;   /* calibrate's probes: the table they are measured against */
	/* the default file is looked for; a named one must be there */
	const int named = (given && *given) || (getenv("RKTLCS_RATES") && *getenv("RKTLCS_RATES"));
	if (!named && access(path, F_OK)) return;
	rmpi_machine_t m;
	rmpi_machine_get(&m);
	rmpi_rates_t r[RMPI_W_KINDS];
	double start;
	rio_json_t root;
	rk_status_t st = rio_json_read_file(path, &root);
	st = rates_tree(st, &root, &m, r, &start);
	if (st) {
		const char *why = rk_error();   /* the reader's "PATH: reason": the path is said once */
		if (!strncmp(why, path, strlen(path)) && why[strlen(path)] == ':') why += strlen(path) + 2;
		snprintf(R.note, sizeof R.note, "auto: the rates in %s are not used (%s): the built-in table", path, why);
		rk_clear_error();
		return;
	}
	memcpy(R.use, r, sizeof r);
	R.use_start = start;
	R.cal = 1;
	snprintf(R.from, sizeof R.from, "calibrated, %s", path);
}

void rmpi_rates_load(const char *given, int say)
{
	static int done;
	rates_builtin();
	if (!done || R.reload) {
		done = 1;
		R.reload = R.said = 0;
		rates_read(given);
	}
	/* (a load before MPI starts says nothing: the ranks' load after it says it once) */
	if (say && !R.said && R.note[0]) rk_info("%s", R.note);
	if (say) R.said = 1;
}

void rmpi_rates_here(rmpi_work_t kind, rmpi_rates_t *r)
{
	rates_builtin();
	if (R.cal) { *r = R.use[kind < RMPI_W_KINDS ? kind : RMPI_W_DP_PAIRS]; return; }   /* measured here: no scaling */
	rmpi_rates_for(kind, 0, rmpi_simd_bits(), r);
}

double rmpi_rates_start(double nominal) { rates_builtin(); return R.cal ? R.use_start : nominal; }
const char *rmpi_rates_from(void) { rates_builtin(); return R.from; }
int rmpi_rates_calibrated(void) { return R.cal; }

void rmpi_rates_reload(const char *given, int say)
{
	rates_builtin();
	R.reload = 1;
	rmpi_rates_load(given, say);
}
