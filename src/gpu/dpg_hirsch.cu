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

/* one path: the pair's codes (the forward ones on the host too, for the crossings), the
 * sub-problems of the level (it) and of the next (nx) */
typedef struct {
	dctx_t *X;
	int mode, EWB, nc, from_k, stop;   /* stop: the root is above -k, no path */
	int64_t LA, LB, OA, OB, ORA, ORB;  /* codes on the device (codes_up) */
	int64_t G4;                        /* resident warps of the long kernel at 4 words per lane */
	int64_t *cost;
	uint8_t *hc;
	dbuf_t dc;
	bsrc_t rsrc;
	hitem_t *it, *nx;
	int64_t nit, mit, nnx, mnx;
} hpath_t;

/* one level: q splits of sub-problems it[pidx[i]], each two passes (2 i: its rows [0, is)
 * forward; 2 i + 1: rows (is, la), reversed), by the batch runner or the long one, or, cut
 * at column ccut[i], two long passes over all its rows */
typedef struct {
	int64_t q;
	int64_t *pidx, *eoff, *lidx;       /* per pass: its row's place in hedge, its long pass */
	int64_t *roff, *rmap, *ccut;       /* per pass: right edge offset; per split: its row job, its column */
	int64_t (*cres)[3];                /* per column cut: best, row, F at the row */
	bjob_t *jobs;
	dpg_pass_t *lps;
	pres_t *lres;
	dpg_cross_job_t *cj;
	uint8_t *hedge;
	uint32_t *hre;                     /* right edges of the column cuts' passes */
	dbuf_t dle, dre;
	int64_t E, El, nj, nl, Rw, nr;     /* words of batch rows, of long rows; jobs; long passes; right words; crossings */
} hlevel_t;

static void level_free(dctx_t *X, hlevel_t *L)
{
	free(L->pidx); free(L->eoff); free(L->lidx); free(L->jobs); free(L->lps); free(L->lres); free(L->cj); free(L->hedge);
	free(L->hre); free(L->roff); free(L->rmap); free(L->ccut); free(L->cres);
	dfree(X, &L->dle);
	dfree(X, &L->dre);
	memset(L, 0, sizeof *L);
}

/* rows of pass x of a level */
static int64_t pass_rows(const hitem_t *h, int64_t x)
{
	return x & 1 ? h->la - split_row(h->la) - 1 : split_row(h->la);
}

/* the level's splits: the sub-problems too large to trace, and which of them are cut at a column */
static rk_status_t level_splits(const hpath_t *H, hlevel_t *L, int64_t ni)
{
	const hitem_t *it = H->it;
	L->pidx = (int64_t *)malloc(sizeof(int64_t) * (size_t)ni);
	L->eoff = (int64_t *)malloc(sizeof(int64_t) * (size_t)(2 * ni));
	L->lidx = (int64_t *)malloc(sizeof(int64_t) * (size_t)(2 * ni));
	L->jobs = (bjob_t *)calloc((size_t)(2 * ni), sizeof(bjob_t));
	L->lps = (dpg_pass_t *)calloc((size_t)(2 * ni), sizeof(dpg_pass_t));
	L->lres = (pres_t *)calloc((size_t)(2 * ni), sizeof(pres_t));
	L->cj = (dpg_cross_job_t *)calloc((size_t)ni, sizeof(dpg_cross_job_t));
	L->roff = (int64_t *)malloc(sizeof(int64_t) * (size_t)(2 * ni));
	L->rmap = (int64_t *)malloc(sizeof(int64_t) * (size_t)ni);
	L->ccut = (int64_t *)calloc((size_t)ni, sizeof(int64_t));
	L->cres = (int64_t(*)[3])calloc((size_t)ni, sizeof *L->cres);
	if (!L->pidx || !L->eoff || !L->lidx || !L->jobs || !L->lps || !L->lres || !L->cj || !L->roff || !L->rmap || !L->ccut || !L->cres) {
		rk_set_error("out of memory for a path");
		return RK_ERES;
	}
	for (int64_t t = 0; t < H->nit; t++)
		if (it[t].op < 0 && !is_leaf(H->mode, it[t].la, it[t].lb)) L->pidx[L->q++] = t;
	/* Column cuts: a long sub-problem with the full band, or a band of more than half of its
	 * cells (band_beats_cut), may be cut at its middle column cs
	 * instead of its middle row: its two passes then have all its rows over half its columns
	 * each, twice the strips of a row cut for the same cells. Taken when the level's passes so
	 * cut still fit the resident warps in one round (a row-cut level of few strips leaves half
	 * of every SM's warp slots idle: a 5M-row piece of a split pair). */
	int64_t strips = 0;
	for (int64_t i = 0; i < L->q; i++) {
		const hitem_t *h = &it[L->pidx[i]];
		const int64_t cs = 32 * (((h->lb + 31) / 32) / 2);
		if (h->lb >= 64 && cs > 0 && cs < h->lb && !by_batch(h->la, cs) && !by_batch(h->la, h->lb - cs) &&
		    !band_beats_cut(h->cost, h->la, h->lb) && (rgpu_dp_tune.col_cut > 0 || h->la >= D_COL_CUT_ROWS)) {
			L->ccut[i] = cs;
			strips += 2 * ((h->la + 4095) / 4096);
		}
	}
	const int use = rgpu_dp_tune.col_cut > 0 || (rgpu_dp_tune.col_cut == 0 && strips > 0 && strips <= H->G4);
	for (int64_t i = 0; i < L->q; i++)
		if (!use) L->ccut[i] = 0;
	return RK_OK;
}

