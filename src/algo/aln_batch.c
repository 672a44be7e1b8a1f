/* Batches of short pairs: pairs sorted by (words of A, length of B) go VL at a time through
 * the lane kernels of aln_bkern.h, one pair per lane; long pairs, and all pairs without SIMD,
 * one at a time. Paths: the kernel keeps every column's state, traced back per lane. */
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "algo/aln_dp.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define ALN_X86 1
#include <immintrin.h>
#endif

#define BATCH_WORDS 32         /* pairs with A up to 2048 symbols go in lanes */
#define BATCH_PATH_COLS 4096   /* ... and B up to this long when paths are kept, */
#define BATCH_PATH_STORE 65536  /* ... words of A x columns: a thread's store of every column (lev: 16.8 MB) */
#define BATCH_WINDOW 2048      /* pairs sorted by shape within windows of this many */

typedef void (*bkern_fn)(int nb, int64_t ncol, const int64_t *lbl, const uint64_t *pl, const uint64_t *bpl,
                         uint64_t *st, uint64_t *fin);

#ifdef ALN_X86
#define ALN_ISA 2
#include "algo/aln_vec.h"
#include "algo/aln_bkern.h"
#undef ALN_ISA
#define ALN_ISA 3
#include "algo/aln_vec.h"
#include "algo/aln_bkern.h"
#undef ALN_ISA
#define ALN_ISA 4
#include "algo/aln_vec.h"
#include "algo/aln_bkern.h"
#undef ALN_ISA
#endif

static const int nw_slot[33] = { 0, 0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9 };   /* words -> instance */
static const int nw_inst[10] = { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32 };

typedef struct {
	const aln_kind_t *K;
	int kind, simd;
	int64_t k;
	const aln_pair_t *p;
	int64_t *cost;
	aln_path_t *paths;
	const aln_rsrc_t *r;     /* the pairs' planes from a table (NULL: computed) */
} batch_t;

/* one pair the ordinary way */
static rk_status_t one_pair(const batch_t *B, int64_t i)
{
	const aln_pair_t *q = &B->p[i];
	if (B->paths) {
		B->paths[i].n = 0;
		rk_status_t st = aln_hirsch(B->K, q->a, q->la, q->b, q->lb, B->k, B->simd, 1, &B->paths[i], &B->cost[i]);
		if (!st && B->cost[i] < 0) B->paths[i].n = 0;
		return st;
	}
	if (q->la == 0 || q->lb == 0) {
		int64_t c = q->la + q->lb;
		B->cost[i] = B->k >= 0 && c > B->k ? -1 : c;
		return RK_OK;
	}
	aln_prep_t pr;
	rk_status_t st = aln_prep_init(&pr, q->a, q->la, 0, q->b, q->lb, 0, B->simd);
	if (st) return st;
	st = aln_cost(B->K, &pr, q->a, q->b, B->k, B->simd, 1, &B->cost[i]);
	aln_prep_free(&pr);
	return st;
}

#ifdef ALN_X86
/* pull the strings of the next group towards the cache while this one computes */
static void prefetch_group(const aln_pair_t *p, const int64_t *idx, int n)
{
	for (int l = 0; l < n; l++) {
		const aln_pair_t *q = &p[idx[l]];
		for (int64_t x = 0; x < q->la; x += 64) __builtin_prefetch(q->a + x);
		for (int64_t x = 0; x < q->lb; x += 64) __builtin_prefetch(q->b + x);
	}
}

/* A thread's alphabet for the lane kernels: it only grows (a new symbol of A restarts the
 * group that brought it), so codes and plane counts settle after the first groups. Symbols of B
 * outside it share the absent code n. */
typedef struct {
	int n, nb;
	uint8_t sym[256];
} balpha_t;

/* code planes of s[0, m) (m <= 64): bit r of out[k] = bit k of the code of s[r]; returns the
 * positions whose symbol is outside the alphabet (given the absent code). Whole 64-byte
 * compares: a short last word of a string is read as the string's last 64 bytes (before: how
 * many precede it), or copied to a pad when the string is shorter. */
