/* Rkt-LCS support counting on the GPU.
 *
 * support_i(x, l) = #{j != i : some y has <= k mismatches between s_i[x, x+l) and
 * s_j[y, y+l)}. A warp takes one task (i, x) at a time, each lane 32 reads j (one word of
 * a j-set, bit-sliced), and walks every start y of the j-set: step l compares s_i[x+l]
 * with position y+l of all 32 reads in one word load, adds the mismatch bits to a
 * bit-sliced counter of B bits that starts at 2^B - (k+1), so its carry out marks the
 * reads that passed k mismatches (sticky "dead"). Reads still alive after step l have
 * LCP >= l; for l >= tau their bits are OR-ed into G[l] (any y), and popcount(G[l])
 * summed over lanes is the support. The first tau steps record nothing, so the walk stops
 * as soon as the whole warp is dead, which on unrelated reads is after a few steps. */
#include "gpu/rkt_kern.h"

#define RG_FULL 0xffffffffu

/* RG_EMU: the same code compiled by the host compiler against the warp emulator of tests/emu
 * (CI runs the kernels' logic without a device); only the launches differ. */
#ifdef RG_EMU
#define RG_NOINLINE
#define RG_DSM(name) uint32_t *name = (uint32_t *)emu_dyn_smem()
#define RG_LAUNCH(kfn, grid, block, smem, st, arg) ((void)(st), emu_launch((grid), (block), (smem), false, [=]() { kfn(arg); }))
#else
#define RG_NOINLINE __noinline__
#define RG_DSM(name) extern __shared__ uint32_t name[]
#define RG_LAUNCH(kfn, grid, block, smem, st, arg) (kfn<<<(grid), (block), (smem), (st)>>>(arg), cudaGetLastError())
#endif
#ifndef RG_Y
#define RG_Y 4
#endif

/* One step at position row r (lane's word already selected): the mismatch word is plane
 * `off` of the row, the exists plane is plane 5. */
template <int B, bool MIX>
__device__ __forceinline__ void rg_step(const uint32_t *r, uint32_t off, uint32_t *cnt, uint32_t &dead)
{
	uint32_t carry = __ldg(r + off);
#pragma unroll
	for (int b = 0; b < B; b++) {
		uint32_t t = cnt[b] & carry;
		cnt[b] ^= carry;
		carry = t;
	}
	dead |= carry;
	if (MIX) dead |= ~__ldg(r + RG_EX_PLANE * 32);
}

/* The j side of one walk of read i against j-set s (walk-once launches): each read j of the
 * set keeps, per start y, the largest LCP any start x of read i reached with it so far
 * (entries of this (i, s) carry `stamp`), and its counters S[y][tau .. lcp] count read i once. */
struct rg_js_t {
	uint32_t *S, *T;
	const int64_t *jbase;
	const int32_t *slen;
	int64_t slot0;      /* slot of the set's first read */
	int32_t ny, tau;
	uint32_t stamp;
	uint32_t own;       /* this lane's reads that take a j side */
};

/* Reads d of this lane died at LCP L from start y. */
__device__ RG_NOINLINE void rg_jside(const rg_js_t *J, uint32_t d, int32_t y, int32_t L, int lane)
{
	while (d) {
		const int b = __ffs(d) - 1;
		d &= d - 1;
		const int32_t q = lane * 32 + b;
		uint32_t *e = J->T + (int64_t)q * J->ny + y;
		const uint32_t v = *e;
		const int32_t prev = v >> RG_LBITS == J->stamp ? (int32_t)(v & RG_ONCE_MAXLEN) : J->tau - 1;
		if (L <= prev) continue;
		*e = J->stamp << RG_LBITS | (uint32_t)L;
		const int64_t slot = J->slot0 + q, n = J->slen[slot] - J->tau + 1;
		/* S is a difference array here: +1 at level prev + 1, -1 past L (unless L ends the row) */
		uint32_t *row = J->S + J->jbase[slot] + (int64_t)y * n - (int64_t)y * (y - 1) / 2 - J->tau;
		atomicAdd(row + prev + 1, 1u);
		if (L + 1 - J->tau < n - y) atomicAdd(row + L + 1, 0xffffffffu);
	}
}

