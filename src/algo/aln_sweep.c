/* The strip sweep: strips of R word rows advance over chunks of CH columns through the slab
 * kernels, one edge array holding the latest bottom edge of every column.
 *
 * Pruning (k >= 0): a cell (i, j) can lie on a path of cost <= k only if
 * cost(i, j) + |(la - i) - (lb - j)| <= k. A strip starts at the first column where the strip
 * above had such a cell on its bottom row (any path into the strip crosses that row), and stops
 * at a chunk end c once the strip above has ended at or before c and a lower bound of
 * cost + bound over the cells of column c and the top cell is above k (any path further right
 * crosses column c). Cells left out are replaced by "virtual" values: +1 per row down the left
 * edge, +1 per column along the top edge beyond the strip above. Virtual values never fall
 * below the true costs, so computed costs never do, and every cell of a path of cost <= k is
 * inside and exact. The chunk grid and every stop rule depend only on the data, so the region,
 * and the result, do not depend on the thread count.
 *
 * Threads: strip s runs on thread s mod T, chunk by chunk behind strip s - 1 (an
 * anti-diagonal wavefront of blocks), synchronized by per-strip progress counters. */
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sched.h>
#include <omp.h>
#include "algo/aln_dp.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define aln_pause() _mm_pause()
#else
#define aln_pause() ((void)0)
#endif


typedef struct {
	_Atomic int64_t prog;    /* the bottom edge is final for columns below prog */
	_Atomic int done;        /* the strip ended at column prog */
	_Atomic int nready;      /* 1: the next strip's start (nc0, nt0) is set; 2: nothing alive below */
	int64_t nc0, nt0;
	int64_t c0, bl, bv;      /* this strip's start, cost at its bottom-left and at its bottom-right */
	char pad[64];
} strip_t;

typedef struct {
	const aln_prep_t *p;
	const aln_sweep_opt_t *o;
	aln_slab_fn slab;
	int64_t R, ns, lb, ch;   /* word rows per strip, strips, columns, columns per chunk (the
	                          * wavefront and pruning grain, a multiple of 64) */
	uint64_t *h[2];
	strip_t *st;
	_Atomic int dead;
} sweep_t;

