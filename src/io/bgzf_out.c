/* Outputs named *.gz written as BGZF (rio.h): a stdio stream whose bytes are cut into BGZF
 * blocks as bgzip cuts them, compressed by htslib's block compressor, and written in order,
 * so that every writer keeps its FILE * and the output stays readable by zcat, bgzip and
 * tabix. The blocks are compressed by an OpenMP loop on the job's threads, in the writer's
 * thread, where htslib's own pool would add a second set of busy threads beside the job's
 * (whose spinning at barriers then slows both). */
#define _GNU_SOURCE  /* fopencookie */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <omp.h>
#include <sys/statvfs.h>
#include <htslib/bgzf.h>
#include "io/rio.h"

#define BO_BATCH 4   /* blocks a thread compresses per batch: a batch is threads x this many */

static _Thread_local int bgzf_err;   /* the last failure's errno: fclose may not keep it (seen under ASan) */

int rio_bgzf_errno(void) { return bgzf_err; }

typedef struct {
	int fd;          /* the output, closed with the stream */
	int threads;
	int64_t cap;     /* blocks of BGZF_BLOCK_SIZE bytes the pending buffer holds */
	char *pend;      /* bytes not yet compressed: cap blocks */
	int64_t n_pend;
	char *z;         /* cap compressed blocks of at most BGZF_MAX_BLOCK_SIZE */
	size_t *zl;
	int failed;
} bgzf_cookie_t;

/* the canonical empty block that ends a BGZF file (htslib checks for these bytes) */
static const unsigned char bgzf_eof[28] = "\037\213\010\4\0\0\0\0\0\377\6\0\102\103\2\0\033\0\3\0\0\0\0\0\0\0\0\0";

/* the write's errno; a full file system is told by its free blocks, so that a full disk is
 * still exit 2 (rio.h) whatever errno came back */
static int bgzf_errno(const bgzf_cookie_t *c, int e)
{
	struct statvfs v;
	if (c->fd >= 0 && fstatvfs(c->fd, &v) == 0 && v.f_bavail == 0) return ENOSPC;
	return e ? e : EIO;
}

static int bgzf_put(bgzf_cookie_t *c, const void *p, size_t n)
{
	const char *s = p;
	while (n) {
		ssize_t w = write(c->fd, s, n);
		if (w < 0 && errno == EINTR) continue;
		if (w <= 0) { errno = bgzf_err = bgzf_errno(c, w < 0 ? errno : 0); c->failed = 1; return -1; }
		s += w; n -= (size_t)w;
	}
	return 0;
}

/* n bytes of pend (full blocks, the last maybe short) compressed in parallel, written in order */
static int bgzf_drain(bgzf_cookie_t *c, int64_t n)
{
	const int64_t nb = (n + BGZF_BLOCK_SIZE - 1) / BGZF_BLOCK_SIZE;
	int bad = 0;
	#pragma omp parallel for schedule(dynamic, 1) num_threads(c->threads) if (nb > 1) reduction(|: bad)
	for (int64_t b = 0; b < nb; b++) {
		const int64_t off = b * BGZF_BLOCK_SIZE, len = n - off < BGZF_BLOCK_SIZE ? n - off : BGZF_BLOCK_SIZE;
		c->zl[b] = BGZF_MAX_BLOCK_SIZE;
		bad |= bgzf_compress(c->z + b * BGZF_MAX_BLOCK_SIZE, &c->zl[b], c->pend + off, (size_t)len, -1) != 0;
	}
	if (bad) { errno = bgzf_err = ENOMEM; c->failed = 1; return -1; }
	for (int64_t b = 0; b < nb; b++)
		if (bgzf_put(c, c->z + b * BGZF_MAX_BLOCK_SIZE, c->zl[b])) return -1;
	memmove(c->pend, c->pend + n, (size_t)(c->n_pend - n));
	c->n_pend -= n;
	return 0;
}

static ssize_t bgzf_cookie_write(void *p, const char *buf, size_t n)
{
	bgzf_cookie_t *c = p;
	if (c->failed) { errno = bgzf_err ? bgzf_err : EIO; return 0; }
	const int64_t room = c->cap * BGZF_BLOCK_SIZE;
	size_t done = 0;
	while (done < n) {
		size_t k = n - done < (size_t)(room - c->n_pend) ? n - done : (size_t)(room - c->n_pend);
		memcpy(c->pend + c->n_pend, buf + done, k);
		c->n_pend += (int64_t)k;
		done += k;
		if (c->n_pend == room && bgzf_drain(c, room)) return 0;
	}
	return (ssize_t)n;
}

static void bgzf_cookie_free(bgzf_cookie_t *c)
{
	if (c->fd >= 0) close(c->fd);
	free(c->pend); free(c->z); free(c->zl); free(c);
}

static int bgzf_cookie_close(void *p)
{
	bgzf_cookie_t *c = p;
	int r = c->failed;
	if (!r && c->n_pend) r = bgzf_drain(c, c->n_pend) != 0;
	if (!r) r = bgzf_put(c, bgzf_eof, sizeof bgzf_eof) != 0;
	const int e = r ? (bgzf_err ? bgzf_err : EIO) : 0;
	if (close(c->fd) != 0 && !r) { r = 1; bgzf_err = bgzf_errno(c, errno); }
	c->fd = -1;
	bgzf_cookie_free(c);
	errno = r ? (e ? e : bgzf_err) : 0;
	return r ? EOF : 0;
}

int rio_out_wants_bgzf(const char *path)
{
	size_t l = path ? strlen(path) : 0;
	return (l > 3 && !strcmp(path + l - 3, ".gz")) || (l > 4 && !strcmp(path + l - 4, ".bgz"));
}

FILE *rio_bgzf_stream(int fd, int threads)
{
	bgzf_err = 0;
	bgzf_cookie_t *c = calloc(1, sizeof *c);
	if (!c) { close(fd); errno = ENOMEM; return 0; }
	c->fd = fd;
	/* compression is the output's cost: as many threads as the job's (bgzip -@) */
	c->threads = threads > 0 ? threads : omp_get_max_threads();
	c->cap = (int64_t)c->threads * BO_BATCH;
	c->pend = malloc((size_t)c->cap * BGZF_BLOCK_SIZE);
	c->z = malloc((size_t)c->cap * BGZF_MAX_BLOCK_SIZE);
	c->zl = malloc(sizeof *c->zl * (size_t)c->cap);
	cookie_io_functions_t io = { 0, bgzf_cookie_write, 0, bgzf_cookie_close };
	FILE *fp = c->pend && c->z && c->zl ? fopencookie(c, "w", io) : 0;
	if (!fp) { bgzf_cookie_free(c); errno = ENOMEM; }
	return fp;
}