/* where each pass's bottom row goes in the host buffer: batch passes first, then the long ones
 * (one block, one copy back); a row of lb columns takes (lb + 31) / 32 words. The buffers. */
static rk_status_t level_rows(const hpath_t *H, hlevel_t *L)
{
	dctx_t *X = H->X;
	const int EWB = H->EWB;
	const hitem_t *it = H->it;
	rk_status_t st = RK_OK;
	for (int64_t x = 0; x < 2 * L->q; x++) {
		const int64_t rows = pass_rows(&it[L->pidx[x / 2]], x), lb = it[L->pidx[x / 2]].lb;
		L->eoff[x] = -1;
		L->lidx[x] = -1;
		L->roff[x] = -1;
		if (L->ccut[x / 2]) { L->roff[x] = L->Rw; L->Rw += (H->mode == DPG_LEV ? 2 : 1) * ((it[L->pidx[x / 2]].la + 31) / 32); continue; }
		if (rows > 0 && by_batch(rows, lb)) { L->eoff[x] = L->E; L->E += (lb + 31) / 32; }
	}
	for (int64_t x = 0; x < 2 * L->q; x++) {
		const int64_t rows = pass_rows(&it[L->pidx[x / 2]], x), lb = it[L->pidx[x / 2]].lb;
		if (!L->ccut[x / 2] && rows > 0 && !by_batch(rows, lb)) { L->eoff[x] = L->E + L->El; L->El += (lb + 31) / 32; }
	}
	L->hedge = (uint8_t *)malloc((size_t)(EWB * (L->E + L->El) + 8));
	if (!L->hedge) { rk_set_error("out of memory for the rows of a path"); return RK_ERES; }
	if (L->El && (st = dalloc(X, &L->dle, (uint64_t)EWB * L->El, "the rows of a path's long passes"))) return st;
	if (L->Rw && (!(L->hre = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)L->Rw)) ||
	              (st = dalloc(X, &L->dre, sizeof(uint32_t) * (uint64_t)L->Rw, "the columns of a path's cuts")))) {
		if (!st) { st = RK_ERES; rk_set_error("out of memory for the columns of a path"); }
		return st;
	}
	/* a pruned pass writes only its band's words of the row; the copy back reads all */
	if (L->El) CUDA_CHECK(cudaMemsetAsync(L->dle.p, 0, (size_t)(EWB * L->El), X->rt.st));
	return RK_OK;
}

