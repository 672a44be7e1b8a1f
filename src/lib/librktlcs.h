/* librktlcs: what the rktlcs command computes on one node, as a C library (docs/library.md).
 *
 * Conventions, as edlib.h's:
 * - Sequences are byte strings with their lengths (no NUL needed). Letters are compared case-
 *   insensitively and U is T, as the command reads them; any byte is accepted.
 * - Every function returns a status (RKL_OK, or an error whose text rkl_error() gives); none
 *   exits or prints.
 * - Results the library allocates (CIGARs, subsequences) are freed by the caller with
 *   rkl_result_free (or free()); arrays passed in are the caller's.
 * - Threads: 0 uses OpenMP's default. The results never depend on the thread count.
 * - Backend: each options struct's `gpu` is -1 for the CPU (the default) or a CUDA device
 *   index; the GPU gives the same results as the CPU. RKL_EDEVICE where the library was built
 *   without CUDA or the device fails (rkl_gpu_count() says how many devices it can use). */
#ifndef LIBRKTLCS_H
#define LIBRKTLCS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RKL_VERSION "0.2.0"

typedef enum { RKL_OK = 0, RKL_EINPUT = 1, RKL_ENOMEM = 2, RKL_EDEVICE = 3 } rkl_status_t;

/* The last error's text on this thread ("" if none). */
const char *rkl_error(void);
const char *rkl_version(void);
/* CUDA devices the library can use: 0 when built without CUDA or none is usable. */
int rkl_gpu_count(void);

/* ---- lev: Levenshtein distance (unit costs) ---- */
typedef enum { RKL_GLOBAL = 0, RKL_PREFIX = 1, RKL_INFIX = 2 } rkl_mode_t;   /* edlib's NW, SHW, HW */

typedef struct {
	rkl_mode_t mode;   /* where A may lie in B [RKL_GLOBAL] */
	int64_t k;         /* -1: the exact distance [-1]; >= 0: distances over k are reported as -1 */
	int cigar;         /* also the CIGAR (=, X, I, D: I consumes A, D consumes B) [0] */
	int threads;       /* [0] */
	int gpu;           /* -1: the CPU [-1]; else the CUDA device */
} rkl_lev_opt_t;

typedef struct {
	int64_t distance;  /* -1: over k */
	int64_t b_start, b_end;   /* the aligned piece of B, [start, end): all of B in RKL_GLOBAL */
	char *cigar;       /* with opt.cigar and a distance: NUL-terminated, the caller frees; else NULL */
} rkl_lev_result_t;

void rkl_lev_opt_init(rkl_lev_opt_t *o);
rkl_status_t rkl_lev(const char *a, int64_t la, const char *b, int64_t lb, const rkl_lev_opt_t *o, rkl_lev_result_t *r);
/* n pairs (a[i], la[i]) against (b[i], lb[i]) into r[0 .. n) */
rkl_status_t rkl_lev_batch(int64_t n, const char *const *a, const int64_t *la, const char *const *b, const int64_t *lb,
                           const rkl_lev_opt_t *o, rkl_lev_result_t *r);

/* ---- lcs: longest common subsequence ---- */
typedef struct {
	int subsequence;   /* also the subsequence [0] */
	int cigar;         /* also the path as a CIGAR (M, I, D) [0] */
	int threads;       /* [0] */
	int gpu;           /* -1: the CPU [-1]; else the CUDA device */
} rkl_lcs_opt_t;

typedef struct {
	int64_t length;
	char *subsequence; /* NUL-terminated, with opt.subsequence; the caller frees; else NULL */
	char *cigar;       /* with opt.cigar; the caller frees; else NULL */
} rkl_lcs_result_t;

void rkl_lcs_opt_init(rkl_lcs_opt_t *o);
rkl_status_t rkl_lcs(const char *a, int64_t la, const char *b, int64_t lb, const rkl_lcs_opt_t *o, rkl_lcs_result_t *r);
rkl_status_t rkl_lcs_batch(int64_t n, const char *const *a, const int64_t *la, const char *const *b, const int64_t *lb,
                           const rkl_lcs_opt_t *o, rkl_lcs_result_t *r);

/* ---- hamming: the distance matrix of an alignment (snp-dists' rules, docs/hamming.md) ---- */
typedef struct {
	int all;           /* count every differing position, not only A/C/G/T against A/C/G/T [0] */
	int keep_case;     /* a and A differ [0] */
	int threads;       /* [0] */
	int gpu;           /* -1: the CPU [-1]; else the CUDA device */
} rkl_ham_opt_t;

void rkl_ham_opt_init(rkl_ham_opt_t *o);
/* n sequences of one length len; dist (n x n, the caller's) gets every pair, row-major */
rkl_status_t rkl_hamming(int64_t n, const char *const *seq, int64_t len, const rkl_ham_opt_t *o, int64_t *dist);

/* The sparse form (the command's --max-dist): pairs i < j at distance <= max_dist, sorted by
 * (i, j). *pairs is allocated here (NULL when none) and freed by the caller with free(). */
typedef struct {
	int64_t i, j, distance;
} rkl_ham_pair_t;
rkl_status_t rkl_hamming_pairs(int64_t n, const char *const *seq, int64_t len, const rkl_ham_opt_t *o, int64_t max_dist,
                               rkl_ham_pair_t **pairs, int64_t *n_pairs);

/* ---- Rkt-LCS of a read set (docs/rkt.md) ---- */
typedef struct {
	int64_t read;      /* the read holding it (0-based), -1 if none */
	int64_t pos, length;
	int64_t support;   /* reads that support it */
} rkl_rkt_result_t;

/* k mismatches, t other reads, tau the least length; threads as above; on the CPU */
rkl_status_t rkl_rkt(int64_t n, const char *const *seq, const int64_t *len, int64_t k, int64_t t, int64_t tau, int threads,
                     rkl_rkt_result_t *r);

typedef struct {
	int64_t k, t, tau; /* as rkl_rkt's [3, 1, 10] */
	int threads;       /* [0] */
	int gpu;           /* -1: the CPU [-1]; else the CUDA device */
} rkl_rkt_opt_t;
void rkl_rkt_opt_init(rkl_rkt_opt_t *o);
/* rkl_rkt with options, and each read's candidate (the command's --candidates) into cand[0 ..
 * n) unless cand is NULL: cand[i].read is i, or -1 where read i has none */
rkl_status_t rkl_rkt_ex(int64_t n, const char *const *seq, const int64_t *len, const rkl_rkt_opt_t *o,
                        rkl_rkt_result_t *r, rkl_rkt_result_t *cand);

/* Where the Rkt-LCS r (from rkl_rkt) occurs (the command's --occurrences): in read j at
 * position pos with mismatches mismatches, at most k, one a supporting read (the first such by
 * position) and r's own read left out. *occ is allocated here (NULL when none); the caller
 * frees it with free(). CPU only. */
typedef struct {
	int64_t read, pos, mismatches;
} rkl_rkt_occ_t;
rkl_status_t rkl_rkt_occurrences(int64_t n, const char *const *seq, const int64_t *len, int64_t k, const rkl_rkt_result_t *r,
                                 rkl_rkt_occ_t **occ, int64_t *n_occ);

/* Frees what a result holds (not the struct itself); safe on a zeroed one. */
void rkl_lev_result_free(rkl_lev_result_t *r);
void rkl_lcs_result_free(rkl_lcs_result_t *r);

#ifdef __cplusplus
}
#endif
#endif