/* All starts y of one j-set for one task; G[(l - tau) * 32 + lane] collects alive bits.
 * RG_Y starts run side by side through the first tau steps: they share the symbol of s_i
 * and the address arithmetic (row y+1 is an immediate offset from row y), and give the
 * scheduler independent work. Starts past the last one begin dead; their loads may touch
 * up to RG_Y rows past the j-set, which the driver pads. */
template <int B, bool MIX, bool JS>
__device__ void rg_task_set(const uint32_t *rows, const uint8_t *c, int32_t n_i, int32_t ls, int32_t tau,
                            const uint32_t *cinit, uint32_t *G, int lane, uint32_t dead0, const rg_js_t *J)
{
	const int32_t ny = ls - tau + 1;
	for (int32_t y0 = 0; y0 < ny; y0 += RG_Y) {
		const uint32_t *rp = rows + (int64_t)y0 * RG_ROW;
		uint32_t cnt[RG_Y][B > 0 ? B : 1], dead[RG_Y];
#pragma unroll
		for (int q = 0; q < RG_Y; q++) {
			dead[q] = y0 + q < ny ? dead0 : RG_FULL;
#pragma unroll
			for (int b = 0; b < B; b++) cnt[q][b] = cinit[b];
		}
		int32_t l = 0;
		bool gone = false;
		for (; l + 4 <= tau; l += 4) {
			const uint32_t cw = *(const uint32_t *)(c + l);
#pragma unroll
			for (int u = 0; u < 4; u++) {
				const uint32_t *r = rp + (l + u) * RG_ROW, off = (cw >> (8 * u)) & 0xffu;
#pragma unroll
				for (int q = 0; q < RG_Y; q++) rg_step<B, MIX>(r + q * RG_ROW, off, cnt[q], dead[q]);
			}
			uint32_t all = dead[0];
#pragma unroll
			for (int q = 1; q < RG_Y; q++) all &= dead[q];
			if (__all_sync(RG_FULL, all == RG_FULL)) { gone = true; break; }
		}
		if (gone) continue;
		for (; l < tau; l++) {
			const uint32_t *r = rp + l * RG_ROW;
#pragma unroll
			for (int q = 0; q < RG_Y; q++) rg_step<B, MIX>(r + q * RG_ROW, c[l], cnt[q], dead[q]);
		}
		/* past tau each start goes on alone, recording its alive reads at every level */
#pragma unroll
		for (int q = 0; q < RG_Y; q++) {
			if (__all_sync(RG_FULL, dead[q] == RG_FULL)) continue;
			const int32_t bound = min(n_i, ls - (y0 + q));
			const uint32_t *rq = rp + q * RG_ROW;
			uint32_t al = ~dead[q];  /* alive before step m: LCP >= m */
			G[lane] |= al;
			for (int32_t m = tau; m < bound; m++) {
				rg_step<B, MIX>(rq + m * RG_ROW, c[m], cnt[q], dead[q]);
				const uint32_t alive = ~dead[q];
				if (JS) {
					const uint32_t d = al & ~alive & J->own;
					if (d) rg_jside(J, d, y0 + q, m, lane);
					al = alive;
				}
				if (!__any_sync(RG_FULL, alive != 0)) break;
				G[(m + 1 - tau) * 32 + lane] |= alive;
			}
			if (JS && (al & J->own)) rg_jside(J, al & J->own, y0 + q, bound, lane);  /* alive to the end */
		}
	}
}

size_t rg_smem_bytes(int warps, int32_t lr, int32_t lpad, int32_t tpw)
{
	return (size_t)warps * ((size_t)lr * 32 * 4 + (size_t)tpw * lr * 4 + (size_t)tpw * lpad);
}

