/* Warp emulator and host-memory CUDA runtime for tests (see cuda_runtime.h here).
 *
 * Every CUDA thread of a launch is a coroutine with its own stack (x86-64 context switch
 * below); a single OS thread runs them round robin. A warp intrinsic is a barrier of the
 * warp's 32 lanes: each lane leaves its value and yields until the last one arrives, which
 * computes every lane's result. Lanes arriving at a different intrinsic (kind, source line or
 * parameters) than the first one, an intrinsic after a lane of the warp has exited, or a
 * partial mask abort the program: that is divergence around a __shfl_sync. __nanosleep yields;
 * 20 million yields of spinning lanes without an emu_st_release in between abort as a
 * deadlock. Device allocations end at a guard page (a read or write past the end crashes) and
 * start filled with 0xa5, as is shared memory. Cooperative launches run every block at once
 * and fail beyond EMU_SMS x EMU_BPS blocks (environment, default 2 x 2), like an occupancy
 * limit; other launches run block by block. Warps run in a random order (EMU_SEED), each for a
 * random burst of rounds at a random speed per warp, so that some run far ahead of others. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <unistd.h>
#include <time.h>
#include <vector>
#include <map>
#include "cuda_runtime.h"

#if !defined(__x86_64__)
#error "the warp emulator's context switch is x86-64 only"
#endif

[[noreturn]] static void fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "EMU FAIL: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

/* ---- coroutines: save callee-saved registers and the stack pointer, switch ---- */
extern "C" void emu_switch(void **from_sp, void *to_sp);
asm(".text\n"
    ".globl emu_switch\n"
    ".type emu_switch,@function\n"
    "emu_switch:\n"
    "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
    "  movq %rsp, (%rdi)\n"
    "  movq %rsi, %rsp\n"
    "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
    "  ret\n"
    ".size emu_switch, .-emu_switch\n");

struct Warp {
	int live, arrived, kind, line, p1, p2;
	uint64_t gen;
	uint64_t in[32], out[32];
};

struct Lane : emu_lane_s {
	void *sp;
	char *stack;
	Warp *warp;
	int lane;
	bool done;
	char *smem;
};

emu_lane_s *emu_cur;
static Lane *cur;
static void *sched_sp;
/* the scheduler's random numbers: EMU_SEED, else fixed */
static uint64_t rng_state;
static uint64_t rnd(void)
{
	if (!rng_state) {
		const char *e = getenv("EMU_SEED");
		rng_state = e && *e ? strtoull(e, 0, 10) * 2654435761ull + 1 : 0x9e3779b97f4a7c15ull;
	}
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}
static std::function<void()> *body_fn;
static long long spins;
static const size_t STACK = 256 << 10;
static std::vector<char *> stack_pool;

static char *get_stack(size_t i)
{
	while (stack_pool.size() <= i) {
		void *p = mmap(0, STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) fail("no memory for a lane stack");
		stack_pool.push_back((char *)p);
	}
	return stack_pool[i];
}

static void lane_entry(void)
{
	(*body_fn)();
	Lane *L = cur;
	L->done = true;
	L->warp->live--;
	if (L->warp->arrived > 0) fail("lane %d of block %u exited while its warp waits at a warp intrinsic", L->lane, L->bid.x);
	emu_switch(&L->sp, sched_sp);
	fail("an exited lane was resumed");
}

static void lane_prepare(Lane *L)
{
	uint64_t *sp = (uint64_t *)(((uintptr_t)(L->stack + STACK)) & ~(uintptr_t)15);
	*--sp = 0;                         /* the entry's return address (it never returns) */
	*--sp = (uint64_t)(uintptr_t)lane_entry;
	for (int r = 0; r < 6; r++) *--sp = 0;   /* rbp rbx r12 r13 r14 r15 */
	L->sp = sp;
}

