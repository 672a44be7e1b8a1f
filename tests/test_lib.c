/* librktlcs through its public header only (tests/lib.sh compares what this prints with the
 * command's output on the same files):
 *   test_lib lev A.fa B.fa MODE K   -> distance, start, CIGAR a pair (MODE global|prefix|infix, K -1: exact)
 *   test_lib lcs A.fa B.fa          -> length, subsequence, path a pair
 *   test_lib hamming F.fa           -> the matrix, a row a sequence
 *   test_lib rkt F.fa K T TAU       -> index (1-based), pos, length, support of the Rkt-LCS
 *   test_lib cands F.fa K T TAU     -> each read's candidate: index (1-based), pos, length, support
 *   test_lib occ F.fa K T TAU       -> the winner's occurrences: index (1-based), pos, mismatches
 *   test_lib hampairs F.fa D        -> pairs within D: i, j (1-based), distance
 *   test_lib gpus x                 -> rkl_gpu_count()
 * TL_GPU=d runs each on CUDA device d (the options' gpu field). Single-line or wrapped FASTA.
 * Exit 1 on a library error (its text on stderr), 3 on RKL_EDEVICE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "librktlcs.h"

typedef struct {
	int64_t n;
	char **seq;
	int64_t *len;
} fa_t;

static void fa_read(const char *path, fa_t *f)
{
	FILE *fp = fopen(path, "r");
	if (!fp) { perror(path); exit(2); }
	char line[1 << 16];
	memset(f, 0, sizeof *f);
	while (fgets(line, sizeof line, fp)) {
		size_t l = strcspn(line, "\r\n");
		line[l] = 0;
		if (line[0] == '>') {
			f->seq = realloc(f->seq, sizeof *f->seq * (size_t)(f->n + 1));
			f->len = realloc(f->len, sizeof *f->len * (size_t)(f->n + 1));
			f->seq[f->n] = calloc(1, 1); f->len[f->n] = 0; f->n++;
		} else if (f->n) {
			int64_t k = f->n - 1;
			f->seq[k] = realloc(f->seq[k], (size_t)(f->len[k] + (int64_t)l + 1));
			memcpy(f->seq[k] + f->len[k], line, l + 1);
			f->len[k] += (int64_t)l;
		}
	}
	fclose(fp);
}

static void fa_free(fa_t *f)
{
	for (int64_t i = 0; i < f->n; i++) free(f->seq[i]);
	free(f->seq); free(f->len);
}

static int fail_st(rkl_status_t st) { fprintf(stderr, "test_lib: %s\n", rkl_error()); return st == RKL_EDEVICE ? 3 : 1; }
#define TRY(call) do { rkl_status_t st_ = (call); if (st_) return fail_st(st_); } while (0)

/* the Rkt-LCS options of argv[3..5] on the backend TL_GPU names */
static rkl_rkt_opt_t rkt_args(char **argv, int gpu)
{
	rkl_rkt_opt_t o;
	rkl_rkt_opt_init(&o);
	o.k = atoll(argv[3]); o.t = atoll(argv[4]); o.tau = atoll(argv[5]); o.gpu = gpu;
	return o;
}

