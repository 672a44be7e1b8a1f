/* Random inputs for the GPU stress test (tests/gpu_stress.sh): writes DIR/rI.fa (Rkt-LCS)
 * and DIR/hI.fa (hamming) and prints one line per set, "FILE|ARGS|CASE", where ARGS are the
 * rktlcs options of that set. The cases are the ones issue 8 asks for:
 *   random  2-12 reads of 1-40 bp over ACGT with N and lowercase, k 0-4, t 1..m-1, tau 1-8
 *   onerank 2-4 reads of one length, so that np = m gives one read per rank
 *   ties    duplicated reads and planted pieces of one length in several reads
 *   short   reads shorter than tau next to longer ones
 *   chunks  --device-memory small enough to force several i-chunks (and, for sets of more
 *           than 1,024 reads, several j-chunks)
 *   ham     equal-length alignments with -a/-k/-x, matrix or --max-dist
 * Usage: rkt_genstress DIR N_RKT N_HAM [SEED] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

static uint64_t st = 0x243F6A8885A308D3ull;
static uint64_t rnd(void) { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return st; }
static long rng(long lo, long hi) { return lo + (long)(rnd() % (uint64_t)(hi - lo + 1)); }

static void rread(char *s, long n)
{
	for (long p = 0; p < n; p++) {
		long r = rng(0, 99);
		s[p] = r < 4 ? "Nn"[rng(0, 1)] : r < 14 ? "acgt"[rng(0, 3)] : "ACGT"[rng(0, 3)];
	}
	s[n] = 0;
}

/* copy a random piece of src into dst (same length or shorter) */
static void plant(char *dst, const char *src, long len)
{
	long ld = (long)strlen(dst), ls = (long)strlen(src);
	if (len > ld) len = ld;
	if (len > ls) len = ls;
	if (len <= 0) return;
	memcpy(dst + rng(0, ld - len), src + rng(0, ls - len), (size_t)len);
}

