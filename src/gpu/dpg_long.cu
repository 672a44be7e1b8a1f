/* The long runner: passes of the long kernel over long pairs (or pieces and halves of them),
 * several per cooperative launch; it picks the words per lane and the warps of the launch and
 * sizes the rings between them, and gives each pass's last-strip values. Bands and bounds:
 * long pairs are pruned as on the CPU (aln_sweep.c, aln_cost): a bound (-k, the cost in a
 * narrow band about the corner diagonals, or a sub-problem's known cost in Hirschberg) limits
 * the long kernel to a diagonal band when that is well under the matrix; values outside are
 * virtual upper bounds, so the cost and every optimal path inside are exact. Which passes run
 * is left to the strategies (dpg_value.cu, dpg_hirsch.cu, dpg_slab.cu). */
#include "gpu/dpg_drv.h"
extern "C" {
#include "algo/corners.h"
}

typedef struct { int mode; const dpg_long_t *p; } long_arg_t;
static cudaError_t long_fn(const void *a, cudaStream_t st)
{
	const long_arg_t *x = (const long_arg_t *)a;
	dpg_long_t p = *x->p;
	for (;;) {
		const cudaError_t e = dpg_long_launch(x->mode, &p, st);
		if (e != cudaErrorCooperativeLaunchTooLarge || p.G <= 1) return e;
		/* fewer SMs than the occupancy said (MPS, another context): fewer warps give the same
		 * result, and the rings and counters allocated for G serve any smaller grid */
		cudaGetLastError();
		p.G = (p.G + 1) / 2;
	}
}

/* warps of the long kernel resident at once on the whole device, for nc codes and rw words per
 * lane (*G = 0: it does not fit) */
rk_status_t long_warps(const dctx_t *X, int nc, int rw, int64_t *G)
{
	int bps = 0;
	CUDA_CHECK(dpg_long_occupancy(X->mode, rw, nc, &bps));
	*G = (int64_t)bps * X->nsm * dpg_long_warps(nc, rw);
	return RK_OK;
}

/* What long_run's choices read: the passes' shape, and the strips and resident warps at
 * 1, 2 and 4 words per lane. */
typedef struct {
	int banded;              /* every pass in a band of under half its columns */
	int64_t maxlb;
	int64_t conc, minla;     /* rows at work at once: a pass's rows, or its band's width when narrower */
	int64_t ns_of[5], G_of[5];
} lshape_t;

static rk_status_t long_shape(const dctx_t *X, const dpg_pass_t *ps, int64_t np, int nc, lshape_t *sh)
{
	memset(sh, 0, sizeof *sh);
	sh->banded = 1;
	sh->minla = INT64_MAX;
	for (int64_t i = 0; i < np; i++) {
		sh->maxlb = imax(sh->maxlb, ps[i].lb);
		if (ps[i].dhi - ps[i].dlo >= ps[i].lb / 2) sh->banded = 0;
		sh->conc += imin(ps[i].la, ps[i].dhi - ps[i].dlo);
		sh->minla = imin(sh->minla, ps[i].la);
	}
	int coop = 0;
	CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, X->rt.device));
	if (!coop) {
		rk_set_error("device %d cannot run cooperative kernels (the long-pair kernel needs them); use --backend cpu", X->rt.device);
		return RK_ERES;
	}
	/* words per lane: strips and resident warps of each choice */
	for (int c = 1; c <= 4; c *= 2) {
		rk_status_t st = long_warps(X, nc, c, &sh->G_of[c]);
		if (st) return st;
		for (int64_t i = 0; i < np; i++) sh->ns_of[c] += (ps[i].la + 1024ll * c - 1) / (1024ll * c);
	}
	return RK_OK;
}

/* The words per lane of the launch (rgpu_dp_tune.long_rw when set), and *Gcap: fewer warps
 * than the grid holds (INT64_MAX: as many as it holds). */
