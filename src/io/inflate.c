/* Whole inflated blocks of an input stream (inflate.h): BGZF blocks by our own decoder, a batch
 * at a time on several threads, every block's CRC and size checked; gzip and plain streams
 * through htslib's one-block reader. A bad block stops the batch there: the good blocks before
 * it are handed out first, so the bytes before an error never depend on the thread count. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <omp.h>
#include <htslib/hfile.h>
#include <htslib/hts.h>
#include "io/inflate.h"

#define INF_HDR 18            /* a BGZF block's header: gzip's with the BC extra field */
#define INF_MAXBLK 65536      /* a block's largest size, compressed or inflated */

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
	free(s->raw);
	s->raw = 0; s->m_raw = 0;
}

/* One raw-deflate block of n bytes into dst, exactly isize bytes with the given CRC: 0 or -1. */
static int inf_block(const uint8_t *src, int n, uint8_t *dst, uint32_t isize, uint32_t crc)
{
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
	int first_bad = nb;
#pragma omp parallel for num_threads(s->threads) schedule(dynamic, 1) reduction(min : first_bad) if (s->threads > 1 && nb > 1)
	for (int i = 0; i < nb; i++) {
		const uint8_t *b = s->raw + (int64_t)i * INF_MAXBLK;
		if (inf_block(b + INF_HDR, len[i] - INF_HDR - 8, dst + out[i], (uint32_t)(out[i + 1] - out[i]),
		              inf_le32(b + len[i] - 8)))
			if (i < first_bad) first_bad = i;
	}
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
