/* Body of the 32-bit-lane sweep, instantiated once per vector width by maxlcp32.c.
 * Needs: SX (name suffix), SX_ATTR, V, VM (mask type), VL (lanes), V_LOADU, V_STOREU, V_SET1,
 * V_EQ, V_BLEND(m, if0, if1), V_MIN, V_MAX, V_ADD, V_SUB (signed 32-bit), V_ZERO, V_SHL1,
 * V_SHIFTIN(o, c) (o up one lane, c's top lane into lane 0), V_LANES (0, 1, ..., VL-1) and
 * V_RMAX(v) (lane i = the largest lane of v[i], for VL vectors v). */
#define SX_CAT2(a, b) a##b
#define SX_CAT(a, b) SX_CAT2(a, b)
#define SX_FN(name) SX_CAT(name, SX)

/* The sweep of maxlcp_simd.h, VL diagonals g .. g+VL-1 per vector, with these differences.
 * Lanes are signed and nothing saturates: e = min(E, end of overlap) is kept, lcp = e - x
 * (<= 0 in lanes past b, which only reach rows through lane 0's valid cell >= 0 and columns
 * >= lb). Rows: every lane of a step is row x, so the max over lanes is taken for VL rows at
 * once (V_RMAX) and max-ed into rowe as e (row x's lcp is rowe[x] - x), instead of one
 * vector per row, whose 64 B a row for a 300 kb read would stream through memory once per
 * group. Columns: the column vector holds e + lane = lcp + (y - g) for column y, so no
 * subtraction per step; the offset comes off when the column is written. */
SX_ATTR static inline __attribute__((always_inline)) void SX_FN(rkt_sweep32_)(const int32_t *arow, int32_t la,
	const int32_t *bcol, int32_t lb, int32_t d0, const int K1, V *q, int32_t *rowe, int32_t *col, const int32_t *iota,
	int part, int nparts)
{
	const V lane = V_LANES;
	V rb[VL];
	/* every nparts-th group (threads sharing a pair): the groups' lengths fall with g, so
	 * interleaved parts get equal work */
	for (int32_t g = d0 + VL * part; g < lb; g += VL * nparts) {
		int32_t xend = la < lb - g ? la : lb - g;
		V endv = V_MIN(V_SUB(V_SET1(lb - g), lane), V_SET1(la));
		for (int m = 0; m < K1; m++) q[m] = V_SET1(INT32_MAX);
		/* rows of the first block at or past xend take 0 from here: no change to rowe */
		for (int i = 0; i < VL; i++) rb[i] = V_ZERO;
		V C = V_ZERO, O = V_ZERO;
		int steps = 0;
		for (int32_t x = xend - 1; x >= 0; x--) {
			V xv = V_SET1(iota[x]);  /* a broadcast load: no vector ALU op for x */
			VM eq = V_EQ(V_LOADU(bcol + x + g), V_SET1(arow[x]));
#pragma GCC unroll 12
			for (int m = K1 - 1; m > 0; m--) q[m] = V_BLEND(eq, q[m - 1], q[m]);
			q[0] = V_BLEND(eq, xv, q[0]);
			V e = V_MIN(q[K1 - 1], endv);
			rb[x & (VL - 1)] = e;
			if (!(x & (VL - 1))) {  /* rows x .. x+VL-1 complete for this group */
				V *r = (V *)(rowe + x);
				*r = V_MAX(*r, V_RMAX(rb));
			}
			O = V_SHIFTIN(O, C);
			C = V_MAX(V_SHL1(C), V_ADD(e, lane));
			if (++steps == VL) {  /* O: columns x+g+VL .. x+g+2VL-1, complete */
				int32_t *c = col + x + g + VL;
				V_STOREU(c, V_MAX(V_LOADU(c), V_SUB(O, V_ADD(V_SET1(x + VL), lane))));
				O = V_ZERO;
				steps = 0;
			}
		}
		int32_t *c = col + g + VL;
		V_STOREU(c, V_MAX(V_LOADU(c), V_SUB(O, V_ADD(V_SET1(VL), lane))));
		c = col + g;
		V_STOREU(c, V_MAX(V_LOADU(c), V_SUB(C, lane)));
	}
}

