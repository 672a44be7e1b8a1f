/* Body of the batch kernels (one pair per lane), instantiated per vector width by
 * aln_batch.c after aln_vec.h. Every lane runs its own pair column by column over NW words of
 * rows, the horizontal delta passing from word to word inside the lane, so lanes never talk.
 * Lanes whose pair has fewer columns keep their state once past their end (masked), words past
 * a pair's rows are padding below it. Eq: the code planes of A against those of B, B's given
 * per 64 columns with the first column in bit 63 (a lane mask is then one arithmetic shift,
 * and the next column one add away). NW, NB constants per instance. */

SX_ATTR static inline __attribute__((always_inline)) void SX_FN(bkern_)(const int KIND, const int NW, const int NB,
	int nb, int64_t ncol, const int64_t *lbl, const uint64_t *pl, const uint64_t *bpl, uint64_t *st, uint64_t *fin)
{
	V S0[32], S1[32], P[32][8];   /* up to 32 words (BATCH_WORDS) */
	#pragma GCC unroll 32
	for (int w = 0; w < NW; w++) {
		S0[w] = V_SET1(~0ull);
		S1[w] = V_ZERO;
		for (int k = 0; k < (NB ? NB : nb); k++) P[w][k] = V_LOAD(pl + (w * 8 + k) * VL);
	}
	int64_t lbmin = lbl[0];
	for (int l = 1; l < VL; l++) if (lbl[l] < lbmin) lbmin = lbl[l];
	V Bk[8] = { V_ZERO };
	for (int64_t j = 0; j < ncol; j++) {
		V Mk[8] = { V_ZERO };
		if ((j & 63) == 0)
			for (int k = 0; k < (NB ? NB : nb); k++) Bk[k] = V_LOAD(bpl + ((j >> 6) * 8 + k) * VL);
		for (int k = 0; k < (NB ? NB : nb); k++) {
			Mk[k] = V_SRA63(Bk[k]);
			Bk[k] = V_ADD(Bk[k], Bk[k]);
		}
		V o0[32], o1[32];
		#pragma GCC unroll 32
		for (int w = 0; w < NW; w++) o0[w] = S0[w], o1[w] = S1[w];
		/* lev: raw Ph/Mh of the word above (bit 63; the top edge is +1); lcs: the carry (bit 0) */
		V h1 = KIND == ALN_LEV ? V_SET1(1ull << 63) : V_ZERO, h2 = V_ZERO, h2b = V_ZERO;
		V R0[32], R1[32];   /* raw horizontal outputs, kept for tracebacks */
		#pragma GCC unroll 32
		for (int w = 0; w < NW; w++) {
			V X = P[w][0] ^ Mk[0];
			for (int k = 1; k < (NB ? NB : nb); k++) X = V_TL(X, P[w][k], Mk[k], F_OR_XOR);
			if (KIND == ALN_LEV) {
				V pv = S0[w], mv = S1[w];
				V Xv = V_TL(X, mv, mv, F_NOT_OR);
				V Eq = V_TL(X, h2b, h2b, F_NOT_OR);
				V S = V_ADD(Eq & pv, pv);
				V Xh = V_TL(S, pv, Eq, F_XH);
				V Ph = V_TL(mv, Xh, pv, F_OR_NOR);
				V Mh = pv & Xh;
				R0[w] = Ph;
				R1[w] = Mh;
				V Ph2 = V_SHLD1(Ph, h1), Mh2 = V_SHLD1(Mh, h2);
				S0[w] = V_TL(Mh2, Xv, Ph2, F_OR_NOR);
				S1[w] = Ph2 & Xv;
				h1 = Ph;
				h2 = Mh;
				h2b = V_SRL(Mh, 63);
			} else {
				V v = S0[w];
				V U = V_TL(v, X, X, F_ANDNOT);
				V S = V_ADD(V_ADD(v, U), h1);
				R0[w] = V_TL(v, U, S, F_CARRY);
				h1 = V_SRL(R0[w], 63);
				S0[w] = V_TL(S, v, X, F_OR_AND);
			}
		}
		if (j >= lbmin) {
			unsigned bits = 0;
			for (int l = 0; l < VL; l++) bits |= (unsigned)(j < lbl[l]) << l;
			#pragma GCC unroll 32
			for (int w = 0; w < NW; w++) {
				S0[w] = V_BLEND(o0[w], S0[w], bits);
				if (KIND == ALN_LEV) S1[w] = V_BLEND(o1[w], S1[w], bits);
			}
		}
		if (st) {   /* per word: lev pv, mv, ph, mh; lcs V, carry */
			uint64_t *o = st + j * NW * (KIND == ALN_LEV ? 4 : 2) * VL;
			#pragma GCC unroll 32
			for (int w = 0; w < NW; w++) {
				if (KIND == ALN_LEV) {
					V_STORE(o + (4 * w) * VL, S0[w]);
					V_STORE(o + (4 * w + 1) * VL, S1[w]);
					V_STORE(o + (4 * w + 2) * VL, R0[w]);
					V_STORE(o + (4 * w + 3) * VL, R1[w]);
				} else {
					V_STORE(o + (2 * w) * VL, S0[w]);
					V_STORE(o + (2 * w + 1) * VL, R0[w]);
				}
			}
		}
	}
	#pragma GCC unroll 32
	for (int w = 0; w < NW; w++) {
		V_STORE(fin + (2 * w) * VL, S0[w]);
		V_STORE(fin + (2 * w + 1) * VL, S1[w]);
	}
}

