/* Argument iteration and the options every mode shares. */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <ctype.h>
#include <limits.h>
#include "cli/cli.h"

void rcli_args_init(rcli_args_t *a, int argc, char **argv)
{
	memset(a, 0, sizeof *a);
	a->argc = argc; a->argv = argv; a->i = 0;  /* argv[0] is the program or the mode */
}

int rcli_next(rcli_args_t *a)
{
	a->name = a->eq = a->pos = 0;
	a->eq_used = 0;
	if (++a->i >= a->argc) return RCLI_END;
	const char *s = a->argv[a->i];
	if (!a->only_pos && strcmp(s, "--") == 0) {
		a->only_pos = 1;
		return rcli_next(a);
	}
	if (a->only_pos || s[0] != '-' || s[1] == 0) { a->pos = s; return RCLI_POS; }
	const char *eq = s[1] == '-' ? strchr(s, '=') : 0;
	if (eq) {
		size_t n = (size_t)(eq - s) < sizeof a->buf - 1 ? (size_t)(eq - s) : sizeof a->buf - 1;
		memcpy(a->buf, s, n);
		a->buf[n] = 0;
		a->name = a->buf;
		a->eq = eq + 1;
	} else a->name = s;
	return RCLI_OPT;
}

int rcli_is(const rcli_args_t *a, const char *s1, const char *s2)
{
	return (s1 && strcmp(a->name, s1) == 0) || (s2 && strcmp(a->name, s2) == 0);
}

const char *rcli_value(rcli_args_t *a)
{
	const char *v = a->eq;
	if (v) a->eq_used = 1;
	else {
		if (a->i + 1 >= a->argc) { rk_set_error("option %s needs a value", a->name); return 0; }
		v = a->argv[++a->i];
	}
	/* "--candidates -q" is a forgotten value, not a file named -q */
	if (v[0] == '-' && v[1] && !isdigit((unsigned char)v[1]) && v[1] != '.') {
		rk_set_error("option %s needs a value, not the option '%s'", a->name, v);
		return 0;
	}
	return v;
}

const char *rcli_file(rcli_args_t *a)
{
	const char *v = rcli_value(a);
	/* "" would be found out only when the finished output is renamed over it */
	if (v && !*v) { rk_set_error("option %s: the file name is empty", a->name); return 0; }
	return v;
}

rk_status_t rcli_int(rcli_args_t *a, int64_t min, int64_t max, int64_t *out)
{
	const char *v = rcli_value(a);
	if (!v) return RK_EINPUT;
	char *end;
	errno = 0;
	long long x = strtoll(v, &end, 10);
	/* one rule for blanks: none, before or after (strtoll alone skips the leading ones) */
	if (errno || end == v || *end || isspace((unsigned char)v[0]) || x < min || x > max) {
		if (max < INT64_MAX) rk_set_error("option %s: '%s' is not an integer in %lld..%lld", a->name, v, (long long)min, (long long)max);
		else rk_set_error("option %s: '%s' is not an integer >= %lld", a->name, v, (long long)min);
		return RK_EINPUT;
	}
	*out = x;
	return RK_OK;
}

