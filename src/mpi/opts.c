/* Command line. Long options take "--opt V" or "--opt=V"; the paper's single-dash "-tau"
 * is accepted so that "rktlcs reads.fq -k 10 -t 1000 -tau 15" works verbatim. */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "mpi/rmpi.h"

void rmpi_opt_init(rmpi_opt_t *o)
{
	memset(o, 0, sizeof *o);
	o->mode = RMPI_MODE_RKT;
	o->format = RMPI_FMT_TSV;
	o->backend = RMPI_BACKEND_AUTO;
	rkt_opt_init(&o->rkt);
	o->ham_max_dist = -1;
}

static const char *rmpi_mode_name[] = { "rkt", "hamming", "lev", "lcs" };

void rmpi_usage(FILE *fp, rmpi_mode_t mode)
{
	if (mode == RMPI_MODE_HAMMING) {
		fprintf(fp,
"rktlcs hamming %s - pairwise SNP / Hamming distances (snp-dists compatible)\n"
"\n"
"Usage: rktlcs hamming [options] SEQS       (equal-length FASTA/FASTQ, plain/gzip, '-' = stdin)\n"
"       mpirun -np N rktlcs hamming [options] SEQS\n"
"\n"
"Distances:\n"
"  -a                      count every differing position [only A/C/G/T vs A/C/G/T]\n"
"  -k                      keep case (lowercase counts as unknown without -a)\n"
"  -x INT                  cap values at INT\n"
"Output (TSV matrix, top-left cell 'rktlcs-hamming'):\n"
"  -b                      blank top-left cell\n"
"  -c                      comma-separated\n"
"  -m                      long format: name1 name2 dist, all ordered pairs\n"
"  -L                      lower triangle only\n"
"      --max-dist INT      long format of the pairs i < j with dist <= INT (sparse, scales)\n"
"  -o, --output FILE       write to FILE [stdout]\n"
"      --format tsv|json   output format [tsv]\n"
"Resources:\n"
"      --threads INT       CPU threads per rank [cores / ranks on the node]\n"
"      --backend B         cpu, gpu or auto [auto]\n"
"      --device-memory SZ  cap on device memory per rank\n"
"  -q, --quiet             no progress or summary on stderr\n"
"  -h, --help              this help;  --version  print the version\n"
"\n"
"Exit status: 0 success, 1 bad input or usage, 2 resource failure.\n", RKTLCS_VERSION);
		return;
	}
	if (mode != RMPI_MODE_RKT) {
		fprintf(fp, "Usage: rktlcs %s [options] ...\n\nThe %s mode is not implemented in this version.\n",
		        rmpi_mode_name[mode], rmpi_mode_name[mode]);
		return;
	}
	fprintf(fp,
"rktlcs %s - compare sequencing reads at scale\n"
"\n"
"Usage: rktlcs [rkt] [options] READS            (READS: FASTA/FASTQ, plain/gzip/BGZF, '-' = stdin)\n"
"       mpirun -np N rktlcs READS -k K -t T -tau TAU\n"
"       rktlcs hamming|lev|lcs --help\n"
"\n"
"Rkt-LCS: the longest substring of a read, length >= TAU, occurring with at most K\n"
"mismatches in at least T other reads.\n"
"\n"
"Required:\n"
"  -k, --mismatches INT    mismatches allowed per occurrence (>= 0)\n"
"  -t, --min-reads INT     other reads that must contain it (>= 1)\n"
"  -tau, --tau INT         minimum length (>= 1)\n"
"Output:\n"
"  -o, --output FILE       write the result to FILE [stdout]\n"
"      --candidates FILE   also write every read's candidate to FILE\n"
"      --occurrences       list the winner's occurrence in each supporting read\n"
"      --format tsv|json   output format [tsv]\n"
"Resources:\n"
"      --threads INT       CPU threads per rank [cores / ranks on the node]\n"
"      --backend B         cpu, gpu or auto [auto: gpu when usable]\n"
"      --device-memory SZ  cap on device memory per rank (e.g. 8G)\n"
"  -q, --quiet             no progress or summary on stderr\n"
"  -h, --help              this help;  --version  print the version\n"
"\n"
"Exit status: 0 success (also when no candidate exists), 1 bad input or usage,\n"
"2 resource failure (memory, device).\n", RKTLCS_VERSION);
}

static rk_status_t rmpi_int(const char *opt, const char *v, int64_t min, int64_t *out)
{
	char *end;
	if (!v) { rk_set_error("option %s needs a value", opt); return RK_EINPUT; }
	errno = 0;
	long long x = strtoll(v, &end, 10);
	if (errno || end == v || *end || x < min) {
		rk_set_error("option %s: '%s' is not an integer >= %lld", opt, v, (long long)min);
		return RK_EINPUT;
	}
	*out = x;
	return RK_OK;
}