/* the set commands: hamming, hampairs, rkt, cands, occ; 2 if argv names none of them */
static int sets(int argc, char **argv, const fa_t *a, int gpu)
{
	const char *const *seq = (const char *const *)a->seq;
	if (!strcmp(argv[1], "hamming")) {
		rkl_ham_opt_t o;
		rkl_ham_opt_init(&o);
		o.gpu = gpu;
		int64_t *d = malloc(sizeof *d * (size_t)(a->n * a->n + 1));
		rkl_status_t st = rkl_hamming(a->n, seq, a->n ? a->len[0] : 0, &o, d);
		if (st) { free(d); return fail_st(st); }
		for (int64_t i = 0; i < a->n; i++)
			for (int64_t j = 0; j < a->n; j++) printf("%lld%c", (long long)d[i * a->n + j], j + 1 < a->n ? '\t' : '\n');
		free(d);
	} else if (!strcmp(argv[1], "hampairs") && argc >= 4) {
		rkl_ham_opt_t o;
		rkl_ham_opt_init(&o);
		o.gpu = gpu;
		rkl_ham_pair_t *p;
		int64_t np;
		TRY(rkl_hamming_pairs(a->n, seq, a->n ? a->len[0] : 0, &o, atoll(argv[3]), &p, &np));
		for (int64_t q = 0; q < np; q++) printf("%lld\t%lld\t%lld\n", (long long)p[q].i + 1, (long long)p[q].j + 1, (long long)p[q].distance);
		free(p);
	} else if (!strcmp(argv[1], "rkt") && argc >= 6) {
		rkl_rkt_result_t r;
		if (gpu < 0) TRY(rkl_rkt(a->n, seq, a->len, atoll(argv[3]), atoll(argv[4]), atoll(argv[5]), 0, &r));
		else { rkl_rkt_opt_t o = rkt_args(argv, gpu); TRY(rkl_rkt_ex(a->n, seq, a->len, &o, &r, 0)); }
		printf("%lld\t%lld\t%lld\t%lld\n", (long long)r.read + 1, (long long)r.pos, (long long)r.length, (long long)r.support);
	} else if (!strcmp(argv[1], "cands") && argc >= 6) {
		rkl_rkt_opt_t o = rkt_args(argv, gpu);
		rkl_rkt_result_t r, *c = malloc(sizeof *c * (size_t)a->n);
		rkl_status_t st = rkl_rkt_ex(a->n, seq, a->len, &o, &r, c);
		if (st) { free(c); return fail_st(st); }
		for (int64_t i = 0; i < a->n; i++)
			printf("%lld\t%lld\t%lld\t%lld\n", (long long)i + 1, (long long)c[i].pos, (long long)c[i].length, (long long)c[i].support);
		free(c);
	} else if (!strcmp(argv[1], "occ") && argc >= 6) {
		rkl_rkt_opt_t o = rkt_args(argv, gpu);
		rkl_rkt_result_t r;
		rkl_rkt_occ_t *v;
		int64_t nv;
		TRY(rkl_rkt_ex(a->n, seq, a->len, &o, &r, 0));
		TRY(rkl_rkt_occurrences(a->n, seq, a->len, o.k, &r, &v, &nv));
		for (int64_t q = 0; q < nv; q++) printf("%lld\t%lld\t%lld\n", (long long)v[q].read + 1, (long long)v[q].pos, (long long)v[q].mismatches);
		free(v);
	} else return 2;
	return 0;
}

static fa_t a, b;   /* freed at exit, also after a library error */
static void fa_free_all(void) { fa_free(&a); fa_free(&b); }

int main(int argc, char **argv)
{
	if (argc < 3) { fprintf(stderr, "usage: see tests/test_lib.c\n"); return 2; }
	if (!strcmp(argv[1], "gpus")) { printf("%d\n", rkl_gpu_count()); return 0; }
	const int gpu = getenv("TL_GPU") ? atoi(getenv("TL_GPU")) : -1;
	atexit(fa_free_all);
	fa_read(argv[2], &a);
	if (!strcmp(argv[1], "lev") && argc >= 6) {
		fa_read(argv[3], &b);
		rkl_lev_opt_t o;
		rkl_lev_opt_init(&o);
		o.mode = !strcmp(argv[4], "infix") ? RKL_INFIX : !strcmp(argv[4], "prefix") ? RKL_PREFIX : RKL_GLOBAL;
		o.k = atoll(argv[5]);
		o.cigar = 1;
		o.gpu = gpu;
		rkl_lev_result_t *r = calloc((size_t)a.n + 1, sizeof *r);
		rkl_status_t st = rkl_lev_batch(a.n, (const char *const *)a.seq, a.len, (const char *const *)b.seq, b.len, &o, r);
		if (st) { free(r); return fail_st(st); }
		for (int64_t i = 0; i < a.n; i++) {
			printf("%lld\t%lld\t%s\n", (long long)r[i].distance, (long long)r[i].b_start, r[i].cigar ? r[i].cigar : "*");
			rkl_lev_result_free(&r[i]);
		}
		free(r);
	} else if (!strcmp(argv[1], "lcs") && argc >= 4) {
		fa_read(argv[3], &b);
		rkl_lcs_opt_t o;
		rkl_lcs_opt_init(&o);
		o.subsequence = o.cigar = 1;
		o.gpu = gpu;
		for (int64_t i = 0; i < a.n; i++) {   /* one pair at a time: rkl_lcs as well as the batch */
			rkl_lcs_result_t r;
			TRY(rkl_lcs(a.seq[i], a.len[i], b.seq[i], b.len[i], &o, &r));
			printf("%lld\t%s\t%s\n", (long long)r.length, r.subsequence, r.cigar);
			rkl_lcs_result_free(&r);
		}
	} else {
		const int rc = sets(argc, argv, &a, gpu);
		if (rc == 2) fprintf(stderr, "test_lib: bad arguments\n");
		if (rc) return rc;
	}
	return 0;
}
