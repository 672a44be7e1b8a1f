/* Every rank over every cell of one pair (split_int.h: split_all): slabs of rows in two halves
 * meeting on the middle row, or two ranks meeting on a column. Of the old src/mpi/split_run.c,
 * the entry is now split_pair.c, the engine split_engine.c, ranks 0 and 1 alone split_two. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi/split/split_engine.h"
#include "mpi/split/split_int.h"

#define TAG_FWD 21
#define TAG_REV 22
#define TAG_J 23
#define TAG_MID 24      /* + plane */
#define TAG_FWD2 26
#define TAG_REV2 27

/* Words of rows per rank: RKTLCS_SPLIT_WORDS, else proportional to the measured speeds. */
static void split_words(const rmpi_t *w, int64_t nw, const double *speed, int64_t *words)
{
	int64_t given = 0;
	if (rk_tune.split_words) {
		const char *s = rk_tune.split_words;
		for (int r = 0; r < w->size; r++) {
			words[r] = *s ? strtoll(s, (char **)&s, 10) : 0;
			if (*s == ',') s++;
			if (words[r] < 0) words[r] = 0;
			given += words[r];
		}
		/* the last rank with rows takes what is left (or gives back the excess) */
		for (int r = w->size - 1; r >= 0 && given != nw; r--) {
			int64_t d = nw - given;
			if (words[r] + d < 0) d = -words[r];
			words[r] += d; given += d;
		}
		return;
	}
	double tot = 0;
	for (int r = 0; r < w->size; r++) tot += speed[r];
	int64_t acc = 0;
	double cum = 0;
	for (int r = 0; r < w->size; r++) {
		cum += speed[r];
		int64_t end = r == w->size - 1 ? nw : (int64_t)(nw * cum / tot + 0.5);
		if (end < acc) end = acc;
		words[r] = end - acc;
		acc = end;
	}
}

/* Two ranks meet on a column instead of a row: rank 0 runs forward over every row and the
 * columns [0, c), rank 1 on A and B reversed over the columns [c, lb), c by their speeds. Each
 * GPU thus runs all of the pair's strips at once: a slab of half the rows leaves half of every
 * SM's warp slots empty (H200, 10 Mb: 66% of the whole pair's time for half of its cells).
 * The cost is the smallest sum of the two vertical edges on column c; the cut is its last row
 * (split_meet_col), and each rank's piece is the canonical path of its own rectangle. */