template <int B>
__global__ void rg_support_kernel(rg_kparams_t p)
{
	RG_DSM(rg_sm);
	const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
	const int32_t lr = p.lr, tpw = p.tpw, tau = p.tau;
	uint32_t *G = (uint32_t *)((uint8_t *)rg_sm + (size_t)w * ((size_t)lr * 32 * 4 + (size_t)tpw * lr * 4 + (size_t)tpw * p.lpad));
	uint32_t *S = G + lr * 32;
	uint8_t *cb = (uint8_t *)(S + tpw * lr);
	const int64_t t0 = ((int64_t)blockIdx.x * nw + w) * tpw;
	if (t0 >= p.n_tasks) return;
	const int32_t nt = (int32_t)min((int64_t)tpw, p.n_tasks - t0);

	for (int32_t q = lane; q < lr * 32; q += 32) G[q] = 0;
	for (int32_t q = lane; q < tpw * lr; q += 32) S[q] = 0;
	for (int32_t t = 0; t < nt; t++) {
		const rg_task_t tk = p.tasks[t0 + t];
		/* codes pre-scaled to the plane offset: base c -> c * 32, unknown -> plane 4 */
		for (int32_t q = lane; q < p.lpad; q += 32)
			cb[t * p.lpad + q] = (uint8_t)(q < tk.n ? min((int)p.codes[tk.code + q], 4) * 32 : 4 * 32);
	}
	uint32_t cinit[B > 0 ? B : 1];
	const uint32_t iv = (1u << B) - (uint32_t)(p.k + 1);
#pragma unroll
	for (int b = 0; b < B; b++) cinit[b] = (iv >> b) & 1u ? RG_FULL : 0u;
	__syncwarp();

	for (int32_t s = p.j0; s < p.j1; s++) {
		const int32_t ls = p.jlen[s];
		if (ls < tau) continue;
		const uint32_t *rows = p.ne + (p.jrow[s] - p.row0) * RG_ROW + lane;
		const bool mixed = p.jmixed[s] != 0;
		for (int32_t t = 0; t < nt; t++) {
			const rg_task_t tk = p.tasks[t0 + t];
			const uint32_t self = (tk.slot / RG_SET == s && (tk.slot >> 5 & 31) == lane) ? 1u << (tk.slot & 31) : 0u;
			const uint8_t *c = cb + t * p.lpad;
			if (mixed) rg_task_set<B, true, false>(rows, c, tk.n, ls, tau, cinit, G, lane, 0u, nullptr);
			else rg_task_set<B, false, false>(rows, c, tk.n, ls, tau, cinit, G, lane, 0u, nullptr);
			/* G[l] shrinks as l grows, so the first all-zero level ends the scan */
			for (int32_t l = 0; l <= tk.n - tau; l++) {
				uint32_t g = G[l * 32 + lane];
				if (!__any_sync(RG_FULL, g != 0)) break;
				G[l * 32 + lane] = 0;
				uint32_t v = __reduce_add_sync(RG_FULL, (uint32_t)__popc(g & ~self));
				if (lane == 0) S[t * lr + l] += v;
			}
			__syncwarp();
		}
	}
	for (int32_t t = 0; t < nt; t++) {
		const rg_task_t tk = p.tasks[t0 + t];
		for (int32_t l = lane; l <= tk.n - tau; l += 32) {
			uint32_t v = S[t * lr + l];
			if (v) p.S[tk.soff + l] += v;  /* each task belongs to one warp of one launch */
		}
	}
}

template <int B>
static cudaError_t rg_launch_b(const rg_kparams_t *p, int warps, cudaStream_t st)
{
	size_t sm = rg_smem_bytes(warps, p->lr, p->lpad, p->tpw);
	const void *f = (const void *)rg_support_kernel<B>;
	cudaError_t e = cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm);
	if (e != cudaSuccess) return e;
	if (p->carveout >= 0) {
		e = cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout, p->carveout);
		if (e != cudaSuccess) return e;
	}
	int64_t per = (int64_t)warps * p->tpw, nb = (p->n_tasks + per - 1) / per;
	if (nb <= 0) return cudaSuccess;
	const rg_kparams_t a = *p;
	return RG_LAUNCH(rg_support_kernel<B>, (unsigned)nb, warps * 32, sm, st, a);
}

