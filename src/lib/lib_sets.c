/* librktlcs (librktlcs.h): the set modes, hamming's matrix and Rkt-LCS, over the algo layer
 * the command uses. */
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "lib/librktlcs.h"
#include "lib/lib_int.h"
#include "core/reads.h"
#include "algo/ham.h"
#include "algo/rkt.h"

void rkl_ham_opt_init(rkl_ham_opt_t *o) { memset(o, 0, sizeof *o); }

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

rkl_status_t rkl_hamming(int64_t n, const char *const *seq, int64_t len, const rkl_ham_opt_t *o, int64_t *dist)
{
	if (n < 0 || len < 0 || !o || (n && !dist)) { rk_set_error("rkl_hamming: bad arguments"); return RKL_EINPUT; }
	rio_reads_t r;
	rkl_status_t s = lib_reads(n, seq, 0, len, o->keep_case, &r);
	if (s) { lib_reads_free(&r); return s; }
	ham_opt_t ho;
	ham_opt_init(&ho);
	ho.all = o->all;
	ho.n_threads = o->threads;
	ham_set_t h;
	memset(&h, 0, sizeof h);
	rk_status_t st = n ? ham_set_init(&h, &r, &ho) : RK_OK;
	lib_reads_free(&r);
	if (st) return lib_status(st);
#pragma omp parallel for schedule(dynamic, 16) num_threads(o->threads > 0 ? o->threads : omp_get_max_threads()) if (n > 64)
	for (int64_t i = 0; i < n; i++)
		for (int64_t j = 0; j < n; j++) dist[i * n + j] = i == j ? 0 : (int64_t)ham_dist(&h, i, j, UINT32_MAX);
	if (n) ham_set_free(&h);
	return RKL_OK;
}

rkl_status_t rkl_rkt(int64_t n, const char *const *seq, const int64_t *len, int64_t k, int64_t t, int64_t tau, int threads,
                     rkl_rkt_result_t *res)
{
	if (n < 1 || !len || !res || k < 0 || t < 1 || tau < 1) { rk_set_error("rkl_rkt: bad arguments (n >= 1, k >= 0, t >= 1, tau >= 1)"); return RKL_EINPUT; }
	*res = (rkl_rkt_result_t){ -1, -1, 0, 0 };
	rio_reads_t r;
	rkl_status_t s = lib_reads(n, seq, len, 0, 0, &r);
	if (s) { lib_reads_free(&r); return s; }
	rkt_opt_t ro;
	rkt_opt_init(&ro);
	ro.k = k; ro.t = t; ro.tau = tau; ro.n_threads = threads;
	rkt_set_t set;
	memset(&set, 0, sizeof set);
	rkt_cand_t *c = malloc(sizeof *c * (size_t)n);
	rk_status_t st = c ? rkt_set_init(&set, &r) : RK_ERES;
	if (!c) rk_set_error("out of memory");
	if (!st) st = rkt_candidates(&ro, &set, 0, n, c);
	if (!st) {
		const int64_t w = rkt_winner(c, n);
		if (w >= 0) *res = (rkl_rkt_result_t){ w, c[w].pos, c[w].len, c[w].support };
	}
	if (c) rkt_set_free(&set);
	free(c);
	lib_reads_free(&r);
	return lib_status(st);
}