static rk_status_t split_cols(const rmpi_t *w, int kind, int64_t k, const char *a, int64_t la, const char *b, int64_t lb,
                              int want_path, int n_threads, rmpi_be_t *be, const double *speed, split_colcut_t *defer,
                              int64_t *val, aln_path_t *path, rmpi_split_prof_t *prof)
{
	const int P = split_planes(kind), me = w->rank;
	const int64_t nw = (la + 63) / 64;
	int64_t c = (int64_t)((double)lb * speed[0] / (speed[0] + speed[1]) / 64 + 0.5) * 64;
	if (c > lb) c = lb;
	const int64_t c0 = me == 0 ? 0 : c, nc = me == 0 ? c : lb - c;
	split_eng_t g;
	uint64_t *h[2] = { 0, 0 }, *v[2] = { 0, 0 }, *rv[2] = { 0, 0 };   /* rv: rank 1's edge, on rank 0 */
	memset(&g, 0, sizeof g);
	const double t0 = rk_realtime();
	rk_status_t st = split_eng_init(&g, kind, aln_simd_level(-1), n_threads, be, be ? &be->stats : 0, a, la, b + c0, nc, me == 1);
	for (int q = 0; q < P && !st; q++)
		if (!(h[q] = malloc(8 * (size_t)(nc / 64 + 2))) || !(v[q] = malloc(8 * (size_t)(nw + 1))) ||
		    (me == 0 && !(rv[q] = malloc(8 * (size_t)(nw + 1))))) {
			rk_set_error("out of memory for the edges of %lld rows x %lld columns", (long long)la, (long long)nc);
			st = RK_ERES;
		}
	if (!st) {
		split_top(kind, h, nc);
		split_left(kind, v, nw);
		const double tp = rk_realtime();
		if (nc > 0) st = g.use_gpu ? split_eng_half(&g, a, la, b, lb, c, k, h, v) : split_eng_pass(&g, 0, nc, h, v);
		if (prof) { prof->rows = la; prof->fwd[0] = rk_realtime() - t0; prof->fwd[1] = rk_realtime() - tp; }
	}
	if (st) rk_err("rank %d: %s", me, rk_error());
	const double t1 = rk_realtime();
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	const double t2 = rk_realtime();
	/* rank 1's edge to rank 0, which meets them */
	int64_t mt[2] = { 0, 0 }, fat = 0;   /* the pair's cost, the row of the cut; F(cut, c) */
	if (me == 1) for (int q = 0; q < P; q++) rmpi_send(w, v[q], 8 * (size_t)nw, 0, TAG_MID + q);
	if (me == 0) {
		for (int q = 0; q < P; q++) rmpi_recv(w, rv[q], 8 * (size_t)nw, 1, TAG_MID + q);
		mt[1] = split_meet_col(kind, v, rv, la, lb, c, &mt[0], &fat);
	}
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	for (int i = 0; i < 2; i++) rmpi_bcast_i64(w, 0, &mt[i]);
	rk_debug("split: rank %d: columns [%lld, %lld): half %.3f s, waits %.3f s for the other, meeting %.3f s", me, (long long)c0,
	         (long long)(c0 + nc), t1 - t0, t2 - t1, rk_realtime() - t2);
	const int64_t total = mt[0], cut = mt[1], value = kind == SPLIT_LEV ? total : (la + lb - total) / 2;
	if (!want_path || (kind == SPLIT_LEV && k >= 0 && total > k)) {
		*val = kind == SPLIT_LEV && k >= 0 && total > k ? -1 : value;
		if (defer) *defer = (split_colcut_t){ total, -1, c, 0 };
		goto done;
	}
	if (defer) {   /* the pieces on pairs of ranks (split_pairs) */
		*defer = (split_colcut_t){ total, cut, c, fat };
		goto done;
	}
	/* the pieces: (0, 0) to (cut, c) on rank 0, (cut, c) to (la, lb) on rank 1 */
	const int64_t i0 = me == 0 ? 0 : cut, ni = me == 0 ? cut : la - cut;
	if ((st = split_pieces(w, kind, 1, &g, n_threads, a + i0, ni, b + c0, nc, total, path, prof)) == RK_OK) *val = value;
done:
	for (int q = 0; q < 2; q++) { free(h[q]); free(v[q]); free(rv[q]); }
	split_eng_free(&g);
	return st;
}

/* Ranks alike (each on a GPU of one model, as many ranks on each): equal speeds, no sample.
 * (A GPU's sample cost 0.25 s of a 2.8 s split of 10 Mb on two H200.) Collective. */
static int split_alike(const rmpi_t *w, const rmpi_be_t *be)
{
	const int R = w->size;
	char sig[128] = "", *sigs = malloc(sizeof sig * (size_t)R);
	int alike = 0;
	if (be && be->use_gpu) {
		const int nd = rgpu_visible_index() >= 0 ? rgpu_node_devices() : rgpu_device_count() > 0 ? rgpu_device_count() : 1;
		int share = 0;
		for (int l = 0; l < w->local_size; l++) share += l % nd == w->local_rank % nd;
		snprintf(sig, sizeof sig, "gpu %d %.100s", share, be->name);
	}
	if (sigs) {
		rmpi_allgather(w, sig, sizeof sig, sigs);
		alike = sig[0] != 0;
		for (int r = 0; r < R; r++) if (strcmp(sigs + sizeof sig * (size_t)r, sig)) alike = 0;
		free(sigs);
	}
	return alike;
}

/* The chunk of columns every transfer carries must be the same on both ends: the largest
 * any rank wants (a CPU rank next to a GPU rank sent 64k columns where the GPU waited for
 * 1M: a job of CPU and GPU ranks hung on a pair wider than 64k). Collective. */
static int64_t split_chunk_agree(const rmpi_t *w, const rmpi_be_t *be, int64_t *chunks)
{
	int64_t chunk = split_chunk_pref(be && be->use_gpu);
	rmpi_allgather(w, &chunk, sizeof chunk, chunks);
	for (int r = 0; r < w->size; r++) if (chunks[r] > chunk) chunk = chunks[r];
	return chunk;
}