static inline int64_t i64min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t i64max(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t i64abs(int64_t a) { return a < 0 ? -a : a; }

static void spin(int *n)
{
	if (++*n < 200) aln_pause();
	else sched_yield();
}

/* sum of cost deltas of edge bits [q0, q1) */
static int64_t edge_sum(int kind, uint64_t *const h[2], int64_t q0, int64_t q1)
{
	int64_t s = 0;
	while (q0 < q1) {
		int64_t w = q0 >> 6, n = i64min(64 - (q0 & 63), q1 - q0);
		uint64_t m = (n == 64 ? ~0ull : ((1ull << n) - 1)) << (q0 & 63);
		if (kind == ALN_LEV) s += aln_pop64(h[0][w] & m) - aln_pop64(h[1][w] & m);
		else s += n - 2 * aln_pop64(h[0][w] & m);
		q0 += n;
	}
	return s;
}

static inline int edge_delta(int kind, uint64_t *const h[2], int64_t q)
{
	int b0 = (int)(h[0][q >> 6] >> (q & 63) & 1);
	return kind == ALN_LEV ? b0 - (int)(h[1][q >> 6] >> (q & 63) & 1) : 1 - 2 * b0;
}

/* virtual top edge (+1 per column) on [q0, q1) */
static void edge_virtual(int kind, uint64_t *const h[2], int64_t q0, int64_t q1)
{
	while (q0 < q1) {
		int64_t w = q0 >> 6, n = i64min(64 - (q0 & 63), q1 - q0);
		uint64_t m = (n == 64 ? ~0ull : ((1ull << n) - 1)) << (q0 & 63);
		if (kind == ALN_LEV) { h[0][w] |= m; h[1][w] &= ~m; }
		else h[0][w] &= ~m;
		q0 += n;
	}
}

static inline int64_t hbound(const aln_sweep_opt_t *o, int64_t i, int64_t j)
{
	return i64abs((o->la_end - i) - (o->lb_end - j));
}

/* A lower bound of cost + hbound over the rows (top, bot] of column c (cost tv at the top)
 * and the top cell itself, from the vertical deltas. */
static int64_t column_bound(const sweep_t *S, int64_t top, int64_t bot, int64_t c, int64_t tv, const uint64_t *v0,
                            const uint64_t *v1, int64_t nr)
{
	const aln_sweep_opt_t *o = S->o;
	int64_t best = tv + hbound(o, top, c), base = tv, target = o->la_end - o->lb_end + c;
	for (int64_t x = 0; x < nr; x++) {
		int64_t lo = top + 64 * x + 1, hi = i64min(top + 64 * x + 64, bot);
		int n = (int)(hi - lo + 1);
		uint64_t m = n == 64 ? ~0ull : (1ull << n) - 1;
		int64_t neg, sum;
		if (o->K->kind == ALN_LEV) {
			neg = aln_pop64(v1[x] & m);
			sum = aln_pop64(v0[x] & m) - neg;
		} else {
			int64_t pos = aln_pop64(v0[x] & m);
			neg = n - pos;
			sum = pos - neg;
		}
		int64_t hmin = target < lo ? lo - target : target > hi ? target - hi : 0;
		if (base - neg + hmin < best) best = base - neg + hmin;
		base += sum;
	}
	return best;
}

static void strip_run(sweep_t *S, int64_t s, uint64_t *v0, uint64_t *v1)
{
	const aln_prep_t *p = S->p;
	const aln_sweep_opt_t *o = S->o;
	const int kind = o->K->kind, prune = o->k >= 0, line = !prune && o->w > 0;
	const int64_t lb = S->lb, la = p->la;
	strip_t *st = &S->st[s], *pr = s ? &S->st[s - 1] : 0;
	const int has_next = s + 1 < S->ns;
	int n = 0;
	int64_t c0 = 0, t0 = 0;
	if (pr) {
		int r;
		while (!(r = atomic_load_explicit(&pr->nready, memory_order_acquire))) spin(&n);
		if (r == 2 || atomic_load_explicit(&S->dead, memory_order_relaxed)) {
			st->c0 = 0;
			atomic_store_explicit(&st->nready, 2, memory_order_release);
			atomic_store_explicit(&st->done, 1, memory_order_release);
			atomic_store_explicit(&S->dead, 1, memory_order_relaxed);
			return;
		}
		c0 = pr->nc0;
		t0 = pr->nt0;
	}
	const int64_t top = 64 * S->R * s, bot = i64min(64 * S->R * (s + 1), la);
	const int64_t wr0 = S->R * s, wr1 = i64min(wr0 + S->R, p->nw), nr = wr1 - wr0;
	for (int64_t x = 0; x < nr; x++) {
		v0[x] = ~0ull;
		if (v1) v1[x] = 0;
	}
	/* where the strip may end and where the next one starts when that is static */
	int64_t cap = lb, want = -1;
	if (prune) {
		/* |q| + |d - q| <= k on diagonal q = j - i needs q <= (d + k) / 2 */
		int64_t d = o->lb_end - o->la_end, e = d + o->k;
		cap = i64min(lb, bot + (e >= 0 ? e / 2 : -((1 - e) / 2)));
		if (cap < c0) cap = c0;
	} else if (line) {
		double slope = la ? (double)lb / (double)la : 0;
		cap = i64min(lb, (int64_t)(bot * slope) + o->w);
		want = i64max(0, (int64_t)(bot * slope) - o->w) & ~63ll;
		if (want < c0) want = c0;
		if (want > cap) want = cap & ~63ll;
	} else {
		want = 0;
	}
	int64_t c = c0, tv = t0, bv = t0 + (bot - top);
	int found = !has_next;
	st->c0 = c0;
	st->bl = bv;
	if (!found && want == c) {
		st->nc0 = c;
		st->nt0 = bv;
		atomic_store_explicit(&st->nready, 1, memory_order_release);
		found = 1;
	}
	if (!found && prune && bv + hbound(o, bot, c0) <= o->k) {
		st->nc0 = c0;
		st->nt0 = bv;
		atomic_store_explicit(&st->nready, 1, memory_order_release);
		found = 1;
	}
	while (c < cap) {
		int64_t ce = i64min(cap, (c / S->ch + 1) * S->ch);
		int64_t pend = 0;  /* top edge columns from pend on are virtual */
		if (pr) {
			n = 0;
			for (;;) {
				if (atomic_load_explicit(&pr->done, memory_order_acquire)) {
					pend = atomic_load_explicit(&pr->prog, memory_order_relaxed);
					break;
				}
				if (atomic_load_explicit(&pr->prog, memory_order_acquire) >= ce) { pend = lb; break; }
				spin(&n);
			}
		}
		if (pend < ce) edge_virtual(kind, S->h, i64max(c, pend), ce);
		int64_t tsum = edge_sum(kind, S->h, c, ce);
		uint64_t *h0 = S->h[0] + (c >> 6), *h1 = S->h[1] ? S->h[1] + (c >> 6) : 0;
		S->slab(p, o->simd, wr0, wr1, c, ce, h0, h1, v0, v1);
		if (!found) {
			int64_t val = bv, at64 = bv;
			for (int64_t j = c + 1; j <= ce && !found; j++) {
				if (((j - 1) & 63) == 0) at64 = val;  /* cost at column j - 1, a multiple of 64 */
				val += edge_delta(kind, S->h, j - 1);
				int hit = prune ? val + hbound(o, bot, j) <= o->k : j == want;
				if (hit) {
					/* chunks start on multiples of 64, so at64 is from this chunk */
					if (prune) {
						st->nc0 = (j - 1) & ~63ll;
						st->nt0 = at64;
					} else {
						st->nc0 = j;
						st->nt0 = val;
					}
					atomic_store_explicit(&st->nready, 1, memory_order_release);
					found = 1;
				}
			}
		}
		bv += edge_sum(kind, S->h, c, ce);
		tv += tsum;
		rk_live_add((double)(bot - top) * (double)(ce - c));   /* the progress ticker's cells */
		c = ce;
		atomic_store_explicit(&st->prog, c, memory_order_release);
		if (prune && c < cap) {
			int pdone = 1;
			int64_t pc1 = 0;
			if (pr) {
				int64_t nce = i64min(cap, (c / S->ch + 1) * S->ch);
				n = 0;
				for (;;) {
					if (atomic_load_explicit(&pr->done, memory_order_acquire)) {
						pc1 = atomic_load_explicit(&pr->prog, memory_order_relaxed);
						break;
					}
					if (atomic_load_explicit(&pr->prog, memory_order_acquire) >= nce) { pdone = 0; break; }
					spin(&n);
				}
			}
			if (pdone && pc1 <= c && column_bound(S, top, bot, c, tv, v0, v1, nr) > o->k) break;
		}
		if (atomic_load_explicit(&S->dead, memory_order_relaxed)) break;
	}
	st->bv = bv;
	if (!found) {
		atomic_store_explicit(&S->dead, 1, memory_order_relaxed);
		atomic_store_explicit(&st->nready, 2, memory_order_release);
	}
	atomic_store_explicit(&st->prog, c, memory_order_relaxed);
	atomic_store_explicit(&st->done, 1, memory_order_release);
}

void aln_edge_free(aln_edge_t *e)
{
	free(e->h[0]);
	free(e->h[1]);
	memset(e, 0, sizeof *e);
}

rk_status_t aln_sweep(const aln_prep_t *p, const aln_sweep_opt_t *o, aln_edge_t *e, int64_t *cost)
{
	const int64_t la = p->la, lb = p->lb, nh = (lb + 63) / 64 + 1;
	sweep_t S;
	memset(&S, 0, sizeof S);
	S.p = p;
	S.o = o;
	S.lb = lb;
	S.slab = o->K->slab;
	/* full sweeps: tall strips (more words per lane); banded ones: shorter strips and chunks
	 * follow the band more closely and keep a wavefront busy on narrow bands */
	const int full = o->k < 0 && o->w <= 0;
	S.R = o->simd >= 3 ? (full ? 32 : 16) : 8;
	S.ch = full ? 1024 : o->k >= 0 ? 512 : 256;
	S.ns = (p->nw + S.R - 1) / S.R;
	S.h[0] = malloc((size_t)nh * sizeof(uint64_t));
	if (o->K->kind == ALN_LEV) S.h[1] = malloc((size_t)nh * sizeof(uint64_t));
	S.st = calloc((size_t)(S.ns ? S.ns : 1), sizeof(strip_t));
	if (!S.h[0] || (o->K->kind == ALN_LEV && !S.h[1]) || !S.st) goto oom;
	memset(S.h[0], 0, (size_t)nh * sizeof(uint64_t));
	if (S.h[1]) memset(S.h[1], 0, (size_t)nh * sizeof(uint64_t));
	edge_virtual(o->K->kind, S.h, 0, lb);
	int64_t c0 = 0, c1 = lb, v0 = 0, end = lb;
	int dead = 0;
	if (la > 0) {
		/* a wavefront needs strips to share and enough cells to pay for the threads */
		int T = o->n_threads > 1 && (double)la * (double)lb >= (double)(1 << 20) ? o->n_threads : 1;
		if (T > S.ns) T = (int)S.ns;
		int bad = 0;
		if (T <= 1) {
			uint64_t *v = malloc((size_t)(2 * S.R) * sizeof(uint64_t));
			if (!v) goto oom;
			for (int64_t s = 0; s < S.ns; s++) strip_run(&S, s, v, o->K->kind == ALN_LEV ? v + S.R : 0);
			free(v);
		} else {
			#pragma omp parallel num_threads(T)
			{
				int tid = omp_get_thread_num(), nt = omp_get_num_threads();
				uint64_t *v = malloc((size_t)(2 * S.R) * sizeof(uint64_t));
				if (!v) {
					/* cannot compute our strips: mark them so nobody waits forever */
					#pragma omp atomic write
					bad = 1;
					for (int64_t s = tid; s < S.ns; s += nt) {
						atomic_store(&S.dead, 1);
						atomic_store(&S.st[s].nready, 2);
						atomic_store(&S.st[s].done, 1);
					}
				} else {
					for (int64_t s = tid; s < S.ns; s += nt) strip_run(&S, s, v, o->K->kind == ALN_LEV ? v + S.R : 0);
					free(v);
				}
			}
		}
		if (bad) goto oom;
		strip_t *l = &S.st[S.ns - 1];
		dead = atomic_load(&S.dead);
		c0 = l->c0;
		c1 = atomic_load(&l->prog);
		v0 = l->bl;
		end = l->bv;
	}
	if (o->k >= 0 && !dead) {
		/* nothing of the bottom row within the bound: as dead as a strip that found none */
		int64_t val = v0;
		int any = val + hbound(o, la, c0) <= o->k;
		for (int64_t j = c0 + 1; j <= c1 && !any; j++) {
			val += edge_delta(o->K->kind, S.h, j - 1);
			any = val + hbound(o, la, j) <= o->k;
		}
		dead = !any;
	}
	*cost = !dead && c1 == lb && (o->k < 0 || end <= o->k) ? end : -1;
	if (e) {
		e->c0 = c0;
		e->c1 = c1;
		e->v0 = v0;
		e->dead = dead;
		e->h[0] = S.h[0];
		e->h[1] = S.h[1];
	} else {
		free(S.h[0]);
		free(S.h[1]);
	}
	free(S.st);
	return RK_OK;
oom:
	free(S.h[0]);
	free(S.h[1]);
	free(S.st);
	rk_set_error("out of memory for a %lld x %lld sweep", (long long)la, (long long)lb);
	return RK_ERES;
}

/* Full sweeps for small or dissimilar pairs; otherwise a cheap upper bound from a band about
 * the straight line, then the sweep pruned by that bound (exact: the bound is >= the cost). */
rk_status_t aln_cost(const aln_kind_t *K, const aln_prep_t *p, const char *a, const char *b, int64_t k, int simd, int n_threads,
                     int64_t *cost)
{
	aln_sweep_opt_t o = { .K = K, .simd = simd, .n_threads = n_threads, .k = k, .w = 0,
	                      .la_end = p->la, .lb_end = p->lb };
	if (k >= 0) {
		if (i64abs(p->la - p->lb) > k) { *cost = -1; return RK_OK; }
		return aln_sweep(p, &o, 0, cost);
	}
	const int64_t R = simd >= 3 ? 16 : 8;
	if (p->nw <= R || (double)p->la * (double)p->lb < 4e6) return aln_sweep(p, &o, 0, cost);
	int64_t ub;
	rk_status_t st = aln_bound(K, p, a, b, simd, n_threads, &ub);
	if (st) return st;
	/* pruning pays while the static band of the bound is well under the matrix */
	if ((double)ub * (double)i64min(p->la, p->lb) < 0.5 * (double)p->la * (double)p->lb) o.k = ub;
	return aln_sweep(p, &o, 0, cost);
}