#define BK_INST(KIND, NW, NB) \
SX_ATTR static void SX_FN(SX_CAT(bkern_, KIND##_##NW##_##NB))(int nb, int64_t ncol, const int64_t *lbl, \
	const uint64_t *pl, const uint64_t *bpl, uint64_t *st, uint64_t *fin) \
{ \
	SX_FN(bkern_)(KIND, NW, NB, nb, ncol, lbl, pl, bpl, st, fin); \
}
#define BK_NB(KIND, NW) BK_INST(KIND, NW, 0) BK_INST(KIND, NW, 2) BK_INST(KIND, NW, 3)
BK_NB(0, 1) BK_NB(0, 2) BK_NB(0, 3) BK_NB(0, 4) BK_NB(0, 6) BK_NB(0, 8) BK_NB(0, 12) BK_NB(0, 16) BK_NB(0, 24) BK_NB(0, 32)
BK_NB(1, 1) BK_NB(1, 2) BK_NB(1, 3) BK_NB(1, 4) BK_NB(1, 6) BK_NB(1, 8) BK_NB(1, 12) BK_NB(1, 16) BK_NB(1, 24) BK_NB(1, 32)
#undef BK_NB
#undef BK_INST

#define BK_ROW(KIND, NW) { SX_FN(SX_CAT(bkern_, KIND##_##NW##_0)), SX_FN(SX_CAT(bkern_, KIND##_##NW##_2)), \
	SX_FN(SX_CAT(bkern_, KIND##_##NW##_3)) }
static const bkern_fn SX_FN(bkern_tab_)[2][10][3] = {
	{ BK_ROW(0, 1), BK_ROW(0, 2), BK_ROW(0, 3), BK_ROW(0, 4), BK_ROW(0, 6), BK_ROW(0, 8), BK_ROW(0, 12), BK_ROW(0, 16), BK_ROW(0, 24), BK_ROW(0, 32) },
	{ BK_ROW(1, 1), BK_ROW(1, 2), BK_ROW(1, 3), BK_ROW(1, 4), BK_ROW(1, 6), BK_ROW(1, 8), BK_ROW(1, 12), BK_ROW(1, 16), BK_ROW(1, 24), BK_ROW(1, 32) } };
#undef BK_ROW