/* A split in slabs of rows: the pair, the options, and this rank's place among the slabs. */
typedef struct {
	const rmpi_t *w;
	int kind, want_path, n_threads, simd, P;
	int64_t k, la, lb, chunk;
	const char *a, *b;
	rmpi_be_t *be;
	rmpi_split_prof_t *prof;
	int64_t *S;              /* S[r]: rank r's first row, S[R] = la */
	int h;                   /* ranks [0, h) form the top half */
	int64_t s0, s1, m;       /* my rows [s0, s1); the middle row */
	int have, top;           /* I have rows; I am in the top half */
	/* the ranks with rows: in rank order (prev, next: the path's pieces), the first and last of
	 * all, the last of the top half (ftop) and the first of the bottom half (rbot); my
	 * neighbours inside my half (hprev, hnext) */
	int prev, next, first, last, ftop, rbot, hprev, hnext;
} split_rows_t;

/* The slabs' first rows from the words of each rank, and my neighbours among them. */
static void split_layout(split_rows_t *s, const int64_t *words)
{
	const int R = s->w->size, me = s->w->rank;
	s->S[0] = 0;
	for (int r = 0; r < R; r++) s->S[r + 1] = s->S[r] + words[r] * 64 < s->la ? s->S[r] + words[r] * 64 : s->la;
	s->h = R / 2;
	s->s0 = s->S[me]; s->s1 = s->S[me + 1]; s->m = s->S[s->h];
	s->have = s->s1 > s->s0; s->top = me < s->h;
	s->prev = s->next = s->first = s->last = s->ftop = s->rbot = -1;
	for (int r = 0; r < R; r++) {
		if (s->S[r + 1] <= s->S[r]) continue;
		if (s->first < 0) s->first = r;
		s->last = r;
		if (r < s->h) s->ftop = r;
		else if (s->rbot < 0) s->rbot = r;
		if (r < me) s->prev = r;
		if (r > me && s->next < 0) s->next = r;
	}
	s->hprev = s->prev >= 0 && (s->prev < s->h) == s->top ? s->prev : -1;
	s->hnext = s->next >= 0 && (s->next < s->h) == s->top ? s->next : -1;
}

/* The halves: the top one keeps its forward edge at each rank's top row (F) and ends with
 * F(m) in H; the bottom one works in K and ends with each rank's reverse edge at its top
 * row there, R(m) at rank rbot. Collective (agreed). */
static rk_status_t split_halves(const split_rows_t *s, split_eng_t *p, split_edges_t *e)
{
	rk_status_t st = RK_OK;
	if (s->have) {
		split_edges_t x = { { e->F[0], e->F[1] }, { e->H[0], e->H[1] }, { 0, 0 }, e->nwb };
		double *tm = s->prof ? s->prof->fwd : 0;
		if (!s->top) { x.H[0] = e->K[0]; x.H[1] = e->K[1]; }
		st = s->top ? split_pipeline(s->w, p, s->hprev, s->hnext, TAG_FWD, &x, s->want_path, 1, tm)
		            : split_pipeline(s->w, p, s->hnext, s->hprev, TAG_REV, &x, 0, 1, tm);
		if (st) rk_err("rank %d: %s", s->w->rank, rk_error());
	}
	return rmpi_agree(s->w, st);
}

/* The meeting, on ftop (else rbot): F(m) there (the boundary without a top half), R(m) from
 * rbot (the boundary without a bottom half). mt, on every rank: the pair's cost, the column
 * jm where the path reaches row m, F(m, jm). Collective. */
static void split_meet_row(const split_rows_t *s, split_edges_t *e, int64_t *mt)
{
	const rmpi_t *w = s->w;
	const int meet = s->ftop >= 0 ? s->ftop : s->rbot;
	mt[0] = mt[1] = mt[2] = 0;
	if (s->ftop >= 0 && s->rbot >= 0 && w->rank == s->rbot)
		for (int q = 0; q < s->P; q++) rmpi_send(w, e->K[q], 8 * (size_t)e->nwb, s->ftop, TAG_MID + q);
	if (w->rank == meet) {
		uint64_t *fm[2] = { e->H[0], e->H[1] }, *rm[2] = { e->K[0], e->K[1] };
		if (s->ftop < 0) split_top(s->kind, fm, s->lb);
		if (s->rbot < 0) split_top(s->kind, rm, s->lb);
		else if (s->ftop >= 0) for (int q = 0; q < s->P; q++) rmpi_recv(w, e->K[q], 8 * (size_t)e->nwb, s->rbot, TAG_MID + q);
		mt[1] = split_meet(s->kind, fm, s->m, rm, s->la, s->lb, &mt[0], &mt[2]);
	}
	for (int i = 0; i < 3; i++) rmpi_bcast_i64(w, meet, &mt[i]);
}

