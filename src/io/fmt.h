/* io layer: one text formatter for every output. A rio_buf_t grows as rows are added;
 * when a growth fails it keeps what it has and sets oom, so a writer never drops text
 * silently: rio_buf_write then fails with RK_ERES. */
#ifndef RIO_FMT_H
#define RIO_FMT_H

#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include "rktlcs.h"

typedef struct {
	char *s;
	size_t l, m;
	int oom;
} rio_buf_t;

/* The caller owns b->s: free with rio_buf_free. */
void rio_buf_free(rio_buf_t *b);
/* Room for n more bytes: 0, or -1 (and oom set) when the buffer cannot grow. */
int rio_buf_grow(rio_buf_t *b, size_t n);
static inline int rio_buf_need(rio_buf_t *b, size_t n) { return b->l + n <= b->m ? 0 : rio_buf_grow(b, n); }

/* the hot paths inline: a matrix row is millions of calls */
static inline void rio_buf_strn(rio_buf_t *b, const char *s, size_t n)
{
	if (rio_buf_need(b, n + 1)) return;
	/* through a local pointer: stores through b->s may alias b itself, and the loop then
	 * reloaded b->s and b->l at every byte (a block's rows were copied a byte at a time) */
	char *d = b->s + b->l;
	if (n > 16) memcpy(d, s, n);
	else for (size_t i = 0; i < n; i++) d[i] = s[i];
	b->l += n;
}
static inline void rio_buf_chr(rio_buf_t *b, char c)
{
	if (rio_buf_need(b, 1)) return;
	b->s[b->l++] = c;
}
extern char rio_dig[10000][4];  /* "0".."9999", not NUL-terminated; lengths in rio_dlen */
extern uint8_t rio_dlen[10000];
int rio_u64_put_slow(char *d, uint64_t v);
/* v in decimal at d, which has room for 20 digits (a small v writes 4 bytes); its length */
static inline int rio_u64_put(char *d, uint64_t v)
{
	if (v >= 10000) return rio_u64_put_slow(d, v);
	memcpy(d, rio_dig[v], 4);
	return rio_dlen[v];
}
void rio_buf_u64_slow(rio_buf_t *b, uint64_t v);
static inline void rio_buf_u64(rio_buf_t *b, uint64_t v)
{
	if (v >= 10000 || rio_buf_need(b, 4)) { rio_buf_u64_slow(b, v); return; }
	char *d = b->s + b->l;  /* distances are mostly small: one table copy */
	d[0] = rio_dig[v][0]; d[1] = rio_dig[v][1]; d[2] = rio_dig[v][2]; d[3] = rio_dig[v][3];
	b->l += rio_dlen[v];
}
/* b's text as a C string: a NUL after it (the appenders above do not all leave one);
 * "" when b holds nothing or could not grow. */
static inline const char *rio_buf_cstr(rio_buf_t *b)
{
	if (rio_buf_need(b, 1)) return "";
	b->s[b->l] = 0;
	return b->s;
}
void rio_buf_str(rio_buf_t *b, const char *s);
void rio_buf_i64(rio_buf_t *b, int64_t v);
void rio_buf_printf(rio_buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A JSON string, quotes included (the escaping rule is in fmt.c). */
void rio_buf_json(rio_buf_t *b, const char *s);
/* Text for a '#' comment line: control bytes (a newline in a path) as \xHH. */
void rio_buf_printable(rio_buf_t *b, const char *s);

/* Write b to fp and empty it. RK_ERES if b lost text (oom) or the device is full,
 * RK_EIO on other write errors; rk_error() names `what` (the output's name). */
rk_status_t rio_buf_write(rio_buf_t *b, FILE *fp, const char *what);

/* Rows [0, n) formatted by fmt_row in parallel blocks (nth threads) and written in order. */
rk_status_t rio_rows(FILE *fp, const char *what, int64_t n, int nth,
                     void (*fmt_row)(rio_buf_t *b, int64_t row, const void *ctx), const void *ctx);

#endif