void (*emu_deadlock_hook)(void) = 0;
void emu_yield(void)
{
	if (spins + 1 > 20000000ll && emu_deadlock_hook) emu_deadlock_hook();
	if (++spins > 20000000ll) fail("deadlock: lanes spun 20 million times without a release");
	emu_switch(&cur->sp, sched_sp);
}

unsigned long long emu_ld_acquire(const unsigned long long *p) { return *(volatile const unsigned long long *)p; }
void emu_st_release(unsigned long long *p, unsigned long long v)
{
	*(volatile unsigned long long *)p = v;
	spins = 0;
}

uint64_t emu_barrier_at(int line, int kind, unsigned mask, uint64_t v, int p1, int p2)
{
	Lane *L = cur;
	Warp *W = L->warp;
	if (mask != 0xffffffffu) fail("partial warp masks are not emulated (mask %08x)", mask);
	if (W->live != 32) fail("warp intrinsic (kind %d) in a warp with %d live lanes", kind, W->live);
	if ((kind == EMU_SHFL_UP || kind == EMU_SHFL_XOR || kind == EMU_SHFL_IDX) && (p2 < 1 || p2 > 32 || (p2 & (p2 - 1))))
		fail("shuffle width %d", p2);
	if (W->arrived == 0) {
		W->kind = kind;
		W->line = line;
		W->p1 = p1;
		W->p2 = p2;
	} else if (W->kind != kind || W->line != line || W->p1 != p1 || W->p2 != p2) {
		fail("divergent warp (block %u lane %d): intrinsic %d line %d (%d, %d) while others wait at %d line %d (%d, %d)", L->bid.x,
		     L->lane, kind, line, p1, p2, W->kind, W->line, W->p1, W->p2);
	}
	W->in[L->lane] = v;
	W->arrived++;
	const uint64_t g = W->gen;
	if (W->arrived == 32) {
		/* a reduction once for the warp, not once per lane: it was most of the emulator's time */
		uint64_t red = 0;
		if (kind == EMU_ALL) { red = 1; for (int q = 0; q < 32; q++) red &= W->in[q] != 0; }
		else if (kind == EMU_ANY) { for (int q = 0; q < 32; q++) red |= W->in[q] != 0; }
		else if (kind == EMU_ADD) { uint32_t a = 0; for (int q = 0; q < 32; q++) a += (uint32_t)W->in[q]; red = a; }
		else if (kind == EMU_MAX) { for (int q = 0; q < 32; q++) red = (uint32_t)W->in[q] > red ? (uint32_t)W->in[q] : red; }
		for (int l = 0; l < 32; l++) {
			switch (kind) {
			case EMU_SHFL_UP: {
				const int base = l & ~(p2 - 1), src = l - p1;
				W->out[l] = src >= base ? W->in[src] : W->in[l];
				break;
			}
			case EMU_SHFL_XOR: {
				const int src = l ^ p1;
				W->out[l] = src / p2 > l / p2 ? W->in[l] : W->in[src];
				break;
			}
			case EMU_SHFL_IDX: {
				const int src = (l & ~(p2 - 1)) + (p1 & (p2 - 1));
				W->out[l] = W->in[src];
				break;
			}
			case EMU_ALL: case EMU_ANY: case EMU_ADD: case EMU_MAX: W->out[l] = red; break;
			default:
				W->out[l] = 0;
			}
		}
		W->arrived = 0;
		W->gen++;
	} else {
		while (W->gen == g) emu_switch(&L->sp, sched_sp);
	}
	return W->out[L->lane];
}

/* ---- device memory: each allocation ends at a guard page ---- */
struct Alloc {
	char *map;
	size_t maplen;
};
static std::map<uintptr_t, Alloc> allocs;

