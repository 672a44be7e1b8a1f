/* One pair across the ranks: the entry (split.h; moved from src/mpi/split_run.c). The plan
 * (split_plan.c) picks the way, carried out here (rank 0 alone, two banded halves) or by the
 * runners (split_run.c, split_tree.c, split_pairs.c). */
#include <stdlib.h>
#include <string.h>
#include "mpi/split/split_plan.h"
#include "mpi/split/split_int.h"

#define TAG_BAND 31     /* .. 35: two banded halves */

int rmpi_split_shared(const rmpi_t *w, const rmpi_be_t *be)
{
	if (w->size < 2 || !rmpi_any(w, be && be->use_gpu)) return 0;
	/* rank 1 beyond the node's GPUs: a CPU rank meeting rank 0's GPU on a column keeps it waiting */
	const int one_gpu = !rmpi_any(w, w->rank == 1 && be && be->use_gpu);
	return one_gpu || !split_gpus_apart(w, be, 2);
}

/* Rank 0 alone (pre: the plan's prep of the pair, or none), the others asleep. Collective. */
static rk_status_t split_one(const rmpi_t *w, int kind, int64_t k, int64_t bound, const aln_prep_t *pre, const char *a, int64_t la,
                             const char *b, int64_t lb, int want_path, int n_threads, int64_t *val, aln_path_t *path,
                             rmpi_split_prof_t *prof)
{
	rk_status_t st = RK_OK;
	if (w->rank == 0) {
		const double t0 = rk_realtime();
		int64_t cost;
		st = split_solo(kind, a, la, b, lb, bound, aln_simd_level(-1), n_threads, pre, &cost, want_path ? path : 0);
		if (st) rk_err("%s", rk_error());
		else *val = split_value(kind, k, la, lb, cost);
		if (prof) { prof->rows = la; prof->fwd[0] = prof->fwd[1] = rk_realtime() - t0; }
	}
	return rmpi_agree_idle(w, st);
}

/* Rank 1's piece of the path to rank 0, which appends it to its own (ending in the crossing
 * step). *cost: the pieces' sum, on rank 0. */
static rk_status_t band_gather(const rmpi_t *w, rk_status_t st, int64_t got, aln_path_t *piece, aln_path_t *path, int64_t *cost)
{
	int64_t other = 0;
	if (w->rank == 1) return split_path_join(w, 0, 1, TAG_BAND + 2, st, got, piece, 0, 0);
	path->n = 0;
	if (!st && (st = aln_path_cat(path, piece)) != RK_OK) rk_err("rank 0: %s", rk_error());
	st = split_path_join(w, 0, 1, TAG_BAND + 2, st, 0, 0, path, &other);
	*cost = got + other;
	return st;
}

/* Two banded halves: ranks 0 and 1 as the first split of the one-rank Hirschberg (algo/split.h),
 * the others asleep. Rank 1's half's last row goes to rank 0, which finds the crossing and
 * sends it back; with the path each rank then computes its side's, pruned by its known cost.
 * Collective. */
static rk_status_t split_band(const rmpi_t *w, int kind, int64_t k, int64_t bound, const char *a, int64_t la, const char *b,
                              int64_t lb, int want_path, int n_threads, int64_t *val, aln_path_t *path, rmpi_split_prof_t *prof)
{
	const int me = w->rank, simd = aln_simd_level(-1);
	const int64_t room = 6 + 2 * ((lb + 63) / 64 + 1);   /* the largest message of a half */
	uint64_t *msg = 0, *other = me == 0 ? malloc(8 * (size_t)room) : 0;
	int64_t n = 0, no = 0, cut[8] = { 0 };   /* status, then split_cut_t */
	split_cut_t x = { 0 };
	aln_path_t piece = { 0 };
	rk_status_t st = me == 0 && !other ? RK_ERES : RK_OK;
	if (st) rk_err("rank 0: out of memory");
	if ((st = rmpi_agree_idle(w, st)) != RK_OK) return st;
	const double t0 = rk_realtime();
	if (me <= 1) {
		st = split_band_half(kind, a, la, b, lb, me, bound, simd, n_threads, &msg, &n);
		if (st) { rk_err("rank %d: %s", me, rk_error()); n = -1; }
		if (prof) { prof->rows = me ? la - split_band_rows(la) - 1 : split_band_rows(la); prof->fwd[0] = prof->fwd[1] = rk_realtime() - t0; }
	}
	double t1 = rk_realtime(), t2 = t1;
	if (me == 1) {
		rmpi_send(w, &n, sizeof n, 0, TAG_BAND);
		if (n > 0) rmpi_send(w, msg, 8 * (size_t)n, 0, TAG_BAND + 1);
		rmpi_recv_idle(w, cut, sizeof cut, 0, TAG_BAND);
		st = (rk_status_t)cut[0];
		x = (split_cut_t){ cut[1], cut[2], cut[3], cut[4], cut[5], cut[6], cut[7] };
	} else if (me == 0) {
		rmpi_recv_idle(w, &no, sizeof no, 1, TAG_BAND);
		if (no > room) no = -1;   /* never: the edge of a half */
		if (no > 0) rmpi_recv_idle(w, other, 8 * (size_t)no, 1, TAG_BAND + 1);
		t2 = rk_realtime();
		if (!st && no < 0) st = RK_ERES;   /* rank 1 said why */
		if (!st && (st = split_band_meet(kind, msg, n, other, no, a, la, b, lb, &x)) != RK_OK) rk_err("%s", rk_error());
		if (!st && bound >= 0 && x.best > bound) x.best = -1;
		if (!st && x.best < 0 && kind == SPLIT_LCS) {
			rk_err("the banded halves of an LCS found no crossing within its own bound %lld", (long long)bound);
			st = RK_ERES;
		}
		const int64_t c[8] = { st, x.s, x.j, x.jn, x.op, x.cf, x.cb, x.best };
		rmpi_send(w, c, sizeof c, 1, TAG_BAND);
		rk_debug("split: two banded halves: rank 0's %.3f s, waits %.3f s for rank 1's, meeting %.3f s", t1 - t0, t2 - t1,
		         rk_realtime() - t2);
	}
	free(msg);
	free(other);
	if (me <= 1 && !st) {
		*val = split_value(kind, k, la, lb, x.best);
		if (want_path && *val >= 0) {
			t2 = rk_realtime();
			int64_t got = -1, sum = 0;
			st = me == 0 ? split_solo(kind, a, x.s, b, x.j, x.cf, simd, n_threads, 0, &got, &piece)
			             : split_solo(kind, a + x.s + 1, la - x.s - 1, b + x.jn, lb - x.jn, x.cb, simd, n_threads, 0, &got, &piece);
			if (!st && me == 0) { st = aln_path_push(&piece, (int)x.op, 1); got += x.best - x.cf - x.cb; }
			if (st && me == 1) rk_err("rank 1: %s", rk_error());
			st = band_gather(w, st, got, &piece, path, &sum);
			if (!st && me == 0 && sum != x.best) {
				rk_err("the pieces of the banded split's path cost %lld, not %lld", (long long)sum, (long long)x.best);
				st = RK_ERES;
			}
			if (prof) prof->trace_s = rk_realtime() - t2;
		}
	}
	aln_path_free(&piece);
	if (me != 0) *val = -1;
	return rmpi_agree_idle(w, st);
}

