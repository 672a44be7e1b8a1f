/* The long lev and lcs kernel: a pipeline of strips (1024 RW rows of a pass each) over a
 * persistent grid of warps, strip s on warp s mod G, its bottom edge handed to the next strip
 * through ring slots; why the pipeline cannot deadlock; the emulator's deadlock report; the
 * occupancy and the cooperative launch. The column step is dpg_dev.cuh, the layout of passes,
 * rings and counters dpg_kern.h. */
#include "gpu/dpg_dev.cuh"

/* Ring slots. An edge word crosses from warp to warp in a slot that carries its own sequence
 * number: lev two 64-bit halves of {32 bits of the word, the number}, lcs one {word, number}.
 * Each half is one naturally aligned 64-bit access, single-copy atomic, so a reader that sees
 * the number it expects sees the word written with it: no release fence on the writer, no
 * acquire (which invalidates L1, so that the next loads of B's codes miss) on the reader, and
 * the reader waits for the word it needs, not for a whole chunk. Relaxed gpu-scope accesses
 * (served by L2) throughout; the consumed counters are relaxed too: a reader publishes a chunk
 * only after it has checked every number in it, so its loads are done before the store. */
#ifdef DPG_EMU
__device__ __forceinline__ unsigned long long ld_relaxed(const unsigned long long *p) { return emu_ld_acquire(p); }
__device__ __forceinline__ void st_relaxed(unsigned long long *p, unsigned long long v) { emu_st_release(p, v); }
__device__ __forceinline__ void ld_relaxed2(const unsigned long long *p, unsigned long long &a, unsigned long long &b)
{
	a = emu_ld_acquire(p);
	b = emu_ld_acquire(p + 1);
}
__device__ __forceinline__ void st_relaxed2(unsigned long long *p, unsigned long long a, unsigned long long b)
{
	emu_st_release(p, a);
	emu_st_release(p + 1, b);
}
#else
__device__ __forceinline__ unsigned long long ld_relaxed(const unsigned long long *p)
{
	unsigned long long v;
	asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
	return v;
}
__device__ __forceinline__ void st_relaxed(unsigned long long *p, unsigned long long v)
{
	asm volatile("st.relaxed.gpu.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ void ld_relaxed2(const unsigned long long *p, unsigned long long &a, unsigned long long &b)
{
	asm volatile("ld.relaxed.gpu.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(p) : "memory");
}
__device__ __forceinline__ void st_relaxed2(unsigned long long *p, unsigned long long a, unsigned long long b)
{
	asm volatile("st.relaxed.gpu.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b) : "memory");
}
#endif
/* slot `at` of a ring (dpg_slot_bytes: lev 2, lcs 1 u64 each) */
template <int MODE>
__device__ __forceinline__ void slot_put(unsigned long long *ring, int64_t at, typename dpg_ew<MODE>::T w, uint32_t seq)
{
	const unsigned long long f = (unsigned long long)seq << 32;
	if constexpr (MODE == DPG_LEV) st_relaxed2(ring + 2 * at, (w & 0xffffffffull) | f, (w >> 32) | f);
	else st_relaxed(ring + at, (unsigned long long)w | f);
}
template <int MODE>
__device__ __forceinline__ void slot_get(const unsigned long long *ring, int64_t at, unsigned long long &a, unsigned long long &b)
{
	if constexpr (MODE == DPG_LEV) ld_relaxed2(ring + 2 * at, a, b);
	else { a = ld_relaxed(ring + at); b = a; }
}
/* whether the slot read as (a, b) holds number seq, and its word */
template <int MODE>
__device__ __forceinline__ bool slot_has(unsigned long long a, unsigned long long b, uint32_t seq, typename dpg_ew<MODE>::T &w)
{
	if constexpr (MODE == DPG_LEV) {
		w = (a & 0xffffffffull) | (b << 32);
		return (uint32_t)(a >> 32) == seq && (uint32_t)(b >> 32) == seq;
	} else {
		w = (uint32_t)a;
		return (uint32_t)(a >> 32) == seq;
	}
}
/* Every lane waits (each with its own load) until *p >= v; `seen` is the lane's last value,
 * which spares the load when it is already enough. The exit is warp-uniform. */
__device__ __forceinline__ void wait_ge(const unsigned long long *p, unsigned long long v, unsigned long long &seen)
{
	while (!__all_sync(FULLM, seen >= v)) {
		seen = ld_relaxed(p);
		if (__all_sync(FULLM, seen >= v)) break;
		__nanosleep(32);
	}
}

/* 32 steps (block b: lane l on columns 32 b - l .. 32 b + 31 - l). MASK: some column is outside
 * the strip's [clo, chi) (its first block and its last ones). FULL: the strip is 32 lanes x RW words of rows,
 * its bottom row is bit 31 of lane 31's last word, i.e. the packet it hands down; otherwise the
 * bottom packet comes from word wo, bit ob. Every lane fills the accumulators as if it were the
 * out lane; only the out lane's are written. */
template <int MODE, int RW, bool MASK, bool FULL>
__device__ __forceinline__ void strip_block(int b, int lane, int clo, int chi, const uint8_t *__restrict__ bc, const uint32_t *tbl,
                                            typename dpg_ew<MODE>::T tw, bool btop, uint32_t (&s0)[RW], uint32_t (&s1)[RW],
                                            hand_t &hd, typename dpg_ew<MODE>::T &acc_cur, typename dpg_ew<MODE>::T &acc_nxt,
                                            int wo, int ob)
{
#pragma unroll
	for (int u = 0; u < 32; u++) {
		hand_t x = hand_up<MODE>(hd, 32);
		const hand_t tx = hand_of<MODE>(btop ? top_boundary<MODE>() : ew_get<MODE>(tw, u));
		if (lane == 0) x = tx;
		const int c = 32 * b + u - lane;
		const bool act = !MASK || (c >= clo && c < chi);
		const uint32_t code = act ? (uint32_t)bc[c] : 0u;
		uint32_t k0[RW], k1[RW], r0[RW], r1[RW];
		if (MASK) {
#pragma unroll
			for (int r = 0; r < RW; r++) { k0[r] = s0[r]; k1[r] = s1[r]; }
		}
		hd = dp_step<MODE, RW>(s0, s1, tbl, lane, code, x, r0, r1);
		if (MASK && !act) {
#pragma unroll
			for (int r = 0; r < RW; r++) { s0[r] = k0[r]; s1[r] = k1[r]; }
		}
		if (FULL) {
			/* lane 31: column 32 b + u - 31, slot u + 1 of word b - 1, or slot 0 of word b */
			if (act) {
				const uint32_t pk = pk_of<MODE>(hd);
				if (u < 31) acc_cur |= ew_put<MODE>(pk, u + 1);
				else acc_nxt |= ew_put<MODE>(pk, 0);
			}
		} else if (act) {
			const typename dpg_ew<MODE>::T v = ew_put<MODE>(out_packet<MODE, RW>(r0, r1, wo, ob), (u - lane) & 31);
			if (u >= lane) acc_nxt |= v;
			else acc_cur |= v;
		}
	}
}

#ifdef DPG_EMU
/* the warp emulator's deadlock report: what each of the first 16 warps last waited for */
struct dbgw_t { long long s, b, need, kind, lo, hi, kb0, kb1, nk0, pk1; const unsigned long long *p; };
static dbgw_t dbgw[16];
static void dbg_dump(void)
{
	for (int g = 0; g < 16; g++) if (dbgw[g].p || dbgw[g].s) fprintf(stderr, "warp %d: strip %lld block %lld waits %s need %lld have %llu (kb0 %lld kb1 %lld nk0 %lld pk1 %lld)\n", g, dbgw[g].s, dbgw[g].b, dbgw[g].kind ? "cons" : "prod", dbgw[g].need, dbgw[g].p ? *dbgw[g].p : 0ull, dbgw[g].kb0, dbgw[g].kb1, dbgw[g].nk0, dbgw[g].pk1);
}
static int dbg_reg = (emu_deadlock_hook = dbg_dump, 0);
#define DBGW(K, P, N) do { if (gw < 16) { dbgw[gw] = { g.s, b, (long long)(N), K, 0, 0, g.kb0, g.kb1, g.nk0, g.pk1, P }; } } while (0)
#else
#define DBGW(K, P, N) do { } while (0)
#endif

/* One strip of a pass, s in the launch: its rows, its columns [clo, chi) and edge words
 * [kb0, kb1). A transfer to the strip below is the words [nk0, kb1), nk0 being that strip's
 * first word (the band only moves right), so both sides count its words and chunks from
 * there; the strip above sent [kb0, pk1). */
struct lstrip_t {
	dpg_pass_t P;
	int64_t s, row0;
	int rows, lb, clo, chi, kb0, kb1, nk0, nch, pk1, pnch;
	int nw, ol, wo, ob;            /* words of rows; the out lane, its word and bit of the bottom row */
	bool from_prev, to_next, full;
};

template <int RW>
__device__ __forceinline__ void strip_of(const dpg_long_t &p, int64_t s, int cww, lstrip_t &g)
{
	constexpr int SR = 1024 * RW;   /* rows per strip */
	g.s = s;
	g.P = p.pass[p.strip_pass[s]];
	const dpg_pass_t &P = g.P;
	g.row0 = (s - P.first) * SR;
	g.rows = (int)(P.la - g.row0 < SR ? P.la - g.row0 : SR);
	g.from_prev = g.row0 > 0, g.to_next = g.row0 + SR < P.la;
	g.lb = (int)P.lb;
	g.clo = (int)dpg_clo(g.row0, P.dlo, g.lb), g.chi = (int)dpg_chi(g.row0 + g.rows, P.dhi, g.lb);
	g.kb0 = g.clo >> 5, g.kb1 = (g.chi + 31) >> 5;
	g.nk0 = g.to_next ? (int)(dpg_clo(g.row0 + SR, P.dlo, g.lb) >> 5) : g.kb1;
	g.nch = (g.kb1 - g.nk0 + cww - 1) / cww;
	g.pk1 = g.from_prev ? (int)((dpg_chi(g.row0, P.dhi, g.lb) + 31) >> 5) : g.kb0;
	g.pnch = (g.pk1 - g.kb0 + cww - 1) / cww;
	g.nw = (g.rows + 31) >> 5, g.ol = (g.nw - 1) / RW, g.wo = (g.nw - 1) % RW, g.ob = (g.rows - 1) & 31;
	g.full = g.rows == SR;   /* then ol = 31, wo = RW - 1, ob = 31 */
}

/* the strip's state in: the left edge given (slab passes, full band), else the boundary or,
 * at clo > 0, the virtual +1 per row; the same words */
template <int MODE, int RW>
__device__ __forceinline__ void strip_left(const lstrip_t &g, int lane, uint32_t (&s0)[RW], uint32_t (&s1)[RW])
{
	const int64_t wbase = g.row0 >> 5, nwp = (g.P.la + 31) >> 5;
#pragma unroll
	for (int r = 0; r < RW; r++) {
		const int w = lane * RW + r;
		if (g.P.left && w < g.nw) {
			s0[r] = g.P.left[wbase + w];
			s1[r] = MODE == DPG_LEV ? g.P.left[nwp + wbase + w] : 0u;
		} else {
			s0[r] = ~0u;
			s1[r] = 0;
		}
	}
}

/* the strip's state out: its right edge, when the pass wants one */
template <int MODE, int RW>
__device__ __forceinline__ void strip_right(const lstrip_t &g, int lane, const uint32_t (&s0)[RW], const uint32_t (&s1)[RW])
{
	const int64_t wbase = g.row0 >> 5, nwp = (g.P.la + 31) >> 5;
	if (g.P.right) {
#pragma unroll
		for (int r = 0; r < RW; r++) {
			const int w = lane * RW + r;
			if (w < g.nw) {
				g.P.right[wbase + w] = s0[r];
				if (MODE == DPG_LEV) g.P.right[nwp + wbase + w] = s1[r];
			}
		}
	}
}

/* The warp's out side: the buffer its strips' bottom edges go to (its ring to the next warp,
 * or, for the last warp, the wrap to warp 0), the counter of chunks read from it, and where
 * the next word goes. */
struct lout_t {
	unsigned long long *buf, *cons;
	bool wrap;
	unsigned long long done;            /* chunks written so far */
	unsigned long long seen;            /* the counter as this lane last read it */
	unsigned long long wp_base, wp_n;   /* the last transfer this warp wrote into the wrap */
	uint32_t wrap_n;                    /* transfers written to the wrap so far */
	bool wp;
	int r, q, slot;                     /* this strip's transfer: word r of chunk q, in ring slot `slot` */
};

/* Word k of the strip's bottom edge (the out lane's acc) to the strip below, word t of the
 * transfer; the first word of chunk q waits for its slot to have been read. The strip below
 * reads columns >= chi as virtual. */
template <int MODE>
__device__ __forceinline__ void out_word(lout_t &o, const lstrip_t &g, int k, typename dpg_ew<MODE>::T acc, int lane, int G, int cww,
                                         int ring, int gw, int b)
{
	typedef typename dpg_ew<MODE>::T ew_t;
	const int t = k - g.nk0, q = o.q, chi = g.chi;
	(void)gw;
	(void)b;
	ew_t out = acc;
	if (k == g.kb1 - 1 && (chi & 31))
		out |= ew_virtual<MODE>() & ~(ew_t)0 << (MODE == DPG_LEV ? 2 * (chi & 31) : (chi & 31));
	if (o.r == 0) {
		unsigned long long need = 0;
		if (o.wrap) {
			/* slot q was last written by the previous transfer when it had a chunk q,
			 * else by an older one, consumed entirely once wp_base chunks are */
			if (G > 1 && o.wp) need = (unsigned long long)q < o.wp_n ? o.wp_base + q + 1 : o.wp_base;
		} else if (o.done + q + 1 > (unsigned long long)ring) {
			need = o.done + q + 1 - ring;
		}
		if (need) { DBGW(1, o.cons, need); wait_ge(o.cons, need, o.seen); }
	}
	if (lane == g.ol) {
		const int64_t at = o.wrap ? (int64_t)t : (int64_t)o.slot * cww + o.r;
		const uint32_t seq = o.wrap ? o.wrap_n + 1 : (uint32_t)((o.done + q) * cww + o.r + 1);
		slot_put<MODE>(o.buf, at, out, seq);
	}
	if (++o.r == cww) {
		o.r = 0;
		o.q++;
		if (++o.slot == ring) o.slot = 0;
	}
}

/* Why the pipeline cannot deadlock. Premises: every warp of the grid is resident at once
 * (cooperative launch sized from the occupancy), a spinning warp never keeps another from
 * running, rings have at least 2 chunks (ring = r, cww words per chunk). Positions are block
 * indices b, which are column words and the same for every strip of a pass; a transfer from
 * strip s to s + 1 is the words [nk0, kb1) of s, which start where s + 1 starts. Strip s
 * "completes block b" after, in order: at a chunk start, publishing that the chunks before are
 * read, then waiting for the slot of its top word b to hold that word (its number); the 32
 * steps; at the end of the block, writing word b - 1 into its slot, after waiting, before the
 * first word of a chunk, for the chunk's slots to have been read. So completing block b needs:
 *  (a) the strip above completed block <= b + 1 (it writes word b at the end of block b + 1);
 *  (b) ring slots: the strip below completed block b - 2 - (r - 1) cww (the chunk r - 1 chunks
 *      back was read; its publication is at the start of block b - 1 - (r - 1) cww), or, for a
 *      slot last used by this warp's previous strip, a strip of the previous round;
 *  (c) the wrap (warp G - 1 to warp 0 of the next round, as long as a whole B, indexed by the
 *      word's place t in its transfer): the strip that read the slot's previous contents did so
 *      and said so, which a reader does at its next chunk start or, after its last chunk, at
 *      the first block past the transfer (pk1); were it only at the strip's end, a banded
 *      strip reaching right of pk1 would make this need its whole strip, ring waits included
 *      (with G = 2 those are waits for the wrap's writer itself: a cycle);
 *      for G = 1 that is this strip, which read slot t at block kb0 + t (and loaded it a block
 *      before) and overwrites it at the end of block nk0 + t + 1 > kb0 + t (program order);
 *  (d) its own block b - 1, and all of its warp's strip of the previous round.
 * Within a round (strips rG .. rG + G - 1) cut the strips into segments, maximal runs of one
 * pass: strips depend on each other only inside a segment, except (c) from a wrap writer in a
 * later segment to warp 0's strip, which heads the first one (when the whole round is one
 * segment, (c) is implied by (a) along the chain and never blocks). Inside a segment put
 * phi(s, b) = b + 2 s: (a) lowers phi by 1 and (b) by (r - 1) cww >= 1 (this is where r >= 2
 * is needed), (d) by 1. Every need thus points to an earlier round, an
 * earlier segment of the round, or a smaller phi in the segment: a well-founded order, so the
 * waits form no cycle and every wait ends. With a short ring at the wrap instead, warp G - 1
 * would wait for the next round's warp 0, which waits to finish its strip, which waits for the
 * full rings behind warp G - 1: a real deadlock (tests/emu shows it). */
/* RW >= 2 (the largest pairs, many strips): at most 96 registers, so that 5 blocks fit an SM
 * (20 warps; 128 registers gave 16: a 10 Mb pair's 2,442 strips then took two rounds, the
 * second one on an eighth of the warps) */
template <int MODE, int RW>
__global__ void __launch_bounds__(32 * DPG_WARPS, RW == 1 ? 1 : 5) dpg_long_kernel(const dpg_long_t p)
{
	typedef typename dpg_ew<MODE>::T ew_t;
	DPG_DSM(dsm);
	const int lane = threadIdx.x & 31, wib = threadIdx.x >> 5;
	const int gw = blockIdx.x * (blockDim.x >> 5) + wib, G = p.G;
	if (gw >= G) return;   /* a whole warp: nobody waits for it */
	uint32_t *tbl = dsm + (size_t)wib * p.nc * RW * 32;
	constexpr int SW = MODE == DPG_LEV ? 2 : 1;   /* u64 per slot */
	const int cww = p.cww, ring = p.ring;
	/* buffer k < G - 1: ring k -> k + 1; buffer G - 1: the wrap. Out: buffer gw; in: gw - 1. */
	const int kin = gw == 0 ? G - 1 : gw - 1, kout = gw;
	const bool in_wrap = kin == G - 1;
	unsigned long long *const inb = in_wrap ? p.wrap : p.rings + (int64_t)kin * ring * cww * SW;
	unsigned long long *const in_cons = p.cnt + (int64_t)DPG_CNT_STRIDE * kin;
	unsigned long long in_done = 0;   /* chunks read from in so far */
	uint32_t wrap_in = 0;             /* transfers read from the wrap so far */
	lout_t o = {};
	o.wrap = kout == G - 1;
	o.buf = o.wrap ? p.wrap : p.rings + (int64_t)kout * ring * cww * SW;
	o.cons = p.cnt + (int64_t)DPG_CNT_STRIDE * kout;

	for (int64_t s = gw; s < p.ns; s += G) {
		lstrip_t g;
		strip_of<RW>(p, s, cww, g);
		const dpg_pass_t &P = g.P;
		const uint8_t *bc = p.codes + P.b;
		peq_build<RW>(tbl, p.nc, lane, p.codes + P.a + g.row0, (int64_t)lane * RW * 32, g.rows);
		uint32_t s0[RW], s1[RW];
		strip_left<MODE, RW>(g, lane, s0, s1);
		const ew_t *tsrc = g.from_prev ? nullptr : (const ew_t *)P.top;
		const bool btop = !g.from_prev && !P.top;
		ew_t acc_cur = 0, acc_nxt = 0, tw = 0;
		hand_t hd = { 0u, 0u };
		long long part = 0;
		const int clo = g.clo, chi = g.chi, wo = g.wo, ob = g.ob;
		const int fend = chi >> 5;   /* blocks kb0 + 1 .. fend - 1 have every column inside [clo, chi) */
		/* The top edge word of block b (lane 0's; kb0 <= b < kb1) is taken at the block's start;
		 * its slot was loaded a block before (the pending load), so that the check does not wait
		 * on L2 unless the word was not there yet. (Taking it a block ahead, as when the take was
		 * an acquire that waited, puts a block more of lag between strips: lcs 1 Mb +3%.) Word t of a transfer is word
		 * r of chunk x in ring slot (done + x) mod ring, numbered (done + x) cww + r + 1; in the
		 * wrap it is slot t, numbered by the transfer. Running counts: no division in the loop. */
		int in_t = 0, in_r = 0, in_x = 0, in_slot = (int)(in_done % (unsigned long long)ring);
		o.r = o.q = 0;
		o.slot = (int)(o.done % (unsigned long long)ring);
		unsigned long long pa = 0, pb = 0;   /* the pending slot, as loaded (lane 0) */
		int64_t p_at = 0;
		uint32_t p_seq = 0;
		int p_x = 0;
		bool p_first = false;
		auto issue = [&]() {   /* load the slot of the transfer's next word */
			p_at = in_wrap ? (int64_t)in_t : (int64_t)in_slot * cww + in_r;
			p_seq = in_wrap ? wrap_in + 1 : (uint32_t)((in_done + in_x) * cww + in_r + 1);
			p_first = in_r == 0;
			p_x = in_x;
			/* every lane loads (one request): a load of lane 0 alone would be a predicated
			 * one, whose registers the compiler copies at once, waiting for L2 right here */
			slot_get<MODE>(inb, p_at, pa, pb);
			in_t++;
			if (++in_r == cww) {
				in_r = 0;
				in_x++;
				if (++in_slot == ring) in_slot = 0;
			}
		};
		auto take = [&](int b) -> ew_t {   /* the pending word (of block b), once its number is there */
			/* the chunks before this one were all taken: their slots may be reused */
			if (p_first && p_x > 0 && lane == 0) st_relaxed(in_cons, in_done + p_x);
			ew_t w = 0;
			(void)b;
			DBGW(0, nullptr, p_seq);
			/* the first misses reload at once: the word is most often being written */
			for (int n = 0; !__all_sync(FULLM, slot_has<MODE>(pa, pb, p_seq, w)); n++) {
				if (n >= 4) __nanosleep(32);
				slot_get<MODE>(inb, p_at, pa, pb);
			}
			return lane == 0 ? w : (ew_t)0;
		};
		auto top_word = [&](int b) -> ew_t {
			if (g.from_prev) {
				if (b < g.pk1) {
					if (b == g.kb0) issue();
					const ew_t w = take(b);
					if (b + 1 < g.pk1) issue();
					return w;
				}
				/* right of what the strip above computed. The whole transfer is read (its last
				 * word is in lane 0's registers): say so now, not at the strip's end. A banded
				 * strip goes on past pk1, and the wrap's writer, which the strip may be waiting
				 * for through its own ring, waits for exactly these slots (G = 2 deadlocked
				 * here, test_gpu_dp "wrap"). */
				if (b == g.pk1 && lane == 0) st_relaxed(in_cons, in_done + g.pnch);
				return ew_virtual<MODE>();
			}
			return tsrc && lane == 0 ? tsrc[b] : (ew_t)0;
		};
		for (int b = g.kb0; b <= g.kb1; b++) {
			tw = b < g.kb1 ? top_word(b) : (ew_t)0;
			if (b > g.kb0 && b < fend) {
				if (g.full) strip_block<MODE, RW, false, true>(b, lane, clo, chi, bc, tbl, tw, btop, s0, s1, hd, acc_cur, acc_nxt, wo, ob);
				else strip_block<MODE, RW, false, false>(b, lane, clo, chi, bc, tbl, tw, btop, s0, s1, hd, acc_cur, acc_nxt, wo, ob);
			} else {
				if (g.full) strip_block<MODE, RW, true, true>(b, lane, clo, chi, bc, tbl, tw, btop, s0, s1, hd, acc_cur, acc_nxt, wo, ob);
				else strip_block<MODE, RW, true, false>(b, lane, clo, chi, bc, tbl, tw, btop, s0, s1, hd, acc_cur, acc_nxt, wo, ob);
			}
			if (b > g.kb0) {
				/* word k = b - 1 of the bottom edge is complete (the out lane reached column
				 * 32 b + 31 - ol >= 32 b - 1); kb0 <= k < kb1 */
				const int k = b - 1;
				__syncwarp();   /* orders lane 0's reads of this block before the out lane's writes (G = 1) */
				if (k < g.nk0) part += ew_sum<MODE>(acc_cur);   /* left of the strip below: its corner */
				if (g.to_next && k >= g.nk0) out_word<MODE>(o, g, k, acc_cur, lane, G, cww, ring, gw, b);
				else if (!g.to_next && P.bot && lane == g.ol) ((ew_t *)P.bot)[k] = acc_cur;
			}
			acc_cur = acc_nxt;
			acc_nxt = 0;
		}
		if (g.from_prev) {
			if (lane == 0) st_relaxed(in_cons, in_done + g.pnch);
			in_done += g.pnch;
			if (in_wrap) wrap_in++;
		}
		if (g.to_next) {
			if (o.wrap) { o.wp = true; o.wp_base = o.done; o.wp_n = g.nch; o.wrap_n++; }
			o.done += g.nch;
		}
		strip_right<MODE, RW>(g, lane, s0, s1);
		if (lane == g.ol) p.part[s] = part;
	}
}

/* ------------------------------------------------------------------------------------------ */
/* launches */

extern "C" int dpg_long_warps(int nc, int rw)
{
	return smem_warps(nc, rw);
}

typedef void (*long_kfn_t)(dpg_long_t);

static long_kfn_t long_pick(int mode, int rw)
{
	if (mode == DPG_LEV) return rw == 4 ? dpg_long_kernel<DPG_LEV, 4> : rw == 2 ? dpg_long_kernel<DPG_LEV, 2> : dpg_long_kernel<DPG_LEV, 1>;
	return rw == 4 ? dpg_long_kernel<DPG_LCS, 4> : rw == 2 ? dpg_long_kernel<DPG_LCS, 2> : dpg_long_kernel<DPG_LCS, 1>;
}

extern "C" cudaError_t dpg_long_occupancy(int mode, int rw, int nc, int *blocks_per_sm)
{
	const void *f = (const void *)long_pick(mode, rw);
	const int W = smem_warps(nc, rw);
	const size_t smem = (size_t)W * nc * rw * 128;
	*blocks_per_sm = 0;
	if (smem > (48u << 10)) {
		cudaError_t e = cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
		if (e != cudaSuccess) return e;
	}
	return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks_per_sm, f, 32 * W, smem);
}

extern "C" cudaError_t dpg_long_launch(int mode, const dpg_long_t *p, cudaStream_t st)
{
	const long_kfn_t kfn = long_pick(mode, p->rw);
	const void *f = (const void *)kfn;
	const int W = smem_warps(p->nc, p->rw);
	const size_t smem = (size_t)W * p->nc * p->rw * 128;
	if (smem > (48u << 10)) {
		cudaError_t e = cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
		if (e != cudaSuccess) return e;
	}
	const int blocks = (p->G + W - 1) / W;
	dpg_long_t arg = *p;
#ifdef DPG_EMU
	(void)st;
	return emu_launch((unsigned)blocks, 32 * W, smem, true, [=]() { kfn(arg); });
#else
	void *args[] = { &arg };
	return cudaLaunchCooperativeKernel(f, dim3((unsigned)blocks), dim3(32 * W), args, smem, st);
#endif
}
