/* Body of the lcs SIMD slab kernel, instantiated per vector width by lcs_slab.c after
 * aln_vec.h; the lane layout (RW word rows per lane, lane l running l columns behind lane 0),
 * masking and output are those of lev_kern.h. The carry out of a word's addition (raw: the
 * carry out of every bit; bit 63 for the word) is the horizontal delta passed down. */

SX_ATTR static inline __attribute__((always_inline)) void SX_FN(lcs_lstep_)(const int RW, const int NB, int nb,
	V *Vv, V P[][8], const uint8_t *mk, int64_t bms, V *BC, V EC, int wo, V *oC)
{
	V Mk[8] = { V_ZERO };
	for (int k = 0; k < (NB ? NB : nb); k++) Mk[k] = V_EXP8(mk + k * bms);
	V c = V_SRL(V_SHIFT_IN(*BC, EC), 63);
	#pragma GCC unroll 4
	for (int r = 0; r < RW; r++) {
		V X = P[r][0] ^ Mk[0];
		for (int k = 1; k < (NB ? NB : nb); k++) X = V_TL(X, P[r][k], Mk[k], F_OR_XOR);
		V v = Vv[r];
		V U = V_TL(v, X, X, F_ANDNOT);
		V S = V_ADD(V_ADD(v, U), c);
		V cr = V_TL(v, U, S, F_CARRY);
		if (r == RW - 1) *BC = cr;
		if (r == wo) *oC = cr;
		Vv[r] = V_TL(S, v, X, F_OR_AND);
		c = V_SRL(cr, 63);
	}
}

SX_ATTR static inline __attribute__((always_inline)) void SX_FN(lcs_lane_)(const aln_prep_t *p, int64_t r0,
	const int RW, const int NB, int nr, int64_t c0, int64_t c1, uint64_t *hc, uint64_t *v, int ob)
{
	const int nb = p->nb, nl = (nr + RW - 1) / RW, ol = (nr - 1) / RW, wo = (nr - 1) % RW;
	const int64_t nc = c1 - c0, T = nc + nl - 1, bms = p->bms;
	uint64_t st[4][VL] __attribute__((aligned(64)));
	uint64_t pl[4][8][VL] __attribute__((aligned(64)));
	for (int r = 0; r < RW; r++)
		for (int l = 0; l < VL; l++) {
			int x = l * RW + r;
			st[r][l] = x < nr ? v[x] : ~0ull;
			for (int k = 0; k < nb; k++) pl[r][k][l] = p->plane[k * p->nwp + r0 + x];
		}
	V Vv[4], P[4][8];
	#pragma GCC unroll 4
	for (int r = 0; r < RW; r++) {
		Vv[r] = V_LOAD(st[r]);
		for (int k = 0; k < (NB ? NB : nb); k++) P[r][k] = V_LOAD(pl[r][k]);
	}
	const uint8_t *bm = p->bmask + ALN_PAD + p->lb - 1 - c0;
	V EC = V_ZERO, BC = V_ZERO;
	uint64_t oc = 0;
	for (int64_t t = 0; t < T; t++) {
		if ((t & 63) == 0 && t < nc) EC = V_SET1(aln_rev64(hc[t >> 6]));
		V oCr = V_ZERO;
		if (t >= nl - 1 && t < nc) {
			SX_FN(lcs_lstep_)(RW, NB, nb, Vv, P, bm - t, bms, &BC, EC, wo, &oCr);
		} else {
			V sV[4];
			#pragma GCC unroll 4
			for (int r = 0; r < RW; r++) sV[r] = Vv[r];
			SX_FN(lcs_lstep_)(RW, NB, nb, Vv, P, bm - t, bms, &BC, EC, wo, &oCr);
			unsigned bits = 0;
			for (int l = 0; l < VL; l++) bits |= (unsigned)(t - l >= 0 && t - l < nc) << l;
			#pragma GCC unroll 4
			for (int r = 0; r < RW; r++) Vv[r] = V_BLEND(sV[r], Vv[r], bits);
		}
		EC = V_SLL(EC, 1);
		int64_t q = t - ol;
		if (q >= 0 && q < nc) {
			if (ob < 63) oCr = V_SLLN(oCr, 63 - ob);
			oc |= (uint64_t)(V_MSB(oCr) >> ol & 1) << (q & 63);
			if ((q & 63) == 63 || q == nc - 1) {
				uint64_t keep = (q & 63) == 63 ? 0 : ~0ull << ((q & 63) + 1);
				hc[q >> 6] = (hc[q >> 6] & keep) | oc;
				oc = 0;
			}
		}
	}
	#pragma GCC unroll 4
	for (int r = 0; r < RW; r++) V_STORE(st[r], Vv[r]);
	for (int x = 0; x < nr; x++) v[x] = st[x % RW][x / RW];
}

#define LCS_INST(RW, NB) \
SX_ATTR static void SX_FN(SX_CAT(lcs_lane_, RW##_##NB))(const aln_prep_t *p, int64_t r0, int nr, int64_t c0, \
	int64_t c1, uint64_t *hc, uint64_t *v, int ob) \
{ \
	SX_FN(lcs_lane_)(p, r0, RW, NB, nr, c0, c1, hc, v, ob); \
}
LCS_INST(1, 0) LCS_INST(1, 1) LCS_INST(1, 2) LCS_INST(1, 3) LCS_INST(1, 4)
LCS_INST(2, 0) LCS_INST(2, 1) LCS_INST(2, 2) LCS_INST(2, 3) LCS_INST(2, 4)
LCS_INST(4, 0) LCS_INST(4, 1) LCS_INST(4, 2) LCS_INST(4, 3) LCS_INST(4, 4)
#undef LCS_INST

SX_ATTR static void SX_FN(lcs_lane)(const aln_prep_t *p, int64_t r0, int nr, int64_t c0, int64_t c1, uint64_t *hc,
	uint64_t *v, int ob)
{
	typedef void (*fn_t)(const aln_prep_t *, int64_t, int, int64_t, int64_t, uint64_t *, uint64_t *, int);
	static const fn_t f[3][5] = {
		{ SX_FN(lcs_lane_1_0), SX_FN(lcs_lane_1_1), SX_FN(lcs_lane_1_2), SX_FN(lcs_lane_1_3), SX_FN(lcs_lane_1_4) },
		{ SX_FN(lcs_lane_2_0), SX_FN(lcs_lane_2_1), SX_FN(lcs_lane_2_2), SX_FN(lcs_lane_2_3), SX_FN(lcs_lane_2_4) },
		{ SX_FN(lcs_lane_4_0), SX_FN(lcs_lane_4_1), SX_FN(lcs_lane_4_2), SX_FN(lcs_lane_4_3), SX_FN(lcs_lane_4_4) } };
	f[nr <= VL ? 0 : nr <= 2 * VL ? 1 : 2][p->nb <= 4 ? p->nb : 0](p, r0, nr, c0, c1, hc, v, ob);
}