rk_status_t rmpi_split_pair(const rmpi_t *w, int kind, int64_t k, const char *a, int64_t la, const char *b, int64_t lb,
                            int want_path, int n_threads, int n_alone, rmpi_be_t *be, int64_t *val, aln_path_t *path,
                            rmpi_split_prof_t *prof)
{
	split_plan_t p;
	*val = -1;
	if (prof) memset(prof, 0, sizeof *prof);
	if (n_alone < n_threads) n_alone = n_threads;
	rk_status_t st = split_plan(w, kind, k, a, la, b, lb, want_path, n_threads, n_alone, be, &p, prof);
	if (!st && p.how == PLAN_ONE) st = split_one(w, kind, k, p.bound, &p.pre, a, la, b, lb, want_path, n_alone, val, path, prof);
	aln_prep_free(&p.pre);
	if (st || p.how == PLAN_ONE) return st;
	if (p.how == PLAN_BAND && want_path && p.tree > 2) {
		int64_t cost = -1;
		st = split_tree(w, kind, p.bound, a, la, b, lb, p.tree, n_threads, &cost, path, prof);
		if (!st && w->rank == 0) {
			if (kind == SPLIT_LCS && cost < 0) {
				rk_err("the banded halves of an LCS found no crossing within its own bound %lld", (long long)p.bound);
				st = RK_ERES;
			}
			*val = split_value(kind, k, la, lb, cost);
			if (*val < 0) path->n = 0;
		}
		return rmpi_agree_idle(w, st);
	}
	if (p.how == PLAN_BAND) return split_band(w, kind, k, p.bound, a, la, b, lb, want_path, n_threads, val, path, prof);
	if (p.gpu_two && w->size > 2) return split_two(w, kind, k, a, la, b, lb, want_path, n_threads, be, val, path, prof);
	return split_all(w, kind, k, a, la, b, lb, want_path, n_threads, be, 0, val, path, prof);
}

void rmpi_split_prof_add(rmpi_split_prof_t *a, const rmpi_split_prof_t *b)
{
	for (int i = 0; i < 3; i++) { a->fwd[i] += b->fwd[i]; a->rev[i] += b->rev[i]; }
	a->trace_s += b->trace_s; a->sample_s += b->sample_s; a->speed = b->speed; a->rows += b->rows;
}

rk_status_t rmpi_split_prof_json(const rmpi_t *w, int64_t n_pairs, const rmpi_split_prof_t *mine, rio_buf_t *out)
{
	rmpi_split_prof_t *all = malloc(sizeof *all * (size_t)w->size);
	if (!all) { rk_err("out of memory"); return rmpi_agree(w, RK_ERES); }
	rmpi_allgather(w, mine, sizeof *mine, all);
	if (w->rank == 0) {
		static const char *const name[] = { "rows", "speed", "sample", "meet_wall", "meet_busy", "meet_fill", "sub_wall", "sub_busy",
		                                    "sub_fill", "trace" };
		rio_buf_printf(out, ",\"split\":{\"pairs\":%lld", (long long)n_pairs);
		for (int f = 0; f < 10; f++) {
			rio_buf_printf(out, ",\"%s\":[", name[f]);
			for (int r = 0; r < w->size; r++) {
				const rmpi_split_prof_t *q = &all[r];
				double v = f == 0 ? (double)q->rows : f == 1 ? q->speed : f == 2 ? q->sample_s : f < 6 ? q->fwd[f - 3]
				         : f < 9 ? q->rev[f - 6] : q->trace_s;
				rio_buf_printf(out, f == 0 ? "%s%.0f" : f == 1 ? "%s%.4g" : "%s%.6f", r ? "," : "", v);
			}
			rio_buf_chr(out, ']');
		}
		rio_buf_chr(out, '}');
		rio_buf_cstr(out);  /* the caller reads out->s as a string */
	}
	free(all);
	return RK_OK;
}
