/* hamming mode against an independent naive implementation (SPEC section 4, char by char;
 * own FASTA reader on zlib, shares no code with src/).
 *   test_ham naive [-a] [-k] [-b] [-c] [-m] [-L] [-x N] [--max-dist D] FILE   expected output
 *   test_ham random CLI TMPDIR NSETS                                          CLI vs naive */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <zlib.h>
#include "testutil.h"

typedef struct { int all, keep, blank, csv, molten, lower, header; long cap, maxd; } nv_opt_t;
typedef struct { int n; char **name, **seq; } nv_aln_t;

static int nv_read(const char *path, nv_aln_t *a, int keep)
{
	gzFile f = gzopen(path, "r");
	if (!f) return -1;
	memset(a, 0, sizeof *a);
	char line[1 << 16];
	size_t cap = 0, len = 0;
	char *cur = 0;
	while (gzgets(f, line, sizeof line)) {
		size_t l = strlen(line);
		while (l && (line[l - 1] == '\n' || line[l - 1] == '\r')) line[--l] = 0;
		if (line[0] == '>') {
			if (cur) a->seq[a->n - 1] = cur;
			a->n++;
			a->name = realloc(a->name, sizeof(char *) * a->n);
			a->seq = realloc(a->seq, sizeof(char *) * a->n);
			size_t e = 1;
			while (line[e] && !isspace((unsigned char)line[e])) e++;
			a->name[a->n - 1] = strndup(line + 1, e - 1);
			cur = malloc(1); cur[0] = 0; cap = 1; len = 0;
			continue;
		}
		if (!cur) continue;
		if (len + l + 1 > cap) { cap = (len + l + 1) * 2; cur = realloc(cur, cap); }
		for (size_t p = 0; p < l; p++) {
			char c = line[p];
			if (!keep) c = (char)toupper((unsigned char)c);
			if (c == 'U') c = 'T';
			if (c == 'u') c = 't';
			cur[len++] = c;
		}
		cur[len] = 0;
	}
	if (cur) a->seq[a->n - 1] = cur;
	gzclose(f);
	return 0;
}

static long nv_dist(const char *x, const char *y, const nv_opt_t *o)
{
	static unsigned char base[256];
	base['A'] = base['C'] = base['G'] = base['T'] = 1;
	long d = 0;
	for (size_t p = 0; x[p]; p++)
		if (x[p] != y[p] && (o->all || (base[(unsigned char)x[p]] && base[(unsigned char)y[p]]))) d++;
	return o->cap && d > o->cap ? o->cap : d;
}

static void nv_print(FILE *fp, const nv_aln_t *a, const nv_opt_t *o)
{
	char sep = o->csv ? ',' : '\t';
	/* snp-dists 1.x -t: a header on the long formats */
	if (o->header && (o->molten || o->maxd >= 0)) fprintf(fp, "sequence_1%csequence_2%cdistance\n", sep, sep);
	if (o->maxd >= 0) {
		for (int i = 0; i < a->n; i++)
			for (int j = i + 1; j < a->n; j++) {
				long d = nv_dist(a->seq[i], a->seq[j], o);
				if (d <= o->maxd) fprintf(fp, "%s%c%s%c%ld\n", a->name[i], sep, a->name[j], sep, d);
			}
		return;
	}
	if (o->molten) {
		/* -L -m as snp-dists 1.2: each unordered pair once, (i, j) with j >= i */
		for (int i = 0; i < a->n; i++)
			for (int j = o->lower ? i : 0; j < a->n; j++)
				fprintf(fp, "%s%c%s%c%ld\n", a->name[i], sep, a->name[j], sep, nv_dist(a->seq[i], a->seq[j], o));
		return;
	}
	if (!o->blank) fputs("rktlcs-hamming", fp);
	for (int j = 0; j < a->n; j++) fprintf(fp, "%c%s", sep, a->name[j]);
	fputc('\n', fp);
	for (int i = 0; i < a->n; i++) {
		fputs(a->name[i], fp);
		for (int j = 0; j < (o->lower ? i + 1 : a->n); j++) fprintf(fp, "%c%ld", sep, nv_dist(a->seq[i], a->seq[j], o));
		fputc('\n', fp);
	}
}

static int nv_parse(int argc, char **argv, nv_opt_t *o, char *args, size_t m)
{
	memset(o, 0, sizeof *o);
	o->maxd = -1;
	args[0] = 0;
	for (int i = 0; i < argc; i++) {
		const char *s = argv[i];
		if (!strcmp(s, "-a")) o->all = 1;
		else if (!strcmp(s, "-k")) o->keep = 1;
		else if (!strcmp(s, "-b")) o->blank = 1;
		else if (!strcmp(s, "-c")) o->csv = 1;
		else if (!strcmp(s, "-m")) o->molten = 1;
		else if (!strcmp(s, "-L")) o->lower = 1;
		else if (!strcmp(s, "-t")) o->header = 1;
		else if (!strcmp(s, "-x")) o->cap = atol(argv[++i]);
		else if (!strcmp(s, "--max-dist")) o->maxd = atol(argv[++i]);
		else return i;
		strncat(args, " ", m - strlen(args) - 1);
		strncat(args, s, m - strlen(args) - 1);
		if (!strcmp(s, "-x") || !strcmp(s, "--max-dist")) { strncat(args, " ", m - strlen(args) - 1); strncat(args, argv[i], m - strlen(args) - 1); }
	}
	return argc;
}

