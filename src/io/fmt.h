/* io layer: one text formatter for every output. A rio_buf_t grows as rows are added;
 * when a growth fails it keeps what it has and sets oom, so a writer never drops text
 * silently: rio_buf_write then fails with RK_ERES. */
#ifndef RIO_FMT_H
#define RIO_FMT_H

#include <stdio.h>
#include <stdint.h>
#include "rktlcs.h"

typedef struct {
	char *s;
	size_t l, m;
	int oom;
} rio_buf_t;

/* The caller owns b->s: free with rio_buf_free. */
void rio_buf_free(rio_buf_t *b);
void rio_buf_strn(rio_buf_t *b, const char *s, size_t n);
void rio_buf_str(rio_buf_t *b, const char *s);
void rio_buf_chr(rio_buf_t *b, char c);
void rio_buf_u64(rio_buf_t *b, uint64_t v);
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
