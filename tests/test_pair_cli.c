/* lev and lcs through the command line against the naive DP (tests/naive_dp.c, no code
 * shared with src/): random FASTA/FASTQ files (lowercase, U, N/IUPAC, '.', CRLF, several
 * lines per record), every pairing shape (record by record, one against many, many against
 * one, --all with --max-dist), -k around the distance, --path, --seq, JSON. Each row is
 * checked value by value, and every path must be the naive canonical path exactly.
 * Usage: test_pair_cli RKTLCS TMPDIR [N=300] [THREADS=2] */
#include <unistd.h>
#include "dp_testutil.h"
#include "naive_dp.h"

static char seqs[2][16][800], raw[2][16][800];
static int64_t lens[2][16];

/* what the reader makes of a raw symbol */
static char norm(char c)
{
	if (c >= 'a' && c <= 'z') c -= 32;
	return c == 'U' ? 'T' : c;
}

static void write_file(const char *path, int f, int n, int fmt)
{
	FILE *fp = fopen(path, "wb");
	for (int i = 0; i < n; i++) {
		const char *s = raw[f][i];
		int64_t l = lens[f][i];
		if (fmt == 2) {
			fprintf(fp, "@%c%d desc\n%s\n+\n", 'a' + f, i, s);
			for (int64_t p = 0; p < l; p++) fputc('#' + (int)(p % 40), fp);
			fputc('\n', fp);
		} else if (fmt == 1) {  /* CRLF, 61-symbol lines */
			fprintf(fp, ">%c%d\r\n", 'a' + f, i);
			for (int64_t p = 0; p < l; p += 61) fprintf(fp, "%.*s\r\n", (int)(l - p < 61 ? l - p : 61), s + p);
		} else fprintf(fp, ">%c%d some words\n%s\n", 'a' + f, i, s);
	}
	fclose(fp);
}

static void make(int f, int i, int64_t l, int alpha, int punk, const char *rel)
{
	if (rel && tu_range(0, 2)) l = dt_mutate(rel, (int64_t)strlen(rel), seqs[f][i], (int)tu_range(0, 3), (int)tu_range(1, 20), alpha, punk);
	else dt_random(seqs[f][i], l, alpha, punk);
	if (l > 790) l = 790;
	if (l < 1) { seqs[f][i][0] = 'A'; l = 1; }
	seqs[f][i][l] = 0;
	lens[f][i] = l;
	/* spell some symbols as a file would: lowercase, U for T */
	for (int64_t p = 0; p <= l; p++) {
		char c = seqs[f][i][p];
		raw[f][i][p] = c && tu_range(0, 9) == 0 ? (c == 'T' ? (tu_range(0, 1) ? 'U' : 'u') : c >= 'A' && c <= 'Z' ? c + 32 : c) : c;
		seqs[f][i][p] = norm(raw[f][i][p]);
	}
}

static int run(const char *cmd)
{
	int r = system(cmd);
	return WIFEXITED(r) ? WEXITSTATUS(r) : 128;
}

