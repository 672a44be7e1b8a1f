/* The value (lev D, lcs L) of long pairs: one pass over the pair, in the band of its bound
 * when that pays, or two passes meeting on the middle column when one would leave the device
 * idle; many such pairs in one launch (groups). It decides how a long pair is valued; the
 * passes themselves are the long runner's (dpg_long.cu), which pairs are long rgpu_dp_batch's. */
#include "gpu/dpg_drv.h"

/* Meet in the middle when one pass leaves most resident warps idle: a pass over every row
 * takes about lb wavefront steps whatever its rows, and at a few thousand rows its strips fill
 * a fraction of the device (40 kb: 40 strips of 1024 rows, against thousands of resident warps),
 * so the step's latency is the time. The forward pass over B's columns [0, c) and the reverse
 * pass over [c, lb) run at once in one launch, each lb / 2 steps, and the value is the best
 * sum over the rows of column c of their right edges (dpg_col_cross): every path crosses it.
 * Only when every strip of both passes has a resident warp of its own, at one or two words per
 * lane: a warp runs its strips in order, so a second round would start the reverse pass's
 * strips after the forward pass's (H100, lev 10 Mb 1%-divergent, banded: one pass 0.57 s,
 * meeting in rounds 1.01 s). At two words per lane a step is longer, yet half the steps still
 * pay (H100, 1 Mb random, one pass against meeting at two words: lev 0.061 -> 0.053 s, lcs
 * 0.049 -> 0.032 s). */
static rk_status_t meet_pays(dctx_t *X, int nc, const dpg_pass_t *p, int *pays)
{
	*pays = 0;
	if (rgpu_dp_tune.meet < 0 || p->lb < 2) return RK_OK;
	if (rgpu_dp_tune.meet > 0) { *pays = 1; return RK_OK; }
	for (int rw = 1; rw <= 2 && !*pays; rw *= 2) {
		int64_t G = 0;
		const int64_t SR = 1024ll * rw;
		rk_status_t st = long_warps(X, nc, rw, &G);
		if (st) return st;
		*pays = 2 * ((p->la + SR - 1) / SR) <= G;
	}
	return RK_OK;
}

/* the two meeting passes of pass p (its band and sizes) on codes at off: A, B, A reversed, B
 * reversed (codes_up's CODES_BOTH, dpg_pack_many's rev), the forward one over B's columns
 * [0, lb / 2), the reverse one over the rest; right edges at right and right + nw (the band
 * is symmetric: the reverse pass has the same) */
static void meet_passes(const dpg_pass_t *p, int64_t off, uint32_t *right, int64_t nw, dpg_pass_t ps[2])
{
	const int64_t la = p->la, lb = p->lb, c = lb / 2;
	for (int r = 0; r < 2; r++) {
		ps[r] = *p;
		ps[r].a = off + (r ? la + lb : 0);
		ps[r].b = off + (r ? 2 * la + lb : la);
		ps[r].lb = r ? lb - c : c;
		ps[r].right = right + r * nw;
	}
}

/* the value of pass p (A at dc + 0, B at dc + la; the reversed codes after them) by the meeting
 * at column lb / 2: the best cost over the column (lev D, lcs the indel cost; within the band
 * exact, never below the true cost) */
