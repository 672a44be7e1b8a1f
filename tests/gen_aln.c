/* Synthetic alignments for the hamming benchmarks: one random sequence, a fraction of its
 * columns variable, sequences in clusters of ~50 (a cluster differs from the base at 30% of
 * the variable columns, a sequence from its cluster at 2%), a few N and gaps; so a
 * --max-dist of tens keeps the pairs inside clusters.
 * Usage: rkt_genaln N LEN [VARIABLE_PERCENT=1] [SEED=1] > aln.fa */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

static uint64_t st = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return st; }

int main(int argc, char **argv)
{
	if (argc < 3) { fprintf(stderr, "usage: rkt_genaln N LEN [VARIABLE_PERCENT=1] [SEED=1]\n"); return 1; }
	long n = atol(argv[1]), L = atol(argv[2]);
	double vp = argc > 3 ? atof(argv[3]) : 1.0;
	st ^= (uint64_t)(argc > 4 ? atol(argv[4]) : 1) * 0x2545F4914F6CDD1Dull;
	if (n < 1 || L < 1) return 1;
	char *base = malloc((size_t)L), *var = malloc((size_t)L), *s = malloc((size_t)L + 1);
	for (long p = 0; p < L; p++) { base[p] = "ACGT"[rnd() & 3]; var[p] = (double)(rnd() % 100000) < vp * 1000; }
	uint64_t nclu = (uint64_t)(n / 50 + 1);
	for (long i = 0; i < n; i++) {
		uint64_t c = rnd() % nclu;
		for (long p = 0; p < L; p++) {
			s[p] = base[p];
			if (var[p]) {
				uint64_t h = (c + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)p * 0xC2B2AE3D27D4EB4Full;
				h ^= h >> 29; h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 32;
				if (h % 10 < 3) s[p] = "ACGT"[(h >> 8) & 3];  /* the cluster's own symbol */
				if (rnd() % 100 < 2) s[p] = "ACGT"[rnd() & 3];
			}
			if (rnd() % 10000 == 0) s[p] = rnd() & 1 ? 'N' : '-';
		}
		s[L] = 0;
		printf(">seq%ld\n%s\n", i + 1, s);
	}
	free(base); free(var); free(s);
	return 0;
}
