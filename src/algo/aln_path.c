/* Canonical paths in linear memory: Hirschberg on word-aligned middle rows, the top half by a
 * forward sweep and the bottom half by a sweep of both sequences reversed, each pruned by the
 * known cost of the sub-problem; small sub-problems by a full bit-parallel DP and a traceback.
 *
 * Split rule (aln.h, rule c): on the boundary between rows i* and i* + 1 take the optimal
 * crossing edge of the smallest column, vertical before diagonal. Pruned sweeps leave the
 * costs of cells on optimal paths exact and never under-estimate others, so the optimal
 * crossings are exactly the edges whose computed total equals the minimum. */
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "algo/aln_dp.h"

#define BASE_CELLS (1 << 16)   /* sub-problems at most this large (or of one word of rows) go to aln_base */
#define TASK_CELLS (1 << 20)   /* sub-problems run as parallel tasks from this size */

static inline int64_t i64min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t i64max(int64_t a, int64_t b) { return a > b ? a : b; }

/* Rule (b) needs only deltas: D(i, j - 1) = D(i, j) - dh(i, j) and D(i - 1, j - 1) =
 * D(i, j - 1) - dv(i, j - 1), so the value itself is never needed. Each step's loads hang on
 * the last decision, so several tracebacks advance in turn (their loads overlap), with
 * incremental addressing. */
typedef struct {
	const char *a, *b;
	int64_t i, j, n, w;   /* cell, ops so far, offset of row i's word in the column */
	const uint64_t *col;  /* column j's words */
	int sh;               /* row i's bit */
	uint8_t *ops;         /* reversed */
} trace_t;

static rk_status_t trace_emit(trace_t *t, aln_path_t *path)
{
	while (t->j > 0) t->ops[t->n++] = ALN_D, t->j--;
	while (t->i > 0) t->ops[t->n++] = ALN_I, t->i--;
	rk_status_t st = RK_OK;
	for (int64_t q = t->n - 1; q >= 0 && !st;) {   /* runs, read backwards */
		int64_t e = q;
		while (e > 0 && t->ops[e - 1] == t->ops[q]) e--;
		st = aln_path_push(path, t->ops[q], q - e + 1);
		q = e - 1;
	}
	return st;
}

/* one step back from cell (i, j), i, j > 0, over columns cs words apart */
static inline void trace_step(int kind, trace_t *x, int64_t cs, int64_t ws, int64_t ps)
{
	const uint64_t *col = x->col;
	int64_t w = x->w;
	int sh = x->sh, op;
	if (kind == ALN_LEV) {
		int dh = (int)(col[w + 2 * ps] >> sh & 1) - (int)(col[w + 3 * ps] >> sh & 1);
		if (dh == 1) op = ALN_D;
		else if (x->a[x->i - 1] == x->b[x->j - 1]) op = ALN_EQ;
		else {
			int dv = x->j > 1 ? (int)(col[w - cs] >> sh & 1) - (int)(col[w - cs + ps] >> sh & 1) : 1;
			op = dh + dv == 1 ? ALN_X : ALN_I;
		}
	} else {
		op = !(col[w + ps] >> sh & 1) ? ALN_D : x->a[x->i - 1] == x->b[x->j - 1] ? ALN_M : ALN_I;
	}
	x->ops[x->n++] = (uint8_t)op;
	if (op != ALN_D) {
		x->i--;
		if (--x->sh < 0) { x->sh = 63; x->w -= ws; }
	}
	if (op != ALN_I) {
		x->j--;
		x->col -= cs;
		__builtin_prefetch(x->col - cs + x->w);
	}
}