static int long_words(dctx_t *X, const lshape_t *sh, int64_t np, int nc, int64_t *Gcap)
{
	const int mode = X->mode, banded = sh->banded;
	const int64_t *ns_of = sh->ns_of, *G_of = sh->G_of, conc = sh->conc, minla = sh->minla;
	int rw = rgpu_dp_tune.long_rw ? rgpu_dp_tune.long_rw : rk_tune.gpu_long_rw;
	*Gcap = INT64_MAX;
	if (rw != 1 && rw != 2 && rw != 4) {
		/* Fewest rounds of strips over the resident warps first: a second round runs on what is
		 * left over, for a whole strip's time. Then more words per lane (fewer shuffles per cell,
		 * a longer chain per step) when its strips give every SM 4 warps or more (H100, lev 4 Mb:
		 * 977 strips of 4 words 0.87 s, 1,954 of 2 words 0.99 s; 1 Mb: 1 word 0.120 s, 2 words
		 * 0.125 s); never for narrow bands, where the wavefront's latency is the time. */
		int64_t best = INT64_MAX;
		for (int c = 1; c <= 4; c *= 2)
			if (G_of[c] > 0) best = imin(best, (ns_of[c] + G_of[c] - 1) / G_of[c]);
		rw = 0;
		if (!banded)
			for (int c = 4; c >= 2 && !rw; c /= 2)
				if (G_of[c] > 0 && (ns_of[c] + G_of[c] - 1) / G_of[c] == best && ns_of[c] >= 4ll * X->nsm * best) rw = c;
		for (int c = 1; c <= 4 && !rw; c *= 2)
			if (G_of[c] > 0 && (banded || (ns_of[c] + G_of[c] - 1) / G_of[c] == best)) rw = c;
		/* Fewer words per lane when the choice leaves a quarter of the resident warps idle and
		 * fewer would not. A band's strips start one after another (each a strip's height of
		 * columns after the one above), so only those within a band's width of rows work at once
		 * (H100, 10 Mb in a band of half its length: lev 2 words 2.43 s, 4 words 2.56 s; its half,
		 * as a rank of two runs it, 1.35 and 1.52 s; a 5 Mb path, whose levels are two banded
		 * passes of half the rows, 1.87 -> 1.68 s). Passes of a million rows or more: below, the
		 * levels of a 10 Mb path lost 3% to it. */
		if (!banded && minla >= (1ll << 20))
			for (int c = rw / 2; c >= 2 && conc / (1024ll * rw) < 3 * G_of[rw] / 4; c /= 2)
				if (G_of[c] > 0 && conc / (1024ll * c) >= 3 * G_of[c] / 4) rw = c;
		if (!rw) rw = 1;
		/* Fewer warps than the strips at work, 4 words per lane, the same number on every SM.
		 * With a warp for every strip at work, each strip runs right behind the one above it
		 * (two blocks of lag), so every hiccup of one stalls all below it, and the strips at
		 * work, a run of consecutive warps, crowd some SMs more than others. With fewer warps,
		 * a strip waits for its warp's previous one and then runs on a backlog of the ring:
		 * more steps, each cheaper. H100, 10 Mb random pairs (kernel; 528 = a block of 4 warps
		 * on each of 132 SMs): lev, 1,265 strips at work, 2 words on 2,640 warps 2.44 s, 4 words
		 * on 528 / 1,056 / 1,584 / 2,112 warps 2.49 / 1.74 / 2.27 / 2.61 s; lcs, 1,696 at work,
		 * 1.24 s, 4 words on 1,056 / 1,584 / 2,112: 1.24 / 1.03 / 1.30 s; lev 4 Mb (505 at work)
		 * 0.574 -> 0.478 s on 528. A lcs step is short: on 4 warps an SM it waits on its
		 * latency (lcs 10 Mb on 528 warps: 76 ns a step, on 1,056: 93), so lcs keeps 8. One
		 * pass only: the passes of a launch (a meeting, Hirschberg's levels) were chosen to fit
		 * the warps in one round (lev 2 Mb, meeting: 0.149 -> 0.212 s with fewer). */
		if (np == 1 && !banded && minla >= (1ll << 20) && rgpu_dp_tune.fewer_warps >= 0 && G_of[4] > 0) {
			const int64_t B = (int64_t)X->nsm * dpg_long_warps(nc, 4), w4 = conc / 4096, k = (w4 + B / 8) / B;
			const int64_t cap = G_of[4] >= B ? imin(k, G_of[4] / B) * B : 0;
			if (k >= (mode == DPG_LEV ? 1 : 2) && cap > 0 && cap < ns_of[4]) {   /* else a warp a strip anyway */
				rw = 4;
				*Gcap = cap;
				if (X->sp) X->sp->n_fewer++;
			}
		}
	}
	return rw;
}

