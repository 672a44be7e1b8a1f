/* hamming mode: informative columns, bit-sliced, popcount in cache-sized tiles.
 *
 * Default rule (snp-dists): a position counts iff both symbols are A/C/G/T and differ.
 * With 2 code planes (hi, lo) and a validity plane v per sequence, a 64-column word costs
 * popcount(((hi_a ^ hi_b) | (lo_a ^ lo_b)) & v_a & v_b). With -a every differing symbol
 * counts: the symbols present get codes 0..S-1 on ceil(log2 S) planes and the distance is
 * the popcount of the OR of the plane XORs. Columns where no two countable symbols differ
 * are dropped first: real alignments are mostly invariant. */
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "algo/ham.h"

void ham_opt_init(ham_opt_t *o)
{
	memset(o, 0, sizeof *o);
}

void ham_set_free(ham_set_t *h)
{
	free(h->bits);
	memset(h, 0, sizeof *h);
}

/* One sequence's slice of a block of columns: first[p] takes the first countable symbol,
 * keep[p] becomes 1 at any other one after it. 16 bytes at a time in GCC/Clang vector
 * types (the compiler turns the scalar form's four compares into a 64-bit bit test, which
 * does not vectorize). */
typedef signed char ham_v16 __attribute__((vector_size(16)));
static void ham_scan(const uint8_t *s, uint8_t *first, uint8_t *keep, int64_t n, int all)
{
	const signed char a1 = all ? -1 : 0, o1 = 1, A = 'A', C = 'C', G = 'G', T = 'T';
	const ham_v16 any = (ham_v16){ 0 } + a1, one = (ham_v16){ 0 } + o1, vA = (ham_v16){ 0 } + A, vC = (ham_v16){ 0 } + C,
	              vG = (ham_v16){ 0 } + G, vT = (ham_v16){ 0 } + T;
	int64_t p = 0;
	for (; p + 16 <= n; p += 16) {
		ham_v16 c, f, k;
		memcpy(&c, s + p, 16); memcpy(&f, first + p, 16); memcpy(&k, keep + p, 16);
		const ham_v16 ok = any | (c == vA) | (c == vC) | (c == vG) | (c == vT), fz = f == (ham_v16){ 0 };
		k |= ok & ~fz & (c != f) & one;
		f = (fz & ok & c) | (~fz & f);
		memcpy(first + p, &f, 16); memcpy(keep + p, &k, 16);
	}
	for (; p < n; p++) {
		const uint8_t c = s[p], f = first[p];
		const int ok = all || c == 'A' || c == 'C' || c == 'G' || c == 'T';
		if (ok && !f) first[p] = c;
		else if (ok && c != f) keep[p] = 1;
	}
}

void ham_cols_free(ham_cols_t *c)
{
	free(c->v); free(c->col);
	memset(c, 0, sizeof *c);
}

