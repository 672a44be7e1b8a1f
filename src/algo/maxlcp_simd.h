/* Body of the SIMD sweep, instantiated once per vector width by maxlcp.c.
 * Needs: SX (name suffix), SX_ATTR, V, VM (mask type), VL (lanes), V_LOADU, V_STOREU,
 * V_SET1, V_EQ, V_BLEND(m, if0, if1), V_MINU, V_MAXU, V_SUBSU, V_ZERO, V_SHL1, V_SHIFTIN(o, c)
 * (o up one lane, c's top lane into lane 0), V_HMAX, V_LANES (0, 1, ..., VL-1), SX_T (the
 * lane type: uint8_t for reads <= 255 bp, uint16_t for longer ones), SX_TOP (its largest
 * value) and V_LOADB(p) (VL code bytes at p widened to lanes). */
#define SX_CAT2(a, b) a##b
#define SX_CAT(a, b) SX_CAT2(a, b)
#define SX_FN(name) SX_CAT(name, SX)

/* VL diagonals per vector, positions as lanes of SX_T (bytes: reads <= 255 bp; 16 bits:
 * <= 65,535). K1 = k+1 queue slots; the specialized copies pass a constant so the queue
 * stays in registers. */
SX_ATTR static inline __attribute__((always_inline)) void SX_FN(rkt_sweep_)(const uint8_t *a, int32_t la,
	const uint8_t *b, int32_t lb, int32_t d0, const int K1, V *q, SX_T *row8, SX_T *col8)
{
	const V lane = V_LANES;
	int first = 1;
	for (int32_t g = d0; g < lb; g += VL, first = 0) {
		int32_t xend = la < lb - g ? la : lb - g;
		/* end of the overlap per lane: min(la, lb - d), 0 for lanes past b */
		V endv = V_MINU(V_SUBSU(V_SET1(lb - g), lane), V_SET1(la));
		for (int m = 0; m < K1; m++) q[m] = V_SET1(SX_TOP);
		/* Column maxima: lane L of C is column y = x + g + L. Stepping to x - 1 moves a column
		 * up one lane, and the top lane's column is then complete: it is shifted into O, which
		 * is written out every VL steps (lane L of O = column x + g + VL + L). */
		V C = V_ZERO, O = V_ZERO;
		int steps = 0;
		for (int32_t x = xend - 1; x >= 0; x--) {
			VM eq = V_EQ(V_LOADB(b + x + g), V_SET1(a[x] < 4 ? a[x] : 0xfe));
			V xv = V_SET1(x);
#pragma GCC unroll 12
			for (int m = K1 - 1; m > 0; m--) q[m] = V_BLEND(eq, q[m - 1], q[m]);
			q[0] = V_BLEND(eq, xv, q[0]);
			V lcp = V_SUBSU(V_MINU(q[K1 - 1], endv), xv);
			V *r = (V *)(row8 + VL * x);
			*r = first ? lcp : V_MAXU(*r, lcp);
			O = V_SHIFTIN(O, C);
			C = V_MAXU(V_SHL1(C), lcp);
			if (++steps == VL) {
				SX_T *c = col8 + x + g + VL;
				V_STOREU(c, V_MAXU(V_LOADU(c), O));
				O = V_ZERO;
				steps = 0;
			}
		}
		SX_T *c = col8 + g + VL;
		V_STOREU(c, V_MAXU(V_LOADU(c), O));
		c = col8 + g;
		V_STOREU(c, V_MAXU(V_LOADU(c), C));
	}
}

#define SX_SPEC(K) SX_ATTR static void SX_CAT(SX_FN(rkt_sweep_k), K)(const uint8_t *a, int32_t la, \
	const uint8_t *b, int32_t lb, int32_t d0, SX_T *row8, SX_T *col8) \
	{ V q[K]; SX_FN(rkt_sweep_)(a, la, b, lb, d0, K, q, row8, col8); }
SX_SPEC(1) SX_SPEC(2) SX_SPEC(3) SX_SPEC(4) SX_SPEC(5) SX_SPEC(6) SX_SPEC(7) SX_SPEC(8)
SX_SPEC(9) SX_SPEC(10) SX_SPEC(11) SX_SPEC(12)
#undef SX_SPEC

/* Row maxima of a (d >= d0) into row, column maxima of b max-ed into col8. */
SX_ATTR static void SX_FN(rkt_pass_)(const uint8_t *a, int32_t la, const uint8_t *b, int32_t lb, int32_t d0,
                                    int K1, SX_T *row8, SX_T *col8, int32_t *row)
{
	int32_t xend = d0 < lb ? (la < lb - d0 ? la : lb - d0) : 0;
	switch (K1) {
	case 1: SX_CAT(SX_FN(rkt_sweep_k), 1)(a, la, b, lb, d0, row8, col8); break;
	case 2: SX_CAT(SX_FN(rkt_sweep_k), 2)(a, la, b, lb, d0, row8, col8); break;
	case 3: SX_CAT(SX_FN(rkt_sweep_k), 3)(a, la, b, lb, d0, row8, col8); break;
	case 4: SX_CAT(SX_FN(rkt_sweep_k), 4)(a, la, b, lb, d0, row8, col8); break;
	case 5: SX_CAT(SX_FN(rkt_sweep_k), 5)(a, la, b, lb, d0, row8, col8); break;
	case 6: SX_CAT(SX_FN(rkt_sweep_k), 6)(a, la, b, lb, d0, row8, col8); break;
	case 7: SX_CAT(SX_FN(rkt_sweep_k), 7)(a, la, b, lb, d0, row8, col8); break;
	case 8: SX_CAT(SX_FN(rkt_sweep_k), 8)(a, la, b, lb, d0, row8, col8); break;
	case 9: SX_CAT(SX_FN(rkt_sweep_k), 9)(a, la, b, lb, d0, row8, col8); break;
	case 10: SX_CAT(SX_FN(rkt_sweep_k), 10)(a, la, b, lb, d0, row8, col8); break;
	case 11: SX_CAT(SX_FN(rkt_sweep_k), 11)(a, la, b, lb, d0, row8, col8); break;
	case 12: SX_CAT(SX_FN(rkt_sweep_k), 12)(a, la, b, lb, d0, row8, col8); break;
	default: {
		V q[256];  /* K1 <= 256: k is capped at the read length */
		SX_FN(rkt_sweep_)(a, la, b, lb, d0, K1, q, row8, col8);
	}
	}
	for (int32_t x = 0; x < xend; x++) row[x] = V_HMAX(*(const V *)(row8 + VL * x));
	for (int32_t x = xend; x < la; x++) row[x] = 0;
}

#undef SX_FN
#undef SX_CAT
#undef SX_CAT2
