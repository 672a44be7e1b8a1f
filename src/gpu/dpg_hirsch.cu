/* Paths of long pairs (or of pairs whose column store would crowd the device) by Hirschberg:
 * forward and reverse passes of the long or batch kernel give the two rows around a split (or
 * the two columns around a column cut), the host picks the crossing, and the small
 * sub-problems left are traced as a batch. The canonical path does not depend on where the
 * splits fall (aln.h), so the result is the CPU's exactly. It decides the splits and the
 * leaves; the passes are the runners' (dpg_long.cu, dpg_batch.cu). */
#include "gpu/dpg_drv.h"

/* ------------------------------------------------------------------------------------------ */
/* Hirschberg */

typedef struct {
	int64_t a0, la, b0, lb;   /* sub-problem A[a0, a0 + la) x B[b0, b0 + lb) */
	int64_t cost;             /* its cost; the root's: a bound (-1: none) unless exact */
	int exact, op;            /* op >= 0: a single op between sub-problems */
} hitem_t;

static int64_t store_bytes(int mode, int64_t la, int64_t lb)
{
	return lb * ((la + 31) / 32) * planes(mode) * 4;
}

static int is_leaf(int mode, int64_t la, int64_t lb)
{
	const int64_t rows = imin(tune_or(rgpu_dp_tune.leaf_rows, D_LEAF_ROWS), tune_or(rgpu_dp_tune.batch_max_la, D_BATCH_MAX_LA));
	return la == 0 || lb == 0 || (la <= imin(rows, D_BATCH_MAX_LA) && store_bytes(mode, la, lb) <= tune_or(rgpu_dp_tune.leaf_bytes, D_LEAF_BYTES));
}

/* word-aligned middle row (any split gives the same path) */
static int64_t split_row(int64_t la)
{
	const int64_t nw = (la + 31) / 32;
	return nw >= 2 ? 32 * (nw / 2) : la / 2;
}

static int by_batch(int64_t rows, int64_t cols)
{
	const int64_t mx = imin(tune_or(rgpu_dp_tune.batch_max_la, D_BATCH_MAX_LA), D_BATCH_MAX_LA);
	return rows <= mx && rows * cols <= tune_or(rgpu_dp_tune.long_cells, D_LONG_CELLS);
}

static rk_status_t items_push(hitem_t **v, int64_t *n, int64_t *m, hitem_t it)
{
	if (*n == *m) {
		int64_t nm = *m ? 2 * *m : 64;
		hitem_t *t = (hitem_t *)realloc(*v, sizeof(hitem_t) * (size_t)nm);
		if (!t) { rk_set_error("out of memory for a path"); return RK_ERES; }
		*v = t;
		*m = nm;
	}
	(*v)[(*n)++] = it;
	return RK_OK;
}

/* The canonical path of a[0, LA) x b[0, LB) appended to out; *cost: lev D, lcs the indel cost.
 * k >= 0 (lev -k): only costs <= k are wanted; above it *cost = -1 and nothing is appended.
 *
 * Level by level: every sub-problem too large to trace is split after its middle row; its
 * upper rows forward and its lower rows reversed are passes (many per launch of the long
 * kernel, or of the batch kernel when short), pruned to the band of its known cost when that
 * pays; the host scans the two rows for the crossing, whose costs are the two halves' costs
 * (checked when they are traced). The leaves are traced as one batch. */