/* Check the TSV output against the naive DP for the listed pairs. */
static void check(const char *out, int lev, int64_t k, int path, int seq, int all, int64_t maxd, int na, int nb,
                  const char *what)
{
	FILE *fp = fopen(out, "r");
	if (!fp) { CHECK(0, "%s: no output", what); return; }
	char line[8192];
	int npairs = all ? na * (na - 1) / 2 : (na > nb ? na : nb), q = 0, rows = 0;
	while (fgets(line, sizeof line, fp)) {
		if (line[0] == '#' || !strncmp(line, "name_a", 6)) continue;
		line[strcspn(line, "\r\n")] = 0;
		char *f[8];
		int nf = 0;
		for (char *t = line; t && nf < 8;) {  /* empty fields count (an empty subsequence) */
			f[nf++] = t;
			t = strchr(t, '\t');
			if (t) *t++ = 0;
		}
		/* the next expected pair (with --max-dist, pairs beyond it are skipped) */
		int a = 0, b = 0;
		int64_t want = -1;
		char *ops = 0;
		for (; q < npairs; q++) {
			if (all) { int i = 0, r2 = q; while (r2 >= na - 1 - i) { r2 -= na - 1 - i; i++; } a = i; b = i + 1 + r2; }
			else { a = na == 1 ? 0 : q; b = nb == 1 ? 0 : q; }
			const char *sa = seqs[0][a], *sb = all ? seqs[0][b] : seqs[1][b];
			int64_t la = lens[0][a], lb = all ? lens[0][b] : lens[1][b];
			free(ops); ops = 0;
			want = lev ? naive_lev(sa, la, sb, lb, &ops) : naive_lcs(sa, la, sb, lb, &ops);
			if (all && maxd >= 0 && want > maxd) continue;
			break;
		}
		if (q >= npairs) { CHECK(0, "%s: more rows than pairs", what); free(ops); break; }
		char na_[16], nb_[16];
		snprintf(na_, sizeof na_, "a%d", a);
		snprintf(nb_, sizeof nb_, "%c%d", all ? 'a' : 'b', b);
		int ncol = 5 + (path != 0) + (!lev && seq);
		CHECK(nf == ncol, "%s: row %d has %d fields, want %d", what, rows, nf, ncol);
		if (nf == ncol) {
			CHECK(!strcmp(f[0], na_) && !strcmp(f[1], nb_), "%s: row %d is %s %s, want %s %s", what, rows, f[0], f[1], na_, nb_);
			int beyond = lev && k >= 0 && want > k;
			if (beyond) CHECK(!strcmp(f[4], "*"), "%s: %s/%s distance %lld > k %lld but got %s", what, na_, nb_, (long long)want, (long long)k, f[4]);
			else CHECK(atoll(f[4]) == want && strcmp(f[4], "*"), "%s: %s/%s value %s, want %lld", what, na_, nb_, f[4], (long long)want);
			int c = 5;
			if (!lev && seq) {
				/* the subsequence of the canonical path */
				char *want_s = malloc(800);
				int64_t n = 0, i = 0;
				for (const char *o = ops; *o; o++) { if (*o == 'M') want_s[n++] = seqs[0][a][i]; if (*o != 'D') i++; }
				want_s[n] = 0;
				CHECK(!strcmp(f[c], want_s) || (n == 0 && !strcmp(f[c], "")), "%s: %s/%s subsequence %s, want %s", what, na_, nb_, f[c], want_s);
				free(want_s);
				c++;
			}
			if (path) {
				char *cig = beyond ? strdup("*") : naive_cigar(ops);
				CHECK(!strcmp(f[c], cig), "%s: %s/%s path %s, want %s", what, na_, nb_, f[c], cig);
				free(cig);
			}
		}
		free(ops);
		q++; rows++;
	}
	fclose(fp);
	/* every expected pair was written */
	for (; q < npairs; q++) {
		int a, b;
		if (all) { int i = 0, r2 = q; while (r2 >= na - 1 - i) { r2 -= na - 1 - i; i++; } a = i; b = i + 1 + r2; }
		else { a = na == 1 ? 0 : q; b = nb == 1 ? 0 : q; }
		if (all && maxd >= 0) {
			int64_t d = lev ? naive_lev(seqs[0][a], lens[0][a], seqs[0][b], lens[0][b], 0) : 0;
			if (d > maxd) continue;
		}
		CHECK(0, "%s: pair %d missing", what, q);
		break;
	}
}

