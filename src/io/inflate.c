/* Whole inflated blocks of an input stream (inflate.h): BGZF blocks by our own decoder, a batch
 * at a time on several threads, every block's CRC and size checked; gzip and plain streams
 * through htslib's one-block reader. A bad block stops the batch there: the good blocks before
 * it are handed out first, so the bytes before an error never depend on the thread count. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <htslib/hfile.h>
#include <htslib/thread_pool.h>
#include <htslib/hts.h>
#include "io/inflate.h"

#define INF_HDR 18            /* a BGZF block's header: gzip's with the BC extra field */
#define INF_MAXBLK 65536      /* a block's largest size, compressed or inflated */
#define INF_QUEUE 64          /* blocks given to the thread pool at a time */

static uint32_t inf_le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* 1 BGZF header, 0 another gzip member, -1 not gzip */
static int inf_bgzf_header(const uint8_t *h)
{
	if (h[0] != 31 || h[1] != 139 || h[2] != 8) return -1;
	return (h[3] & 4) && h[10] == 6 && h[11] == 0 && h[12] == 'B' && h[13] == 'C' && h[14] == 2 && h[15] == 0;
}

void rio_inf_init(rio_inf_t *s, BGZF *fp, int threads)
{
	memset(s, 0, sizeof *s);
	s->fp = fp;
	s->own = bgzf_compression(fp) == bgzf;
	s->threads = threads > 0 ? threads : 1;
}

void rio_inf_free(rio_inf_t *s)
{
	if (s->queue) hts_tpool_process_destroy(s->queue);
	if (s->pool) hts_tpool_destroy(s->pool);
	s->queue = 0; s->pool = 0;
	free(s->raw);
	s->raw = 0; s->m_raw = 0;
}

/* One raw-deflate block of n bytes into dst, exactly isize bytes with the given CRC: 0 or -1.
 * d: the thread's libdeflate decompressor, where built with it. */
#ifdef RKTLCS_HAVE_DEFLATE
#include <libdeflate.h>
typedef struct libdeflate_decompressor inf_dec_t;
static inf_dec_t *inf_dec_new(void) { return libdeflate_alloc_decompressor(); }
static void inf_dec_free(inf_dec_t *d) { if (d) libdeflate_free_decompressor(d); }
static int inf_block(inf_dec_t *d, const uint8_t *src, int n, uint8_t *dst, uint32_t isize, uint32_t crc)
{
	size_t got = 0;
	if (!d || libdeflate_deflate_decompress(d, src, (size_t)n, dst, isize, &got) != LIBDEFLATE_SUCCESS || got != isize) return -1;
	return libdeflate_crc32(0, dst, isize) == crc ? 0 : -1;
}
#else
typedef void inf_dec_t;
static inf_dec_t *inf_dec_new(void) { return (void *)1; }
static void inf_dec_free(inf_dec_t *d) { (void)d; }
static int inf_block(inf_dec_t *d, const uint8_t *src, int n, uint8_t *dst, uint32_t isize, uint32_t crc)
{
	(void)d;
	z_stream z;
	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, -15) != Z_OK) return -1;
	uint8_t spare;   /* a block that inflates to more than isize fails: it writes past dst's share */
	z.next_in = (Bytef *)src; z.avail_in = (uInt)n;
	z.next_out = isize ? dst : &spare; z.avail_out = isize ? isize : 1;
	int r = inflate(&z, Z_FINISH);
	const int ok = r == Z_STREAM_END && z.total_out == isize;
	inflateEnd(&z);
	if (!ok) return -1;
	return (uint32_t)crc32(0L, dst, isize) == crc ? 0 : -1;
}
#endif

typedef struct {
	const uint8_t *b;   /* the whole compressed block */
	int len;
	uint8_t *dst;
	uint32_t isize;
	int bad;
} inf_job_t;

static void *inf_job_run(void *arg)
{
	inf_job_t *j = arg;
	inf_dec_t *d = inf_dec_new();
	j->bad = inf_block(d, j->b + INF_HDR, j->len - INF_HDR - 8, j->dst, j->isize, inf_le32(j->b + j->len - 8)) != 0;
	inf_dec_free(d);
	return j;
}

/* Inflate blocks 0..nb-1 of the batch, on htslib's thread pool where s->threads > 1 (its
 * workers sleep between batches; OpenMP's spun against the parser on a 2-core machine).
 * Returns the first bad block's index, nb if none. */