static uint64_t planes64(const balpha_t *A, const uint8_t *s, int m, int64_t before, uint64_t *out)
{
	uint8_t pad[64];
	int sh = 0;
	if (m < 64 && before + m >= 64) {   /* the 64 bytes ending here are all the string's */
		sh = 64 - m;
		s -= sh;
	} else if (m < 64) {
		memcpy(pad, s, (size_t)m);
		memset(pad + m, 0, (size_t)(64 - m));
		s = pad;
	}
	uint64_t any = 0;
	for (int k = 0; k < A->nb; k++) out[k] = 0;
	for (int c = 0; c < A->n; c++) {
		uint64_t e = aln_bits_eq(s, 64, A->sym[c]) >> sh;
		any |= e;
		for (int k = 0; k < A->nb; k++)
			if (c >> k & 1) out[k] |= e;
	}
	const uint64_t full = m == 64 ? ~0ull : (1ull << m) - 1, miss = full & ~any;
	for (int k = 0; k < A->nb; k++) out[k] = (out[k] & full) | (A->n >> k & 1 ? miss : 0);
	return miss;
}

/* planes64 with one compare a symbol over the 64 bytes (AVX-512BW, simd >= 3; a masked load
 * reads none past m): the same bits. The SSE2 compares of planes64 cost as much as the lane
 * kernel itself on 150-bp pairs (perf, lev --all every pair: 36% each). */
__attribute__((target("avx512f,avx512bw")))
static uint64_t planes64_512(const balpha_t *A, const uint8_t *s, int m, uint64_t *out)
{
	const uint64_t full = m == 64 ? ~0ull : (1ull << m) - 1;
	const __m512i x = _mm512_maskz_loadu_epi8(full, s);
	uint64_t any = 0;
	for (int k = 0; k < A->nb; k++) out[k] = 0;
	for (int c = 0; c < A->n; c++) {
		const uint64_t e = _mm512_mask_cmpeq_epi8_mask(full, x, _mm512_set1_epi8((char)A->sym[c]));
		any |= e;
		for (int k = 0; k < A->nb; k++)
			if (c >> k & 1) out[k] |= e;
	}
	const uint64_t miss = full & ~any;
	for (int k = 0; k < A->nb; k++) out[k] |= A->n >> k & 1 ? miss : 0;
	return miss;
}

static void alpha_add(balpha_t *A, const uint8_t *s, uint64_t miss)
{
	for (int r = 0; miss; r++, miss >>= 1) {
		if (!(miss & 1)) continue;
		int c = 0;
		while (c < A->n && A->sym[c] != s[r]) c++;
		if (c == A->n) A->sym[A->n++] = s[r];
	}
	A->nb = 1;
	while ((1 << A->nb) < A->n + 1) A->nb++;
}

