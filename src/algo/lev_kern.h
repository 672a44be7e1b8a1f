/* Body of the lev SIMD slab kernel, instantiated per vector width by lev_slab.c after
 * aln_vec.h. Lane l holds RW consecutive word rows, r0 + l RW .. r0 + l RW + RW - 1, and runs
 * l columns behind lane 0 (a wavefront of VL small strips inside one vector). Within a lane the
 * horizontal delta passes from word to word in the same step; from the bottom of lane l to the
 * top of lane l + 1 it passes through one lane shift (V_SHIFT_IN) per step, and B's code masks
 * of a step serve all RW words. Only lanes whose column is inside the slab keep their new
 * vertical state (prologue and epilogue steps); the others compute don't-cares.
 * RW and NB (code planes, 0: any up to 8) are constants of each instance so that the state
 * lives in registers. Word rows past nr (lanes or words) are padding; the slab's bottom is
 * word (nr - 1) % RW of lane (nr - 1) / RW, its row la when partial (bit ob). */

/* One step of every lane: column c0 + t - l in lane l. Input: the lanes' bottoms of the last
 * step (BP, BM: raw, bit 63) and the top edge (EP, EM: bit 63 of lane VL-1); Eq from the code
 * planes P and B's masks; Myers' step word by word, the raw Ph/Mh of a word (bit 63: its
 * output) shifting into the next. oP/oM: raw output of word wo. */
SX_ATTR static inline __attribute__((always_inline)) void SX_FN(lev_lstep_)(const int RW, const int NB, int nb,
	V *Pv, V *Mv, V P[][8], const uint8_t *mk, int64_t bms, V *BP, V *BM, V EP, V EM, int wo, V *oP, V *oM)
{
	V Mk[8] = { V_ZERO };
	for (int k = 0; k < (NB ? NB : nb); k++) Mk[k] = V_EXP8(mk + k * bms);
	V r1 = V_SHIFT_IN(*BP, EP), r2 = V_SHIFT_IN(*BM, EM), h2 = V_SRL(r2, 63);
	#pragma GCC unroll 4
	for (int r = 0; r < RW; r++) {
		V X = P[r][0] ^ Mk[0];
		for (int k = 1; k < (NB ? NB : nb); k++) X = V_TL(X, P[r][k], Mk[k], F_OR_XOR);
		V pv = Pv[r], mv = Mv[r];
		V Xv = V_TL(X, mv, mv, F_NOT_OR);
		V Eq = V_TL(X, h2, h2, F_NOT_OR);
		V S = V_ADD(Eq & pv, pv);
		V Xh = V_TL(S, pv, Eq, F_XH);
		V Ph = V_TL(mv, Xh, pv, F_OR_NOR);
		V Mh = pv & Xh;
		if (r == RW - 1) { *BP = Ph; *BM = Mh; }
		if (r == wo) { *oP = Ph; *oM = Mh; }
		V Ph2 = V_SHLD1(Ph, r1), Mh2 = V_SHLD1(Mh, r2);
		Pv[r] = V_TL(Mh2, Xv, Ph2, F_OR_NOR);
		Mv[r] = Ph2 & Xv;
		r1 = Ph;
		r2 = Mh;
		h2 = V_SRL(Mh, 63);
	}
}