rk_status_t hirsch(dctx_t *X, const char *a, int64_t LA, const char *b, int64_t LB, int64_t k, aln_path_t *out,
                          int64_t *cost)
{
	const int mode = X->mode, EWB = ew_bytes(mode);
	uint8_t map[256];
	const int nc = dpg_map(a, LA, map);
	const int64_t OA = 0, OB = LA, ORA = LA + LB, ORB = 2 * LA + LB;   /* codes on the device (codes_up) */
	rk_status_t st = RK_OK;
	hitem_t *it = 0, *nx = 0;
	int64_t nit = 0, mit = 0, nnx = 0, mnx = 0;
	dbuf_t dc = { 0, 0 }, dle = { 0, 0 }, dre = { 0, 0 };
	uint8_t *hedge = 0;
	uint32_t *hre = 0;          /* right edges of the column cuts' passes */
	int64_t *roff = 0, *rmap = 0, *ccut = 0;   /* per pass: right edge offset; per split: its row job, its column */
	int64_t (*cres)[3] = 0;     /* per column cut: best, row, F at the row */
	bjob_t *jobs = 0;
	dpg_pass_t *lps = 0;
	pres_t *lres = 0;
	int64_t *pidx = 0, *eoff = 0, *lidx = 0;
	dpg_cross_job_t *cj = 0;
	aln_path_t *piece = 0;
	int64_t *leafval = 0;
	int from_k = k >= 0, exact = 0;
	int64_t G4 = 0;             /* resident warps of the long kernel at 4 words per lane */
	*cost = -1;
	/* the host keeps the forward codes for the crossings (hc[OA + i], hc[OB + j]) */
	uint8_t *hc = (uint8_t *)malloc((size_t)(LA + LB));
	if (!hc) { rk_set_error("out of memory for a %lld x %lld path", (long long)LA, (long long)LB); return RK_ERES; }
	dpg_encode(map, a, LA, 0, hc + OA);
	dpg_encode(map, b, LB, 0, hc + OB);
	if ((st = codes_up(X, map, a, LA, b, LB, CODES_BOTH, &dc, "the symbols of a long pair and their reverse"))) goto done;
	/* the root's bound: -k, or an upper bound from a narrow band (A and B forward at OA = 0, OB = LA) */
	if (k < 0 && !is_leaf(mode, LA, LB) && (st = long_bound(X, (const uint8_t *)dc.p, nc, LA, LB, &k, &exact))) goto done;
	{
		hitem_t root = { 0, LA, 0, LB, k, exact, -1 };
		if ((st = items_push(&it, &nit, &mit, root))) goto done;
	}
	bsrc_t rsrc;
	rsrc.p = 0;
	rsrc.dcodes = (const uint8_t *)dc.p;
	/* resident warps of the long kernel at 4 words per lane: a level whose column cuts fit them
	 * in one round cuts columns (rgpu_dp_tune.col_cut) */
	if ((st = long_warps(X, nc, 4, &G4))) goto done;
	for (;;) {
		int64_t ni = 0;
		for (int64_t t = 0; t < nit; t++)
			if (it[t].op < 0 && !is_leaf(mode, it[t].la, it[t].lb)) ni++;
		if (!ni) break;
		/* split q: passes 2 q (its rows [0, is) forward) and 2 q + 1 (rows (is, la), reversed) */
		pidx = (int64_t *)malloc(sizeof(int64_t) * (size_t)ni);
		eoff = (int64_t *)malloc(sizeof(int64_t) * (size_t)(2 * ni));
		lidx = (int64_t *)malloc(sizeof(int64_t) * (size_t)(2 * ni));
		jobs = (bjob_t *)calloc((size_t)(2 * ni), sizeof(bjob_t));
		lps = (dpg_pass_t *)calloc((size_t)(2 * ni), sizeof(dpg_pass_t));
		lres = (pres_t *)calloc((size_t)(2 * ni), sizeof(pres_t));
		cj = (dpg_cross_job_t *)calloc((size_t)ni, sizeof(dpg_cross_job_t));
		roff = (int64_t *)malloc(sizeof(int64_t) * (size_t)(2 * ni));
		rmap = (int64_t *)malloc(sizeof(int64_t) * (size_t)ni);
		ccut = (int64_t *)calloc((size_t)ni, sizeof(int64_t));
		cres = (int64_t(*)[3])calloc((size_t)ni, sizeof *cres);
		if (!pidx || !eoff || !lidx || !jobs || !lps || !lres || !cj || !roff || !rmap || !ccut || !cres) {
			st = RK_ERES;
			rk_set_error("out of memory for a path");
			goto done;
		}
		int64_t q = 0, E = 0, El = 0, nj = 0, nl = 0, Rw = 0, nr = 0;
		for (int64_t t = 0; t < nit; t++)
			if (it[t].op < 0 && !is_leaf(mode, it[t].la, it[t].lb)) pidx[q++] = t;
		/* Column cuts: a long sub-problem with the full band, or a band of more than half of its
		 * cells (band_beats_cut), may be cut at its middle column cs
		 * instead of its middle row: its two passes then have all its rows over half its columns
		 * each, twice the strips of a row cut for the same cells. Taken when the level's passes so
		 * cut still fit the resident warps in one round (a row-cut level of few strips leaves half
		 * of every SM's warp slots idle: a 5M-row piece of a split pair). */
		{
			int64_t strips = 0;
			for (int64_t i = 0; i < q; i++) {
				const hitem_t *h = &it[pidx[i]];
				const int64_t cs = 32 * (((h->lb + 31) / 32) / 2);
				if (h->lb >= 64 && cs > 0 && cs < h->lb && !by_batch(h->la, cs) && !by_batch(h->la, h->lb - cs) &&
				    !band_beats_cut(h->cost, h->la, h->lb) && (rgpu_dp_tune.col_cut > 0 || h->la >= D_COL_CUT_ROWS)) {
					ccut[i] = cs;
					strips += 2 * ((h->la + 4095) / 4096);
				}
			}
			const int use = rgpu_dp_tune.col_cut > 0 || (rgpu_dp_tune.col_cut == 0 && strips > 0 && strips <= G4);
			for (int64_t i = 0; i < q; i++)
				if (!use) ccut[i] = 0;
		}
		/* where each pass's bottom row goes in the host buffer: batch passes first, then the
		 * long ones (one block, one copy back); a row of lb columns takes (lb + 31) / 32 words */
#define PASS_ROWS(x) ((x) & 1 ? it[pidx[(x) / 2]].la - split_row(it[pidx[(x) / 2]].la) - 1 : split_row(it[pidx[(x) / 2]].la))
		for (int64_t x = 0; x < 2 * q; x++) {
			const int64_t rows = PASS_ROWS(x), lb = it[pidx[x / 2]].lb;
			eoff[x] = -1;
			lidx[x] = -1;
			roff[x] = -1;
			if (ccut[x / 2]) { roff[x] = Rw; Rw += (mode == DPG_LEV ? 2 : 1) * ((it[pidx[x / 2]].la + 31) / 32); continue; }
			if (rows > 0 && by_batch(rows, lb)) { eoff[x] = E; E += (lb + 31) / 32; }
		}
		for (int64_t x = 0; x < 2 * q; x++) {
			const int64_t rows = PASS_ROWS(x), lb = it[pidx[x / 2]].lb;
			if (!ccut[x / 2] && rows > 0 && !by_batch(rows, lb)) { eoff[x] = E + El; El += (lb + 31) / 32; }
		}
		hedge = (uint8_t *)malloc((size_t)(EWB * (E + El) + 8));
		if (!hedge) { st = RK_ERES; rk_set_error("out of memory for the rows of a path"); goto done; }
		if (El && (st = dalloc(X, &dle, (uint64_t)EWB * El, "the rows of a path's long passes"))) goto done;
		if (Rw && (!(hre = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)Rw)) ||
		           (st = dalloc(X, &dre, sizeof(uint32_t) * (uint64_t)Rw, "the columns of a path's cuts")))) {
			if (!st) { st = RK_ERES; rk_set_error("out of memory for the columns of a path"); }
			goto done;
		}
		/* a pruned pass writes only its band's words of the row; the copy back reads all */
		if (El) CUDA_CHECK_GOTO(cudaMemsetAsync(dle.p, 0, (size_t)(EWB * El), X->rt.st), done);
		for (int64_t x = 0; x < 2 * q; x++) {
			const hitem_t *h = &it[pidx[x / 2]];
			if (ccut[x / 2]) {
				/* forward: all rows over columns [0, cs); reverse: all rows over [cs, lb), reversed */
				const int64_t cs = ccut[x / 2];
				dpg_pass_t *p = &lps[nl];
				lidx[x] = nl++;
				p->a = x & 1 ? ORA + (LA - h->a0 - h->la) : OA + h->a0;
				p->b = x & 1 ? ORB + (LB - h->b0 - h->lb) : OB + h->b0;
				p->la = h->la;
				p->lb = x & 1 ? h->lb - cs : cs;
				band_full(p);
				p->right = (uint32_t *)dre.p + roff[x];
				continue;
			}
			const int64_t rows = PASS_ROWS(x);
			if (rows == 0) continue;   /* no rows: the boundary (a NULL row in the scan) */
			/* forward: A[a0, a0 + is), B[b0, b0 + lb); reverse: the same ranges of the reversed codes */
			const int64_t ao = x & 1 ? ORA + (LA - h->a0 - h->la) : OA + h->a0;
			const int64_t bo = x & 1 ? ORB + (LB - h->b0 - h->lb) : OB + h->b0;
			if (by_batch(rows, h->lb)) {
				bjob_t *j = &jobs[nj++];
				j->la = rows;
				j->lb = h->lb;
				j->a = ao;
				j->b = bo;
				j->src = x;
				j->nc = nc;
				j->cls = dpg_class_of(rows);
				j->edge = hedge + (size_t)EWB * eoff[x];
			} else {
				dpg_pass_t *p = &lps[nl];
				lidx[x] = nl++;
				p->a = ao;
				p->b = bo;
				p->la = rows;
				p->lb = h->lb;
				/* the band of the sub-problem's cost (symmetric, so the reverse pass has the same) */
				if (band_pays(h->cost, h->la, h->lb)) band_k(p, h->cost, h->la, h->lb);
				else band_full(p);
				p->bot = (char *)dle.p + (size_t)EWB * (eoff[x] - E);
			}
		}