/* up to vl pairs idx[0..n) in lanes; nidx/nn: the group that will probably come next */
static rk_status_t lane_group(const batch_t *B, const int64_t *idx, int n, int vl, const int64_t *nidx, int nn,
                              balpha_t *A, uint64_t **buf, size_t *cap)
{
	const aln_pair_t *p = B->p;
	prefetch_group(p, nidx, nn);
	int64_t lbl[8], ncol = 0, nw = 1;
	for (int l = 0; l < vl; l++) {
		lbl[l] = l < n ? p[idx[l]].lb : 0;
		if (lbl[l] > ncol) ncol = lbl[l];
		if (l < n && (p[idx[l]].la + 63) / 64 > nw) nw = (p[idx[l]].la + 63) / 64;
	}
	const int slot = nw_slot[nw], NW = nw_inst[slot], per = B->kind == ALN_LEV ? 4 : 2;
	const int64_t nblk = (ncol + 63) / 64;
	/* planes of A NW x 8 x vl, of B nblk x 8 x vl, final states 2 NW vl, column states (paths) */
	size_t npl = (size_t)NW * 8 * (size_t)vl, nbp = (size_t)nblk * 8 * (size_t)vl, nfin = 2 * (size_t)NW * (size_t)vl;
	size_t nst = B->paths ? (size_t)ncol * (size_t)NW * (size_t)per * (size_t)vl : 0, need = npl + nbp + nfin + nst + 8;
	if (need > *cap) {
		uint64_t *nbuf = realloc(*buf, need * sizeof(uint64_t));
		if (!nbuf) { rk_set_error("out of memory for a batch of pairs"); return RK_ERES; }
		*buf = nbuf;
		*cap = need;
	}
	uint64_t *pl = (uint64_t *)(((uintptr_t)*buf + 63) & ~(uintptr_t)63), *bpl = pl + npl, *fin = bpl + nbp, *st = fin + nfin;
	uint64_t o[8];
retry:
	memset(pl, 0, (npl + nbp) * sizeof(uint64_t));
	const int wide = B->simd >= 3;
	for (int l = 0; l < n; l++) {
		const uint8_t *a = (const uint8_t *)p[idx[l]].a, *b = (const uint8_t *)p[idx[l]].b;
		const int64_t la = p[idx[l]].la, lb = lbl[l];
		if (B->r) {   /* the reads' planes, under the table's alphabet (the thread's) */
			const aln_rplanes_t *t = B->r->t;
			const uint64_t *fa = t->fw + t->off[B->r->ai[idx[l]]], *rb = t->rv + t->off[B->r->bi[idx[l]]];
			for (int64_t w = 0; w * 64 < la; w++)
				for (int k = 0; k < A->nb; k++) pl[(w * 8 + k) * vl + l] = fa[w * A->nb + k];
			for (int64_t w = 0; w * 64 < lb; w++)
				for (int k = 0; k < A->nb; k++) bpl[(w * 8 + k) * vl + l] = rb[w * A->nb + k];
			continue;
		}
		/* a lane whose A (or B) is the one of the lane before takes its planes: --all's
		 * groups are mostly one row's pairs */
		const int same_a = l > 0 && a == (const uint8_t *)p[idx[l - 1]].a && la == p[idx[l - 1]].la;
		const int same_b = l > 0 && b == (const uint8_t *)p[idx[l - 1]].b && lb == lbl[l - 1];
		for (int64_t w = 0; w * 64 < la; w++) {
			if (same_a) {
				for (int k = 0; k < A->nb; k++) pl[(w * 8 + k) * vl + l] = pl[(w * 8 + k) * vl + l - 1];
				continue;
			}
			int m = la - 64 * w < 64 ? (int)(la - 64 * w) : 64;
			uint64_t miss = wide ? planes64_512(A, a + 64 * w, m, o) : planes64(A, a + 64 * w, m, 64 * w, o);
			if (miss) { alpha_add(A, a + 64 * w, miss); goto retry; }
			for (int k = 0; k < A->nb; k++) pl[(w * 8 + k) * vl + l] = o[k];
		}
		for (int64_t w = 0; w * 64 < lb; w++) {
			if (same_b) {
				for (int k = 0; k < A->nb; k++) bpl[(w * 8 + k) * vl + l] = bpl[(w * 8 + k) * vl + l - 1];
				continue;
			}
			int m = lb - 64 * w < 64 ? (int)(lb - 64 * w) : 64;
			if (wide) planes64_512(A, b + 64 * w, m, o);
			else planes64(A, b + 64 * w, m, 64 * w, o);
			for (int k = 0; k < A->nb; k++) bpl[(w * 8 + k) * vl + l] = aln_rev64(o[k]);  /* column 0 in bit 63 */
		}
	}
	const int nb = A->nb, nbs = nb == 2 ? 1 : nb == 3 ? 2 : 0;
	bkern_fn f = B->simd >= 4 ? bkern_tab_avx512v[B->kind][slot][nbs]
	           : vl == 8 ? bkern_tab_avx512[B->kind][slot][nbs] : bkern_tab_avx2[B->kind][slot][nbs];
	f(nb, ncol, lbl, pl, bpl, B->paths ? st : 0, fin);
	rk_status_t ret = RK_OK;
	aln_trace_in_t tin[8];
	aln_path_t *tp[8];
	int nt = 0;
	for (int l = 0; l < n; l++) {
		const aln_pair_t *q = &p[idx[l]];
		int64_t la = q->la, c = 0;
		for (int64_t w = 0; w * 64 < la; w++) {
			int r = la - 64 * w >= 64 ? 64 : (int)(la - 64 * w);
			uint64_t m = r == 64 ? ~0ull : (1ull << r) - 1;
			if (B->kind == ALN_LEV)
				c += aln_pop64(fin[2 * w * vl + l] & m) - aln_pop64(fin[(2 * w + 1) * vl + l] & m);
			else
				c += r - aln_pop64(fin[2 * w * vl + l] & m);   /* lcs of the rows */
		}
		int64_t cost = B->kind == ALN_LEV ? q->lb + c : la + q->lb - 2 * c;
		if (B->k >= 0 && cost > B->k) cost = -1;
		B->cost[idx[l]] = cost;
		if (B->paths) {
			B->paths[idx[l]].n = 0;
			if (cost >= 0) {
				tin[nt] = (aln_trace_in_t){ q->a, q->b, la, q->lb, { st + l, (int64_t)NW * per * vl, (int64_t)per * vl, vl } };
				tp[nt++] = &B->paths[idx[l]];
			}
		}
	}
	if (nt) ret = aln_trace_n(B->kind, nt, tin, tp);
	return ret;
}
#endif

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

