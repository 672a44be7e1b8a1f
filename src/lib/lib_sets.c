/* librktlcs (librktlcs.h): the set modes, hamming's matrix and Rkt-LCS, over the algo layer
 * the command uses. */
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "lib/librktlcs.h"
#include "lib/lib_int.h"
#include "core/reads.h"

void rkl_ham_opt_init(rkl_ham_opt_t *o) { memset(o, 0, sizeof *o); o->gpu = -1; }
void rkl_rkt_opt_init(rkl_rkt_opt_t *o) { memset(o, 0, sizeof *o); o->k = 3; o->t = 1; o->tau = 10; o->gpu = -1; }

/* the sequences as the reads container the algo layer takes (names empty); the caller frees
 * r->seq, r->off, r->names and r->name_off */
static rkl_status_t lib_reads(int64_t n, const char *const *seq, const int64_t *len, int64_t one_len, int keep_case,
                              rio_reads_t *r)
{
	memset(r, 0, sizeof *r);
	size_t tot = 0;
	for (int64_t i = 0; i < n; i++) {
		const int64_t l = len ? len[i] : one_len;
		if (l < 0 || (l && !seq[i])) { rk_set_error("sequence %lld: a negative length or NULL", (long long)i); return RKL_EINPUT; }
		tot += (size_t)l + 1;
	}
	r->seq = malloc(tot ? tot : 1);
	r->off = malloc(sizeof *r->off * (size_t)(n + 1));
	r->names = calloc((size_t)n + 1, 1);
	r->name_off = malloc(sizeof *r->name_off * (size_t)(n + 1));
	if (!r->seq || !r->off || !r->names || !r->name_off) { rk_set_error("out of memory"); return RKL_ENOMEM; }
	uint64_t o = 0;
	for (int64_t i = 0; i < n; i++) {
		const int64_t l = len ? len[i] : one_len;
		r->off[i] = o;
		r->name_off[i] = (uint64_t)i;
		lib_norm(r->seq + o, seq[i], l, keep_case);
		r->seq[o + (uint64_t)l] = 0;
		o += (uint64_t)l + 1;
		r->n_bases += l;
	}
	r->off[n] = o;
	r->name_off[n] = (uint64_t)n;
	r->n = n;
	return RKL_OK;
}

static void lib_reads_free(rio_reads_t *r) { free(r->seq); free(r->off); free(r->names); free(r->name_off); }

/* the bit-sliced set of n sequences of length len (freed by the caller with ham_set_free when n) */
static rkl_status_t lib_ham_set(int64_t n, const char *const *seq, int64_t len, const rkl_ham_opt_t *o, ham_opt_t *ho, ham_set_t *h)
{
	ham_opt_init(ho);
	ho->all = o->all;
	ho->n_threads = o->threads;
	memset(h, 0, sizeof *h);
	rio_reads_t r;
	rkl_status_t s = lib_reads(n, seq, 0, len, o->keep_case, &r);
	if (!s && n) s = lib_status(ham_set_init(h, &r, ho));
	lib_reads_free(&r);
	return s;
}

rkl_status_t rkl_hamming(int64_t n, const char *const *seq, int64_t len, const rkl_ham_opt_t *o, int64_t *dist)
{
	if (n < 0 || len < 0 || !o || (n && !dist)) { rk_set_error("rkl_hamming: bad arguments"); return RKL_EINPUT; }
	ham_opt_t ho;
	ham_set_t h;
	rkl_status_t s = lib_ham_set(n, seq, len, o, &ho, &h);
	if (s || !n) return s;
	uint32_t *up = o->gpu >= 0 ? malloc(sizeof *up * (size_t)n * (size_t)n) : 0;
	if (o->gpu >= 0 && !up) { rk_set_error("out of memory"); s = RKL_ENOMEM; }
	else if (up) s = lib_gpu_ham_rows(&h, &ho, o->gpu, up);
	if (!s) {
#pragma omp parallel for schedule(dynamic, 16) num_threads(o->threads > 0 ? o->threads : omp_get_max_threads()) if (n > 64)
		for (int64_t i = 0; i < n; i++)
			for (int64_t j = 0; j < n; j++)
				dist[i * n + j] = i == j ? 0 : up ? up[i < j ? i * n + j : j * n + i] : (int64_t)ham_dist(&h, i, j, UINT32_MAX);
	}
	free(up);
	ham_set_free(&h);
	return s;
}