rk_status_t aln_trace_n(int kind, int n, const aln_trace_in_t *in, aln_path_t *const *paths)
{
	trace_t t[16];
	int64_t room = 0;
	for (int l = 0; l < n; l++) room += in[l].la + in[l].lb + 1;
	uint8_t *buf = malloc((size_t)room);
	if (!buf) { rk_set_error("out of memory for a traceback"); return RK_ERES; }
	uint8_t *o = buf;
	int live = 0;
	for (int l = 0; l < n; l++) {
		const aln_trace_in_t *q = &in[l];
		t[l] = (trace_t){ q->a, q->b, q->la, q->lb, 0, ((q->la - 1) >> 6) * q->c.ws, q->c.st + (q->lb - 1) * q->c.cs,
		                  (int)((q->la - 1) & 63), o };
		o += q->la + q->lb + 1;
		live += q->la > 0 && q->lb > 0;
	}
	while (live) {
		for (int l = 0; l < n; l++) {
			trace_t *x = &t[l];
			if (x->i <= 0 || x->j <= 0) continue;
			trace_step(kind, x, in[l].c.cs, in[l].c.ws, in[l].c.ps);
			live -= x->i <= 0 || x->j <= 0;
		}
	}
	rk_status_t st = RK_OK;
	for (int l = 0; l < n && !st; l++) st = trace_emit(&t[l], paths[l]);
	free(buf);
	return st;
}

rk_status_t aln_trace(int kind, const char *a, int64_t la, const char *b, int64_t lb, const aln_cols_t *c,
                      aln_path_t *path)
{
	aln_trace_in_t in = { a, b, la, lb, *c };
	return aln_trace_n(kind, 1, &in, &path);
}

/* The ops of t so far (read backwards) as runs onto rev, the path from its end. */
static rk_status_t trace_flush(trace_t *t, aln_path_t *rev)
{
	rk_status_t st = RK_OK;
	for (int64_t q = 0; q < t->n && !st;) {
		int64_t e = q + 1;
		while (e < t->n && t->ops[e] == t->ops[q]) e++;
		st = aln_path_push(rev, t->ops[q], e - q);
		q = e;
	}
	t->n = 0;
	return st;
}

/* Full DP and traceback on a prepared pair (B of p is b[0, lb)). The columns are held a block
 * of TRACE_WORDS words at a time: a long B (a short A against a genome: one word of rows, 32
 * bytes a column for lev) is traced back block by block from the last, each block recomputed
 * from the column before it, kept by the forward pass. That costs a second pass over B and
 * keeps the memory at the size of a block, the checkpoints and the path's runs. */
#define TRACE_WORDS (1 << 15)
static rk_status_t base_prep(const aln_kind_t *K, const aln_prep_t *p, const char *a, const char *b, aln_path_t *path,
                             int64_t *cost)
{
	const int kind = K->kind;
	const int64_t la = p->la, lb = p->lb, per = kind == ALN_LEV ? 4 : 2, cs = p->nw * per;
	const int64_t bw = i64min(lb, i64max(64, TRACE_WORDS / cs)), nb = (lb + bw - 1) / bw;
	/* slot 0: the column before the block; checkpoints: that column for each block */
	uint64_t *cols = malloc((size_t)((bw + 1) * cs) * sizeof(uint64_t));
	uint64_t *ck = nb > 1 ? malloc((size_t)(nb * cs) * sizeof(uint64_t)) : 0;
	uint8_t *ops = malloc((size_t)(bw + la + 1));
	aln_path_t rev = { 0 };
	rk_status_t st = RK_OK;
	if (!cols || (nb > 1 && !ck) || !ops) {
		rk_set_error("out of memory for a %lld x %lld traceback", (long long)la, (long long)lb);
		st = RK_ERES;
		goto out;
	}
	int64_t j0 = 0;
	for (int64_t q = 0; q < nb; q++, j0 += bw) {
		if (q) memcpy(cols, cols + bw * cs, (size_t)cs * sizeof(uint64_t));
		if (ck) memcpy(ck + q * cs, cols, (size_t)cs * sizeof(uint64_t));
		K->full_cols(p, j0, i64min(lb, j0 + bw), cols + cs);
	}
	j0 -= bw;
	const uint64_t *last = cols + (lb - j0) * cs;
	int64_t sum = 0;  /* lev: vertical deltas of the last column; lcs: its lcs */
	for (int64_t w = 0; w < p->nw; w++) {
		int r = la - 64 * w >= 64 ? 64 : (int)(la - 64 * w);
		uint64_t m = r == 64 ? ~0ull : (1ull << r) - 1;
		if (kind == ALN_LEV) sum += aln_pop64(last[w * per] & m) - aln_pop64(last[w * per + 1] & m);
		else sum += r - aln_pop64(last[w * per] & m);
	}
	*cost = kind == ALN_LEV ? lb + sum : la + lb - 2 * sum;
	trace_t x = { a, b, la, lb, 0, ((la - 1) >> 6) * per, last, (int)((la - 1) & 63), ops };
	for (int64_t q = nb - 1; !st; q--, j0 -= bw) {
		if (q < nb - 1) {   /* the last block is still there */
			memcpy(cols, ck + q * cs, (size_t)cs * sizeof(uint64_t));
			K->full_cols(p, j0, j0 + bw, cols + cs);
			x.col = cols + (x.j - j0) * cs;
		}
		while (x.i > 0 && x.j > j0) trace_step(kind, &x, cs, per, 1);
		if (x.i <= 0 || x.j <= 0) break;
		st = trace_flush(&x, &rev);
	}
	/* then B's or A's symbols before the cell it stopped at, and the runs from the first */
	if (!st) st = trace_flush(&x, &rev);
	if (!st) st = aln_path_push(&rev, ALN_D, x.j);
	if (!st) st = aln_path_push(&rev, ALN_I, x.i);
	for (int64_t q = rev.n - 1; q >= 0 && !st; q--) st = aln_path_push(path, (int)(rev.run[q] & 7), (int64_t)(rev.run[q] >> 3));
out:
	free(cols);
	free(ck);
	free(ops);
	aln_path_free(&rev);
	return st;
}