rk_status_t ham_cols_scan(ham_cols_t *c, const rio_reads_t *r, int64_t L, const ham_opt_t *o)
{
	memset(c, 0, sizeof *c);
	int64_t n = r->n;
	c->len = L;
	if (o->all)
		for (int64_t i = 0; i < n; i++) {
			const uint8_t *s = (const uint8_t *)rio_seq(r, i);
			for (int64_t p = 0; p < L; p++) c->seen[s[p]] = 1;
		}
	/* v: keep, then first (0: no countable symbol yet; symbols are never NUL) */
	if (!(c->v = calloc(3 * (size_t)L + 1, 1))) { rk_set_error("out of memory"); return RK_ERES; }
	uint8_t *keep = c->v, *first = c->v + L, *inv = c->v + 2 * L;
	int nth = o->n_threads > 0 ? o->n_threads : omp_get_max_threads();
	/* informative columns: two different countable symbols somewhere in the column. Threads
	 * take column ranges and read each sequence's slice of it, so memory is read in order.
	 * Blocks of columns small enough for every thread to get several (30 kb alignments on
	 * 16 cores), large enough to read whole cache lines; the loop is branch-free so that it
	 * vectorizes: first[p] takes the first countable symbol, keep[p] any other one after it */
	int64_t blk = (L + 4 * (int64_t)nth - 1) / (4 * (int64_t)nth);
	blk = blk < 256 ? 256 : blk > 4096 ? 4096 : (blk + 63) / 64 * 64;
	const int all = o->all;
#pragma omp parallel for num_threads(nth) schedule(dynamic, 1)
	for (int64_t p0 = 0; p0 < L; p0 += blk) {
		int64_t p1 = p0 + blk < L ? p0 + blk : L;
		for (int64_t i = 0; i < n; i++) {
			ham_scan((const uint8_t *)rio_seq(r, i) + p0, first + p0, keep + p0, p1 - p0, all);
		}
	}
	/* the smallest first symbol, as 255 - it, so that two scans combine by maximum alone */
	for (int64_t p = 0; p < L; p++) inv[p] = first[p] ? (uint8_t)(255 - first[p]) : 0;
	return RK_OK;
}

void ham_cols_merge(ham_cols_t *c, const ham_cols_t *d)
{
	for (int64_t p = 0; p < 3 * c->len; p++) if (d->v[p] > c->v[p]) c->v[p] = d->v[p];
	for (int k = 0; k < 256; k++) c->seen[k] |= d->seen[k];
}

rk_status_t ham_cols_finish(ham_cols_t *c, const ham_opt_t *o)
{
	const int64_t L = c->len;
	const uint8_t *keep = c->v, *first = c->v + L, *inv = c->v + 2 * L;
	/* symbol codes: -a: every symbol present; default: A C G T */
	int S = 0;
	for (int k = 0; k < 256; k++) c->code[k] = -1;
	if (o->all) {
		for (int k = 0; k < 256; k++) if (c->seen[k]) c->code[k] = S++;
	} else {
		c->code['A'] = 0; c->code['C'] = 1; c->code['G'] = 2; c->code['T'] = 3;
		S = 4;
	}
	c->planes = 0;
	while ((1 << c->planes) < S) c->planes++;
	if (c->planes == 0) c->planes = 1;
	if (!(c->col = malloc(sizeof(int64_t) * (size_t)(L + 1)))) { rk_set_error("out of memory"); return RK_ERES; }
	/* a column counts when one part saw two symbols there, or two parts saw different ones */
	c->n_cols = 0;
	for (int64_t p = 0; p < L; p++)
		if (keep[p] || (first[p] && first[p] != 255 - inv[p])) c->col[c->n_cols++] = p;
	return RK_OK;
}

void ham_set_layout(ham_set_t *h, const ham_cols_t *c, int64_t n, const ham_opt_t *o)
{
	memset(h, 0, sizeof *h);
	h->n = n; h->len = c->len;
	h->n_cols = c->n_cols;
	h->words = (c->n_cols + 63) / 64;
	h->planes = c->planes;
	h->valid = !o->all;
	h->stride = h->words * (h->planes + h->valid);
}

void ham_set_slice(const ham_set_t *h, const ham_cols_t *c, const rio_reads_t *r, int64_t i0, int64_t i1, uint64_t *rows,
                   int n_threads)
{
	const int64_t nc = c->n_cols, *col = c->col;
	const int planes = h->planes;
	int nth = n_threads > 0 ? n_threads : omp_get_max_threads();
#pragma omp parallel for num_threads(nth) schedule(static)
	for (int64_t i = i0; i < i1; i++) {
		const uint8_t *s = (const uint8_t *)rio_seq(r, i);
		uint64_t *b = rows + (i - i0) * h->stride;
		memset(b, 0, sizeof(uint64_t) * (size_t)h->stride);
		for (int64_t q = 0; q < nc; q++) {
			int k = c->code[s[col[q]]];
			uint64_t bit = 1ull << (q & 63);
			int64_t w = q >> 6;
			if (k < 0) continue;  /* default rule: not a base; codes and validity stay 0 */
			for (int pl = 0; pl < planes; pl++)
				if (k >> pl & 1) b[pl * h->words + w] |= bit;
			if (h->valid) b[planes * h->words + w] |= bit;
		}
	}
}