/* each pass's last strip from the strips' parts (res of long_run) */
static void pass_results(int mode, const dpg_pass_t *ps, int64_t np, int64_t SR, const long long *hpart, pres_t *res)
{
	for (int64_t i = 0; i < np; i++) {
		/* corners: the top-left one of the first strip is 0; down a strip's left edge lev
		 * adds a row each (boundary or virtual), lcs nothing; along its bottom row to the
		 * strip below's first column, its part */
		const dpg_pass_t *q = &ps[i];
		const int64_t n = (q->la + SR - 1) / SR;
		int64_t v = 0;
		for (int64_t x = 0; x < n; x++) {
			const int64_t r0 = x * SR, r1 = imin(q->la, r0 + SR);
			const int64_t bl = v + (mode == DPG_LEV ? r1 - r0 : 0);
			if (x == n - 1) {
				res[i].c0 = dpg_clo(r0, q->dlo, q->lb);
				res[i].c1 = dpg_chi(r1, q->dhi, q->lb);
				res[i].v0 = bl;
				res[i].total = bl + hpart[q->first + x];
			} else {
				v = bl + hpart[q->first + x];
			}
		}
	}
}

/* The launch of long_run on rw words per lane and G warps: the passes and their strips up,
 * rings, wrap row and counters zeroed; res (or NULL) from the strips' parts. */