rkl_status_t rkl_hamming_pairs(int64_t n, const char *const *seq, int64_t len, const rkl_ham_opt_t *o, int64_t max_dist,
                               rkl_ham_pair_t **pairs, int64_t *n_pairs)
{
	if (n < 0 || len < 0 || !o || max_dist < 0 || !pairs || !n_pairs || n > INT32_MAX) {
		rk_set_error("rkl_hamming_pairs: bad arguments");
		return RKL_EINPUT;
	}
	*pairs = 0;
	*n_pairs = 0;
	ham_opt_t ho;
	ham_set_t h;
	rkl_status_t s = lib_ham_set(n, seq, len, o, &ho, &h);
	if (s || !n) return s;
	const uint32_t maxd = max_dist >= UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)max_dist;
	ham_pair_t *p = 0;
	int64_t np = 0;
	s = o->gpu >= 0 ? lib_gpu_ham_pairs(&h, &ho, o->gpu, maxd, &p, &np) : lib_status(ham_pairs(&h, &ho, 0, n, maxd, &p, &np));
	ham_set_free(&h);
	if (!s && np && !(*pairs = malloc(sizeof **pairs * (size_t)np))) { rk_set_error("out of memory"); s = RKL_ENOMEM; }
	for (int64_t q = 0; !s && q < np; q++) (*pairs)[q] = (rkl_ham_pair_t){ p[q].i, p[q].j, p[q].d };
	if (!s) *n_pairs = np;
	free(p);
	return s;
}

/* the reads as Rkt-LCS's set (zeroed first; freed by the caller with rkt_set_free, also on failure) */
static rkl_status_t lib_rkt_set(int64_t n, const char *const *seq, const int64_t *len, rkt_set_t *set)
{
	memset(set, 0, sizeof *set);
	rio_reads_t r;
	rkl_status_t s = lib_reads(n, seq, len, 0, 0, &r);
	if (!s) s = lib_status(rkt_set_init(set, &r));
	lib_reads_free(&r);
	return s;
}

rkl_status_t rkl_rkt_ex(int64_t n, const char *const *seq, const int64_t *len, const rkl_rkt_opt_t *o, rkl_rkt_result_t *res,
                        rkl_rkt_result_t *cand)
{
	if (n < 1 || !len || !o || !res || o->k < 0 || o->t < 1 || o->tau < 1) {
		rk_set_error("rkl_rkt: bad arguments (n >= 1, k >= 0, t >= 1, tau >= 1)");
		return RKL_EINPUT;
	}
	*res = (rkl_rkt_result_t){ -1, -1, 0, 0 };
	rkt_opt_t ro;
	rkt_opt_init(&ro);
	ro.k = o->k; ro.t = o->t; ro.tau = o->tau; ro.n_threads = o->threads;
	rkt_set_t set;
	rkt_cand_t *c = malloc(sizeof *c * (size_t)n);
	rkl_status_t s = c ? lib_rkt_set(n, seq, len, &set) : RKL_ENOMEM;
	if (!c) { rk_set_error("out of memory"); memset(&set, 0, sizeof set); }
	if (!s) s = o->gpu >= 0 ? lib_gpu_rkt(&ro, &set, o->gpu, c) : lib_status(rkt_candidates(&ro, &set, 0, n, c));
	if (!s) {
		const int64_t w = rkt_winner(c, n);
		if (w >= 0) *res = (rkl_rkt_result_t){ w, c[w].pos, c[w].len, c[w].support };
		for (int64_t i = 0; cand && i < n; i++)
			cand[i] = c[i].len > 0 ? (rkl_rkt_result_t){ i, c[i].pos, c[i].len, c[i].support } : (rkl_rkt_result_t){ -1, -1, 0, 0 };
	}
	rkt_set_free(&set);
	free(c);
	return s;
}

rkl_status_t rkl_rkt(int64_t n, const char *const *seq, const int64_t *len, int64_t k, int64_t t, int64_t tau, int threads,
                     rkl_rkt_result_t *res)
{
	rkl_rkt_opt_t o;
	rkl_rkt_opt_init(&o);
	o.k = k; o.t = t; o.tau = tau; o.threads = threads;
	return rkl_rkt_ex(n, seq, len, &o, res, 0);
}

rkl_status_t rkl_rkt_occurrences(int64_t n, const char *const *seq, const int64_t *len, int64_t k, const rkl_rkt_result_t *w,
                                 rkl_rkt_occ_t **occ, int64_t *n_occ)
{
	if (n < 1 || !len || !w || !occ || !n_occ || k < 0 || w->read < 0 || w->read >= n || w->pos < 0 || w->length < 1 ||
	    w->pos + w->length > len[w->read]) {
		rk_set_error("rkl_rkt_occurrences: bad arguments (a result of rkl_rkt on these reads, k >= 0)");
		return RKL_EINPUT;
	}
	*occ = 0;
	*n_occ = 0;
	rkt_opt_t ro;
	rkt_opt_init(&ro);
	ro.k = k;
	rkt_set_t set;
	rkt_occ_t *v = 0;
	int64_t nv = 0;
	rkl_status_t s = lib_rkt_set(n, seq, len, &set);
	if (!s) s = lib_status(rkt_occurrences(&ro, &set, w->read, w->pos, w->length, &v, &nv));
	rkt_set_free(&set);
	if (!s && nv && !(*occ = malloc(sizeof **occ * (size_t)nv))) { rk_set_error("out of memory"); s = RKL_ENOMEM; }
	for (int64_t q = 0; !s && q < nv; q++) (*occ)[q] = (rkl_rkt_occ_t){ v[q].j, v[q].y, v[q].mm };
	if (!s) *n_occ = nv;
	free(v);
	return s;
}
