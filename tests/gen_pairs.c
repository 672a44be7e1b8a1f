/* Pairs for the lev/lcs benchmarks: N random sequences of LEN bp into A.fa and, into B.fa,
 * each with DIV percent point edits (a third substitutions, a third insertions, a third
 * deletions), or unrelated random sequences with DIV < 0.
 * Usage: rkt_genpairs N LEN DIV SEED A.fa B.fa */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

static uint64_t st = 0x853C49E6748FEA9Bull;
static uint64_t rnd(void) { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return st; }

int main(int argc, char **argv)
{
	if (argc < 7) { fprintf(stderr, "usage: rkt_genpairs N LEN DIV SEED A.fa B.fa\n"); return 1; }
	long n = atol(argv[1]), len = atol(argv[2]);
	double div = atof(argv[3]);
	st ^= (uint64_t)atol(argv[4]) * 0x9E3779B97F4A7C15ull;
	FILE *fa = fopen(argv[5], "w"), *fb = fopen(argv[6], "w");
	char *a = malloc((size_t)len + 1), *b = malloc((size_t)len * 2 + 2);
	if (n < 1 || len < 1 || !fa || !fb || !a || !b) { fprintf(stderr, "rkt_genpairs: bad arguments\n"); return 1; }
	for (long i = 0; i < n; i++) {
		long m = 0;
		for (long p = 0; p < len; p++) a[p] = "ACGT"[rnd() & 3];
		a[len] = 0;
		if (div < 0) { for (long p = 0; p < len; p++) b[m++] = "ACGT"[rnd() & 3]; }
		else for (long p = 0; p < len; p++) {
			uint64_t r = rnd() % 1000000;
			if (r >= (uint64_t)(div * 10000)) { b[m++] = a[p]; continue; }
			switch (r % 3) {
			case 0: b[m++] = "ACGT"[(strchr("ACGT", a[p]) - "ACGT" + 1 + rnd() % 3) & 3]; break;  /* substitution */
			case 1: b[m++] = "ACGT"[rnd() & 3]; b[m++] = a[p]; break;                            /* insertion */
			default: break;                                                                      /* deletion */
			}
		}
		if (m == 0) b[m++] = 'A';
		b[m] = 0;
		fprintf(fa, ">a%ld\n%s\n", i + 1, a);
		fprintf(fb, ">b%ld\n%s\n", i + 1, b);
	}
	fclose(fa); fclose(fb); free(a); free(b);
	return 0;
}
