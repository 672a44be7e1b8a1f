/* Outputs named *.gz written as BGZF (rio.h): a stdio stream whose bytes go to htslib's BGZF
 * writer on its thread pool, so that every writer keeps its FILE * and the output stays
 * readable by zcat, bgzip and tabix. */
#define _GNU_SOURCE  /* fopencookie */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/statvfs.h>
#include <htslib/bgzf.h>
#include "io/rio.h"

static _Thread_local int bgzf_err;   /* the last failure's errno: fclose may not keep it (seen under ASan) */

int rio_bgzf_errno(void) { return bgzf_err; }

typedef struct {
	BGZF *bg;
	int fd;   /* a duplicate of the output's descriptor, open until the stream closes */
} bgzf_cookie_t;

/* BGZF's threads lose the write's errno: a full file system is told by its free blocks, so
 * that a full disk is still exit 2 (rio.h) */
static int bgzf_errno(const bgzf_cookie_t *c)
{
	struct statvfs v;
	if (c->fd >= 0 && fstatvfs(c->fd, &v) == 0 && v.f_bavail == 0) return ENOSPC;
	return errno ? errno : EIO;
}

static ssize_t bgzf_cookie_write(void *p, const char *buf, size_t n)
{
	bgzf_cookie_t *c = p;
	errno = 0;
	if (bgzf_write(c->bg, buf, n) != (ssize_t)n) { errno = bgzf_err = bgzf_errno(c); return 0; }
	return (ssize_t)n;
}

static int bgzf_cookie_close(void *p)
{
	bgzf_cookie_t *c = p;
	errno = 0;
	int r = bgzf_close(c->bg), e = r ? bgzf_errno(c) : 0;
	if (r) bgzf_err = e;
	if (c->fd >= 0) close(c->fd);
	free(c);
	errno = e;
	return r ? EOF : 0;
}

int rio_out_wants_bgzf(const char *path)
{
	size_t l = path ? strlen(path) : 0;
	return (l > 3 && !strcmp(path + l - 3, ".gz")) || (l > 4 && !strcmp(path + l - 4, ".bgz"));
}

FILE *rio_bgzf_stream(int fd, int threads)
{
	bgzf_cookie_t *c = malloc(sizeof *c);
	bgzf_err = 0;
	BGZF *bg = c ? bgzf_dopen(fd, "w") : 0;
	if (!bg) { int e = errno ? errno : ENOMEM; close(fd); free(c); errno = e; return 0; }
	c->bg = bg;
	c->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	/* compression is the output's cost: as many threads as the job's (bgzip -@) */
	if (threads > 1 && bgzf_mt(bg, threads, 256) != 0) { bgzf_cookie_close(c); errno = ENOMEM; return 0; }
	cookie_io_functions_t io = { 0, bgzf_cookie_write, 0, bgzf_cookie_close };
	FILE *fp = fopencookie(c, "w", io);
	if (!fp) { int e = errno; bgzf_cookie_close(c); errno = e; }
	return fp;
}
