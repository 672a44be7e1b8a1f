/* Synthetic reads for the scale benchmarks: reads sampled from a random genome with
 * substitution errors, a few unknown bases, and Illumina adapter read-through in a fraction
 * of the reads, so Rkt-LCS has a non-trivial answer (the adapter) at any size.
 * Usage: rkt_genreads N [LEN] [SEED] [GENOME_BP] [ADAPTER_PERCENT]  > reads.fa */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

static uint64_t st = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
	st ^= st << 13; st ^= st >> 7; st ^= st << 17;
	return st;
}

int main(int argc, char **argv)
{
	static const char adapter[] = "AGATCGGAAGAGCACACGTCTGAACTCCAGTCACATCACGATCTCGTATGCCGTCTTCTGCTTGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
	if (argc < 2) { fprintf(stderr, "usage: rkt_genreads N [LEN=51] [SEED=1] [GENOME_BP=10000000] [ADAPTER_PERCENT=2]\n"); return 1; }
	long n = atol(argv[1]), len = argc > 2 ? atol(argv[2]) : 51, g = argc > 4 ? atol(argv[4]) : 10000000;
	double ap = argc > 5 ? atof(argv[5]) : 2.0;
	st ^= (uint64_t)(argc > 3 ? atol(argv[3]) : 1) * 0x2545F4914F6CDD1Dull;
	if (n < 1 || len < 1 || len > 1000000 || g < len) { fprintf(stderr, "rkt_genreads: bad arguments\n"); return 1; }
	char *genome = malloc((size_t)g), *read = malloc((size_t)len + 1);
	const long alen = (long)sizeof adapter - 1;
	if (!genome || !read) return 2;
	for (long p = 0; p < g; p++) genome[p] = "ACGT"[rnd() & 3];
	for (long i = 0; i < n; i++) {
		long from = (long)(rnd() % (uint64_t)(g - len + 1)), ins = len;
		if ((double)(rnd() % 10000) < ap * 100) ins = 5 + (long)(rnd() % (uint64_t)(len - 10 > 1 ? len - 10 : 1));
		/* past the adapter: poly-A, as the adapter's own tail (long reads only) */
		for (long p = 0; p < len; p++) read[p] = p < ins ? genome[from + p] : p - ins < alen ? adapter[p - ins] : 'A';
		for (long p = 0; p < len; p++) {
			uint64_t r = rnd() % 10000;
			if (r < 50) read[p] = "ACGT"[rnd() & 3];  /* 0.5% substitutions (some silent) */
			else if (r < 55) read[p] = 'N';
		}
		printf(">syn%ld\n%.*s\n", i + 1, (int)len, read);
	}
	free(genome); free(read);
	return 0;
}