rk_status_t aln_base(const aln_kind_t *K, const char *a, int64_t la, const char *b, int64_t lb, aln_path_t *path,
                     int64_t *cost)
{
	if (la == 0 || lb == 0) {
		*cost = la + lb;
		return aln_path_push(path, la ? ALN_I : ALN_D, la + lb);
	}
	aln_prep_t p;
	rk_status_t st = aln_prep_init(&p, a, la, 0, b, lb, 0, 0);
	if (!st) st = base_prep(K, &p, a, b, path, cost);
	aln_prep_free(&p);
	return st;
}

typedef struct {
	const aln_kind_t *K;
	int kind, simd, par;
	/* B prepared once, forwards and backwards; sub-problems take views of it (NULL: none) */
	const aln_prep_t *G, *Gr;
	const char *b0;
} hctx_t;

typedef aln_cross_t cross_t;

/* cost of the edge as a running value along the bottom row of a sweep */
static inline int delta_at(int kind, const aln_edge_t *e, int64_t col)
{
	int64_t q = col - 1;
	int b0 = (int)(e->h[0][q >> 6] >> (q & 63) & 1);
	return kind == ALN_LEV ? b0 - (int)(e->h[1][q >> 6] >> (q & 63) & 1) : 1 - 2 * b0;
}

/* Scan the crossings of row i* given the forward bottom row F (row i*, F(j) at column j) and
 * the reversed bottom row B (row i* + 1 seen from the end: B(j) at reversed column lb - j). */
static void cross_scan(int kind, const aln_edge_t *F, const aln_edge_t *B, int64_t lb, char ai, const char *b,
                       cross_t *x)
{
	x->best = -1;
	if (F->dead || B->dead) return;
	const int64_t blo = lb - B->c1, bhi = lb - B->c0;   /* columns where B(j) is known */
	const int64_t jlo = i64max(F->c0, blo - 1), jhi = i64min(F->c1, bhi);
	if (jlo > jhi) return;
	int64_t f = F->v0, bcur = B->v0;
	for (int64_t j = F->c0 + 1; j <= jlo; j++) f += delta_at(kind, F, j);
	for (int64_t q = B->c0 + 1; q <= lb - i64max(jlo, blo); q++) bcur += delta_at(kind, B, q);
	/* bcur = B(max(j, blo)) */
	for (int64_t j = jlo; j <= jhi; j++) {
		if (j >= blo) {
			int64_t t = f + 1 + bcur;
			if (x->best < 0 || t < x->best) *x = (cross_t){ j, j, ALN_I, f, bcur, t };
		}
		if (j + 1 >= blo && j + 1 <= bhi && j < lb) {
			int64_t bn = j >= blo ? bcur - delta_at(kind, B, lb - j) : bcur;
			int eq = ai == b[j];
			if (kind == ALN_LEV || eq) {
				int64_t t = f + (kind == ALN_LEV ? !eq : 0) + bn;
				if (x->best < 0 || t < x->best)
					*x = (cross_t){ j, j + 1, kind == ALN_LEV ? (eq ? ALN_EQ : ALN_X) : ALN_M, f, bn, t };
			}
			bcur = bn;
		}
		if (j < jhi) f += delta_at(kind, F, j + 1);
	}
}