/* the level's passes: batch jobs and long passes */
static void level_passes(const hpath_t *H, hlevel_t *L)
{
	const int EWB = H->EWB;
	const int64_t LA = H->LA, LB = H->LB, OA = H->OA, OB = H->OB, ORA = H->ORA, ORB = H->ORB;
	for (int64_t x = 0; x < 2 * L->q; x++) {
		const hitem_t *h = &H->it[L->pidx[x / 2]];
		if (L->ccut[x / 2]) {
			/* forward: all rows over columns [0, cs); reverse: all rows over [cs, lb), reversed */
			const int64_t cs = L->ccut[x / 2];
			dpg_pass_t *p = &L->lps[L->nl];
			L->lidx[x] = L->nl++;
			p->a = x & 1 ? ORA + (LA - h->a0 - h->la) : OA + h->a0;
			p->b = x & 1 ? ORB + (LB - h->b0 - h->lb) : OB + h->b0;
			p->la = h->la;
			p->lb = x & 1 ? h->lb - cs : cs;
			band_full(p);
			p->right = (uint32_t *)L->dre.p + L->roff[x];
			continue;
		}
		const int64_t rows = pass_rows(h, x);
		if (rows == 0) continue;   /* no rows: the boundary (a NULL row in the scan) */
		/* forward: A[a0, a0 + is), B[b0, b0 + lb); reverse: the same ranges of the reversed codes */
		const int64_t ao = x & 1 ? ORA + (LA - h->a0 - h->la) : OA + h->a0;
		const int64_t bo = x & 1 ? ORB + (LB - h->b0 - h->lb) : OB + h->b0;
		if (by_batch(rows, h->lb)) {
			bjob_t *j = &L->jobs[L->nj++];
			j->la = rows;
			j->lb = h->lb;
			j->a = ao;
			j->b = bo;
			j->src = x;
			j->nc = H->nc;
			j->cls = dpg_class_of(rows);
			j->edge = L->hedge + (size_t)EWB * L->eoff[x];
		} else {
			dpg_pass_t *p = &L->lps[L->nl];
			L->lidx[x] = L->nl++;
			p->a = ao;
			p->b = bo;
			p->la = rows;
			p->lb = h->lb;
			/* the band of the sub-problem's cost (symmetric, so the reverse pass has the same) */
			if (band_pays(h->cost, h->la, h->lb)) band_k(p, h->cost, h->la, h->lb);
			else band_full(p);
			p->bot = (char *)L->dle.p + (size_t)EWB * (L->eoff[x] - L->E);
		}
	}
}

/* the level's passes run, and their rows and columns back */
static rk_status_t level_run(const hpath_t *H, hlevel_t *L)
{
	dctx_t *X = H->X;
	const int EWB = H->EWB;
	rk_status_t st;
	qsort(L->jobs, (size_t)L->nj, sizeof *L->jobs, cmp_job);
	if ((st = run_batch(X, L->jobs, L->nj, &H->rsrc, "the passes of a path"))) return st;
	if (L->nl) {
		if ((st = long_run(X, (const uint8_t *)H->dc.p, L->lps, L->nl, H->nc, L->lres))) return st;
		if (L->El) CUDA_CHECK(cudaMemcpyAsync(L->hedge + (size_t)EWB * L->E, L->dle.p, (size_t)(EWB * L->El), cudaMemcpyDeviceToHost, X->rt.st));
		if (L->Rw) CUDA_CHECK(cudaMemcpyAsync(L->hre, L->dre.p, sizeof(uint32_t) * (size_t)L->Rw, cudaMemcpyDeviceToHost, X->rt.st));
		CUDA_CHECK(cudaStreamSynchronize(X->rt.st));
		dfree(X, &L->dle);
		dfree(X, &L->dre);
	}
	return RK_OK;
}

