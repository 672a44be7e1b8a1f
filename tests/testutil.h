/* Helpers shared by the C tests: deterministic random read sets and check macros. */
#ifndef TESTUTIL_H
#define TESTUTIL_H
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

static int tu_fail = 0;
#define CHECK(cond, ...) do { if (!(cond)) { tu_fail++; fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static uint64_t tu_state = 88172645463325252ull;
static inline uint64_t tu_rand(void)
{
	tu_state ^= tu_state << 13; tu_state ^= tu_state >> 7; tu_state ^= tu_state << 17;
	return tu_state;
}
static inline long tu_range(long lo, long hi) { return lo + (long)(tu_rand() % (uint64_t)(hi - lo + 1)); }

/* A random read of length n over an alphabet of `alpha` bases; with probability punk per
 * symbol an unknown symbol or a lowercase/U spelling (raw = what goes into a file). */
static inline void tu_read(char *raw, long n, int alpha, int punk)
{
	static const char base[] = "ACGT", unk[] = "NnRY.-*", low[] = "acgu";
	for (long p = 0; p < n; p++) {
		long r = tu_range(0, 99);
		if (r < punk) raw[p] = unk[tu_range(0, 6)];
		else if (r < punk + 10) raw[p] = low[tu_range(0, alpha - 1)];
		else raw[p] = base[tu_range(0, alpha - 1)];
	}
	raw[n] = 0;
}

/* m random reads (length base, or 1-40 each when mixed), each after the first sharing a
 * random piece of read 0 half of the time, so that long candidates exist. */
static inline void tu_plant_set(char **raw, int m, int alpha, int punk, int mixed, long base)
{
	for (int i = 0; i < m; i++) {
		long l = mixed ? tu_range(1, 40) : base;
		tu_read(raw[i], l, alpha, punk);
		if (i > 0 && tu_range(0, 1) && l > 4) {
			long src = (long)strlen(raw[0]), len = tu_range(1, l < src ? l : src), from = tu_range(0, src - len);
			memcpy(raw[i] + tu_range(0, l - len), raw[0] + from, (size_t)len);
		}
	}
}

/* Normalize like SPEC section 2 (upper case, U -> T). */
static inline void tu_norm(char *s)
{
	for (; *s; s++) {
		if (*s >= 'a' && *s <= 'z') *s -= 32;
		if (*s == 'U') *s = 'T';
	}
}

static inline int tu_done(const char *name)
{
	if (tu_fail) { fprintf(stderr, "%s: %d check(s) failed\n", name, tu_fail); return 1; }
	fprintf(stderr, "%s: all checks passed\n", name);
	return 0;
}
#endif