#undef PASS_ROWS
		qsort(jobs, (size_t)nj, sizeof *jobs, cmp_job);
		if ((st = run_batch(X, jobs, nj, &rsrc, "the passes of a path"))) goto done;
		if (nl) {
			if ((st = long_run(X, (const uint8_t *)dc.p, lps, nl, nc, lres))) goto done;
			if (El) CUDA_CHECK_GOTO(cudaMemcpyAsync(hedge + (size_t)EWB * E, dle.p, (size_t)(EWB * El), cudaMemcpyDeviceToHost, X->rt.st), done);
			if (Rw) CUDA_CHECK_GOTO(cudaMemcpyAsync(hre, dre.p, sizeof(uint32_t) * (size_t)Rw, cudaMemcpyDeviceToHost, X->rt.st), done);
			CUDA_CHECK_GOTO(cudaStreamSynchronize(X->rt.st), done);
			dfree(X, &dle);
			dfree(X, &dre);
		}
		for (int64_t i = 0; i < q; i++) {
			const hitem_t *h = &it[pidx[i]];
			rmap[i] = -1;
			if (ccut[i]) {
				if ((st = dpg_col_cross(mode, hre + roff[2 * i], hre + roff[2 * i + 1], h->la, h->lb, ccut[i], &cres[i][0], &cres[i][1],
				                        &cres[i][2])))
					goto done;
				continue;
			}
			const int64_t is = split_row(h->la);
			rmap[i] = nr;
			dpg_cross_job_t *c = &cj[nr++];
			for (int r = 0; r < 2; r++) {
				const int64_t x = 2 * i + r, rows = r ? h->la - is - 1 : is;
				dpg_row_t *w = r ? &c->B : &c->F;
				w->e = eoff[x] >= 0 ? hedge + (size_t)EWB * eoff[x] : 0;
				if (lidx[x] >= 0) {   /* a long pass: its last strip's columns, its value at the first */
					const pres_t *pr = &lres[lidx[x]];
					w->c0 = pr->c0;
					w->c1 = pr->c1;
					w->v0 = to_cost(mode, pr->v0, rows, pr->c0);
				} else {              /* a batch pass or no rows: every column, cost `rows` at column 0 */
					w->c0 = 0;
					w->c1 = h->lb;
					w->v0 = rows;
				}
			}
			c->lb = h->lb;
			c->ai = hc[OA + h->a0 + is];
			c->bc = hc + OB + h->b0;
		}
		dpg_cross_many(mode, cj, nr, X->threads);
		nnx = 0;
		for (int64_t t = 0, i = 0; t < nit; t++) {
			const hitem_t *h = &it[t];
			if (h->op >= 0 || is_leaf(mode, h->la, h->lb)) {
				if ((st = items_push(&nx, &nnx, &mnx, *h))) goto done;
				continue;
			}
			const int64_t ci = i++;
			dpg_cross_t cx;   /* a column cut as a crossing: its best; the pieces below */
			const dpg_cross_t *x = ccut[ci] ? &cx : &cj[rmap[ci]].x;
			if (ccut[ci]) { memset(&cx, 0, sizeof cx); cx.best = cres[ci][0]; }
			if (!h->exact && (x->best < 0 || (h->cost >= 0 && x->best > h->cost))) {
				/* only the root is inexact: above its bound. With -k that is the answer; a bound of
				 * our own is never below the cost */
				if (from_k) goto done;
				rk_set_error("internal error: GPU Hirschberg root of %lld x %lld costs %lld, bound %lld", (long long)h->la,
				             (long long)h->lb, (long long)x->best, (long long)h->cost);
				st = RK_ERES;
				goto done;
			}
			if (h->exact && x->best != h->cost) {
				rk_set_error("internal error: GPU Hirschberg split of %lld x %lld costs %lld, expected %lld", (long long)h->la,
				             (long long)h->lb, (long long)x->best, (long long)h->cost);
				st = RK_ERES;
				goto done;
			}
			if (!h->exact) *cost = x->best;   /* the root */
			if (ccut[ci]) {
				/* (0, 0) to (at, cs) and (at, cs) to the end, no op between */
				const int64_t cs = ccut[ci], at = cres[ci][1], cf = cres[ci][2];
				hitem_t top = { h->a0, at, h->b0, cs, cf, 1, -1 };
				hitem_t bot = { h->a0 + at, h->la - at, h->b0 + cs, h->lb - cs, x->best - cf, 1, -1 };
				if ((st = items_push(&nx, &nnx, &mnx, top)) || (st = items_push(&nx, &nnx, &mnx, bot))) goto done;
				if (h->exact && nit == 1) *cost = h->cost;
				continue;
			}
			const int64_t is = split_row(h->la);
			hitem_t top = { h->a0, is, h->b0, x->j, x->cf, 1, -1 };
			hitem_t mid = { 0, 0, 0, 0, 0, 1, x->op };
			hitem_t bot = { h->a0 + is + 1, h->la - is - 1, h->b0 + x->jn, h->lb - x->jn, x->cb, 1, -1 };
			if ((st = items_push(&nx, &nnx, &mnx, top)) || (st = items_push(&nx, &nnx, &mnx, mid)) ||
			    (st = items_push(&nx, &nnx, &mnx, bot)))
				goto done;
			if (h->exact && nit == 1) *cost = h->cost;
		}
		{ hitem_t *t = it; it = nx; nx = t; int64_t tn = nit; nit = nnx; nnx = tn; int64_t tm = mit; mit = mnx; mnx = tm; }
		free(pidx); free(eoff); free(lidx); free(jobs); free(lps); free(lres); free(cj); free(hedge);
		free(hre); free(roff); free(rmap); free(ccut); free(cres);
		pidx = 0; eoff = 0; lidx = 0; jobs = 0; lps = 0; lres = 0; cj = 0; hedge = 0;
		hre = 0; roff = 0; rmap = 0; ccut = 0; cres = 0;
	}
	/* the leaves: traced as a batch over the resident codes */
	{
		const size_t ncell = (size_t)(nit > 0 ? nit : 1);   /* nit >= 1: the root or its pieces */
		piece = (aln_path_t *)calloc(ncell, sizeof(aln_path_t));
		leafval = (int64_t *)malloc(sizeof(int64_t) * ncell);
		jobs = (bjob_t *)calloc(ncell, sizeof(bjob_t));
		if (!piece || !leafval || !jobs) { st = RK_ERES; rk_set_error("out of memory for a path"); goto done; }
		int64_t nj = 0;
		for (int64_t t = 0; t < nit; t++) {
			const hitem_t *h = &it[t];
			leafval[t] = -1;
			if (h->op >= 0 || h->la == 0 || h->lb == 0) continue;
			bjob_t *j = &jobs[nj++];
			j->la = h->la;
			j->lb = h->lb;
			j->a = OA + h->a0;
			j->b = OB + h->b0;
			j->src = t;
			j->nc = nc;
			j->cls = dpg_class_of(h->la);
			j->dst = &piece[t];
			j->val = &leafval[t];
		}
		qsort(jobs, (size_t)nj, sizeof *jobs, cmp_job);
		if ((st = run_batch(X, jobs, nj, &rsrc, "the sub-problems of a path"))) goto done;
		if (nit == 1 && it[0].op < 0 && !it[0].exact) {   /* the root was a leaf */
			const hitem_t *h = &it[0];
			const int64_t c = h->la == 0 || h->lb == 0 ? h->la + h->lb : to_cost(mode, leafval[0], h->la, h->lb);
			if (from_k && c > h->cost) goto done;
			*cost = c;
		}
		const size_t n0 = (size_t)out->n;
		for (int64_t t = 0; t < nit && !st; t++) {
			const hitem_t *h = &it[t];
			if (h->op >= 0) {
				st = aln_path_push(out, h->op, 1);
				continue;
			}
			int64_t c;
			if (h->la == 0 || h->lb == 0) {
				c = h->la + h->lb;
				st = aln_path_push(out, h->la ? ALN_I : ALN_D, h->la + h->lb);
			} else {
				c = to_cost(mode, leafval[t], h->la, h->lb);
				st = aln_path_cat(out, &piece[t]);
			}
			if (!st && h->exact && c != h->cost) {
				rk_set_error("internal error: GPU Hirschberg piece %lld x %lld costs %lld, expected %lld", (long long)h->la,
				             (long long)h->lb, (long long)c, (long long)h->cost);
				st = RK_ERES;
			}
		}
		if (st) out->n = (int64_t)n0;
	}
done:
	if (piece)
		for (int64_t t = 0; t < nit; t++) aln_path_free(&piece[t]);
	free(piece); free(leafval); free(hc); free(it); free(nx); free(hedge); free(jobs); free(lps); free(lres); free(pidx);
	free(eoff); free(lidx); free(cj); free(hre); free(roff); free(rmap); free(ccut); free(cres);
	dfree(X, &dc);
	dfree(X, &dle);
	dfree(X, &dre);
	return st;
}