int main(int argc, char **argv)
{
	if (argc < 3) { fprintf(stderr, "usage: test_pair_cli RKTLCS TMPDIR [N] [THREADS]\n"); return 2; }
	const char *cli = argv[1], *dir = argv[2];
	int n = argc > 3 ? atoi(argv[3]) : 300, th = argc > 4 ? atoi(argv[4]) : 2;
	char fa[512], fb[512], out[512], cmd[4096];
	int64_t rows = 0;
	snprintf(fa, sizeof fa, "%s/a.fa", dir); snprintf(fb, sizeof fb, "%s/b.fq", dir); snprintf(out, sizeof out, "%s/out.tsv", dir);
	for (int it = 0; it < n; it++) {
		int lev = it % 3 != 2, shape = (int)tu_range(0, 3), alpha = (int)tu_range(2, 4), punk = (int)tu_range(0, 2) * 4;
		int na = (int)tu_range(1, 6), nb = na, all = lev && shape == 3;
		if (shape == 1) na = 1, nb = (int)tu_range(1, 6);
		if (shape == 2) nb = 1;
		if (all) na = (int)tu_range(2, 7);
		int64_t base = it % 5 == 0 ? tu_range(1, 700) : tu_range(1, 120);
		for (int i = 0; i < na; i++) make(0, i, it % 4 ? base : tu_range(1, base), alpha, punk, i ? seqs[0][0] : 0);
		for (int i = 0; i < nb; i++) make(1, i, tu_range(1, base), alpha, punk, seqs[0][i < na ? i : 0]);
		write_file(fa, 0, na, it % 2);
		write_file(fb, 1, nb, 2 * (it % 3 == 0));
		int path = (int)tu_range(0, 1), seq = !lev && tu_range(0, 1);
		int64_t k = -1, maxd = -1;
		char extra[128] = "";
		if (lev && tu_range(0, 2) == 0 && !all) {
			/* -k around the first pair's distance */
			int64_t d = naive_lev(seqs[0][0], lens[0][0], seqs[1][0], lens[1][0], 0);
			k = d + tu_range(-1, 1);
			if (k < 0) k = 0;
			snprintf(extra, sizeof extra, " -k %lld", (long long)k);
		}
		if (all && tu_range(0, 1)) {
			maxd = tu_range(0, base);
			snprintf(extra, sizeof extra, " --max-dist %lld", (long long)maxd);
		}
		char base_cmd[2048];
		snprintf(base_cmd, sizeof base_cmd, "%s %s %s%s%s%s%s %s%s --threads %d -q", cli, lev ? "lev" : "lcs", all ? "--all " : "", fa,
		         all ? "" : " ", all ? "" : fb, extra, path ? "--path" : "", seq ? " --seq" : "", th);
		snprintf(cmd, sizeof cmd, "%s -o %s", base_cmd, out);
		char what[160];
		snprintf(what, sizeof what, "case %d (%s %s%s, %d x %d)", it, lev ? "lev" : "lcs", all ? "--all" : "", extra, na, nb);
		int r = run(cmd);
		CHECK(r == 0, "%s: exit %d: %s", what, r, cmd);
		if (r == 0) check(out, lev, k, path, seq, all, maxd, na, nb, what);
		rows += all ? na * (na - 1) / 2 : (na > nb ? na : nb);
		/* JSON: the same case parses (python3) and has as many pairs as the TSV has rows */
		if (it % 10 == 0 && access("/usr/bin/python3", X_OK) == 0) {
			snprintf(cmd, sizeof cmd, "%s -o %s.json --format json && python3 -c 'import json,sys; "
			         "d = json.load(open(sys.argv[1])); t = [l for l in open(sys.argv[2]) if not l.startswith((\"#\", \"name_a\"))]; "
			         "sys.exit(0 if len(d[\"pairs\"]) == len(t) else 1)' %s.json %s", base_cmd, out, out, out);
			CHECK(run(cmd) == 0, "%s: JSON does not parse or has another row count", what);
		}
	}
	fprintf(stderr, "test_pair_cli: %d cases, %lld pairs\n", n, (long long)rows);
	return tu_done("test_pair_cli");
}