/* Each half is now a problem of its own, cut at (m, jm): the top one [0, m] x [0, jm], the
 * bottom one [m, la] x [jm, lb]. For the crossings of its inner rows the top half needs
 * the reverse edges from (m, jm): a reverse pipeline over its ranks but the first (which
 * crosses at column 0); the bottom half the forward edges from (m, jm): a forward one over
 * its ranks, the last only receiving (nothing is below it). A half with one rank skips it.
 * Collective (agreed). */
static rk_status_t split_sub(const split_rows_t *s, split_edges_t *e, int64_t jm)
{
	const rmpi_t *w = s->w;
	const int sub = s->have && (s->top ? w->rank != s->first : s->rbot != s->last);
	rk_status_t st = RK_OK;
	if (sub) {
		split_eng_t g;
		split_edges_t x = { { e->F[0], e->F[1] }, { e->H[0], e->H[1] }, { 0, 0 }, e->nwb };
		rgpu_stats_t *gs = s->be ? &s->be->stats : 0;
		double *tm = s->prof ? s->prof->rev : 0;
		st = s->top ? split_eng_init(&g, s->kind, s->simd, s->n_threads, s->be, gs, s->a + s->s0, s->s1 - s->s0, s->b, jm, 1)
		            : split_eng_init(&g, s->kind, s->simd, s->n_threads, s->be, gs, s->a + s->s0, s->s1 - s->s0, s->b + jm, s->lb - jm, 0);
		g.chunk = s->chunk;
		/* the top half's chain runs up to the second rank with rows; the bottom half's down to the last */
		if (!st && s->top) st = split_pipeline(w, &g, s->hnext, s->hprev == s->first ? -1 : s->hprev, TAG_REV2, &x, 0, 1, tm);
		else if (!st) st = split_pipeline(w, &g, s->hprev, s->hnext, TAG_FWD2, &x, 1, w->rank != s->last, tm);
		split_eng_free(&g);
		if (st) rk_err("rank %d: %s", w->rank, rk_error());
	}
	return rmpi_agree(w, st);
}

/* Where the path first reaches my top row (j0; 0 on the first rank with rows). Collective
 * (agreed). */
static rk_status_t split_crossing(const split_rows_t *s, const split_edges_t *e, int64_t total, int64_t jm, int64_t fm,
                                  int64_t *j0)
{
	rk_status_t st = RK_OK;
	*j0 = 0;
	if (s->have && s->w->rank != s->first) {
		if (s->w->rank == s->rbot) *j0 = jm;
		else if (s->top) *j0 = split_cross(s->kind, e->F, s->s0, e->H, s->m, jm, fm);
		else {
			*j0 = split_cross(s->kind, e->F, s->s0 - s->m, e->K, s->la - s->m, s->lb - jm, total - fm);
			if (*j0 >= 0) *j0 += jm;
		}
		if (*j0 < 0) {
			rk_err("rank %d: no optimal cell on row %lld (inconsistent edges)", s->w->rank, (long long)s->s0);
			st = RK_ERES;
		}
	}
	return rmpi_agree(s->w, st);
}

/* Two halves meet in the middle (docs/lev.md, "One pair on many ranks"): ranks [0, h) own
 * the rows above m and run the forward pipeline down to row m, ranks [h, R) own the rows
 * below and run the reverse one (A and B reversed) up to row m, both at once; the pair's
 * cost is the smallest sum of the two edges on row m. Two ranks thus compute at once from
 * the first column, with no pipeline between them. Collective. */