static char *guarded(size_t n, Alloc *a)
{
	const size_t pg = (size_t)sysconf(_SC_PAGESIZE), body = (n + 15) / 16 * 16, len = (body + pg - 1) / pg * pg + pg;
	char *m = (char *)mmap(0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) return 0;
	mprotect(m + len - pg, pg, PROT_NONE);
	char *p = m + len - pg - body;
	memset(p, 0xa5, body);
	a->map = m;
	a->maplen = len;
	return p;
}

static std::vector<Alloc> smem_maps;

void *emu_dyn_smem(void) { return cur->smem; }

static int env_int(const char *name, int d)
{
	const char *e = getenv(name);
	return e && *e ? atoi(e) : d;
}

cudaError_t emu_launch(dim3 grid, dim3 block, size_t smem, bool coop, std::function<void()> body)
{
	if (block.x % 32 || block.y != 1 || block.z != 1 || grid.y != 1 || grid.z != 1 || block.x > 1024) fail("launch shape");
	const unsigned maxb = (unsigned)(env_int("EMU_SMS", 2) * env_int("EMU_BPS", 2));
	if (coop && grid.x > maxb) return cudaErrorCooperativeLaunchTooLarge;
	if (grid.x == 0) return cudaErrorInvalidValue;
	const unsigned per = coop ? grid.x : 1;
	body_fn = &body;
	for (unsigned b0 = 0; b0 < grid.x; b0 += per) {
		const unsigned nb = grid.x - b0 < per ? grid.x - b0 : per, nt = block.x;
		std::vector<Lane> lanes((size_t)nb * nt);
		std::vector<Warp> warps((size_t)nb * nt / 32);
		std::vector<Alloc> sm(nb);
		std::vector<char *> smp(nb);
		for (unsigned b = 0; b < nb; b++) smp[b] = smem ? guarded(smem, &sm[b]) : 0;
		for (auto &w : warps) {
			memset(&w, 0, sizeof w);
			w.live = 32;
		}
		for (unsigned b = 0; b < nb; b++)
			for (unsigned t = 0; t < nt; t++) {
				Lane *L = &lanes[(size_t)b * nt + t];
				L->tid = { t, 0, 0 };
				L->bid = { b0 + b, 0, 0 };
				L->bdim = { block.x, 1, 1 };
				L->gdim = { grid.x, 1, 1 };
				L->warp = &warps[((size_t)b * nt + t) / 32];
				L->lane = (int)(t & 31);
				L->done = false;
				L->smem = smp[b];
				L->stack = get_stack((size_t)b * nt + t);
				lane_prepare(L);
			}
		spins = 0;
		/* warps in random order, each for a random burst of rounds (a round: every lane of the
		 * warp runs to its next yield), so that warps run ahead of each other as on a device */
		const size_t nw = warps.size();
		size_t live = nw;
		std::vector<char> wdone(nw, 0);
		std::vector<int> speed(nw);
		for (auto &v : speed) v = 1 << (rnd() % 6);   /* some warps 32 times slower than others */
		while (live) {
			const size_t w = (size_t)(rnd() % nw);
			if (wdone[w] || (int)(rnd() % 32) >= speed[w]) continue;
			const int burst = 1 + (int)(rnd() % 64);
			for (int r = 0; r < burst && !wdone[w]; r++) {
				bool any = false;
				for (size_t t = 32 * w; t < 32 * w + 32; t++) {
					Lane &L = lanes[t];
					if (L.done) continue;
					any = true;
					cur = &L;
					emu_cur = &L;
					emu_switch(&sched_sp, L.sp);
				}
				if (!any) {
					wdone[w] = 1;
					live--;
				}
			}
		}
		for (unsigned b = 0; b < nb; b++)
			if (smp[b]) munmap(sm[b].map, sm[b].maplen);
	}
	return cudaSuccess;
}

/* ---- the runtime ---- */
struct emu_stream_s { int dummy; };
struct emu_event_s { double t; };
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