static rk_status_t meet_value(dctx_t *X, const uint8_t *dc, int nc, const dpg_pass_t *p, int64_t *cost)
{
	const int64_t la = p->la, lb = p->lb, c = lb / 2, nw = (X->mode == DPG_LEV ? 2 : 1) * ((la + 31) / 32);
	dbuf_t dr = { 0, 0 };
	uint32_t *hr = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(2 * nw));
	rk_status_t st = RK_OK;
	int64_t at = 0, cf = 0;
	if (!hr) { rk_set_error("out of memory for the meeting of a %lld x %lld pair", (long long)la, (long long)lb); return RK_ERES; }
	if ((st = dalloc(X, &dr, sizeof(uint32_t) * (uint64_t)(2 * nw), "the meeting column of a long pair"))) goto done;
	{
		dpg_pass_t ps[2];
		meet_passes(p, 0, (uint32_t *)dr.p, nw, ps);
		if ((st = long_run(X, dc, ps, 2, nc, 0))) goto done;
	}
	CUDA_CHECK_GOTO(cudaMemcpyAsync(hr, dr.p, sizeof(uint32_t) * (size_t)(2 * nw), cudaMemcpyDeviceToHost, X->rt.st), done);
	CUDA_CHECK_GOTO(cudaStreamSynchronize(X->rt.st), done);
	st = dpg_col_cross(X->mode, hr, hr + nw, la, lb, c, cost, &at, &cf);
	if (X->sp) X->sp->n_meet++;
done:
	dfree(X, &dr);
	free(hr);
	return st;
}

/* lev D(la, lb) (-1 above k >= 0) or lcs L(la, lb) of one long pair */
rk_status_t long_value(dctx_t *X, const char *a, int64_t la, const char *b, int64_t lb, int64_t k, int64_t *val)
{
	uint8_t map[256];
	const int nc = dpg_map(a, la, map);
	dbuf_t dc = { 0, 0 };
	rk_status_t st;
	int64_t cost = -1, ub = -1;
	int exact = 0, meet = 0;
	dpg_pass_t ps;
	pass_whole(&ps, la, lb);
	if ((st = meet_pays(X, nc, &ps, &meet)) ||
	    (st = codes_up(X, map, a, la, b, lb, meet ? CODES_BOTH : CODES_FWD, &dc, "the symbols of a long pair")))
		goto done;
	/* with -k the bound is given; otherwise a first, narrow band may give one */
	if (k < 0 && (st = long_bound(X, (const uint8_t *)dc.p, nc, a, la, b, lb, &ub, &exact))) goto done;
	if (exact) {
		cost = ub;
	} else {
		const int64_t kb = k >= 0 ? k : ub;
		if (band_pays(kb, la, lb)) band_k(&ps, kb, la, lb);
		if (meet) {
			if ((st = meet_value(X, (const uint8_t *)dc.p, nc, &ps, &cost))) goto done;
		} else {
			pres_t r;
			if ((st = long_run(X, (const uint8_t *)dc.p, &ps, 1, nc, &r))) goto done;
			cost = to_cost(X->mode, r.total, la, lb);
		}
		/* exact when the cost is within the band's bound; above it, an upper bound (and > k) */
		if (k < 0 && ub >= 0 && cost > ub) {
			rk_set_error("internal error: GPU %s of a %lld x %lld pair: cost %lld above its bound %lld", X->mode == DPG_LEV ? "lev" : "lcs",
			             (long long)la, (long long)lb, (long long)cost, (long long)ub);
			st = RK_ERES;
			goto done;
		}
	}
	if (X->mode == DPG_LEV) *val = k >= 0 && cost > k ? -1 : cost;
	else *val = (la + lb - cost) / 2;
	rk_debug("gpu %s %lld x %lld: %s, j - i in [%lld, %lld]", X->mode == DPG_LEV ? "lev" : "lcs", (long long)la, (long long)lb,
	         exact ? "the bound's band was exact" : meet ? "two passes meeting at the middle column" : "one pass",
	         (long long)ps.dlo, (long long)ps.dhi);
done:
	dfree(X, &dc);
	return st;
}

/* Values of many long pairs that each leave the device idle, several per launch: each pair's
 * two passes meeting on its middle column (meet_value), as many pairs as the resident warps
 * hold at one word per lane, their codes up in one copy and their columns back in one. One
 * pair a launch, a batch of genomes (46 MERS-CoV of 30 kb, --all: 1,035 pairs) pays each
 * pair's set-up, transfers and launch, and leaves all but ~60 of ~1,600 warps idle. Pairs
 * lng[i] of two columns or more and fewer than 2^32 cells (no bound: the band of -k only)
 * whose passes fit; done[i] set for those valued here (val as rgpu_dp_batch's), the rest go
 * one at a time. */