cudaError_t rg_launch_support(const rg_kparams_t *p, int warps, cudaStream_t st)
{
	int k1 = p->k + 1, B = 0;
	while ((1 << B) < k1) B++;
	switch (B) {  /* a wider counter than needed is still exact: it starts at 2^B - (k+1) */
	case 0: return rg_launch_b<0>(p, warps, st);
	case 1: return rg_launch_b<1>(p, warps, st);
	case 2: return rg_launch_b<2>(p, warps, st);
	case 3: return rg_launch_b<3>(p, warps, st);
	case 4: return rg_launch_b<4>(p, warps, st);
	case 5: case 6: return rg_launch_b<6>(p, warps, st);
	case 7: case 8: return rg_launch_b<8>(p, warps, st);
	case 9: case 10: case 11: return rg_launch_b<11>(p, warps, st);
	default: return cudaErrorInvalidValue;  /* the driver caps k at the longest read */
	}
}

/* Largest l >= tau with support >= t over the starts of one read; ties keep the smaller x. */
__global__ void rg_cand_kernel(const uint32_t *S, const int64_t *rtask, const rg_task_t *tasks, int64_t nr,
                               int32_t tau, int64_t t, rkt_cand_t *out)
{
	int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= nr) return;
	rkt_cand_t c = { -1, 0, 0 };
	for (int64_t q = rtask[r]; q < rtask[r + 1]; q++) {
		const int32_t n = tasks[q].n - tau + 1;  /* values tau .. len_i - x */
		if (tau + n - 1 <= c.len) break;     /* later starts are shorter and can only tie */
		const uint32_t *row = S + tasks[q].soff;  /* row[v] = support_i(x, tau + v), falling in v */
		for (int32_t v = n - 1; v >= 0; v--)
			if (row[v] >= t) {
				if (tau + v > c.len) { c.len = tau + v; c.pos = q - rtask[r]; c.support = row[v]; }
				break;
			}
	}
	out[r] = c;
}

cudaError_t rg_launch_cand(const uint32_t *S, const int64_t *rtask, const rg_task_t *tasks, int64_t nr,
                           int32_t tau, int64_t t, rkt_cand_t *out, cudaStream_t st)
{
	if (nr <= 0) return cudaSuccess;
#ifdef RG_EMU
	(void)st;
	return emu_launch((unsigned)((nr + 127) / 128), 128, 0, false, [=]() { rg_cand_kernel(S, rtask, tasks, nr, tau, t, out); });
#else
	rg_cand_kernel<<<(unsigned)((nr + 127) / 128), 128, 0, st>>>(S, rtask, tasks, nr, tau, t, out);
	return cudaGetLastError();
#endif
}

/* ---- walk once (rkt_kern.h) ---- */

size_t rg_osmem_warp(int32_t lr, int32_t lpad)
{
	return (size_t)lr * 32 * 4 + 4 * (size_t)lpad;
}

/* A warp takes units (read i, j-sets s0..s1) from a counter. For each j-set it walks every
 * start x of read i, with the reads j that pair with i on their own walk (owned, lower slot:
 * i itself and those before it) dead from the start; a j-set of owned reads that all come
 * before i is skipped whole. The i side goes to S through G as in rg_support_kernel, the j
 * side through rg_jside. Read i's codes sit in shared memory four times, shifted by 0-3
 * bytes, so that the 4-byte loads of every start x are aligned. */
