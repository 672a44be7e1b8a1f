/* The CLI against the brute force binary on random read sets written as FASTA (one or
 * several lines per record, CRLF) or FASTQ: result and --candidates tables must be equal. */
#include <string.h>
#include <unistd.h>
#include "testutil.h"

static char *slurp_nocomment(const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp) return strdup("<missing>");
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap), line[4096];
	buf[0] = 0;
	while (fgets(line, sizeof line, fp)) {
		if (line[0] == '#') continue;
		size_t l = strlen(line);
		if (n + l + 1 > cap) buf = realloc(buf, cap = 2 * (n + l + 1));
		memcpy(buf + n, line, l + 1);
		n += l;
	}
	fclose(fp);
	return buf;
}

int main(int argc, char **argv)
{
	if (argc < 4) { fprintf(stderr, "usage: test_cli_random RKTLCS RKT_BRUTE TMPDIR [N]\n"); return 2; }
	const char *cli = argv[1], *brute = argv[2], *dir = argv[3];
	int n = argc > 4 ? atoi(argv[4]) : 300;
	char simple[512], input[512], cmd[4096], out1[512], out2[512], c1[512], c2[512];
	snprintf(simple, sizeof simple, "%s/simple.fa", dir);
	snprintf(out1, sizeof out1, "%s/cli.tsv", dir); snprintf(out2, sizeof out2, "%s/brute.tsv", dir);
	snprintf(c1, sizeof c1, "%s/cli_cand.tsv", dir); snprintf(c2, sizeof c2, "%s/brute_cand.tsv", dir);
	for (int it = 0; it < n; it++) {
		int m = (int)tu_range(2, 12), alpha = (int)tu_range(2, 4), punk = (int)tu_range(0, 3) * 3, fmt = it % 4;
		char raw[12][48];
		long base = tu_range(1, 40);
		for (int i = 0; i < m; i++) {
			long l = it % 2 ? tu_range(1, 40) : base;
			tu_read(raw[i], l, alpha, punk);
			if (i > 0 && tu_range(0, 1) && l > 4) {
				long src = strlen(raw[0]), len = tu_range(1, l < src ? l : src);
				memcpy(raw[i] + tu_range(0, l - len), raw[0] + tu_range(0, src - len), (size_t)len);
			}
		}
		snprintf(input, sizeof input, "%s/in%d.%s", dir, it % 2, fmt == 3 ? "fq" : "fa");
		FILE *fs = fopen(simple, "w"), *fi = fopen(input, "wb");
		for (int i = 0; i < m; i++) {
			fprintf(fs, ">read_%d desc\n%s\n", i, raw[i]);
			long l = strlen(raw[i]);
			if (fmt == 0) fprintf(fi, ">read_%d desc\n%s\n", i, raw[i]);
			else if (fmt == 1) {  /* multi-line, CRLF */
				fprintf(fi, ">read_%d\r\n", i);
				for (long p = 0; p < l; p += 7) fprintf(fi, "%.*s\r\n", (int)(l - p < 7 ? l - p : 7), raw[i] + p);
			} else if (fmt == 2) fprintf(fi, ">read_%d\n%s%s", i, raw[i], i == m - 1 ? "" : "\n");  /* no final newline */
			else {
				fprintf(fi, "@read_%d x\n%s\n+\n", i, raw[i]);
				for (long p = 0; p < l; p++) fputc('!' + (int)tu_range(0, 60), fi);
				fputc('\n', fi);
			}
		}
		fclose(fs); fclose(fi);
		long k = tu_range(0, 4), t = tu_range(1, m), tau = tu_range(1, 20);
		if (it % 10 == 0) k = tu_range(5, 60);
		if (it % 11 == 0) tau = tu_range(20, 60);
		int occ = it % 2, th = (int)tu_range(1, 3);
		unlink(out1); unlink(c1);
		snprintf(cmd, sizeof cmd, "%s %s -k %ld -t %ld -tau %ld -o %s --candidates %s %s --threads %d -q",
		         cli, input, k, t, tau, out1, c1, occ ? "--occurrences" : "", th);
		int rc1 = system(cmd);
		snprintf(cmd, sizeof cmd, "%s %s -k %ld -t %ld -tau %ld --candidates %s %s > %s", brute, simple, k, t, tau, c2,
		         occ ? "--occurrences" : "", out2);
		int rc2 = system(cmd);
		CHECK(rc1 == 0 && rc2 == 0, "set %d: exit %d / %d", it, rc1, rc2);
		char *a = slurp_nocomment(out1), *b = slurp_nocomment(out2), *ca = slurp_nocomment(c1), *cb = slurp_nocomment(c2);
		CHECK(!strcmp(a, b), "set %d (k %ld t %ld tau %ld, fmt %d): result differs\n--- cli\n%s--- brute\n%s", it, k, t, tau, fmt, a, b);
		CHECK(!strcmp(ca, cb), "set %d (k %ld t %ld tau %ld, fmt %d): candidates differ\n--- cli\n%s--- brute\n%s", it, k, t, tau, fmt, ca, cb);
		free(a); free(b); free(ca); free(cb);
		if (tu_fail > 3) break;
	}
	return tu_done("test_cli_random");
}
