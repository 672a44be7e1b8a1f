/* The path of one similar pair on more than two ranks, banded (issue 30; split_int.h): the
 * one-rank Hirschberg's levels on groups of ranks. A group [r0, r0 + g) halves its problem as
 * two banded halves do (split_band_half on ranks r0 and r1 = r0 + g/2, the meeting on r0, both
 * pruned by the problem's known cost); the crossing goes to every rank of the group, the top
 * problem then goes to [r0, r1) and the bottom one to [r1, r0 + g), each pruned by its own cost,
 * down to one rank (split_solo). Paths come back up the same tree: r1 sends its side's to r0,
 * which joins top, crossing step and bottom. The canonical path is split-invariant, so the
 * result is the one-rank path byte for byte. The value needs only the first level (two
 * ranks): the tree pays for the path, whose levels below the first run on 4, 8, ... ranks. */
#include <stdlib.h>
#include <string.h>
#include "mpi/split/split.h"
#include "mpi/split/split_int.h"

#define TAG_TREE 41          /* .. 47 */
#define TREE_LEAF_ROWS 4096  /* a smaller problem is one rank's: a split costs more than it saves */

typedef struct {
	const rmpi_t *w;
	int kind, simd, n_threads;
} tree_t;

/* The bottom half's last row from r1 to r0 (*other, *no words on r0; -1: r1 failed or r0 has
 * no room). r0 says whether it has room before r1 sends the row. */
static void tree_edge(const tree_t *t, int r0, int r1, const uint64_t *msg, int64_t n, uint64_t **other, int64_t *no)
{
	const int me = t->w->rank;
	int64_t go = 0;
	if (me == r1) {
		rmpi_send(t->w, &n, sizeof n, r0, TAG_TREE);
		rmpi_recv_idle(t->w, &go, sizeof go, r0, TAG_TREE + 1);
		if (go && n > 0) rmpi_send(t->w, msg, 8 * (size_t)n, r0, TAG_TREE + 2);
		return;
	}
	rmpi_recv_idle(t->w, no, sizeof *no, r1, TAG_TREE);
	go = *no > 0 && (*other = malloc(8 * (size_t)*no)) != 0;
	rmpi_send(t->w, &go, sizeof go, r1, TAG_TREE + 1);
	if (go) rmpi_recv_idle(t->w, *other, 8 * (size_t)*no, r1, TAG_TREE + 2);
	else if (*no > 0) { rk_err("rank %d: out of memory for a half's edge of %lld words", me, (long long)*no); *no = -1; }
}

rk_status_t split_path_join(const rmpi_t *w, int r0, int r1, int tag, rk_status_t st, int64_t got, const aln_path_t *mine,
                            aln_path_t *path, int64_t *cost)
{
	int64_t go = 0;
	if (w->rank == r1) {
		const int64_t h[3] = { st, got, st ? 0 : mine->n };
		rmpi_send(w, h, sizeof h, r0, tag);
		rmpi_recv_idle(w, &go, sizeof go, r0, tag + 1);
		if (go && h[2]) rmpi_send(w, mine->run, 8 * (size_t)h[2], r0, tag + 2);
		return st;
	}
	int64_t o[3];
	aln_path_t q = { 0 };
	rmpi_recv_idle(w, o, sizeof o, r1, tag);
	go = o[2] <= 0 || (q.run = malloc(8 * (size_t)o[2])) != 0;
	rmpi_send(w, &go, sizeof go, r1, tag + 1);
	if (!go) { rk_err("rank %d: out of memory for a path of %lld runs", w->rank, (long long)o[2]); return RK_ERES; }
	if (o[2] > 0) rmpi_recv_idle(w, q.run, 8 * (size_t)o[2], r1, tag + 2);
	q.n = q.m = o[2] > 0 ? o[2] : 0;
	if (!st && o[0]) st = (rk_status_t)o[0];   /* r1 said why */
	if (!st && (st = aln_path_cat(path, &q)) != RK_OK) rk_err("rank %d: %s", w->rank, rk_error());
	*cost = o[1];
	aln_path_free(&q);
	return st;
}

/* The group [r0, r0 + g)'s problem, whose cost is known to be at most bound (-1: none): its
 * cost and path on r0 (*cost, *path there; *cost -1: above bound). Every rank of the group
 * calls it with the same problem. Errors end on r0 (the ranks' statuses travel with the
 * pieces); the others return what stopped them. */