template <int B, int MINB>
__global__ void __launch_bounds__(256, MINB) rg_once_kernel(rg_oparams_t p)
{
	RG_DSM(rg_sm);
	const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
	const int32_t lr = p.lr, tau = p.tau, lp = p.lpad;
	uint32_t *G = (uint32_t *)((uint8_t *)rg_sm + (size_t)w * ((size_t)lr * 32 * 4 + 4 * (size_t)lp));  /* rg_osmem_warp */
	uint8_t *cb = (uint8_t *)(G + lr * 32);
	const int64_t ws = (int64_t)blockIdx.x * nw + w;
	uint32_t *T = p.T + ws * RG_SET * p.ny;
	uint32_t stamp = p.stamp[ws];
	uint32_t cinit[B > 0 ? B : 1];
	const uint32_t iv = (1u << B) - (uint32_t)(p.k + 1);
#pragma unroll
	for (int b = 0; b < B; b++) cinit[b] = (iv >> b) & 1u ? RG_FULL : 0u;
	for (int32_t q = lane; q < lr * 32; q += 32) G[q] = 0;

	for (;;) {
		unsigned long long u = 0;
		if (lane == 0) u = atomicAdd(p.next, 1ull);
		u = __shfl_sync(RG_FULL, u, 0);
		if (u >= (unsigned long long)p.n_units) break;
		const rg_unit_t un = p.units[u];
		const rg_read_t rd = p.reads[un.read];
		__syncwarp();  /* the previous unit's codes are no longer read */
		for (int32_t q = lane; q < 4 * lp; q += 32) {
			const int32_t o = q % lp + q / lp;
			cb[q] = (uint8_t)(o < rd.len ? min((int)p.codes[rd.code + o], 4) * 32 : 4 * 32);
		}
		__syncwarp();
		const int32_t si = rd.slot / RG_SET, li = rd.slot >> 5 & 31, bi = rd.slot & 31, nx = rd.len - tau + 1;
		for (int32_t s = un.s0; s < un.s1; s++) {
			const int32_t ls = p.jlen[s];
			if (ls < tau || (s < si && p.setown[s])) continue;
			const uint32_t ow = p.own[(int64_t)s * 32 + lane];
			/* slots <= i's: pairs walked from the other read (or i itself) */
			const uint32_t le = s < si || (s == si && lane < li) ? RG_FULL
			                  : s > si || lane > li ? 0u : bi == 31 ? RG_FULL : (2u << bi) - 1u;
			const uint32_t dead0 = le & ow;
			if (__all_sync(RG_FULL, dead0 == RG_FULL)) continue;
			if (++stamp >> (32 - RG_LBITS)) {  /* stamps used up: clear the table, start again */
				for (int64_t q = lane; q < (int64_t)RG_SET * p.ny; q += 32) T[q] = 0;
				stamp = 1;
				__syncwarp();
			}
			const rg_js_t J = { p.S, T, p.jbase, p.slen, (int64_t)s * RG_SET, p.ny, tau, stamp, ow & ~dead0 };
			const uint32_t *rows = p.ne + p.jrow[s] * RG_ROW + lane;
			const bool mixed = p.jmixed[s] != 0;
			for (int32_t x = 0; x < nx; x++) {
				const uint8_t *c = cb + (x & 3) * lp + (x & ~3);
				const int32_t n = rd.len - x;
				if (mixed) rg_task_set<B, true, true>(rows, c, n, ls, tau, cinit, G, lane, dead0, &J);
				else rg_task_set<B, false, true>(rows, c, n, ls, tau, cinit, G, lane, dead0, &J);
				/* differences of the supports: level l adds v(l) - v(l - 1), and the first level
				 * with none takes -v(l - 1) */
				uint32_t *Si = p.S + rd.soff + (int64_t)x * nx - (int64_t)x * (x - 1) / 2;
				uint32_t last = 0;
				for (int32_t l = 0; l <= n - tau; l++) {
					const uint32_t g = G[l * 32 + lane];
					const bool any = __any_sync(RG_FULL, g != 0);
					if (!any) {
						if (lane == 0 && last) atomicAdd(Si + l, 0u - last);
						break;
					}
					G[l * 32 + lane] = 0;
					const uint32_t v = __reduce_add_sync(RG_FULL, (uint32_t)__popc(g));
					if (lane == 0 && v != last) atomicAdd(Si + l, v - last);
					last = v;
				}
				__syncwarp();
			}
		}
	}
	if (lane == 0) p.stamp[ws] = stamp;
}

typedef void (*rg_once_f)(rg_oparams_t);

