/* The path of a pair split on a column, on four ranks (split_int.h): ranks 0 and 1 met on
 * column c at row cut (split_cols); the path is then the canonical path of the rectangle
 * [0, cut) x [0, c) followed by that of [cut, la) x [c, lb) (algo/split.h). Each rectangle is a
 * pair of its own, and a pair split on a column on two ranks gives its one-rank path byte for
 * byte, so each goes to a pair of ranks (0 with 2, 1 with 3) split on a column again. On GPU
 * ranks this is what adds ranks 2 and 3 to one pair: a slab of a quarter of the rows would
 * leave three quarters of each GPU's warps idle (docs/lev.md, "One pair on many ranks").
 * split_two, ranks 0 and 1 alone before the pieces, was split_all's first branch in
 * src/mpi/split_run.c: here the runner of every cell no longer calls back into this file. */
#include <string.h>
#include <unistd.h>
#include "mpi/split/split_engine.h"
#include "mpi/split/split_int.h"

#define TAG_READY 36   /* rank 0 or 1 to rank 2 or 3: its half's set-up is done */
#define TAG_PAIRS 51   /* .. 53 */
/* The pieces go to pairs of ranks from this many times the split threshold's cells (4.3e9:
 * 1.8e13, a 4.2 Mb pair): below, the second level's messages and ranks 2 and 3's contexts
 * (0.2-0.3 s, started while ranks 0 and 1 meet) cost more than a piece on one GPU saves */
#define PAIRS_MIN 4096.0

int split_pairs_pay(int want_path, int ranks, int64_t la, int64_t lb)
{
	return want_path && ranks >= 4 && (double)la * (double)lb >= PAIRS_MIN * rk_tune.split_cells;
}

int split_gpus_apart(const rmpi_t *w, const rmpi_be_t *be, int n)
{
	uint64_t key = 0x9e3779b97f4a7c15ull * (uint64_t)(w->rank + 1);
	if (be && be->use_gpu) {   /* the node's name and the device's index among the node's */
		char host[256] = "";
		gethostname(host, sizeof host - 1);
		key = 1469598103934665603ull;
		for (const char *s = host; *s; s++) key = (key ^ (uint8_t)*s) * 1099511628211ull;
		const int own = rgpu_visible_index();
		key = (key ^ (uint64_t)(own >= 0 ? own : be->g.device) ^ 0x5bd1e995ull) * 1099511628211ull;
	}
	/* ranks 0 to n - 1's keys, the same on every rank */
	int64_t kn[4] = { 0, 0, 0, 0 };
	int apart = 1;
	for (int r = 0; r < n && r < 4 && r < w->size; r++) {
		kn[r] = (int64_t)key;
		rmpi_bcast_i64(w, r, &kn[r]);
		for (int q = 0; q < r; q++) if (kn[q] == kn[r]) apart = 0;
	}
	return apart;
}

/* My piece on my pair of ranks (sub: the pair; q: the piece): its cost and, on the pair's
 * first rank, its path. A piece under the split threshold is the first rank's alone. */
static rk_status_t pairs_piece(const rmpi_t *sub, int kind, int q, const char *a, int64_t ni, const char *b, int64_t nj, int64_t want,
                               int n_threads, rmpi_be_t *be, int64_t *got, aln_path_t *mine, rmpi_split_prof_t *prof)
{
	rk_status_t st = RK_OK;
	*got = -1;
	if ((double)ni * (double)nj < rk_tune.split_cells || ni < 64 || nj < 64) {
		if (sub->rank == 0 && (st = split_piece(kind, be, n_threads, a, ni, b, nj, got, mine)) != RK_OK)
			rk_err("rank %d: %s", sub->rank * 2 + q, rk_error());
		return st;
	}
	int64_t v = -1;
	/* the piece's cost (known) bounds its band on the GPU: lev as -k, lcs as its indel cost;
	 * without it an lcs piece of 50 Mb took 5.3 s to its meeting, 2.6 s for the other piece */
	st = split_all(sub, kind, want, a, ni, b, nj, 1, n_threads, be, 0, &v, mine, prof);
	if (!st && sub->rank == 0) *got = kind == SPLIT_LEV ? v : ni + nj - 2 * v;
	return st;
}