static rk_status_t hirsch_rec(const hctx_t *h, const char *a, int64_t la, const char *b, int64_t lb, int64_t k,
                              aln_path_t *out, int64_t *got);

/* the pair's prep for a sub-problem: a view of the prepared B when there is one */
static rk_status_t sub_prep(const hctx_t *h, aln_prep_t *p, const char *a, int64_t la, int rev, const char *b,
                            int64_t lb)
{
	if (!h->G) return aln_prep_init(p, a, la, rev, b, lb, rev, h->simd);
	int64_t g0 = b - h->b0;
	return rev ? aln_prep_view(p, h->Gr, h->G->lb - g0 - lb, lb, a, la, 1) : aln_prep_view(p, h->G, g0, lb, a, la, 0);
}

static rk_status_t half_sweep(const hctx_t *h, const char *a, int64_t la, int rev, const char *b, int64_t lb,
                              int64_t k, int64_t la_end, int64_t lb_end, aln_edge_t *e)
{
	aln_prep_t p;
	rk_status_t st = sub_prep(h, &p, a, la, rev, b, lb);
	if (st) return st;
	aln_sweep_opt_t o = { .K = h->K, .simd = h->simd, .n_threads = 1, .k = k, .w = 0,
	                      .la_end = la_end, .lb_end = lb_end };
	int64_t cost;
	st = aln_sweep(&p, &o, e, &cost);
	aln_prep_free(&p);
	return st;
}

static rk_status_t hirsch_rec(const hctx_t *h, const char *a, int64_t la, const char *b, int64_t lb, int64_t k,
                              aln_path_t *out, int64_t *got)
{
	*got = -1;
	if (la == 0 || lb == 0 || la <= 64 || la * lb <= BASE_CELLS) {
		aln_path_t tmp = { 0 };
		int64_t c;
		rk_status_t st;
		if (la == 0 || lb == 0 || !h->G) st = aln_base(h->K, a, la, b, lb, &tmp, &c);
		else {
			aln_prep_t p;
			st = sub_prep(h, &p, a, la, 0, b, lb);
			if (!st) st = base_prep(h->K, &p, a, b, &tmp, &c);
			aln_prep_free(&p);
		}
		if (!st && (k < 0 || c <= k)) {
			st = aln_path_cat(out, &tmp);
			*got = c;
		}
		aln_path_free(&tmp);
		return st;
	}
	const int64_t is = aln_hirsch_row(la);
	const int par = h->par && la * lb >= TASK_CELLS;
	aln_edge_t F = { 0 }, B = { 0 };
	rk_status_t s1 = RK_OK, s2 = RK_OK;
	if (par) {
		#pragma omp task shared(s1, F)
		s1 = half_sweep(h, a, is, 0, b, lb, k, la, lb, &F);
		#pragma omp task shared(s2, B)
		s2 = half_sweep(h, a + is + 1, la - is - 1, 1, b, lb, k, la, lb, &B);
		#pragma omp taskwait
	} else {
		s1 = half_sweep(h, a, is, 0, b, lb, k, la, lb, &F);
		if (!s1) s2 = half_sweep(h, a + is + 1, la - is - 1, 1, b, lb, k, la, lb, &B);
	}
	cross_t x;
	if (!s1 && !s2) cross_scan(h->kind, &F, &B, lb, a[is], b, &x);
	aln_edge_free(&F);
	aln_edge_free(&B);
	if (s1 || s2) return s1 ? s1 : s2;
	if (x.best < 0 || (k >= 0 && x.best > k)) return RK_OK;
	const char *a2 = a + is + 1, *b2 = b + x.jn;
	int64_t la2 = la - is - 1, lb2 = lb - x.jn, g1 = -1, g2 = -1;
	rk_status_t st;
	if (par) {
		aln_path_t p1 = { 0 }, p2 = { 0 };
		#pragma omp task shared(s1, p1, g1)
		s1 = hirsch_rec(h, a, is, b, x.j, x.cf, &p1, &g1);
		#pragma omp task shared(s2, p2, g2)
		s2 = hirsch_rec(h, a2, la2, b2, lb2, x.cb, &p2, &g2);
		#pragma omp taskwait
		st = s1 ? s1 : s2;
		if (!st) st = aln_path_cat(out, &p1);
		if (!st) st = aln_path_push(out, (int)x.op, 1);
		if (!st) st = aln_path_cat(out, &p2);
		aln_path_free(&p1);
		aln_path_free(&p2);
	} else {
		st = hirsch_rec(h, a, is, b, x.j, x.cf, out, &g1);
		if (!st) st = aln_path_push(out, (int)x.op, 1);
		if (!st) st = hirsch_rec(h, a2, la2, b2, lb2, x.cb, out, &g2);
	}
	if (st) return st;
	if (g1 != x.cf || g2 != x.cb) {
		rk_set_error("internal error: Hirschberg halves cost %lld + %lld, expected %lld + %lld", (long long)g1,
		             (long long)g2, (long long)x.cf, (long long)x.cb);
		return RK_EINPUT;
	}
	*got = x.best;
	return RK_OK;
}