/* each split's crossing: a column cut's from its two columns, a row split's from its two rows */
static rk_status_t level_cross(const hpath_t *H, hlevel_t *L)
{
	const int mode = H->mode, EWB = H->EWB;
	rk_status_t st;
	for (int64_t i = 0; i < L->q; i++) {
		const hitem_t *h = &H->it[L->pidx[i]];
		L->rmap[i] = -1;
		if (L->ccut[i]) {
			if ((st = dpg_col_cross(mode, L->hre + L->roff[2 * i], L->hre + L->roff[2 * i + 1], h->la, h->lb, L->ccut[i], &L->cres[i][0],
			                        &L->cres[i][1], &L->cres[i][2])))
				return st;
			continue;
		}
		const int64_t is = split_row(h->la);
		L->rmap[i] = L->nr;
		dpg_cross_job_t *c = &L->cj[L->nr++];
		for (int r = 0; r < 2; r++) {
			const int64_t x = 2 * i + r, rows = r ? h->la - is - 1 : is;
			dpg_row_t *w = r ? &c->B : &c->F;
			w->e = L->eoff[x] >= 0 ? L->hedge + (size_t)EWB * L->eoff[x] : 0;
			if (L->lidx[x] >= 0) {   /* a long pass: its last strip's columns, its value at the first */
				const pres_t *pr = &L->lres[L->lidx[x]];
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
		c->ai = H->hc[H->OA + h->a0 + is];
		c->bc = H->hc + H->OB + h->b0;
	}
	dpg_cross_many(mode, L->cj, L->nr, H->X->threads);
	return RK_OK;
}

/* The next level's sub-problems: leaves and ops as they are, each split's pieces after its
 * crossing, whose cost is checked against the sub-problem's (the root's: its bound; above it
 * with -k, H->stop: no path). */
static rk_status_t level_next(hpath_t *H, const hlevel_t *L)
{
	const int mode = H->mode;
	const hitem_t *it = H->it;
	const int64_t nit = H->nit;
	int64_t *cost = H->cost;
	rk_status_t st;
	H->nnx = 0;
	for (int64_t t = 0, i = 0; t < nit; t++) {
		const hitem_t *h = &it[t];
		if (h->op >= 0 || is_leaf(mode, h->la, h->lb)) {
			if ((st = items_push(&H->nx, &H->nnx, &H->mnx, *h))) return st;
			continue;
		}
		const int64_t ci = i++;
		dpg_cross_t cx;   /* a column cut as a crossing: its best; the pieces below */
		const dpg_cross_t *x = L->ccut[ci] ? &cx : &L->cj[L->rmap[ci]].x;
		if (L->ccut[ci]) { memset(&cx, 0, sizeof cx); cx.best = L->cres[ci][0]; }
		if (!h->exact && (x->best < 0 || (h->cost >= 0 && x->best > h->cost))) {
			/* only the root is inexact: above its bound. With -k that is the answer; a bound of
			 * our own is never below the cost */
			if (H->from_k) { H->stop = 1; return RK_OK; }
			rk_set_error("internal error: GPU Hirschberg root of %lld x %lld costs %lld, bound %lld", (long long)h->la,
			             (long long)h->lb, (long long)x->best, (long long)h->cost);
			return RK_ERES;
		}
		if (h->exact && x->best != h->cost) {
			rk_set_error("internal error: GPU Hirschberg split of %lld x %lld costs %lld, expected %lld", (long long)h->la,
			             (long long)h->lb, (long long)x->best, (long long)h->cost);
			return RK_ERES;
		}
		if (!h->exact) *cost = x->best;   /* the root */
		if (L->ccut[ci]) {
			/* (0, 0) to (at, cs) and (at, cs) to the end, no op between */
			const int64_t cs = L->ccut[ci], at = L->cres[ci][1], cf = L->cres[ci][2];
			hitem_t top = { h->a0, at, h->b0, cs, cf, 1, -1 };
			hitem_t bot = { h->a0 + at, h->la - at, h->b0 + cs, h->lb - cs, x->best - cf, 1, -1 };
			if ((st = items_push(&H->nx, &H->nnx, &H->mnx, top)) || (st = items_push(&H->nx, &H->nnx, &H->mnx, bot))) return st;
			if (h->exact && nit == 1) *cost = h->cost;
			continue;
		}
		const int64_t is = split_row(h->la);
		hitem_t top = { h->a0, is, h->b0, x->j, x->cf, 1, -1 };
		hitem_t mid = { 0, 0, 0, 0, 0, 1, x->op };
		hitem_t bot = { h->a0 + is + 1, h->la - is - 1, h->b0 + x->jn, h->lb - x->jn, x->cb, 1, -1 };
		if ((st = items_push(&H->nx, &H->nnx, &H->mnx, top)) || (st = items_push(&H->nx, &H->nnx, &H->mnx, mid)) ||
		    (st = items_push(&H->nx, &H->nnx, &H->mnx, bot)))
			return st;
		if (h->exact && nit == 1) *cost = h->cost;
	}
	{ hitem_t *t = H->it; H->it = H->nx; H->nx = t; int64_t tn = H->nit; H->nit = H->nnx; H->nnx = tn; int64_t tm = H->mit; H->mit = H->mnx; H->mnx = tm; }
	return RK_OK;
}

/* the leaves, traced as a batch over the resident codes, appended to out in order with the
 * ops between them; each one's cost checked against its sub-problem's */
static rk_status_t path_leaves(hpath_t *H, aln_path_t *out)
{
	const int mode = H->mode;
	const hitem_t *it = H->it;
	const int64_t nit = H->nit;
	rk_status_t st = RK_OK;
	const size_t ncell = (size_t)(nit > 0 ? nit : 1);   /* nit >= 1: the root or its pieces */
	aln_path_t *piece = (aln_path_t *)calloc(ncell, sizeof(aln_path_t));
	int64_t *leafval = (int64_t *)malloc(sizeof(int64_t) * ncell);
	bjob_t *jobs = (bjob_t *)calloc(ncell, sizeof(bjob_t));
	if (!piece || !leafval || !jobs) { st = RK_ERES; rk_set_error("out of memory for a path"); goto done; }
	{
		int64_t nj = 0;
		for (int64_t t = 0; t < nit; t++) {
			const hitem_t *h = &it[t];
			leafval[t] = -1;
			if (h->op >= 0 || h->la == 0 || h->lb == 0) continue;
			bjob_t *j = &jobs[nj++];
			j->la = h->la;
			j->lb = h->lb;
			j->a = H->OA + h->a0;
			j->b = H->OB + h->b0;
			j->src = t;
			j->nc = H->nc;
			j->cls = dpg_class_of(h->la);
			j->dst = &piece[t];
			j->val = &leafval[t];
		}
		qsort(jobs, (size_t)nj, sizeof *jobs, cmp_job);
		if ((st = run_batch(H->X, jobs, nj, &H->rsrc, "the sub-problems of a path"))) goto done;
	}
	if (nit == 1 && it[0].op < 0 && !it[0].exact) {   /* the root was a leaf */
		const hitem_t *h = &it[0];
		const int64_t c = h->la == 0 || h->lb == 0 ? h->la + h->lb : to_cost(mode, leafval[0], h->la, h->lb);
		if (H->from_k && c > h->cost) goto done;
		*H->cost = c;
	}
	{
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
	free(piece);
	free(leafval);
	free(jobs);
	return st;
}

/* the pair's codes up (and forward on the host), the root's bound (-k, or an upper bound from
 * a narrow band) and the root */
static rk_status_t path_start(hpath_t *H, const char *a, const char *b, int64_t k)
{
	dctx_t *X = H->X;
	const int64_t LA = H->LA, LB = H->LB;
	uint8_t map[256];
	int exact = 0;
	rk_status_t st;
	H->nc = dpg_map(a, LA, map);
	/* the host keeps the forward codes for the crossings (hc[OA + i], hc[OB + j]) */
	H->hc = (uint8_t *)malloc((size_t)(LA + LB));
	if (!H->hc) { rk_set_error("out of memory for a %lld x %lld path", (long long)LA, (long long)LB); return RK_ERES; }
	dpg_encode(map, a, LA, 0, H->hc + H->OA);
	dpg_encode(map, b, LB, 0, H->hc + H->OB);
	if ((st = codes_up(X, map, a, LA, b, LB, CODES_BOTH, &H->dc, "the symbols of a long pair and their reverse"))) return st;
	/* the root's bound: -k, or an upper bound from a narrow band (A and B forward at OA = 0, OB = LA) */
	if (k < 0 && !is_leaf(H->mode, LA, LB) && (st = long_bound(X, (const uint8_t *)H->dc.p, H->nc, a, LA, b, LB, &k, &exact))) return st;
	{
		hitem_t root = { 0, LA, 0, LB, k, exact, -1 };
		if ((st = items_push(&H->it, &H->nit, &H->mit, root))) return st;
	}
	H->rsrc.p = 0;
	H->rsrc.dcodes = (const uint8_t *)H->dc.p;
	/* resident warps of the long kernel at 4 words per lane: a level whose column cuts fit them
	 * in one round cuts columns (rgpu_dp_tune.col_cut) */
	return long_warps(X, H->nc, 4, &H->G4);
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
	hpath_t H;
	hlevel_t L;
	memset(&H, 0, sizeof H);
	memset(&L, 0, sizeof L);
	H.X = X;
	H.mode = X->mode;
	H.EWB = ew_bytes(X->mode);
	H.from_k = k >= 0;
	H.LA = LA;
	H.LB = LB;
	H.OA = 0;
	H.OB = LA;
	H.ORA = LA + LB;
	H.ORB = 2 * LA + LB;
	H.cost = cost;
	*cost = -1;
	rk_status_t st = path_start(&H, a, b, k);
	while (!st) {
		int64_t ni = 0;
		for (int64_t t = 0; t < H.nit; t++)
			if (H.it[t].op < 0 && !is_leaf(H.mode, H.it[t].la, H.it[t].lb)) ni++;
		if (!ni) break;
		if ((st = level_splits(&H, &L, ni)) || (st = level_rows(&H, &L))) break;
		level_passes(&H, &L);
		if ((st = level_run(&H, &L)) || (st = level_cross(&H, &L)) || (st = level_next(&H, &L)) || H.stop) break;
		level_free(X, &L);
	}
	if (!st && !H.stop) st = path_leaves(&H, out);
	level_free(X, &L);
	free(H.hc);
	free(H.it);
	free(H.nx);
	dfree(X, &H.dc);
	return st;
}