rk_status_t split_pairs(const rmpi_t *w, int kind, const char *a, int64_t la, const char *b, int64_t lb,
                        int n_threads, rmpi_be_t *be, const split_colcut_t *x, int64_t *val, aln_path_t *path,
                        rmpi_split_prof_t *prof)
{
	int64_t m[4] = { x->total, x->cut, x->c, x->fat };
	rmpi_bcast_idle(w, 0, m, sizeof m);
	const int64_t total = m[0], cut = m[1], c = m[2], fat = m[3];
	if (cut < 0) return RK_OK;   /* rank 0 has the value; no path */
	const int me = w->rank, q = me % 2;
	rmpi_t sub;
	rmpi_sub_color(w, me < 4 ? q : -1, &sub);
	rk_status_t st = RK_OK;
	int64_t got = -1;
	aln_path_t mine = { 0 };
	/* a rank that waited named no device: its name now, so that the pair's ranks compare alike
	 * (split_alike) and take no sample of their speed */
	if (me < 4 && be) rmpi_backend_name(be);
	if (me < 4) {
		const int64_t i0 = q ? cut : 0, ni = q ? la - cut : cut, j0 = q ? c : 0, nj = q ? lb - c : c;
		rmpi_split_prof_t sp;   /* ranks 0 and 1: the pieces' pipelines are their rev */
		memset(&sp, 0, sizeof sp);
		const double t0 = rk_realtime();
		st = pairs_piece(&sub, kind, q, a + i0, ni, b + j0, nj, q ? total - fat : fat, n_threads, be, &got, &mine,
		                 me >= 2 ? prof : prof ? &sp : 0);
		if (prof && me < 2) {
			for (int i = 0; i < 3; i++) prof->rev[i] = sp.fwd[i];
			prof->trace_s = sp.trace_s > 0 ? sp.trace_s : rk_realtime() - t0;
		}
		rk_debug("split: rank %d: piece %d (%lld x %lld) on ranks %d and %d: %.3f s", me, q, (long long)ni, (long long)nj, q,
		         q + 2, rk_realtime() - t0);
	}
	rmpi_sub_free(&sub);
	if (me == 1) st = split_path_join(w, 0, 1, TAG_PAIRS, st, got, &mine, 0, 0);
	if (me == 0) {
		int64_t got1 = -1;
		path->n = 0;
		if (!st && (st = aln_path_cat(path, &mine)) != RK_OK) rk_err("rank 0: %s", rk_error());
		const rk_status_t sj = split_path_join(w, 0, 1, TAG_PAIRS, st, 0, 0, path, &got1);
		if (!st) st = sj;
		if (!st && (got != fat || got1 != total - fat)) {
			rk_err("the pieces of the split path cost %lld and %lld, not %lld and %lld", (long long)got, (long long)got1,
			       (long long)fat, (long long)(total - fat));
			st = RK_ERES;
		}
		if (!st) *val = kind == SPLIT_LEV ? total : (la + lb - total) / 2;
	}
	aln_path_free(&mine);
	return rmpi_agree_idle(w, st);
}

/* Ranks 0 and 1 tell ranks 2 and 3 once (split_two), when their halves' codes are on their GPUs. */
typedef struct { const rmpi_t *w; int sent; } split_ready_t;
static void split_ready(void *arg)
{
	split_ready_t *r = arg;
	const int64_t go = 1;
	if (r->sent) return;
	r->sent = 1;
	rmpi_send(r->w, &go, sizeof go, r->w->rank + 2, TAG_READY);
}

/* Ranks 0 and 1 alone, in a world of their own; the others wait asleep and touch no GPU (they
 * may have started no context: modes.c), but for ranks 2 and 3 when the path's pieces are
 * theirs too (split_pairs): they start their GPUs once ranks 0 and 1 have their codes on theirs
 * (10 Mb, lev --path at np 4: 2.60 s; 3.30 s when started at once) */
rk_status_t split_two(const rmpi_t *w, int kind, int64_t k, const char *a, int64_t la, const char *b, int64_t lb,
                      int want_path, int n_threads, rmpi_be_t *be, int64_t *val, aln_path_t *path, rmpi_split_prof_t *prof)
{
	const int pay = split_pairs_pay(want_path, w->size, la, lb), pairs = pay && split_gpus_apart(w, be, 4);
	if (pay && w->rank == 0)
		rk_debug("split: %s", pairs ? "the path's two pieces on ranks 0 and 2, 1 and 3, each split on a column again"
		                            : "the path's two pieces on ranks 0 and 1 alone: ranks 2 and 3 would share their GPUs");
	rmpi_t sub;
	rmpi_sub(w, 2, &sub);
	rk_status_t st = RK_OK;
	split_colcut_t x = { 0, -1, 0, 0 };
	split_ready_t ready = { w, 0 };
	if (pairs && (w->rank == 2 || w->rank == 3)) {
		int64_t go = 0;
		rmpi_recv_idle(w, &go, sizeof go, w->rank - 2, TAG_READY);
		if (be && be->use_gpu) rgpu_warm_start(w->local_rank);
	}
	if (pairs && w->rank < 2 && be) { be->g.ready = split_ready; be->g.ready_arg = &ready; }
	if (w->rank < 2) st = split_all(&sub, kind, k, a, la, b, lb, want_path, n_threads, be, pairs ? &x : 0, val, path, prof);
	if (pairs && w->rank < 2) {   /* exactly one message, whatever happened */
		if (be) { be->g.ready = 0; be->g.ready_arg = 0; }
		split_ready(&ready);
	}
	rmpi_sub_free(&sub);
	st = rmpi_agree_idle(w, st);
	return st || !pairs ? st : split_pairs(w, kind, a, la, b, lb, n_threads, be, &x, val, path, prof);
}