static rk_status_t split_rows(split_rows_t *s, const int64_t *words, int64_t *val, aln_path_t *path)
{
	const rmpi_t *w = s->w;
	split_eng_t p;
	split_edges_t e;
	rk_status_t st = RK_OK;
	memset(&p, 0, sizeof p); memset(&e, 0, sizeof e);
	if (!(s->S = malloc(sizeof(int64_t) * (size_t)(w->size + 1)))) { rk_err("out of memory"); st = RK_ERES; }
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	split_layout(s, words);
	if (s->prof) s->prof->rows = s->s1 - s->s0;
	e.nwb = (s->lb + 63) / 64 + 1;
	if (s->have) {
		st = split_eng_init(&p, s->kind, s->simd, s->n_threads, s->be, s->be ? &s->be->stats : 0, s->a + s->s0, s->s1 - s->s0, s->b,
		              s->lb, !s->top);
		p.chunk = s->chunk;
		for (int q = 0; q < s->P && !st; q++)
			if (!(e.F[q] = calloc((size_t)e.nwb, 8)) || !(e.H[q] = calloc((size_t)e.nwb, 8)) || !(e.K[q] = calloc((size_t)e.nwb, 8)))
				st = RK_ERES;
		if (st)
			rk_err("rank %d: out of memory for a slab of %lld rows x %lld columns", w->rank, (long long)(s->s1 - s->s0),
			       (long long)s->lb);
	}
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	if ((st = split_halves(s, &p, &e)) != RK_OK) goto done;
	int64_t mt[3];
	split_meet_row(s, &e, mt);
	const int64_t total = mt[0], jm = mt[1], fm = mt[2];
	const int64_t value = s->kind == SPLIT_LEV ? total : (s->la + s->lb - total) / 2;
	if (!s->want_path || (s->kind == SPLIT_LEV && s->k >= 0 && total > s->k)) {
		*val = s->kind == SPLIT_LEV && s->k >= 0 && total > s->k ? -1 : value;
		goto done;
	}
	if ((st = split_sub(s, &e, jm)) != RK_OK) goto done;
	/* where the path first reaches my top row, and where it reaches the next rank's (its j0) */
	int64_t j0, j1 = s->lb;
	if ((st = split_crossing(s, &e, total, jm, fm, &j0)) != RK_OK) goto done;
	if (s->have && s->prev >= 0) rmpi_send(w, &j0, sizeof j0, s->prev, TAG_J);
	if (s->have && s->next >= 0) rmpi_recv(w, &j1, sizeof j1, s->next, TAG_J);
	/* my piece, from where the path reaches my top row to where it reaches the next one's */
	st = split_pieces(w, s->kind, s->have, &p, s->n_threads, s->a + s->s0, s->s1 - s->s0, s->b + j0, j1 - j0, total, path, s->prof);
	if (st == RK_OK) *val = value;
done:
	split_edges_free(&e);
	split_eng_free(&p);
	free(s->S);
	s->S = 0;
	return st;
}

/* Every rank over every cell: slabs of rows, or two ranks meeting on a column, sized by each
 * rank's fastest short run, as before the plan (the plan's one run of 10 ms, for the share
 * side by side, gave unequal speeds beside other work: a random 1 Mb pair's halves took 8.3
 * and 6.3 s). Collective. */
rk_status_t split_all(const rmpi_t *w, int kind, int64_t k, const char *a, int64_t la, const char *b, int64_t lb,
                      int want_path, int n_threads, rmpi_be_t *be, split_colcut_t *defer, int64_t *val,
                      aln_path_t *path, rmpi_split_prof_t *prof)
{
	double mine = 1;
	const int simd = aln_simd_level(-1), R = w->size;
	const int64_t nw = (la + 63) / 64;
	double *speed = malloc(sizeof(double) * (size_t)R);
	int64_t *words = malloc(sizeof(int64_t) * (size_t)R), *chunks = malloc(sizeof(int64_t) * (size_t)R);
	rk_status_t st = RK_OK;
	if (!speed || !words || !chunks) { rk_err("out of memory"); st = RK_ERES; }
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	const int alike = split_alike(w, be);
	if (!rk_tune.split_words && !alike) mine = split_sample(kind, simd, n_threads, be, a, la, b, lb, prof, 0, 0);
	rmpi_allgather(w, &mine, sizeof mine, speed);
	split_words(w, nw, speed, words);
	const int64_t chunk = split_chunk_agree(w, be, chunks);
	if (R == 2 && !rk_tune.split_words) {
		st = split_cols(w, kind, k, a, la, b, lb, want_path, n_threads, be, speed, defer, val, path, prof);
		goto done;
	}
	if (prof) prof->speed = mine;
	split_rows_t s = { .w = w, .kind = kind, .want_path = want_path, .n_threads = n_threads, .simd = simd, .P = split_planes(kind),
	                   .k = k, .la = la, .lb = lb, .chunk = chunk, .a = a, .b = b, .be = be, .prof = prof };
	st = split_rows(&s, words, val, path);
done:
	free(speed); free(words); free(chunks);
	return st;
}