int rcli_common(rcli_args_t *a, rk_common_t *c, rcli_flags_t *f, rk_status_t *st)
{
	const char *v;
	int64_t x;
	*st = RK_OK;
	if (rcli_is(a, "-h", "--help")) f->help = 1;
	else if (rcli_is(a, "--version", "-V")) f->version = 1;
	else if (rcli_is(a, "-q", "--quiet")) rk_set_log_level(RK_LOG_ERROR);
	else if (rcli_is(a, "-v", "--verbose")) rk_set_log_level(RK_LOG_DEBUG);
	else if (rcli_is(a, "-o", "--output")) { if (!(c->output = rcli_file(a))) *st = RK_EINPUT; }
	else if (rcli_is(a, "--threads", "-@")) {
		/* clamped to the CPUs, with one warning naming this value, by rmpi_threads */
		if ((*st = rcli_int(a, 1, INT64_MAX, &x)) == RK_OK) c->threads = x > INT_MAX ? INT_MAX : (int)x;
		c->threads_given = 1;
	} else if (rcli_is(a, "--format", 0)) {
		if (!(v = rcli_value(a))) *st = RK_EINPUT;
		else if (!strcmp(v, "tsv")) c->format = RK_FMT_TSV;
		else if (!strcmp(v, "json")) c->format = RK_FMT_JSON;
		else if (!strcmp(v, "paf")) c->format = RK_FMT_PAF;   /* lev and lcs --path; the other modes refuse it */
		else { rk_set_error("--format: '%s' is not tsv, json or paf", v); *st = RK_EINPUT; }
	} else if (rcli_is(a, "--backend", 0)) {
		if (!(v = rcli_value(a))) *st = RK_EINPUT;
		else if (!strcmp(v, "cpu")) c->backend = RK_BACKEND_CPU;
		else if (!strcmp(v, "gpu")) c->backend = RK_BACKEND_GPU;
		else if (!strcmp(v, "auto")) c->backend = RK_BACKEND_AUTO;
		else { rk_set_error("--backend: '%s' is not cpu, gpu or auto", v); *st = RK_EINPUT; }
	} else if (rcli_is(a, "--compress", 0)) c->compress = 1;
	else if (rcli_is(a, "--keep-secondary", 0)) c->keep_secondary = 1;
	else if (rcli_is(a, "--as-stored", 0)) c->as_stored = 1;
	else if (rcli_is(a, "--reference", 0)) {
		if (!(c->reference = rcli_file(a))) *st = RK_EINPUT;
	}
	else if (rcli_is(a, "--stats", 0)) {
		if (!(c->stats = rcli_file(a))) *st = RK_EINPUT;
	} else if (rcli_is(a, "--rates", 0)) {
		if (!(c->rates = rcli_file(a))) *st = RK_EINPUT;
	} else if (rcli_is(a, "--device-memory", 0)) {
		if (!(v = rcli_value(a))) *st = RK_EINPUT;
		else if (!(c->device_memory = rk_parse_size(v))) { rk_set_error("--device-memory: bad size '%s'", v); *st = RK_EINPUT; }
	} else return 0;
	return 1;
}

void rcli_common_usage(FILE *fp, int with_backend, int with_paf)
{
	fprintf(fp, "  -o, --output FILE       write to FILE [stdout]; FILE.gz: BGZF, as bgzip writes it\n");
	fprintf(fp, "      --compress          every output BGZF, stdout too\n");
	fprintf(fp,
"SAM, BAM and CRAM input (reads as sequenced, as `samtools fastq` gives them):\n"
"      --reference FILE    CRAM's reference [htslib's REF_PATH, REF_CACHE]\n"
"      --keep-secondary    keep secondary and supplementary records [left out]\n"
"      --as-stored         SEQ as stored [reverse-strand records complemented back]\n");
	if (with_paf) fprintf(fp, "      --format tsv|json|paf  output format [tsv]; paf with --path\n");
	else fprintf(fp, "      --format tsv|json   output format [tsv]\n");
	fprintf(fp,
"Resources:\n"
"      --threads INT       CPU threads per rank [cores / ranks on the node]\n");
	if (with_backend)
		fprintf(fp,
"      --backend B         cpu, gpu or auto [auto: gpu when usable]\n"
"      --device-memory SZ  cap on device memory per rank (e.g. 8G)\n"
"      --rates FILE        auto's rates of this machine from `rktlcs calibrate`\n"
"                          [$RKTLCS_RATES, else ~/.cache/rktlcs/rates-HOST.json]\n");
	fprintf(fp,
"      --stats FILE        stage times (read, distribute, compute, gather, write) and each\n"
"                          rank's compute time as JSON\n"
"  -q, --quiet             errors only on stderr (no progress, summary or warnings)\n"
"  -v, --verbose           debug messages too\n"
"  -h, --help              this help;  --version  print the version\n");
}