rk_status_t ham_set_init(ham_set_t *h, const rio_reads_t *r, const ham_opt_t *o)
{
	ham_cols_t c;
	int64_t n = r->n, L = n ? rio_len(r, 0) : 0;
	rk_status_t st = ham_cols_scan(&c, r, L, o);
	if (st == RK_OK) st = ham_cols_finish(&c, o);
	if (st != RK_OK) { ham_cols_free(&c); memset(h, 0, sizeof *h); return st; }
	ham_set_layout(h, &c, n, o);
	h->bits = calloc((size_t)(h->stride * n) + 1, sizeof(uint64_t));
	if (!h->bits) {
		ham_cols_free(&c);
		rk_set_error("out of memory: %.2f GB for the bit planes", h->stride * n * 8.0 / 1e9);
		return RK_ERES;
	}
	ham_set_slice(h, &c, r, 0, n, h->bits, o->n_threads);
	ham_cols_free(&c);
	return RK_OK;
}

/* The pair loops, compiled twice: with AVX-512 VPOPCNTDQ (vectorized popcount) and plain. */
#define HAM_FUNCS(SFX, ATTR) \
ATTR static uint32_t ham_dflt_##SFX(const uint64_t *a, const uint64_t *b, int64_t W, uint32_t stop) \
{ \
	uint32_t s = 0; \
	for (int64_t w0 = 0; w0 < W; w0 += 32) { \
		int64_t e = w0 + 32 < W ? w0 + 32 : W; \
		uint64_t acc = 0; \
		for (int64_t w = w0; w < e; w++) \
			acc += (uint64_t)__builtin_popcountll(((a[w] ^ b[w]) | (a[W + w] ^ b[W + w])) & a[2 * W + w] & b[2 * W + w]); \
		s += (uint32_t)acc; \
		if (s > stop) return s; \
	} \
	return s; \
} \
ATTR static inline __attribute__((always_inline)) uint32_t ham_allp_##SFX(const uint64_t *a, const uint64_t *b, \
		int64_t W, const int P, uint32_t stop) \
{ \
	uint32_t s = 0; \
	for (int64_t w0 = 0; w0 < W; w0 += 32) { \
		int64_t e = w0 + 32 < W ? w0 + 32 : W; \
		uint64_t acc = 0; \
		for (int64_t w = w0; w < e; w++) { \
			uint64_t x = 0; \
			for (int p = 0; p < P; p++) x |= a[p * W + w] ^ b[p * W + w]; \
			acc += (uint64_t)__builtin_popcountll(x); \
		} \
		s += (uint32_t)acc; \
		if (s > stop) return s; \
	} \
	return s; \
} \
/* one copy per plane count, so the plane loop unrolls and the word loop vectorizes */ \
ATTR static uint32_t ham_all_##SFX(const uint64_t *a, const uint64_t *b, int64_t W, int P, uint32_t stop) \
{ \
	switch (P) { \
	case 1: return ham_allp_##SFX(a, b, W, 1, stop); \
	case 2: return ham_allp_##SFX(a, b, W, 2, stop); \
	case 3: return ham_allp_##SFX(a, b, W, 3, stop); \
	case 4: return ham_allp_##SFX(a, b, W, 4, stop); \
	case 5: return ham_allp_##SFX(a, b, W, 5, stop); \
	case 6: return ham_allp_##SFX(a, b, W, 6, stop); \
	case 7: return ham_allp_##SFX(a, b, W, 7, stop); \
	default: return ham_allp_##SFX(a, b, W, 8, stop); \
	} \
} \
/* i against j0..j1-1 into d: one dispatch a row, and one word of the default layout (few \
 * informative columns) inline, where the vector loop's set-up cost more than the pair */ \