rk_status_t aln_batch(const aln_kind_t *K, const aln_pair_t *p, int64_t n, int64_t k, int simd, int n_threads,
                      int64_t *cost, aln_path_t *paths)
{
	return aln_batch_reads(K, p, 0, n, k, simd, n_threads, cost, paths);
}

rk_status_t aln_batch_reads(const aln_kind_t *K, const aln_pair_t *p, const aln_rsrc_t *r, int64_t n, int64_t k, int simd,
                            int n_threads, int64_t *cost, aln_path_t *paths)
{
	batch_t B = { K, K->kind, simd, k, p, cost, paths, r && r->t && r->t->fw ? r : 0 };
	/* lane pairs keyed by (words of A, length of B, index): 4 + 24 + 36 bits */
	uint64_t *lane = malloc(sizeof(uint64_t) * (size_t)(n ? n : 1));
	int64_t *rest = malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
	if (!lane || !rest) {
		free(lane); free(rest);
		rk_set_error("out of memory for a batch of %lld pairs", (long long)n);
		return RK_ERES;
	}
	int64_t nl = 0, nr = 0;
	for (int64_t i = 0; i < n; i++) {
		const aln_pair_t *q = &p[i];
		int fits = simd >= 2 && q->la > 0 && q->lb > 0 && q->la <= 64 * BATCH_WORDS && i < (1ll << 36) &&
		           (paths ? q->lb <= BATCH_PATH_COLS && q->lb * ((q->la + 63) / 64) <= BATCH_PATH_STORE : q->lb < (1 << 24));
		if (fits) lane[nl++] = (uint64_t)((q->la + 63) / 64) << 60 | (uint64_t)q->lb << 36 | (uint64_t)i;
		else rest[nr++] = i;
	}
	/* sorted within windows of consecutive pairs: similar lengths share lanes, and the input
	 * is still read roughly in order */
	for (int64_t w0 = 0; w0 < nl; w0 += BATCH_WINDOW) {
		/* a window already in order (pairs of one shape: --all of equal reads) is left as is:
		 * its sort was 4% of such a run, on one thread */
		const int64_t wn = nl - w0 < BATCH_WINDOW ? nl - w0 : BATCH_WINDOW;
		int64_t i = 1;
		while (i < wn && lane[w0 + i - 1] <= lane[w0 + i]) i++;
		if (i < wn) qsort(lane + w0, (size_t)wn, sizeof(uint64_t), cmp_u64);
	}
	for (int64_t i = 0; i < nl; i++) lane[i] &= (1ull << 36) - 1;
	const int vl = simd >= 3 ? 8 : 4;
	const int64_t ng = (nl + vl - 1) / vl;
	rk_status_t st = RK_OK;
	int T = n_threads > 0 ? n_threads : 1;
	if (T > 1 && ng + nr < 2 * (int64_t)T) T = (int)((ng + nr + 1) / 2 > 0 ? (ng + nr + 1) / 2 : 1);
	#pragma omp parallel num_threads(T)
	{
		uint64_t *buf = 0;
		size_t cap = 0;
		balpha_t alpha = { 0, 1, { 0 } };
		if (B.r) {   /* every symbol of the table's reads: no pair of them misses one */
			alpha.n = B.r->t->nsym;
			alpha.nb = B.r->t->nb;
			memcpy(alpha.sym, B.r->t->sym, sizeof alpha.sym);
		}
		rk_status_t s = RK_OK;
#ifdef ALN_X86
		#pragma omp for schedule(dynamic, 4) nowait
		for (int64_t g = 0; g < ng; g++) {
			int m = (int)(nl - g * vl < vl ? nl - g * vl : vl);
			int64_t g2 = g + 1 < ng ? g + 1 : g;
			int m2 = g + 1 < ng ? (int)(nl - g2 * vl < vl ? nl - g2 * vl : vl) : 0;
			rk_status_t e = lane_group(&B, (const int64_t *)lane + g * vl, m, vl, (const int64_t *)lane + g2 * vl, m2,
			                           &alpha, &buf, &cap);
			if (e && !s) s = e;
		}
#endif
		#pragma omp for schedule(dynamic, 1)
		for (int64_t i = 0; i < nr; i++) {
			rk_status_t e = one_pair(&B, rest[i]);
			if (e && !s) s = e;
		}
		free(buf);
		if (s) {
			#pragma omp critical(aln_batch_err)
			if (!st) st = s;
		}
	}
	free(lane);
	free(rest);
	return st;
}