static void rkt_set(const char *dir, int id)
{
	static char reads[2600][128];
	int c = id % 5, m;
	long maxlen = 40, k = rng(0, 4), tau = rng(1, 8), t;
	const char *cs[] = { "random", "onerank", "ties", "short", "chunks" };
	char extra[64] = "";
	if (c == 1) {
		m = (int)rng(2, 4);
		long l = rng(1, 40);
		for (int i = 0; i < m; i++) rread(reads[i], l);
		for (int i = 1; i < m; i++) if (rng(0, 1)) plant(reads[i], reads[0], rng(1, l));
	} else if (c == 4 && id % 25 == 4) {  /* several j-sets: j-chunks too */
		m = (int)rng(1100, 2500);
		maxlen = rng(20, 50);
		for (int i = 0; i < m; i++) rread(reads[i], rng(maxlen / 2, maxlen));
		for (int i = 1; i < m; i++) if (rng(0, 3) == 0) plant(reads[i], reads[rng(0, 20)], rng(5, 20));
		tau = rng(8, 15);
		/* about one j-set of rows (plus the same again for the plan's half) and a few reads per i-chunk */
		snprintf(extra, sizeof extra, " --device-memory %ld", 2 * maxlen * 768 + 96 * 1024);
	} else if (c == 4) {  /* i-chunks: reads long enough that their counters outweigh the rows */
		m = (int)rng(8, 12);
		tau = rng(1, 4);
		for (int i = 0; i < m; i++) rread(reads[i], rng(90, 120));
		for (int i = 1; i < m; i++) if (rng(0, 1)) plant(reads[i], reads[0], rng(1, 30));
		/* the driver's plan (src/gpu/rkt_gpu.cu): avail = limit - meta; the rows of the one
		 * j-set (longest x 768 B) take at most avail / 2; an i-chunk gets avail - rows and a
		 * read needs len + 96 + 24 L + 2 L (L + 1) bytes (L = len - tau + 1 starts). A limit of
		 * meta + 2 rows + (the largest read beyond the rows) leaves room for a few reads only. */
		long ml = 0, big = 0, tot = 0;
		for (int i = 0; i < m; i++) {
			long l = (long)strlen(reads[i]), L = l - tau + 1 > 0 ? l - tau + 1 : 0, b = l + 96 + 24 * L + 2 * L * (L + 1);
			if (l > ml) ml = l;
			if (b > big) big = b;
			tot += b;
		}
		long rows = ml * 768, icap = rows > big ? rows : big;
		if (tot <= icap) { fprintf(stderr, "gen_stress: set %d cannot be chunked\n", id); exit(1); }
		snprintf(extra, sizeof extra, " --device-memory %ld", 77 + 2 * rows + (icap - rows) + 64);
	} else {
		m = (int)rng(2, 12);
		for (int i = 0; i < m; i++) rread(reads[i], rng(1, maxlen));
		for (int i = 1; i < m; i++) if (rng(0, 1)) plant(reads[i], reads[0], rng(1, 30));
		if (c == 2) {  /* ties: duplicates and equal-length pieces in several reads */
			for (int i = 1; i < m; i++) if (rng(0, 2) == 0) strcpy(reads[i], reads[rng(0, i - 1)]);
			char piece[16];
			rread(piece, 8);
			for (int i = 0; i < m; i++) if (rng(0, 1)) plant(reads[i], piece, 8);
		}
		if (c == 3) {  /* reads shorter than tau */
			tau = rng(5, 15);
			for (int i = 0; i < m; i++) if (rng(0, 1)) rread(reads[i], rng(1, tau - 1));
		}
	}
	t = m > 2 ? rng(1, m - 1) : 1;
	if (c == 4 && m > 1000) t = rng(5, 50);
	char path[512];
	snprintf(path, sizeof path, "%s/r%d.fa", dir, id);
	FILE *fp = fopen(path, "w");
	if (!fp) { perror(path); exit(1); }
	for (int i = 0; i < m; i++) fprintf(fp, ">r%d\n%s\n", i, reads[i]);
	fclose(fp);
	printf("r%d.fa|-k %ld -t %ld -tau %ld%s|%s\n", id, k, t, tau, extra, cs[c]);
}

static void ham_set(const char *dir, int id)
{
	int n = (int)rng(2, 60);
	long L = rng(1, 300);
	char *s = malloc((size_t)L + 1), *b = malloc((size_t)L + 1);
	rread(b, L);
	char path[512];
	snprintf(path, sizeof path, "%s/h%d.fa", dir, id);
	FILE *fp = fopen(path, "w");
	if (!fp) { perror(path); exit(1); }
	for (int i = 0; i < n; i++) {
		memcpy(s, b, (size_t)L + 1);
		for (long p = 0; p < L; p++) if (rng(0, 9) == 0) s[p] = "ACGTNacgt-"[rng(0, 9)];
		fprintf(fp, ">s%d\n%s\n", i, s);
	}
	fclose(fp);
	char args[128] = "";
	if (rng(0, 1)) strcat(args, " -a");
	if (rng(0, 2) == 0) strcat(args, " -k");
	if (rng(0, 3) == 0) { char x[32]; snprintf(x, sizeof x, " -x %ld", rng(1, 30)); strcat(args, x); }
	printf("h%d.fa|%s|ham\n", id, args[0] ? args + 1 : "");
	free(s); free(b);
}

int main(int argc, char **argv)
{
	if (argc < 4) { fprintf(stderr, "usage: rkt_genstress DIR N_RKT N_HAM [SEED]\n"); return 1; }
	int nr = atoi(argv[2]), nh = atoi(argv[3]);
	if (argc > 4) st ^= (uint64_t)atol(argv[4]) * 0x9E3779B97F4A7C15ull;
	for (int i = 0; i < nr; i++) rkt_set(argv[1], i);
	for (int i = 0; i < nh; i++) ham_set(argv[1], i);
	return 0;
}