SX_ATTR static inline __attribute__((always_inline)) void SX_FN(lev_lane_)(const aln_prep_t *p, int64_t r0,
	const int RW, const int NB, int nr, int64_t c0, int64_t c1, uint64_t *hp, uint64_t *hm, uint64_t *pv,
	uint64_t *mv, int ob)
{
	const int nb = p->nb, nl = (nr + RW - 1) / RW, ol = (nr - 1) / RW, wo = (nr - 1) % RW;
	const int64_t nc = c1 - c0, T = nc + nl - 1, bms = p->bms;
	uint64_t st[2][4][VL] __attribute__((aligned(64)));
	uint64_t pl[4][8][VL] __attribute__((aligned(64)));
	for (int r = 0; r < RW; r++)
		for (int l = 0; l < VL; l++) {
			int x = l * RW + r;
			st[0][r][l] = x < nr ? pv[x] : ~0ull;
			st[1][r][l] = x < nr ? mv[x] : 0;
			for (int k = 0; k < nb; k++) pl[r][k][l] = p->plane[k * p->nwp + r0 + x];
		}
	V Pv[4], Mv[4], P[4][8];
	#pragma GCC unroll 4
	for (int r = 0; r < RW; r++) {
		Pv[r] = V_LOAD(st[0][r]);
		Mv[r] = V_LOAD(st[1][r]);
		for (int k = 0; k < (NB ? NB : nb); k++) P[r][k] = V_LOAD(pl[r][k]);
	}
	/* lane l at step t reads the masks of column c0 + t - l: reversed bytes, consecutive */
	const uint8_t *bm = p->bmask + ALN_PAD + p->lb - 1 - c0;
	V EP = V_ZERO, EM = V_ZERO, BP = V_ZERO, BM = V_ZERO;  /* top edge; lanes' bottoms of the last step */
	uint64_t oP = 0, oM = 0;
	for (int64_t t = 0; t < T; t++) {
		if ((t & 63) == 0 && t < nc) {
			EP = V_SET1(aln_rev64(hp[t >> 6]));
			EM = V_SET1(aln_rev64(hm[t >> 6]));
		}
		V oPr = V_ZERO, oMr = V_ZERO;
		if (t >= nl - 1 && t < nc) {
			SX_FN(lev_lstep_)(RW, NB, nb, Pv, Mv, P, bm - t, bms, &BP, &BM, EP, EM, wo, &oPr, &oMr);
		} else {  /* prologue / epilogue: lanes outside the slab keep their state */
			V sPv[4], sMv[4];
			#pragma GCC unroll 4
			for (int r = 0; r < RW; r++) sPv[r] = Pv[r], sMv[r] = Mv[r];
			SX_FN(lev_lstep_)(RW, NB, nb, Pv, Mv, P, bm - t, bms, &BP, &BM, EP, EM, wo, &oPr, &oMr);
			unsigned bits = 0;
			for (int l = 0; l < VL; l++) bits |= (unsigned)(t - l >= 0 && t - l < nc) << l;
			#pragma GCC unroll 4
			for (int r = 0; r < RW; r++) {
				Pv[r] = V_BLEND(sPv[r], Pv[r], bits);
				Mv[r] = V_BLEND(sMv[r], Mv[r], bits);
			}
		}
		EP = V_SLL(EP, 1);
		EM = V_SLL(EM, 1);
		int64_t q = t - ol;
		if (q >= 0 && q < nc) {
			if (ob < 63) { oPr = V_SLLN(oPr, 63 - ob); oMr = V_SLLN(oMr, 63 - ob); }
			oP |= (uint64_t)(V_MSB(oPr) >> ol & 1) << (q & 63);
			oM |= (uint64_t)(V_MSB(oMr) >> ol & 1) << (q & 63);
			if ((q & 63) == 63 || q == nc - 1) {
				uint64_t keep = (q & 63) == 63 ? 0 : ~0ull << ((q & 63) + 1);
				hp[q >> 6] = (hp[q >> 6] & keep) | oP;
				hm[q >> 6] = (hm[q >> 6] & keep) | oM;
				oP = oM = 0;
			}
		}
	}
	#pragma GCC unroll 4
	for (int r = 0; r < RW; r++) {
		V_STORE(st[0][r], Pv[r]);
		V_STORE(st[1][r], Mv[r]);
	}
	for (int x = 0; x < nr; x++) {
		pv[x] = st[0][x % RW][x / RW];
		mv[x] = st[1][x % RW][x / RW];
	}
}

#define LEV_INST(RW, NB) \
SX_ATTR static void SX_FN(SX_CAT(lev_lane_, RW##_##NB))(const aln_prep_t *p, int64_t r0, int nr, int64_t c0, \
	int64_t c1, uint64_t *hp, uint64_t *hm, uint64_t *pv, uint64_t *mv, int ob) \
{ \
	SX_FN(lev_lane_)(p, r0, RW, NB, nr, c0, c1, hp, hm, pv, mv, ob); \
}
LEV_INST(1, 0) LEV_INST(1, 1) LEV_INST(1, 2) LEV_INST(1, 3) LEV_INST(1, 4)
LEV_INST(2, 0) LEV_INST(2, 1) LEV_INST(2, 2) LEV_INST(2, 3) LEV_INST(2, 4)
LEV_INST(4, 0) LEV_INST(4, 1) LEV_INST(4, 2) LEV_INST(4, 3) LEV_INST(4, 4)
#undef LEV_INST

/* nr <= 4 VL word rows from r0: the fewest words per lane that hold them */
SX_ATTR static void SX_FN(lev_lane)(const aln_prep_t *p, int64_t r0, int nr, int64_t c0, int64_t c1, uint64_t *hp,
	uint64_t *hm, uint64_t *pv, uint64_t *mv, int ob)
{
	typedef void (*fn_t)(const aln_prep_t *, int64_t, int, int64_t, int64_t, uint64_t *, uint64_t *, uint64_t *,
	                     uint64_t *, int);
	static const fn_t f[3][5] = {
		{ SX_FN(lev_lane_1_0), SX_FN(lev_lane_1_1), SX_FN(lev_lane_1_2), SX_FN(lev_lane_1_3), SX_FN(lev_lane_1_4) },
		{ SX_FN(lev_lane_2_0), SX_FN(lev_lane_2_1), SX_FN(lev_lane_2_2), SX_FN(lev_lane_2_3), SX_FN(lev_lane_2_4) },
		{ SX_FN(lev_lane_4_0), SX_FN(lev_lane_4_1), SX_FN(lev_lane_4_2), SX_FN(lev_lane_4_3), SX_FN(lev_lane_4_4) } };
	f[nr <= VL ? 0 : nr <= 2 * VL ? 1 : 2][p->nb <= 4 ? p->nb : 0](p, r0, nr, c0, c1, hp, hm, pv, mv, ob);
}