rk_status_t aln_rplanes_init(aln_rplanes_t *t, int64_t n, const char *const *seq, const int64_t *len, uint64_t max_bytes,
                             int n_threads)
{
	memset(t, 0, sizeof *t);
#ifndef ALN_X86
	(void)n; (void)seq; (void)len; (void)max_bytes; (void)n_threads;
	return RK_OK;   /* no lanes to fill: the table stays empty */
#else
	const int T = n_threads > 0 ? n_threads : 1;
	uint8_t seen[256] = { 0 };
	#pragma omp parallel num_threads(T)
	{
		uint8_t mine[256] = { 0 };
		#pragma omp for schedule(static)
		for (int64_t r = 0; r < n; r++)
			for (int64_t i = 0; i < len[r]; i++) mine[(uint8_t)seq[r][i]] = 1;
		#pragma omp critical(aln_rplanes_seen)
		for (int c = 0; c < 256; c++) seen[c] |= mine[c];
	}
	for (int c = 0; c < 256; c++)
		if (seen[c]) t->sym[t->nsym++] = (uint8_t)c;
	t->nb = 1;
	while ((1 << t->nb) < t->nsym + 1) t->nb++;
	if (!(t->off = malloc(sizeof(int64_t) * (size_t)(n + 1)))) goto oom;
	t->off[0] = 0;
	for (int64_t r = 0; r < n; r++) t->off[r + 1] = t->off[r] + (len[r] + 63) / 64 * t->nb;
	if ((uint64_t)t->off[n] * 16 > max_bytes) { aln_rplanes_free(t); return RK_OK; }   /* not worth its memory */
	if (!(t->fw = malloc(sizeof(uint64_t) * (size_t)(t->off[n] + 1))) || !(t->rv = malloc(sizeof(uint64_t) * (size_t)(t->off[n] + 1))))
		goto oom;
	balpha_t A = { t->nsym, t->nb, { 0 } };
	memcpy(A.sym, t->sym, sizeof A.sym);
	#pragma omp parallel for schedule(dynamic, 256) num_threads(T)
	for (int64_t r = 0; r < n; r++) {
		uint64_t o[8];
		for (int64_t w = 0; w * 64 < len[r]; w++) {
			const int m = len[r] - 64 * w < 64 ? (int)(len[r] - 64 * w) : 64;
			planes64(&A, (const uint8_t *)seq[r] + 64 * w, m, 64 * w, o);
			for (int k = 0; k < t->nb; k++) {
				t->fw[t->off[r] + w * t->nb + k] = o[k];
				t->rv[t->off[r] + w * t->nb + k] = aln_rev64(o[k]);
			}
		}
	}
	return RK_OK;
oom:
	aln_rplanes_free(t);
	rk_set_error("out of memory for the code planes of %lld reads", (long long)n);
	return RK_ERES;
#endif
}

void aln_rplanes_free(aln_rplanes_t *t)
{
	free(t->off); free(t->fw); free(t->rv);
	memset(t, 0, sizeof *t);
}