/* MINB 4: at most 64 registers (32 warps per SM, a few spills outside the step loop); 2: no cap */
template <int MINB>
static rg_once_f rg_once_pick_b(int32_t k)
{
	int B = 0;
	while ((1 << B) < k + 1) B++;
	switch (B) {
	case 0: return rg_once_kernel<0, MINB>;
	case 1: return rg_once_kernel<1, MINB>;
	case 2: return rg_once_kernel<2, MINB>;
	case 3: return rg_once_kernel<3, MINB>;
	case 4: return rg_once_kernel<4, MINB>;
	case 5: case 6: return rg_once_kernel<6, MINB>;
	case 7: case 8: return rg_once_kernel<8, MINB>;
	case 9: case 10: case 11: return rg_once_kernel<11, MINB>;
	default: return 0;
	}
}

static rg_once_f rg_once_pick(int32_t k, int minb)
{
	return minb == 2 ? rg_once_pick_b<2>(k) : rg_once_pick_b<4>(k);
}

static cudaError_t rg_once_attr(const rg_oparams_t *p, int warps, rg_once_f *kf)
{
	*kf = rg_once_pick(p->k, p->minb);
	if (!*kf) return cudaErrorInvalidValue;
	const void *f = (const void *)*kf;
	cudaError_t e = cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize,
	                                     (int)(warps * rg_osmem_warp(p->lr, p->lpad)));
	if (e == cudaSuccess && p->carveout >= 0)
		e = cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout, p->carveout);
	return e;
}

cudaError_t rg_once_blocks(const rg_oparams_t *p, int warps, int *blocks)
{
	rg_once_f kf;
	int per = 0, dev = 0, sms = 0;
	cudaError_t e = rg_once_attr(p, warps, &kf);
	if (e == cudaSuccess)
		e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, (const void *)kf, warps * 32, warps * rg_osmem_warp(p->lr, p->lpad));
	if (e == cudaSuccess) e = cudaGetDevice(&dev);
	if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
	*blocks = per * sms;
	return e != cudaSuccess ? e : *blocks > 0 ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t rg_launch_once(const rg_oparams_t *p, int warps, int blocks, cudaStream_t st)
{
	rg_once_f kf;
	cudaError_t e = rg_once_attr(p, warps, &kf);
	if (e != cudaSuccess || p->n_units <= 0) return e;
	const rg_oparams_t a = *p;
	return RG_LAUNCH(kf, (unsigned)blocks, warps * 32, warps * rg_osmem_warp(p->lr, p->lpad), st, a);
}

/* rg_cand_kernel for the reads of a walk-once call: rows of x follow each other in S, and
 * hold the differences of the supports from one level to the next. */
__global__ void rg_ocand_kernel(const uint32_t *S, const rg_read_t *reads, int64_t nr, int32_t tau, int64_t t,
                                rkt_cand_t *out)
{
	int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= nr) return;
	const rg_read_t rd = reads[r];
	out[r] = rg_cand_of(S + rd.soff, rd.len, tau, t);
}

cudaError_t rg_launch_ocand(const uint32_t *S, const rg_read_t *reads, int64_t nr, int32_t tau, int64_t t,
                            rkt_cand_t *out, cudaStream_t st)
{
	if (nr <= 0) return cudaSuccess;
#ifdef RG_EMU
	(void)st;
	return emu_launch((unsigned)((nr + 127) / 128), 128, 0, false, [=]() { rg_ocand_kernel(S, reads, nr, tau, t, out); });
#else
	rg_ocand_kernel<<<(unsigned)((nr + 127) / 128), 128, 0, st>>>(S, reads, nr, tau, t, out);
	return cudaGetLastError();
#endif
}

/* dst[i] += src[i] (uint32, wrapping: the supports' differences of several shares) */
__global__ void rg_add_kernel(uint32_t *dst, const uint32_t *src, int64_t n)
{
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) dst[i] += src[i];
}

cudaError_t rg_launch_add(uint32_t *dst, const uint32_t *src, int64_t n, cudaStream_t st)
{
	if (n <= 0) return cudaSuccess;
	const unsigned blocks = (unsigned)((n + 255) / 256);  /* n <= 2^31 x 256: the callers add in chunks */
#ifdef RG_EMU
	(void)st;
	return emu_launch(blocks, 256, 0, false, [=]() { rg_add_kernel(dst, src, n); });
#else
	rg_add_kernel<<<blocks, 256, 0, st>>>(dst, src, n);
	return cudaGetLastError();
#endif
}