static rk_status_t long_launch(dctx_t *X, const uint8_t *dcodes, dpg_pass_t *ps, int64_t np, int nc, const lshape_t *sh, int rw,
                               int64_t G, pres_t *res)
{
	const int mode = X->mode;
	const int64_t SR = 1024ll * rw, ns = sh->ns_of[rw], maxlb = sh->maxlb, conc = sh->conc;
	/* chunk of the rings: a strip waits for each word it needs (its slot's number), so the chunk
	 * only sets how often the reader says which slots are free; large chunks (H100, lcs 1 Mb:
	 * 2 words 0.0526 s, 16 words 0.0515 s); rings of at least 128 words */
	const int cww = rgpu_dp_tune.chunk_words > 0 ? (int)rgpu_dp_tune.chunk_words : D_CWW;
	const int ring = (int)imax(2, tune_or(rgpu_dp_tune.ring, imax(D_RING, 128 / cww)));
	int32_t *hsp = (int32_t *)malloc(sizeof(int32_t) * (size_t)ns);
	long long *hpart = (long long *)malloc(sizeof(long long) * (size_t)ns);
	if (!hsp || !hpart) {
		free(hsp);
		free(hpart);
		rk_set_error("out of memory for %lld strips", (long long)ns);
		return RK_ERES;
	}
	for (int64_t i = 0; i < np; i++)
		for (int64_t s = ps[i].first; s < ps[i].first + (ps[i].la + SR - 1) / SR; s++) hsp[s] = (int32_t)i;
	dbuf_t dps = { 0, 0 }, dsp = { 0, 0 }, drings = { 0, 0 }, dwrap = { 0, 0 }, dcnt = { 0, 0 }, dpart = { 0, 0 };
	rk_status_t st = RK_OK;
	const uint64_t cnt_bytes = (uint64_t)G * DPG_CNT_STRIDE * 8, SB = (uint64_t)dpg_slot_bytes(mode);
	const uint64_t ring_bytes = (uint64_t)(G - 1) * ring * cww * SB, wrap_bytes = (uint64_t)((maxlb + 31) / 32 + 1) * SB;
	if ((st = dalloc(X, &dps, sizeof(dpg_pass_t) * (uint64_t)np, "the passes of a long pair")) ||
	    (st = dalloc(X, &dsp, 4 * (uint64_t)ns, "the strips of a long pair")) ||
	    (st = dalloc(X, &dpart, 8 * (uint64_t)ns, "the strips of a long pair")) ||
	    (st = dalloc(X, &drings, ring_bytes, "the rings between warps")) ||
	    (st = dalloc(X, &dwrap, wrap_bytes, "the wrap-around row")) ||
	    (st = dalloc(X, &dcnt, cnt_bytes, "the pipeline counters")))
		goto done;
	CUDA_CHECK_GOTO(cudaMemsetAsync(dcnt.p, 0, cnt_bytes, X->rt.st), done);
	if (ring_bytes) CUDA_CHECK_GOTO(cudaMemsetAsync(drings.p, 0, ring_bytes, X->rt.st), done);
	CUDA_CHECK_GOTO(cudaMemsetAsync(dwrap.p, 0, wrap_bytes, X->rt.st), done);
	CUDA_CHECK_GOTO(cudaMemcpyAsync(dps.p, ps, sizeof(dpg_pass_t) * (size_t)np, cudaMemcpyHostToDevice, X->rt.st), done);
	CUDA_CHECK_GOTO(cudaMemcpyAsync(dsp.p, hsp, 4 * (size_t)ns, cudaMemcpyHostToDevice, X->rt.st), done);
	{
		dpg_long_t lp;
		lp.pass = (const dpg_pass_t *)dps.p;
		lp.strip_pass = (const int32_t *)dsp.p;
		lp.ns = ns;
		lp.codes = dcodes;
		lp.nc = nc;
		lp.rw = rw;
		lp.G = (int)G;
		lp.ring = ring;
		lp.cww = cww;
		lp.rings = (unsigned long long *)drings.p;
		lp.wrap = (unsigned long long *)dwrap.p;
		lp.cnt = (unsigned long long *)dcnt.p;
		lp.part = (long long *)dpart.p;
		long_arg_t la = { mode, &lp };
		const double tk = X->rt.stats ? X->rt.stats->kernel_s : 0;
		if ((st = rgpu_rt_timed(&X->rt, long_fn, &la)) != RK_OK) goto done;
		if (X->sp) X->sp->n_jchunk++;
		rk_debug("gpu long kernel: %lld pass(es), %lld strips of %d word(s) a lane on %lld warps, %lld rows at work at once, %.4f s",
		         (long long)np, (long long)ns, rw, (long long)G, (long long)conc, X->rt.stats ? X->rt.stats->kernel_s - tk : 0.0);
	}
	if (res) {
		CUDA_CHECK_GOTO(cudaMemcpyAsync(hpart, dpart.p, 8 * (size_t)ns, cudaMemcpyDeviceToHost, X->rt.st), done);
		CUDA_CHECK_GOTO(cudaStreamSynchronize(X->rt.st), done);
		pass_results(mode, ps, np, SR, hpart, res);
	}
done:
	free(hsp);
	free(hpart);
	dfree(X, &dps);
	dfree(X, &dsp);
	dfree(X, &dpart);
	dfree(X, &drings);
	dfree(X, &dwrap);
	dfree(X, &dcnt);
	return st;
}

/* ------------------------------------------------------------------------------------------ */
/* the long kernel: passes ps[0, np) (first set here) over the device codes; res (np entries,
 * or NULL): each pass's last strip: its columns [c0, c1] and values at c0 and at c1 (lev D,
 * lcs L), from the strips' bottom-row sums and their corners (dpg_kern.h) */
