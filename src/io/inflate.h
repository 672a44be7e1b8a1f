/* io layer, inside reader.c only: the inflated bytes of an input stream, handed out in whole
 * blocks. A stream that ends early or is corrupt gives every byte of the blocks before the bad
 * one, then the error, on any thread count: the parser then names the same record every time.
 * BGZF is inflated by our own decoder (on `threads` threads), because htslib 1.16's threaded
 * reader can drop the blocks still queued when it meets a truncated one and report a plain end
 * of file; gzip and plain streams go through htslib's one-block reader. */
#ifndef RIO_INFLATE_H
#define RIO_INFLATE_H

#include <stdint.h>
#include <htslib/bgzf.h>
#include <htslib/thread_pool.h>

#define RIO_INF_MIN (1 << 16)   /* a fill's capacity: at least one block */

enum { RIO_INF_CORRUPT = 1, RIO_INF_NOEOF = 2 };   /* rio_inf_t.err */

typedef struct {
	BGZF *fp;          /* the caller's: opened, nothing read yet; closed by the caller */
	int own;           /* BGZF blocks through our decoder; 0: htslib's bgzf_read_block */
	int threads;
	int last_empty;    /* the last BGZF block read was empty (the end-of-file block) */
	int err;           /* RIO_INF_*, handed out once the bytes before it are */
	uint8_t *raw;      /* one batch of compressed blocks */
	int64_t m_raw;
	hts_tpool *pool;   /* threads > 1: made at the first batch of several blocks */
	hts_tpool_process *queue;
} rio_inf_t;

/* s takes fp (not its ownership); threads >= 1 inflate BGZF blocks in parallel. */
void rio_inf_init(rio_inf_t *s, BGZF *fp, int threads);
/* Whole blocks into dst (cap >= RIO_INF_MIN): the bytes given, 0 at the end, -3 when the
 * stream is corrupt or truncated (s->err says which), every byte before it given already. */
int64_t rio_inf_fill(rio_inf_t *s, uint8_t *dst, int64_t cap);
void rio_inf_free(rio_inf_t *s);

#endif
