/* librktlcs (librktlcs.h): lev and lcs of pairs, over the algo layer the command uses, so the
 * library and the command give the same numbers and CIGARs. */
#include <stdlib.h>
#include <string.h>
#include "lib/librktlcs.h"
#include "lib/lib_int.h"

const char *rkl_version(void) { return RKL_VERSION; }
const char *rkl_error(void) { return rk_error(); }

void rkl_lev_opt_init(rkl_lev_opt_t *o) { memset(o, 0, sizeof *o); o->k = -1; o->gpu = -1; }
void rkl_lcs_opt_init(rkl_lcs_opt_t *o) { memset(o, 0, sizeof *o); o->gpu = -1; }
void rkl_lev_result_free(rkl_lev_result_t *r) { if (r) { free(r->cigar); r->cigar = 0; } }
void rkl_lcs_result_free(rkl_lcs_result_t *r) { if (r) { free(r->subsequence); free(r->cigar); r->subsequence = r->cigar = 0; } }

/* the CIGAR of path, malloc'd; NULL (and rk_error) when out of memory */
static char *lib_cigar(const aln_path_t *p)
{
	const int64_t need = aln_path_cigar(p, 0, 0);
	char *c = malloc((size_t)need + 1);
	if (c) aln_path_cigar(p, c, need + 1);
	else rk_set_error("out of memory for a CIGAR of %lld bytes", (long long)need);
	return c;
}

/* n pairs normalized as the command reads them (one buffer; *pairs points into it) */
static rkl_status_t lib_pairs(int64_t n, const char *const *a, const int64_t *la, const char *const *b, const int64_t *lb,
                              aln_pair_t **pairs, char **buf)
{
	size_t tot = 0;
	for (int64_t i = 0; i < n; i++) {
		if (la[i] < 0 || lb[i] < 0 || (la[i] && !a[i]) || (lb[i] && !b[i])) {
			rk_set_error("pair %lld: a negative length or a NULL sequence", (long long)i);
			return RKL_EINPUT;
		}
		tot += (size_t)la[i] + (size_t)lb[i];
	}
	*pairs = malloc(sizeof **pairs * (size_t)(n ? n : 1));
	*buf = malloc(tot ? tot : 1);
	if (!*pairs || !*buf) { free(*pairs); free(*buf); rk_set_error("out of memory"); return RKL_ENOMEM; }
	char *q = *buf;
	for (int64_t i = 0; i < n; i++) {
		(*pairs)[i] = (aln_pair_t){ q, q + la[i], la[i], lb[i] };
		lib_norm(q, a[i], la[i], 0); q += la[i];
		lib_norm(q, b[i], lb[i], 0); q += lb[i];
	}
	return RKL_OK;
}