const char *cudaGetErrorName(cudaError_t e)
{
	switch (e) {
	case cudaSuccess: return "cudaSuccess";
	case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
	case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
	case cudaErrorNoDevice: return "cudaErrorNoDevice";
	case cudaErrorCooperativeLaunchTooLarge: return "cudaErrorCooperativeLaunchTooLarge";
	default: return "cudaErrorUnknown";
	}
}
const char *cudaGetErrorString(cudaError_t e) { return cudaGetErrorName(e); }
cudaError_t cudaGetDeviceCount(int *n) { *n = 1; return cudaSuccess; }
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int) { snprintf(p->name, sizeof p->name, "warp emulator"); return cudaSuccess; }
cudaError_t cudaGetLastError(void) { return cudaSuccess; }
cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : cudaErrorInvalidValue; }
cudaError_t cudaGetDevice(int *d) { *d = 0; return cudaSuccess; }
cudaError_t cudaDeviceReset(void) { return cudaSuccess; }
cudaError_t cudaMemGetInfo(size_t *fr, size_t *tot) { *fr = (size_t)4 << 30; *tot = (size_t)8 << 30; return cudaSuccess; }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned) { *s = new emu_stream_s(); return cudaSuccess; }
cudaError_t cudaStreamDestroy(cudaStream_t s) { delete s; return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaEventCreate(cudaEvent_t *e) { *e = new emu_event_s(); return cudaSuccess; }
cudaError_t cudaEventDestroy(cudaEvent_t e) { delete e; return cudaSuccess; }
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t) { e->t = now(); return cudaSuccess; }
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) { *ms = (float)((b->t - a->t) * 1e3); return cudaSuccess; }
cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int)
{
	*v = a == cudaDevAttrMultiProcessorCount ? env_int("EMU_SMS", 2) : a == cudaDevAttrComputeMode ? cudaComputeModeDefault : 1;
	return cudaSuccess;
}
cudaError_t cudaMalloc(void **p, size_t n)
{
	Alloc a;
	char *q = guarded(n ? n : 1, &a);
	if (!q) return cudaErrorMemoryAllocation;
	allocs[(uintptr_t)q] = a;
	*p = q;
	return cudaSuccess;
}
cudaError_t cudaFree(void *p)
{
	if (!p) return cudaSuccess;
	auto it = allocs.find((uintptr_t)p);
	if (it == allocs.end()) fail("cudaFree of an unknown pointer");
	munmap(it->second.map, it->second.maplen);
	allocs.erase(it);
	return cudaSuccess;
}
cudaError_t cudaMallocHost(void **p, size_t n)
{
	*p = malloc(n ? n : 1);
	return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaFreeHost(void *p) { free(p); return cudaSuccess; }
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind, cudaStream_t)
{
	memcpy(dst, src, n);
	return cudaSuccess;
}
cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *h, void *p)
{
	if (allocs.find((uintptr_t)p) == allocs.end()) return cudaErrorInvalidValue;  /* not the base of a cudaMalloc */
	memset(h, 0, sizeof *h);
	memcpy(h->reserved, &p, sizeof p);
	return cudaSuccess;
}
cudaError_t cudaIpcOpenMemHandle(void **p, cudaIpcMemHandle_t h, unsigned)
{
	memcpy(p, h.reserved, sizeof *p);
	return allocs.find((uintptr_t)*p) == allocs.end() ? cudaErrorInvalidValue : cudaSuccess;
}
cudaError_t cudaIpcCloseMemHandle(void *) { return cudaSuccess; }
cudaError_t cudaMemsetAsync(void *dst, int v, size_t n, cudaStream_t)
{
	memset(dst, v, n);
	return cudaSuccess;
}
cudaError_t cudaFuncSetAttribute(const void *, cudaFuncAttribute, int v)
{
	return v <= 227 * 1024 ? cudaSuccess : cudaErrorInvalidValue;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *, int, size_t)
{
	*n = env_int("EMU_BPS", 2);
	return cudaSuccess;
}
