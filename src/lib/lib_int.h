/* librktlcs's own helpers (lib_pair.c, lib_sets.c); not installed. */
#ifndef LIB_INT_H
#define LIB_INT_H

#include <stdint.h>
#include <string.h>
#include "rktlcs.h"
#include "lib/librktlcs.h"

/* n bytes of s into d as the command reads them: upper case (unless keep_case), U as T */
static inline void lib_norm(char *d, const char *s, int64_t n, int keep_case)
{
	for (int64_t i = 0; i < n; i++) {
		char c = s[i];
		if (!keep_case && c >= 'a' && c <= 'z') c = (char)(c - 32);
		d[i] = c == 'U' ? 'T' : c == 'u' ? 't' : c;
	}
}

/* the algo layer's status as the library's */
static inline rkl_status_t lib_status(rk_status_t st) { return st == RK_OK ? RKL_OK : st == RK_ERES ? RKL_ENOMEM : RKL_EINPUT; }

#endif