rkl_status_t rkl_lev_batch(int64_t n, const char *const *a, const int64_t *la, const char *const *b, const int64_t *lb,
                           const rkl_lev_opt_t *o, rkl_lev_result_t *r)
{
	if (n < 0 || !o || !r || (unsigned)o->mode > RKL_INFIX) { rk_set_error("rkl_lev: bad arguments"); return RKL_EINPUT; }
	aln_pair_t *p;
	char *buf;
	rkl_status_t s = lib_pairs(n, a, la, b, lb, &p, &buf);
	if (s) return s;
	lev_opt_t lo;
	lev_opt_init(&lo);
	lo.k = o->k < 0 ? -1 : o->k;
	lo.mode = (int)o->mode;
	/* prefix and infix: the path gives the piece's start */
	lo.path = o->cigar || o->mode != RKL_GLOBAL;
	lo.n_threads = o->threads;
	int64_t *d = malloc(sizeof *d * (size_t)(n ? n : 1));
	aln_path_t *paths = lo.path ? calloc((size_t)(n ? n : 1), sizeof *paths) : 0;
	aln_ends_t *ends = o->mode != RKL_GLOBAL ? calloc((size_t)(n ? n : 1), sizeof *ends) : 0;
	rkl_status_t st = !d || (lo.path && !paths) || (o->mode != RKL_GLOBAL && !ends) ? RKL_ENOMEM : RKL_OK;
	if (st) rk_set_error("out of memory");
	else if (o->gpu >= 0) st = lib_gpu_lev(&lo, p, n, o->gpu, d, paths, ends);
	else if (o->mode == RKL_GLOBAL) st = lib_status(lev_batch(&lo, p, n, d, paths));
	else st = lib_status(lev_batch_mode(&lo, p, n, d, paths, ends));
	for (int64_t i = 0; i < n; i++) {
		r[i] = (rkl_lev_result_t){ -1, -1, -1, 0 };
		if (st) continue;
		r[i].distance = d[i];
		if (d[i] < 0) continue;
		r[i].b_start = ends ? ends[i].start : 0;
		r[i].b_end = ends ? (ends[i].n ? ends[i].end[0] : -1) : lb[i];
		if (o->cigar && !(r[i].cigar = lib_cigar(&paths[i]))) st = RKL_ENOMEM;
	}
	for (int64_t i = 0; i < n; i++) {
		if (paths) aln_path_free(&paths[i]);
		if (ends) aln_ends_free(&ends[i]);
		if (st) rkl_lev_result_free(&r[i]);
	}
	free(paths); free(ends); free(d); free(p); free(buf);
	return st;
}

rkl_status_t rkl_lev(const char *a, int64_t la, const char *b, int64_t lb, const rkl_lev_opt_t *o, rkl_lev_result_t *r)
{
	return rkl_lev_batch(1, &a, &la, &b, &lb, o, r);
}

rkl_status_t rkl_lcs_batch(int64_t n, const char *const *a, const int64_t *la, const char *const *b, const int64_t *lb,
                           const rkl_lcs_opt_t *o, rkl_lcs_result_t *r)
{
	if (n < 0 || !o || !r) { rk_set_error("rkl_lcs: bad arguments"); return RKL_EINPUT; }
	aln_pair_t *p;
	char *buf;
	rkl_status_t s = lib_pairs(n, a, la, b, lb, &p, &buf);
	if (s) return s;
	lcs_opt_t lo;
	lcs_opt_init(&lo);
	lo.path = o->subsequence || o->cigar;
	lo.n_threads = o->threads;
	int64_t *len = malloc(sizeof *len * (size_t)(n ? n : 1));
	aln_path_t *paths = lo.path ? calloc((size_t)(n ? n : 1), sizeof *paths) : 0;
	rkl_status_t st = !len || (lo.path && !paths) ? RKL_ENOMEM : RKL_OK;
	if (st) rk_set_error("out of memory");
	else if (o->gpu >= 0) st = lib_gpu_lcs(&lo, p, n, o->gpu, len, paths);
	else st = lib_status(lcs_batch(&lo, p, n, len, paths));
	for (int64_t i = 0; i < n; i++) {
		r[i] = (rkl_lcs_result_t){ st ? -1 : len[i], 0, 0 };
		if (st) continue;
		if (o->cigar && !(r[i].cigar = lib_cigar(&paths[i]))) st = RKL_ENOMEM;
		if (o->subsequence && !st) {
			if (!(r[i].subsequence = malloc((size_t)len[i] + 1))) { rk_set_error("out of memory"); st = RKL_ENOMEM; }
			else lcs_path_subseq(&paths[i], p[i].a, r[i].subsequence, len[i] + 1);
		}
	}
	for (int64_t i = 0; i < n; i++) {
		if (paths) aln_path_free(&paths[i]);
		if (st) rkl_lcs_result_free(&r[i]);
	}
	free(paths); free(len); free(p); free(buf);
	return st;
}

rkl_status_t rkl_lcs(const char *a, int64_t la, const char *b, int64_t lb, const rkl_lcs_opt_t *o, rkl_lcs_result_t *r)
{
	return rkl_lcs_batch(1, &a, &la, &b, &lb, o, r);
}