rk_status_t rmpi_parse(rmpi_opt_t *o, int argc, char **argv)
{
	int i = 1;
	if (argc > 1) {
		for (int m = 0; m < 4; m++)
			if (strcmp(argv[1], rmpi_mode_name[m]) == 0) { o->mode = (rmpi_mode_t)m; i = 2; }
	}
	for (; i < argc; i++) {
		char *a = argv[i], *val = 0, name[64];
		if (a[0] != '-' || a[1] == 0) {
			if (o->input) { rk_set_error("more than one input file: '%s' and '%s'", o->input, a); return RK_EINPUT; }
			o->input = a;
			continue;
		}
		/* --opt=value */
		snprintf(name, sizeof name, "%s", a);
		char *eq = strchr(name, '=');
		if (a[1] == '-' && eq) { *eq = 0; val = a + (eq - name) + 1; }
#define TAKE() (val ? val : (i + 1 < argc ? argv[++i] : NULL))
		int64_t x;
		if (o->mode == RMPI_MODE_HAMMING && (!strcmp(name, "-a") || !strcmp(name, "-k") || !strcmp(name, "-b") ||
		    !strcmp(name, "-c") || !strcmp(name, "-m") || !strcmp(name, "-L") || !strcmp(name, "-x") || !strcmp(name, "--max-dist"))) {
			switch (name[1]) {  /* snp-dists letters */
			case 'a': o->ham_all = 1; break;
			case 'k': o->ham_keep_case = 1; break;
			case 'b': o->ham_blank = 1; break;
			case 'c': o->ham_csv = 1; break;
			case 'm': o->ham_molten = 1; break;
			case 'L': o->ham_lower = 1; break;
			case 'x': if (rmpi_int(name, TAKE(), 1, &o->ham_cap) || o->ham_cap > UINT32_MAX - 1) return RK_EINPUT; break;
			default: if (rmpi_int(name, TAKE(), 0, &o->ham_max_dist) || o->ham_max_dist > UINT32_MAX - 1) return RK_EINPUT;
			}
			continue;
		}
		if (!strcmp(name, "-h") || !strcmp(name, "--help")) o->help = 1;
		else if (!strcmp(name, "--version") || !strcmp(name, "-V")) o->version = 1;
		else if (!strcmp(name, "-k") || !strcmp(name, "--mismatches")) { if (rmpi_int(name, TAKE(), 0, &o->rkt.k)) return RK_EINPUT; }
		else if (!strcmp(name, "-t") || !strcmp(name, "--min-reads")) { if (rmpi_int(name, TAKE(), 1, &o->rkt.t)) return RK_EINPUT; }
		else if (!strcmp(name, "-tau") || !strcmp(name, "--tau")) { if (rmpi_int(name, TAKE(), 1, &o->rkt.tau)) return RK_EINPUT; }
		else if (!strcmp(name, "-o") || !strcmp(name, "--output")) { if (!(o->output = TAKE())) goto noval; }
		else if (!strcmp(name, "--candidates")) { if (!(o->candidates = TAKE())) goto noval; }
		else if (!strcmp(name, "--occurrences")) o->occurrences = 1;
		else if (!strcmp(name, "-q") || !strcmp(name, "--quiet")) o->quiet = 1;
		else if (!strcmp(name, "--threads") || !strcmp(name, "-@")) {
			if (rmpi_int(name, TAKE(), 1, &x)) return RK_EINPUT;
			o->threads = x > 4096 ? 4096 : (int)x;
		} else if (!strcmp(name, "--format")) {
			const char *f = TAKE();
			if (!f) goto noval;
			if (!strcmp(f, "tsv")) o->format = RMPI_FMT_TSV;
			else if (!strcmp(f, "json")) o->format = RMPI_FMT_JSON;
			else { rk_set_error("--format: '%s' is not tsv or json", f); return RK_EINPUT; }
		} else if (!strcmp(name, "--backend")) {
			const char *b = TAKE();
			if (!b) goto noval;
			if (!strcmp(b, "cpu")) o->backend = RMPI_BACKEND_CPU;
			else if (!strcmp(b, "gpu")) o->backend = RMPI_BACKEND_GPU;
			else if (!strcmp(b, "auto")) o->backend = RMPI_BACKEND_AUTO;
			else { rk_set_error("--backend: '%s' is not cpu, gpu or auto", b); return RK_EINPUT; }
		} else if (!strcmp(name, "--device-memory")) {
			const char *v = TAKE();
			if (!v) goto noval;
			if (!(o->device_memory = rk_parse_size(v))) { rk_set_error("--device-memory: bad size '%s'", v); return RK_EINPUT; }
		} else {
			rk_set_error("unknown option '%s' (see rktlcs %s--help)", a, o->mode == RMPI_MODE_RKT ? "" : "MODE ");
			return RK_EINPUT;
		}
		continue;
noval:
		rk_set_error("option %s needs a value", name);
		return RK_EINPUT;
#undef TAKE
	}
	if (o->help || o->version) return RK_OK;
	if (o->mode == RMPI_MODE_HAMMING) {
		if (!o->input) { rk_set_error("no input file given (see rktlcs hamming --help)"); return RK_EINPUT; }
		if (o->candidates || o->occurrences || o->rkt.k >= 0 || o->rkt.t >= 1 || o->rkt.tau >= 1) {
			rk_set_error("--mismatches, -t, -tau, --candidates and --occurrences belong to the rkt mode");
			return RK_EINPUT;
		}
		if (o->ham_max_dist >= 0 && (o->ham_molten || o->ham_lower)) {
			rk_set_error("--max-dist writes pairs; it does not combine with -m or -L");
			return RK_EINPUT;
		}
		return RK_OK;
	}
	if (o->mode != RMPI_MODE_RKT) {
		rk_set_error("the %s mode is not yet implemented in this version", rmpi_mode_name[o->mode]);
		return RK_EINPUT;
	}
	if (!o->input) { rk_set_error("no input file given (see rktlcs --help)"); return RK_EINPUT; }
	if (o->rkt.k < 0) { rk_set_error("missing -k (mismatches)"); return RK_EINPUT; }
	if (o->rkt.t < 1) { rk_set_error("missing -t (min reads)"); return RK_EINPUT; }
	if (o->rkt.tau < 1) { rk_set_error("missing -tau (min length)"); return RK_EINPUT; }
	return RK_OK;
}