#define SX_SPEC(K) SX_ATTR static void SX_CAT(SX_FN(rkt_sweep32_k), K)(const int32_t *arow, int32_t la, \
	const int32_t *bcol, int32_t lb, int32_t d0, int32_t *rowe, int32_t *col, const int32_t *iota, int part, int nparts) \
	{ V q[K]; SX_FN(rkt_sweep32_)(arow, la, bcol, lb, d0, K, q, rowe, col, iota, part, nparts); }
SX_SPEC(1) SX_SPEC(2) SX_SPEC(3) SX_SPEC(4) SX_SPEC(5) SX_SPEC(6) SX_SPEC(7) SX_SPEC(8)
SX_SPEC(9) SX_SPEC(10) SX_SPEC(11) SX_SPEC(12)
#undef SX_SPEC

/* Diagonals d >= d0 of rows arow (la) against columns bcol (lb), groups part, part + nparts,
 * ...: row ends max-ed into rowe, column maxima into col. */
SX_ATTR static void SX_FN(rkt_pass32_)(const int32_t *arow, int32_t la, const int32_t *bcol, int32_t lb, int32_t d0,
                                      int K1, int32_t *rowe, int32_t *col, const int32_t *iota, int part, int nparts)
{
	switch (K1) {
	case 1: SX_CAT(SX_FN(rkt_sweep32_k), 1)(arow, la, bcol, lb, d0, rowe, col, iota, part, nparts); break;
	case 2: SX_CAT(SX_FN(rkt_sweep32_k), 2)(arow, la, bcol, lb, d0, rowe, col, iota, part, nparts); break;
	case 3: SX_CAT(SX_FN(rkt_sweep32_k), 3)(arow, la, bcol, lb, d0, rowe, col, iota, part, nparts); break;
	case 4: SX_CAT(SX_FN(rkt_sweep32_k), 4)(arow, la, bcol, lb, d0, rowe, col, iota, part, nparts); break;
	case 5: SX_CAT(SX_FN(rkt_sweep32_k), 5)(arow, la, bcol, lb, d0, rowe, col, iota, part, nparts); break;
	case 6: SX_CAT(SX_FN(rkt_sweep32_k), 6)(arow, la, bcol, lb, d0, rowe, col, iota, part, nparts); break;
	case 7: SX_CAT(SX_FN(rkt_sweep32_k), 7)(arow, la, bcol, lb, d0, rowe, col, iota, part, nparts); break;
	case 8: SX_CAT(SX_FN(rkt_sweep32_k), 8)(arow, la, bcol, lb, d0, rowe, col, iota, part, nparts); break;
	case 9: SX_CAT(SX_FN(rkt_sweep32_k), 9)(arow, la, bcol, lb, d0, rowe, col, iota, part, nparts); break;
	case 10: SX_CAT(SX_FN(rkt_sweep32_k), 10)(arow, la, bcol, lb, d0, rowe, col, iota, part, nparts); break;
	case 11: SX_CAT(SX_FN(rkt_sweep32_k), 11)(arow, la, bcol, lb, d0, rowe, col, iota, part, nparts); break;
	case 12: SX_CAT(SX_FN(rkt_sweep32_k), 12)(arow, la, bcol, lb, d0, rowe, col, iota, part, nparts); break;
	default: {
		V q[256];  /* K1 <= 256: the caller sends larger k to the scalar sweep */
		SX_FN(rkt_sweep32_)(arow, la, bcol, lb, d0, K1, q, rowe, col, iota, part, nparts);
	}
	}
}

#undef SX_FN
#undef SX_CAT
#undef SX_CAT2