rk_status_t long_values(dctx_t *X, const aln_pair_t *p, const int64_t *lng, int64_t n, int64_t k, int64_t *val,
                        uint8_t *done)
{
	/* forced bounds (tests) go one at a time; with -k a forced band is -k's, as one at a time */
	if (rgpu_dp_tune.meet < 0 || (rgpu_dp_tune.band > 0 && k < 0) || rgpu_dp_tune.long_group < 0 || n <= 0) return RK_OK;
	const int mode = X->mode, nv = mode == DPG_LEV ? 2 : 1;
	int64_t *cand = (int64_t *)malloc(sizeof(int64_t) * (size_t)n), *gi = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
	int64_t *gpos = (int64_t *)malloc(sizeof(int64_t) * (size_t)n), *gla = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
	int64_t *glb = (int64_t *)malloc(sizeof(int64_t) * (size_t)n), *gcost = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
	int64_t *off = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1)), *roff = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1));
	int *nc = (int *)malloc(sizeof(int) * (size_t)n);
	dpg_pass_t *ps = (dpg_pass_t *)calloc((size_t)(2 * n), sizeof(dpg_pass_t));
	uint8_t *hc = 0;
	uint32_t *hr = 0;
	dbuf_t dc = { 0, 0 }, dr = { 0, 0 };
	rk_status_t st = RK_OK;
	int64_t nq = 0, G = 0, ncx = 0, ng = 0, nd = 0;
	double tp[3] = { 0, 0, 0 };   /* codes packed; up, kernels and back; meetings */
	if (!cand || !gi || !gpos || !gla || !glb || !gcost || !off || !roff || !nc || !ps) {
		st = RK_ERES;
		rk_set_error("out of memory for %lld long pairs", (long long)n);
		goto done;
	}
	for (int64_t i = 0; i < n; i++) {
		const aln_pair_t *x = &p[lng[i]];
		if (x->lb >= 2 && (double)x->la * (double)x->lb < 4294967296.0) cand[nq++] = i;
	}
	if (nq < 2) goto done;   /* one pair: long_value meets alike */
	for (int64_t i = 0; i < nq; i++) gi[i] = lng[cand[i]];
	dpg_nc_many(p, gi, nq, X->threads, nc);
	for (int64_t i = 0; i < nq; i++) ncx = imax(ncx, nc[i]);
	if ((st = long_warps(X, (int)ncx, 1, &G))) goto done;
	{
		/* half of what is left, less long_run's own buffers for G warps (rings, counters,
		 * strips; the wrap row per pair below): under a tight --device-memory the pairs go one
		 * at a time, as before, rather than fail together */
		const uint64_t SB = (uint64_t)dpg_slot_bytes(mode), left = X->rt.budget > X->used ? X->rt.budget - X->used : 0;
		const uint64_t fixed = (uint64_t)G * ((uint64_t)D_RING * D_CWW * SB + DPG_CNT_STRIDE * 8 + 12) + 4 * D_ALIGN;
		const uint64_t cap = left / 2 > fixed ? left / 2 - fixed : 0;
		const int64_t most = rgpu_dp_tune.long_group > 0 ? rgpu_dp_tune.long_group : INT64_MAX;
		for (int64_t q = 0; q < nq;) {
			/* a group: the next pairs whose strips the resident warps hold in one round (one
			 * too big alone is left to long_value) */
			int64_t strips = 0, gm = 0;
			uint64_t bytes = 0;
			off[0] = roff[0] = 0;
			for (; q < nq && gm < most; q++) {
				const aln_pair_t *x = &p[lng[cand[q]]];
				const int64_t s2 = 2 * ((x->la + 1023) / 1024), nw = nv * ((x->la + 31) / 32);
				const uint64_t b = (uint64_t)(2 * (x->la + x->lb)) + 8 * (uint64_t)nw + 2 * sizeof(dpg_pass_t) + ((uint64_t)x->lb / 32 + 2) * SB;
				if (s2 > G || b > cap) continue;
				if (strips + s2 > G || bytes + b > cap) break;
				gi[gm] = lng[cand[q]];
				gpos[gm] = cand[q];
				off[gm + 1] = off[gm] + 2 * (x->la + x->lb);
				roff[gm + 1] = roff[gm] + 2 * nw;
				strips += s2;
				bytes += b;
				gm++;
			}
			if (gm == 0) break;
			if (!(hc = (uint8_t *)malloc((size_t)off[gm])) || !(hr = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)roff[gm]))) {
				st = RK_ERES;
				rk_set_error("out of memory for %lld long pairs", (long long)gm);
				goto done;
			}
			double t = rk_realtime();
			dpg_pack_many(p, gi, gm, off, hc, 1, X->threads);
			tp[0] += rk_realtime() - t;
			t = rk_realtime();
			if ((st = dalloc(X, &dc, (uint64_t)off[gm], "the symbols of long pairs")) ||
			    (st = dalloc(X, &dr, sizeof(uint32_t) * (uint64_t)roff[gm], "the meeting columns of long pairs")))
				goto done;
			CUDA_CHECK_GOTO(cudaMemcpyAsync(dc.p, hc, (size_t)off[gm], cudaMemcpyHostToDevice, X->rt.st), done);
			for (int64_t g = 0; g < gm; g++) {
				const int64_t la = p[gi[g]].la, lb = p[gi[g]].lb;
				dpg_pass_t whole;   /* the pair's pass in the band of -k */
				pass_whole(&whole, la, lb);
				if (band_pays(k, la, lb)) band_k(&whole, k, la, lb);
				meet_passes(&whole, off[g], (uint32_t *)dr.p + roff[g], nv * ((la + 31) / 32), &ps[2 * g]);
			}
			if ((st = long_run(X, (const uint8_t *)dc.p, ps, 2 * gm, (int)ncx, 0))) goto done;
			CUDA_CHECK_GOTO(cudaMemcpyAsync(hr, dr.p, sizeof(uint32_t) * (size_t)roff[gm], cudaMemcpyDeviceToHost, X->rt.st), done);
			CUDA_CHECK_GOTO(cudaStreamSynchronize(X->rt.st), done);
			tp[1] += rk_realtime() - t;
			t = rk_realtime();
			for (int64_t g = 0; g < gm; g++) {
				gla[g] = p[gi[g]].la;
				glb[g] = p[gi[g]].lb;
			}
			if ((st = dpg_col_cost_many(mode, hr, roff, gla, glb, gm, gcost, X->threads))) goto done;
			for (int64_t g = 0; g < gm; g++) {
				const int64_t cost = gcost[g];
				val[gi[g]] = mode == DPG_LEV ? (k >= 0 && cost > k ? -1 : cost) : (gla[g] + glb[g] - cost) / 2;
			}
			tp[2] += rk_realtime() - t;
			ng++;
			for (int64_t g = 0; g < gm; g++) done[gpos[g]] = 1;
			if (X->sp) X->sp->n_meet += gm;
			dfree(X, &dc);
			dfree(X, &dr);
			free(hc);
			free(hr);
			hc = 0;
			hr = 0;
		}
	}
done:
	for (int64_t i = 0; i < n; i++) nd += done[i];
	if (ng) rk_debug("gpu %s: %lld long pairs valued %lld launch(es) at once: codes %.3f s, device %.3f s, meetings %.3f s",
	                 mode == DPG_LEV ? "lev" : "lcs", (long long)nd, (long long)ng, tp[0], tp[1], tp[2]);
	dfree(X, &dc);
	dfree(X, &dr);
	free(hc); free(hr); free(cand); free(gi); free(gpos); free(gla); free(glb); free(gcost); free(off); free(roff); free(nc); free(ps);
	return st;
}