static int files_equal(const char *a, const char *b)
{
	FILE *x = fopen(a, "rb"), *y = fopen(b, "rb");
	int eq = x && y;
	while (eq) {
		int c = fgetc(x), d = fgetc(y);
		if (c != d) eq = 0;
		if (c == EOF || d == EOF) break;
	}
	if (x) fclose(x);
	if (y) fclose(y);
	return eq;
}

static int random_sets(const char *cli, const char *tmp, int nsets)
{
	static const char *sym = "ACGTACGTACGTacgtNn-.RYKM*U";
	static const char *opts[][4] = { { "" }, { "-a" }, { "-k" }, { "-a", "-k" }, { "-b" }, { "-c" }, { "-m" }, { "-L" }, { "-c", "-b", "-L" },
	                                 { "-m", "-c" }, { "-x", "X" }, { "--max-dist", "D" }, { "-a", "--max-dist", "D" }, { "-k", "-x", "X", "-L" },
	                                 { "-a", "-k", "-m" }, { "-a", "-k", "-x", "X" }, { "-m", "-L" }, { "-m", "-t", "-L", "-c" },
	                                 { "-t", "--max-dist", "D" }, { "-m", "-t" } };
	int n_opts = sizeof opts / sizeof opts[0];
	char fa[512], got[512], want[512], cmd[2048];
	for (int it = 0; it < nsets; it++) {
		int n = (int)tu_range(2, 60), L = (int)tu_range(1, 300), rate = (int)tu_range(0, 30);
		int crlf = it % 4 == 1, wrap = it % 3 == 2 ? (int)tu_range(1, 70) : 0;
		snprintf(fa, sizeof fa, "%s/r%d.fa", tmp, it);
		FILE *fp = fopen(fa, "wb");
		char *base = malloc(L + 1), *s = malloc(L + 1);
		for (int p = 0; p < L; p++) base[p] = "ACGT"[tu_range(0, 3)];
		for (int i = 0; i < n; i++) {
			for (int p = 0; p < L; p++) s[p] = tu_range(0, 99) < rate ? sym[tu_range(0, 25)] : base[p];
			if (i == 1 && it % 5 == 0) memcpy(s, base, L);  /* duplicates and distance 0 */
			fprintf(fp, ">s%d%s%s", i, i % 3 == 0 ? " desc here" : "", crlf ? "\r\n" : "\n");
			for (int p = 0; p < L; p++) {
				fputc(s[p], fp);
				if ((wrap && (p + 1) % wrap == 0) || p == L - 1) fputs(crlf ? "\r\n" : "\n", fp);
			}
		}
		fclose(fp);
		free(base); free(s);
		for (int q = 0; q < 5; q++) {
			int k = q == 0 ? 0 : (int)tu_range(1, n_opts - 1);
			char *av[8], xs[16], ds[16];
			int ac = 0;
			snprintf(xs, sizeof xs, "%ld", tu_range(0, 20) + 1);
			snprintf(ds, sizeof ds, "%ld", tu_range(0, L / 2 + 1));
			for (int a = 0; a < 4 && opts[k][a]; a++) {
				if (!opts[k][a][0]) continue;
				av[ac++] = (char *)(!strcmp(opts[k][a], "X") ? xs : !strcmp(opts[k][a], "D") ? ds : opts[k][a]);
			}
			nv_opt_t o;
			char args[256];
			nv_parse(ac, av, &o, args, sizeof args);
			nv_aln_t aln;
			nv_read(fa, &aln, o.keep);
			snprintf(want, sizeof want, "%s/want", tmp);
			FILE *w = fopen(want, "wb");
			nv_print(w, &aln, &o);
			fclose(w);
			for (int i = 0; i < aln.n; i++) { free(aln.name[i]); free(aln.seq[i]); }
			free(aln.name); free(aln.seq);
			snprintf(got, sizeof got, "%s/got", tmp);
			snprintf(cmd, sizeof cmd, "%s hamming%s -q --threads %d -o %s %s", cli, args, (int)tu_range(1, 3), got, fa);
			int rc = system(cmd);
			CHECK(rc == 0 && files_equal(got, want), "set %d (n %d, L %d):%s: %s", it, n, L, args,
			      rc ? "CLI failed" : "output differs from the naive implementation");
			if (tu_fail > 20) return 1;
		}
		remove(fa);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "naive")) {
		nv_opt_t o;
		char args[256];
		int f = nv_parse(argc - 2, argv + 2, &o, args, sizeof args) + 2;
		nv_aln_t a;
		if (f >= argc || nv_read(argv[f], &a, o.keep)) { fprintf(stderr, "usage: test_ham naive [opts] FILE\n"); return 1; }
		nv_print(stdout, &a, &o);
		for (int i = 0; i < a.n; i++) { free(a.name[i]); free(a.seq[i]); }
		free(a.name); free(a.seq);
		return 0;
	}
	if (argc > 4 && !strcmp(argv[1], "random")) {
		random_sets(argv[2], argv[3], atoi(argv[4]));
		return tu_done("test_ham random");
	}
	fprintf(stderr, "usage: test_ham naive|random ...\n");
	return 1;
}