static int inf_batch(rio_inf_t *s, int nb, const int *len, const int64_t *out, uint8_t *dst)
{
	inf_job_t job[nb > 0 ? nb : 1];
	for (int i = 0; i < nb; i++)
		job[i] = (inf_job_t){ s->raw + (int64_t)i * INF_MAXBLK, len[i], dst + out[i], (uint32_t)(out[i + 1] - out[i]), 0 };
	if (s->threads > 1 && nb > 1 && !s->pool) {
		s->pool = hts_tpool_init(s->threads);
		s->queue = s->pool ? hts_tpool_process_init(s->pool, 2 * INF_QUEUE, 0) : 0;
	}
	int done = 0;
	/* in rounds no larger than the queue, so that a full output queue never stalls a dispatch;
	 * the results come back in the order given, whichever worker ran them */
	while (s->queue && nb - done > 1) {
		int sent = 0, want = nb - done < INF_QUEUE ? nb - done : INF_QUEUE;
		while (sent < want && hts_tpool_dispatch(s->pool, s->queue, inf_job_run, &job[done + sent]) == 0) sent++;
		for (int i = 0; i < sent; i++) {
			hts_tpool_result *r = hts_tpool_next_result_wait(s->queue);
			if (r) hts_tpool_delete_result(r, 0);
		}
		done += sent;
		if (sent < want) break;
	}
	for (int i = done; i < nb; i++) inf_job_run(&job[i]);   /* one thread, or a pool that failed */
	for (int i = 0; i < nb; i++)
		if (job[i].bad) return i;
	return nb;
}

/* Our decoder: read blocks while another fits in cap, inflate them in parallel, hand out the
 * good ones in order. A gzip member that is not BGZF (a plain .gz appended) sends the rest of
 * the stream to htslib's reader, as htslib does. */
static int64_t inf_bgzf_fill(rio_inf_t *s, uint8_t *dst, int64_t cap)
{
	hFILE *h = s->fp->fp;
	const int nmax = (int)(cap / INF_MAXBLK);
	if (s->m_raw < (int64_t)nmax * INF_MAXBLK) {
		free(s->raw);
		if (!(s->raw = malloc((size_t)nmax * INF_MAXBLK))) { s->m_raw = 0; s->err = RIO_INF_CORRUPT; return -3; }
		s->m_raw = (int64_t)nmax * INF_MAXBLK;
	}
	int64_t out[nmax + 1];
	int len[nmax];
	int nb = 0, end = 0, bad = 0;
	out[0] = 0;
	while (nb < nmax) {
		uint8_t *b = s->raw + (int64_t)nb * INF_MAXBLK;
		ssize_t n = hpeek(h, b, INF_HDR);
		if (n == 0) { end = 1; break; }
		if (n != INF_HDR || inf_bgzf_header(b) < 0) { bad = 1; break; }
		if (!inf_bgzf_header(b)) { s->own = 0; break; }
		const int bsize = (b[16] | b[17] << 8) + 1;
		if (bsize < INF_HDR + 8) { bad = 1; break; }
		if (hread(h, b, (size_t)bsize) != bsize) { bad = 1; break; }   /* cut inside the block */
		const uint32_t isize = inf_le32(b + bsize - 4);
		if (isize > INF_MAXBLK) { bad = 1; break; }
		len[nb] = bsize;
		out[nb + 1] = out[nb] + isize;
		s->last_empty = isize == 0;
		nb++;
	}
	const int first_bad = inf_batch(s, nb, len, out, dst);
	if (first_bad < nb) bad = 1;
	if (bad) s->err = RIO_INF_CORRUPT;
	else if (end && !s->last_empty) s->err = RIO_INF_NOEOF;
	if (out[first_bad] > 0) return out[first_bad];
	if (s->err) return -3;
	if (end) return 0;
	return -2;   /* a batch of empty blocks, or the switch to gzip: read on */
}

/* htslib's reader, one block at a time, copied out; a failed block gives no byte. */
static int64_t inf_hts_fill(rio_inf_t *s, uint8_t *dst, int64_t cap)
{
	BGZF *fp = s->fp;
	int64_t used = 0;
	while (cap - used >= INF_MAXBLK) {
		if (bgzf_read_block(fp) < 0) { s->err = RIO_INF_CORRUPT; break; }
		if (fp->block_length <= 0) break;
		memcpy(dst + used, fp->uncompressed_block, (size_t)fp->block_length);
		used += fp->block_length;
		fp->block_offset = fp->block_length = 0;   /* consumed, as bgzf_read leaves it: gzip inflates at the offset */
	}
	return used > 0 ? used : s->err ? -3 : 0;
}

int64_t rio_inf_fill(rio_inf_t *s, uint8_t *dst, int64_t cap)
{
	if (s->err) return -3;
	for (;;) {
		int64_t n = s->own ? inf_bgzf_fill(s, dst, cap) : inf_hts_fill(s, dst, cap);
		if (n != -2) return n;
	}
}