ATTR static void ham_row_##SFX(const ham_set_t *h, int64_t i, int64_t j0, int64_t j1, uint32_t stop, uint32_t *d) \
{ \
	const uint64_t *a = h->bits + i * h->stride; \
	const int64_t W = h->words, S = h->stride; \
	const int P = h->planes; \
	if (W == 1 && h->valid) { \
		for (int64_t j = j0; j < j1; j++) { \
			const uint64_t *b = h->bits + j * S; \
			d[j - j0] = (uint32_t)__builtin_popcountll(((a[0] ^ b[0]) | (a[1] ^ b[1])) & a[2] & b[2]); \
		} \
	} else { \
		for (int64_t j = j0; j < j1; j++) \
			d[j - j0] = h->valid ? ham_dflt_##SFX(a, h->bits + j * S, W, stop) : ham_all_##SFX(a, h->bits + j * S, W, P, stop); \
	} \
}

#if defined(__x86_64__) && defined(__GNUC__)
HAM_FUNCS(v512, __attribute__((target("avx512f,avx512bw,avx512vl,avx512vpopcntdq,popcnt"))))
#define HAM_HAVE_V512 1
#endif
HAM_FUNCS(plain, )

static int ham_v512(void)
{
#ifdef HAM_HAVE_V512
	static int v = -1;
	if (v < 0) {
		__builtin_cpu_init();
		v = __builtin_cpu_supports("avx512vpopcntdq") && !rk_tune.no_vpopcnt;
	}
	return v;
#else
	return 0;
#endif
}

const char *ham_simd_name(void)
{
	return ham_v512() ? "avx512vpopcntdq" : "scalar";
}

uint32_t ham_dist(const ham_set_t *h, int64_t i, int64_t j, uint32_t stop)
{
	const uint64_t *a = h->bits + i * h->stride, *b = h->bits + j * h->stride;
#ifdef HAM_HAVE_V512
	if (ham_v512())
		return h->valid ? ham_dflt_v512(a, b, h->words, stop) : ham_all_v512(a, b, h->words, h->planes, stop);
#endif
	return h->valid ? ham_dflt_plain(a, b, h->words, stop) : ham_all_plain(a, b, h->words, h->planes, stop);
}

#define HAM_TILE 32  /* 32 x 32 sequences: both tiles' planes stay in L2 */

static void ham_row(const ham_set_t *h, int64_t i, int64_t j0, int64_t j1, uint32_t stop, uint32_t *d)
{
#ifdef HAM_HAVE_V512
	if (ham_v512()) { ham_row_v512(h, i, j0, j1, stop, d); return; }
#endif
	ham_row_plain(h, i, j0, j1, stop, d);
}

void ham_block(const ham_set_t *h, const ham_opt_t *o, int64_t r0, int64_t r1, int64_t c0, int64_t c1,
               int upper, uint32_t *out, int64_t ld)
{
	int nth = o->n_threads > 0 ? o->n_threads : omp_get_max_threads();
	int64_t tr = (r1 - r0 + HAM_TILE - 1) / HAM_TILE, tc = (c1 - c0 + HAM_TILE - 1) / HAM_TILE;
	uint32_t stop = o->cap ? o->cap : UINT32_MAX;
#pragma omp parallel for num_threads(nth) schedule(dynamic, 1) collapse(2)
	for (int64_t a = 0; a < tr; a++)
		for (int64_t b = 0; b < tc; b++) {
			int64_t i0 = r0 + a * HAM_TILE, j0 = c0 + b * HAM_TILE;
			int64_t i1 = i0 + HAM_TILE < r1 ? i0 + HAM_TILE : r1, j1 = j0 + HAM_TILE < c1 ? j0 + HAM_TILE : c1;
			if (upper && j1 <= i0) continue;
			uint32_t dr[HAM_TILE];
			for (int64_t i = i0; i < i1; i++) {
				const int64_t js = upper && j0 < i ? i : j0;
				ham_row(h, i, js, j1, stop, dr);
				for (int64_t j = js; j < j1; j++) {
					const uint32_t d = i == j ? 0 : dr[j - js];
					out[(i - r0) * ld + (j - c0)] = o->cap && d > o->cap ? o->cap : d;
				}
			}
			rk_live_add((double)(i1 - i0) * (double)(j1 - j0));   /* the progress ticker's pairs */
		}
}

