/* The shared text formatter: a growable buffer, integers through a digit table, JSON
 * strings, and rows formatted by several threads but written in order. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>
#include <omp.h>
#include "io/fmt.h"

void rio_buf_free(rio_buf_t *b)
{
	free(b->s);
	b->s = 0; b->l = b->m = 0; b->oom = 0;
}

int rio_buf_grow(rio_buf_t *b, size_t n)
{
	if (b->oom) return -1;
	if (b->l + n <= b->m) return 0;
	size_t m = (b->l + n) * 2;
	char *t = rk_realloc_huge(b->s, m);
	if (!t) { b->oom = 1; return -1; }
	b->s = t; b->m = m;
	return 0;
}

void rio_buf_str(rio_buf_t *b, const char *s) { rio_buf_strn(b, s, strlen(s)); }

char rio_dig[10000][4];
uint8_t rio_dlen[10000];

/* filled before main(): the formatter's hot path takes no lock or check */
__attribute__((constructor)) static void rio_dig_init(void)
{
	for (int v = 0; v < 10000; v++) {
		char t[8];
		rio_dlen[v] = (uint8_t)snprintf(t, sizeof t, "%d", v);
		memcpy(rio_dig[v], t, rio_dlen[v]);
	}
}

int rio_u64_put_slow(char *d, uint64_t v)
{
	char t[24];
	int n = 0, l;
	do { t[n++] = (char)('0' + v % 10); v /= 10; } while (v);
	for (l = 0; n; l++) d[l] = t[--n];
	return l;
}

void rio_buf_u64_slow(rio_buf_t *b, uint64_t v)
{
	if (rio_buf_need(b, 21)) return;
	b->l += (size_t)rio_u64_put(b->s + b->l, v);
}

void rio_buf_i64(rio_buf_t *b, int64_t v)
{
	if (v < 0) { rio_buf_chr(b, '-'); rio_buf_u64(b, (uint64_t)0 - (uint64_t)v); }
	else rio_buf_u64(b, (uint64_t)v);
}

void rio_buf_printf(rio_buf_t *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(0, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || rio_buf_need(b, (size_t)n + 1)) return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->l, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->l += (size_t)n;
}

/* Length of the valid UTF-8 sequence at s (1-4), or 0 if it is not one. */
static int rio_utf8_len(const unsigned char *s)
{
	int n;
	unsigned cp;
	if (s[0] < 0x80) return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) { n = 2; cp = s[0] & 0x1f; }
	else if (s[0] >= 0xe0 && s[0] <= 0xef) { n = 3; cp = s[0] & 0x0f; }
	else if (s[0] >= 0xf0 && s[0] <= 0xf4) { n = 4; cp = s[0] & 0x07; }
	else return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* no overlong forms, no surrogates, nothing past U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
	return n;
}

/* JSON strings must be UTF-8. Valid UTF-8 is copied; '"' and '\\' are escaped; control
 * bytes become \u00XX; a byte that is not part of valid UTF-8 also becomes \u00XX, its value
 * read as a Latin-1 code point (documented in docs/input.md). */
void rio_buf_json(rio_buf_t *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	rio_buf_chr(b, '"');
	while (*p) {
		int n = rio_utf8_len(p);
		if (*p == '"' || *p == '\\') { rio_buf_chr(b, '\\'); rio_buf_chr(b, (char)*p); p++; }
		else if (*p < 0x20 || *p == 0x7f || n == 0) { rio_buf_printf(b, "\\u%04x", *p); p++; }
		else { rio_buf_strn(b, (const char *)p, (size_t)n); p += n; }
	}
	rio_buf_chr(b, '"');
}

void rio_buf_printable(rio_buf_t *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f) rio_buf_printf(b, "\\x%02x", *p);
		else rio_buf_chr(b, (char)*p);
	}
}

rk_status_t rio_buf_write(rio_buf_t *b, FILE *fp, const char *what)
{
	if (b->oom) {
		rk_set_error("%s: out of memory while formatting the output", what);
		return RK_ERES;
	}
	if (b->l && fwrite(b->s, 1, b->l, fp) != b->l) {
		int e = errno;
		rk_set_error("%s: write failed: %s", what, strerror(e));
		return e == ENOSPC || e == EDQUOT || e == EFBIG ? RK_ERES : RK_EIO;
	}
	b->l = 0;
	return RK_OK;
}

#define RIO_ROWS 256  /* rows formatted at once */

rk_status_t rio_rows(FILE *fp, const char *what, int64_t n, int nth,
                     void (*fmt_row)(rio_buf_t *b, int64_t row, const void *ctx), const void *ctx)
{
	rio_buf_t *bufs = calloc(RIO_ROWS, sizeof *bufs);
	if (!bufs) { rk_set_error("out of memory"); return RK_ERES; }
	rk_status_t st = RK_OK;
	for (int64_t r0 = 0; r0 < n && !st; r0 += RIO_ROWS) {
		int64_t r1 = r0 + RIO_ROWS < n ? r0 + RIO_ROWS : n;
#pragma omp parallel for num_threads(nth > 0 ? nth : 1) schedule(dynamic, 4)
		for (int64_t r = r0; r < r1; r++) {
			rio_buf_t b = bufs[r - r0];   /* a copy on this thread's stack: neighbours share cache lines */
			b.l = 0;
			fmt_row(&b, r, ctx);
			bufs[r - r0] = b;
		}
		for (int64_t r = r0; r < r1 && !st; r++) st = rio_buf_write(&bufs[r - r0], fp, what);
	}
	for (int q = 0; q < RIO_ROWS; q++) rio_buf_free(&bufs[q]);
	free(bufs);
	return st;
}