rk_status_t long_run(dctx_t *X, const uint8_t *dcodes, dpg_pass_t *ps, int64_t np, int nc, pres_t *res)
{
	lshape_t sh;
	rk_status_t st = long_shape(X, ps, np, nc, &sh);
	if (st) return st;
	int64_t Gcap = INT64_MAX;   /* fewer warps than the grid holds */
	const int rw = long_words(X, &sh, np, nc, &Gcap);
	const int64_t SR = 1024ll * rw;
	const int64_t ns = sh.ns_of[rw];
	for (int64_t i = 0, f = 0; i < np; i++) {
		ps[i].first = f;
		f += (ps[i].la + SR - 1) / SR;
	}
	int64_t G = sh.G_of[rw];
	if (G < 1) {
		rk_set_error("the long-pair kernel does not fit on device %d (%d symbols)", X->rt.device, nc);
		return RK_ERES;
	}
	G = imin(imin(G, ns), Gcap);
	if (rgpu_dp_tune.max_warps > 0) G = imin(G, rgpu_dp_tune.max_warps);
	return long_launch(X, dcodes, ps, np, nc, &sh, rw, G, res);
}

/* Bands (dpg_kern.h). A pass over the top rows of a problem of la x lb (or of the problem
 * reversed: the band is symmetric) that only needs the paths of cost <= k: |j - i| + |(lb - j)
 * - (la - i)| <= k, i.e. j - i within min(0, d) - h .. max(0, d) + h with d = lb - la and
 * h = (k - |d|) / 2 (k >= |d|); the full band is every cell. */
void band_full(dpg_pass_t *p)
{
	p->dlo = -p->la;
	p->dhi = p->lb;
}
/* a pass over the whole of a pair whose codes are A at 0 and B at la, every cell, no edges */
void pass_whole(dpg_pass_t *p, int64_t la, int64_t lb)
{
	memset(p, 0, sizeof *p);
	p->b = la;
	p->la = la;
	p->lb = lb;
	band_full(p);
}
void band_k(dpg_pass_t *p, int64_t k, int64_t la, int64_t lb)
{
	const int64_t d = lb - la, h = (k - (d < 0 ? -d : d)) / 2;
	p->dlo = imin(0, d) - h;
	p->dhi = imax(0, d) + h;
}
/* The band of cost k pays when it is well under the matrix (or the tests say so). A wide band
 * leaves SMs part idle (its strips start one after another, each a strip's height of columns
 * later), so it must cut the cells by more than that: at most D_BAND_FRAC of them (a random
 * 10 Mb lev pair: 45%, lcs 57%). */
static double band_frac(int64_t k, int64_t la, int64_t lb)
{
	dpg_pass_t p;
	band_k(&p, k, la, lb);
	double cells = 0;   /* the band's cells, from 256 rows */
	for (int q = 0; q < 256; q++) {
		const int64_t i = (int64_t)((q + 0.5) * (double)la / 256);
		cells += (double)imax(0, imin(lb, i + p.dhi) - imax(0, i + p.dlo));
	}
	return cells / 256 / (double)lb;
}
int band_pays(int64_t k, int64_t la, int64_t lb)
{
	if (rgpu_dp_tune.band < 0 || k < 0) return 0;
	if (rgpu_dp_tune.band > 0) return 1;
	if ((double)la * (double)lb < (double)(1ll << 24)) return 0;
	return band_frac(k, la, lb) <= D_BAND_FRAC;
}
/* Hirschberg: a sub-problem whose column cut fills the resident warps is cut so, every cell,
 * unless its band holds at most half of them (H200, a 5M x 5M piece: lev, band 45%: band 1.87 s,
 * column cut 2.52 s; lcs, band 57%: 1.46-1.56 s against 1.33 s) */