rk_status_t aln_hirsch(const aln_kind_t *K, const char *a, int64_t la, const char *b, int64_t lb, int64_t bound, int simd,
                       int n_threads, aln_path_t *path, int64_t *got)
{
	const int kind = K->kind;
	/* threads only where there is enough work to share */
	hctx_t h = { K, kind, simd, n_threads > 1 && (double)la * (double)lb >= TASK_CELLS, 0, 0, b };
	int64_t k = bound;
	*got = -1;
	if (k >= 0 && (la > lb ? la - lb : lb - la) > k) return RK_OK;
	aln_prep_t G, Gr;
	rk_status_t st = RK_OK;
	if (la > 64 && la * lb > BASE_CELLS) {
		/* the SIMD slabs take 3 words of rows or more: below, B's byte masks (bytes a symbol
		 * of B per code bit, in both directions) would only cost memory */
		const int ps = (la + 63) / 64 >= 3 ? simd : 0;
		st = aln_prep_init(&G, a, la, 0, b, lb, 0, ps);
		if (st) return st;
		st = aln_prep_init(&Gr, a, la, 1, b, lb, 1, ps);
		if (st) { aln_prep_free(&G); return st; }
		h.G = &G;
		h.Gr = &Gr;
		if (k < 0) {
			/* an upper bound prunes the first split; dissimilar pairs gain nothing from it */
			int64_t ub;
			st = aln_bound(K, &G, a, b, simd, n_threads, &ub);
			if (!st && (double)ub * (double)i64min(la, lb) < 0.5 * (double)la * (double)lb) k = ub;
		}
	}
	if (!st) {
		if (h.par) {
			#pragma omp parallel num_threads(n_threads)
			#pragma omp single
			st = hirsch_rec(&h, a, la, b, lb, k, path, got);
		} else {
			st = hirsch_rec(&h, a, la, b, lb, k, path, got);
		}
	}
	if (h.G) {
		aln_prep_free(&G);
		aln_prep_free(&Gr);
	}
	if (!st && bound >= 0 && *got > bound) *got = -1;
	return st;
}

rk_status_t aln_hirsch_half(const aln_kind_t *K, const char *a, int64_t la, const char *b, int64_t lb, int bottom, int64_t k,
                            int simd, int n_threads, aln_edge_t *e)
{
	const int64_t is = aln_hirsch_row(la);
	aln_prep_t p;
	rk_status_t st = bottom ? aln_prep_init(&p, a + is + 1, la - is - 1, 1, b, lb, 1, simd) : aln_prep_init(&p, a, is, 0, b, lb, 0, simd);
	if (st) return st;
	aln_sweep_opt_t o = { .K = K, .simd = simd, .n_threads = n_threads, .k = k, .w = 0, .la_end = la, .lb_end = lb };
	int64_t cost;
	st = aln_sweep(&p, &o, e, &cost);
	aln_prep_free(&p);
	return st;
}

void aln_hirsch_cross(int kind, const aln_edge_t *F, const aln_edge_t *B, const char *a, int64_t la, const char *b, int64_t lb,
                      aln_cross_t *x)
{
	cross_scan(kind, F, B, lb, a[aln_hirsch_row(la)], b, x);
}