rk_status_t ham_pairs(const ham_set_t *h, const ham_opt_t *o, int64_t r0, int64_t r1, uint32_t maxd,
                      ham_pair_t **pairs, int64_t *n_pairs)
{
	int nth = o->n_threads > 0 ? o->n_threads : omp_get_max_threads();
	int64_t n = h->n, tr = (r1 - r0 + HAM_TILE - 1) / HAM_TILE, tc = (n + HAM_TILE - 1) / HAM_TILE;
	ham_pair_t *all = 0;
	int64_t n_all = 0, m_all = 0;
	int fail = 0;
	/* a pair is kept iff its capped value is <= maxd: with cap <= maxd every pair is */
	uint32_t stop = o->cap && o->cap <= maxd ? o->cap : maxd;
#pragma omp parallel num_threads(nth)
	{
		ham_pair_t *v = 0;
		int64_t nv = 0, mv = 0;
#pragma omp for schedule(dynamic, 1) collapse(2) nowait
		for (int64_t a = 0; a < tr; a++)
			for (int64_t b = 0; b < tc; b++) {
				int64_t i0 = r0 + a * HAM_TILE, j0 = b * HAM_TILE;
				int64_t i1 = i0 + HAM_TILE < r1 ? i0 + HAM_TILE : r1, j1 = j0 + HAM_TILE < n ? j0 + HAM_TILE : n;
				if (j1 <= i0 + 1) continue;  /* tile below the diagonal */
				uint32_t dr[HAM_TILE];
				for (int64_t i = i0; i < i1; i++) {
					const int64_t js = j0 > i + 1 ? j0 : i + 1;
					if (js < j1) ham_row(h, i, js, j1, stop, dr);
					for (int64_t j = js; j < j1; j++) {
						uint32_t d = dr[j - js];
						if (o->cap && d > o->cap) d = o->cap;
						if (d > maxd || fail) continue;
						if (nv == mv) {  /* the capacity grows only once the memory is there */
							int64_t nm = mv ? mv * 2 : 1024;
							ham_pair_t *t = realloc(v, sizeof *v * (size_t)nm);
							if (!t) {
#pragma omp atomic write
								fail = 1;
								continue;
							}
							v = t; mv = nm;
						}
						v[nv].i = (int32_t)i; v[nv].j = (int32_t)j; v[nv].d = d;
						nv++;
					}
				}
				rk_live_add((double)(i1 - i0) * (double)(j1 - j0));   /* the progress ticker's pairs */
			}
#pragma omp critical
		{
			if (!fail && n_all + nv > m_all) {
				int64_t m = (n_all + nv) * 2;
				ham_pair_t *t = realloc(all, sizeof *all * (size_t)(m ? m : 1));
				if (!t) fail = 1;
				else { all = t; m_all = m; }
			}
			if (!fail && nv) { memcpy(all + n_all, v, sizeof *v * (size_t)nv); n_all += nv; }
		}
		free(v);
	}
	if (fail) { free(all); rk_set_error("out of memory for the pairs within --max-dist"); return RK_ERES; }
	ham_pairs_sort(all, n_all, nth);
	*pairs = all;
	*n_pairs = n_all;
	return RK_OK;
}