static rk_status_t tree_solve(const tree_t *t, int r0, int g, const char *a, int64_t la, const char *b, int64_t lb,
                              int64_t bound, int64_t *cost, aln_path_t *path)
{
	const int me = t->w->rank, h = g / 2, r1 = r0 + h;
	rk_status_t st = RK_OK;
	if (g == 1 || la < TREE_LEAF_ROWS || lb < 64) {
		if (me != r0) return RK_OK;   /* the problem is r0's alone */
		if ((st = split_solo(t->kind, a, la, b, lb, bound, t->simd, t->n_threads, 0, cost, path)) != RK_OK)
			rk_err("rank %d: %s", me, rk_error());
		return st;
	}
	int64_t cut[8] = { RK_OK, 0, 0, 0, 0, 0, 0, -1 };   /* status, then split_cut_t */
	if (me == r0 || me == r1) {
		uint64_t *msg = 0, *other = 0;
		int64_t n = 0, no = 0;
		if ((st = split_band_half(t->kind, a, la, b, lb, me == r1, bound, t->simd, t->n_threads, &msg, &n)) != RK_OK) {
			rk_err("rank %d: %s", me, rk_error());
			n = -1;
		}
		tree_edge(t, r0, r1, msg, n, &other, &no);
		if (me == r0) {
			split_cut_t x = { 0, 0, 0, 0, 0, 0, -1 };
			if (!st && no < 0) st = RK_ERES;   /* r1 said why */
			if (!st && (st = split_band_meet(t->kind, msg, n, other, no, a, la, b, lb, &x)) != RK_OK) rk_err("%s", rk_error());
			if (!st && bound >= 0 && x.best > bound) x.best = -1;
			const int64_t c[8] = { st, x.s, x.j, x.jn, x.op, x.cf, x.cb, x.best };
			memcpy(cut, c, sizeof cut);
		}
		free(msg);
		free(other);
	}
	/* the crossing to every other rank of the group */
	if (me == r0) for (int r = r0 + 1; r < r0 + g; r++) rmpi_send(t->w, cut, sizeof cut, r, TAG_TREE + 3);
	else rmpi_recv_idle(t->w, cut, sizeof cut, r0, TAG_TREE + 3);
	if (cut[0] != RK_OK || cut[7] < 0) {
		if (me == r0) *cost = cut[7];
		return (rk_status_t)cut[0];
	}
	const split_cut_t x = { cut[1], cut[2], cut[3], cut[4], cut[5], cut[6], cut[7] };
	int64_t ct = -1, cb = -1;
	if (me < r1) {
		st = tree_solve(t, r0, h, a, x.s, b, x.j, x.cf, &ct, path);
		if (me != r0) return st;
		if (!st && (st = aln_path_push(path, (int)x.op, 1)) != RK_OK) rk_err("rank %d: %s", me, rk_error());
		st = split_path_join(t->w, r0, r1, TAG_TREE + 4, st, 0, 0, path, &cb);
		*cost = ct + (x.best - x.cf - x.cb) + cb;
		if (!st && (ct != x.cf || cb != x.cb)) {
			rk_err("the banded tree's pieces cost %lld and %lld, not %lld and %lld", (long long)ct, (long long)cb,
			       (long long)x.cf, (long long)x.cb);
			st = RK_ERES;
		}
		return st;
	}
	aln_path_t mine = { 0 };
	st = tree_solve(t, r1, g - h, a + x.s + 1, la - x.s - 1, b + x.jn, lb - x.jn, x.cb, &cb, &mine);
	if (me == r1) st = split_path_join(t->w, r0, r1, TAG_TREE + 4, st, cb, &mine, 0, 0);
	aln_path_free(&mine);
	return st;
}

rk_status_t split_tree(const rmpi_t *w, int kind, int64_t bound, const char *a, int64_t la, const char *b, int64_t lb, int width,
                       int n_threads, int64_t *cost, aln_path_t *path, rmpi_split_prof_t *prof)
{
	const tree_t t = { w, kind, aln_simd_level(-1), n_threads };
	const double t0 = rk_realtime();
	rk_status_t st = RK_OK;
	*cost = -1;
	if (w->rank == 0) path->n = 0;
	if (width > w->size) width = w->size;
	if (w->rank < width) st = tree_solve(&t, 0, width, a, la, b, lb, bound, cost, path);
	if (prof) prof->trace_s = rk_realtime() - t0;
	if (w->rank != 0) *cost = -1;
	return rmpi_agree_idle(w, st);
}