int band_beats_cut(int64_t k, int64_t la, int64_t lb)
{
	return band_pays(k, la, lb) && (rgpu_dp_tune.band > 0 || band_frac(k, la, lb) <= D_BAND_CUT_FRAC);
}

/* a cost (lev D, lcs la + lb - 2 L) from a pass value */
int64_t to_cost(int mode, int64_t v, int64_t rows, int64_t cols)
{
	return mode == DPG_LEV ? v : rows + cols - 2 * v;
}

/* An upper bound of the cost of the pair on the device codes (A at 0, B at la), or -1 when a
 * bound would not pay (pairs under 2^32 cells): the sum of the costs of K diagonal pieces,
 * piece q being A[q la / K, (q + 1) la / K) against B[bq[q], bq[q + 1]), each in a band of
 * half-width band_w about its corner diagonals, B's cuts following the alignment's drift
 * (aln_corners: a and b are the host's copies). The pieces' alignments, end to end, align
 * the pair, so the sum bounds its cost. They run at once, so the pass is about a piece's rows of
 * wavefront steps; one band over the whole pair took la steps (0.3 s for 10 Mb), so it only ran
 * when a prefix looked similar, and an unrelated pair got no band at all. Yet random DNA
 * pairs cost about half their length, and the band of that cost is under half of the matrix:
 * 30 kb random, band 128 either side, on the CPU: 4 pieces 0.5196 n, one band 0.5185 n,
 * the true cost 0.5171 n. Cut in proportion instead, a 100 Mb pair 1% apart (drift up to ~800
 * columns) got a bound of ~25% of the matrix. *exact: one piece whose band covered the matrix. */
rk_status_t long_bound(dctx_t *X, const uint8_t *dc, int nc, const char *a, int64_t la, const char *b, int64_t lb, int64_t *ub,
                       int *exact)
{
	*ub = -1;
	*exact = 0;
	if (rgpu_dp_tune.band < 0 || (rgpu_dp_tune.band == 0 && (double)la * (double)lb < 4294967296.0)) return RK_OK;
	const int64_t w = tune_or(rgpu_dp_tune.band_w, 256), P = tune_or(rgpu_dp_tune.probe_rows, 1 << 14);
	const int64_t K = imax(1, la / P);
	dpg_pass_t *ps = (dpg_pass_t *)calloc((size_t)K, sizeof *ps);
	pres_t *res = (pres_t *)calloc((size_t)K, sizeof *res);
	int64_t *bq = (int64_t *)malloc(sizeof(int64_t) * (size_t)(K + 1));
	int64_t np = 0, sum = 0;
	rk_status_t st = RK_OK;
	if (!ps || !res || !bq) { st = RK_ERES; rk_set_error("out of memory for %lld pieces", (long long)K); goto done; }
	aln_corners(a, la, b, lb, K, bq);
	for (int64_t q = 0; q < K; q++) {
		const int64_t a0 = q * la / K, a1 = (q + 1) * la / K, b0 = bq[q], b1 = bq[q + 1];
		if (a1 == a0 || b1 == b0) { sum += (a1 - a0) + (b1 - b0); continue; }   /* all gaps, either mode */
		dpg_pass_t *p = &ps[np++];
		const int64_t d = (b1 - b0) - (a1 - a0);
		p->a = a0;
		p->b = la + b0;
		p->la = a1 - a0;
		p->lb = b1 - b0;
		p->dlo = imin(0, d) - w;
		p->dhi = imax(0, d) + w;
	}
	if (np && (st = long_run(X, dc, ps, np, nc, res))) goto done;
	for (int64_t q = 0; q < np; q++) sum += to_cost(X->mode, res[q].total, ps[q].la, ps[q].lb);
	*ub = sum;
	*exact = K == 1 && np == 1 && ps[0].dlo <= -la && ps[0].dhi >= lb;
done:
	free(ps);
	free(res);
	free(bq);
	return st;
}
