/* FASTA/FASTQ parser over htslib's BGZF (plain, gzip and BGZF, detected by content). The
 * buffering and line splitting are ours, not kseq's: kseq grows its line buffer without
 * checking realloc (a gigantic line then overflows the heap), and a sequence line is
 * validated as it streams in, so /dev/zero or a binary file fails at its first bad byte
 * instead of after reading it whole. Every malformed input gets a precise error. */
#define _GNU_SOURCE  /* memmem */
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <omp.h>
#include <pthread.h>
#include <htslib/bgzf.h>
#include <htslib/hts.h>
#include <htslib/hts_log.h>
#include <htslib/hfile.h>
#include "io/rio.h"
#include "io/rio_sam.h"
#include "io/inflate.h"
#include "io/rio_file.h"

#define RIO_BUF (1 << 17)          /* bytes read from the stream at a time */
#define RIO_MAX_HEADER (1 << 20)   /* a longer header line is not FASTA/FASTQ */

/* A compressed stream is inflated by a thread of its own (BGZF on several, inflate.c) into a
 * ring of blocks while the parser works on the previous one. */
#define RIO_NBLK 4
#define RIO_BLK (1 << 20)
typedef struct rio_pipe_s {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint8_t *blk[RIO_NBLK];
	int len[RIO_NBLK];
	int head, count, held, done, err, stop;
} rio_pipe_t;




/* Normalization: upper case, U->T, '.', '-', '*' kept; 0 marks an illegal byte. With keep the
 * case is kept (U->T, u->t) for modes that compare case (hamming -k). The rule in arithmetic,
 * which vectorizes where a table lookup a byte does not: a line's bytes in one pass, nonzero
 * when some byte is illegal (the careful loop then finds which, by the tables below). */
static inline __attribute__((always_inline)) uint8_t rio_norm_run(const uint8_t *s, char *d, int64_t n, const int keep)
{
	uint8_t bad = 0;
	for (int64_t q = 0; q < n; q++) {
		const uint8_t x = s[q], lo = (uint8_t)(x - 'a') < 26, up = (uint8_t)(x - 'A') < 26;
		const uint8_t ok = lo | up | (x == '.') | (x == '-') | (x == '*');
		uint8_t y = keep ? x : (uint8_t)(x - (lo << 5));
		y = keep ? (x == 'U' ? 'T' : x == 'u' ? 't' : y) : (y == 'U' ? 'T' : y);
		d[q] = (char)(ok ? y : 0);
		bad |= (uint8_t)!ok;
	}
	return bad;
}

static uint8_t rio_norm_upper(const uint8_t *s, char *d, int64_t n) { return rio_norm_run(s, d, n, 0); }
static uint8_t rio_norm_kept(const uint8_t *s, char *d, int64_t n) { return rio_norm_run(s, d, n, 1); }

/* the same rule a byte at a time, for the careful loop and SAM records */
static uint8_t rio_norm[256], rio_norm_keep[256];

static void rio_norm_init(void)
{
	if (rio_norm['A']) return;
	uint8_t all[256];
	for (int c = 0; c < 256; c++) all[c] = (uint8_t)c;
	rio_norm_kept(all, (char *)rio_norm_keep, 256);
	rio_norm_upper(all, (char *)rio_norm, 256);   /* last: rio_norm['A'] says the tables are made */
}

void rio_unmap_read(const uint8_t *from, const uint8_t *to)
{
	const uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)from & ~(pg - 1), b = (uintptr_t)to & ~(pg - 1);
	if (b > a) madvise((void *)a, b - a, MADV_DONTNEED);
}

const uint8_t *rio_norm_table(int keep_case)
{
	rio_norm_init();
	return keep_case ? rio_norm_keep : rio_norm;
}

static int rio_threads = 1;

int rio_get_threads(void) { return rio_threads; }

void rio_set_threads(int n)
{
	rio_threads = n > 0 ? n : 1;
}

static void *rio_pipe_run(void *arg)
{
	rio_file_t *f = arg;
	rio_pipe_t *p = f->pipe;
	for (;;) {
		pthread_mutex_lock(&p->mu);
		while (p->count == RIO_NBLK && !p->stop) pthread_cond_wait(&p->cv, &p->mu);
		int slot = (p->head + p->count) % RIO_NBLK, stop = p->stop;
		pthread_mutex_unlock(&p->mu);
		if (stop) return 0;
		int64_t n = rio_inf_fill(&f->inf, p->blk[slot], RIO_BLK);
		pthread_mutex_lock(&p->mu);
		if (n <= 0) { p->done = 1; p->err = n < 0 ? f->inf.err : 0; }
		else { p->len[slot] = (int)n; p->count++; }
		pthread_cond_broadcast(&p->cv);
		int done = p->done;
		pthread_mutex_unlock(&p->mu);
		if (done) return 0;
	}
}

static void rio_pipe_stop(rio_file_t *f)
{
	rio_pipe_t *p = f->pipe;
	if (!p) return;
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->th, 0);
	for (int i = 0; i < RIO_NBLK; i++) free(p->blk[i]);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	free(p);
	f->pipe = 0;
}

/* The next inflated block into f->buf; 1, or 0 at the end (f->err set on a corrupt stream). */
static int rio_pipe_next(rio_file_t *f)
{
	rio_pipe_t *p = f->pipe;
	pthread_mutex_lock(&p->mu);
	if (p->held) { p->head = (p->head + 1) % RIO_NBLK; p->count--; p->held = 0; pthread_cond_broadcast(&p->cv); }
	while (p->count == 0 && !p->done) pthread_cond_wait(&p->cv, &p->mu);
	int ok = p->count > 0;
	if (ok) { f->buf = p->blk[p->head]; f->beg = 0; f->end = p->len[p->head]; p->held = 1; }
	else f->err = p->err;
	pthread_mutex_unlock(&p->mu);
	return ok;
}

static void rio_pipe_start(rio_file_t *f)
{
	rio_pipe_t *p = calloc(1, sizeof *p);
	if (!p) return;
	for (int i = 0; i < RIO_NBLK; i++)
		if (!(p->blk[i] = malloc(RIO_BLK))) { for (int j = 0; j < i; j++) free(p->blk[j]); free(p); return; }
	pthread_mutex_init(&p->mu, 0);
	pthread_cond_init(&p->cv, 0);
	f->pipe = p;
	if (pthread_create(&p->th, 0, rio_pipe_run, f)) {  /* no thread: inflate in line */
		for (int i = 0; i < RIO_NBLK; i++) free(p->blk[i]);
		free(p);
		f->pipe = 0;
		return;
	}
	/* the parser reads the pipe's blocks from now on, never its own buffer */
	free(f->buf);
	f->buf = 0;
}

void rio_keep_case(rio_file_t *f, int keep)
{
	f->norm = keep ? rio_norm_keep : rio_norm;
}

rio_file_t *rio_open(const char *path)
{
	rio_norm_init();
	hts_set_log_level(HTS_LOG_OFF);  /* our own one-line message says what went wrong */
	rio_file_t *f = calloc(1, sizeof *f);
	if (!f || !(f->path = strdup(path)) || !(f->buf = malloc(RIO_BUF))) {
		if (f) { free(f->path); free(f); }
		rk_set_error("out of memory");
		errno = ENOMEM;
		return 0;
	}
	f->norm = rio_norm;
	errno = 0;
	/* what the content is, from a peek that leaves the stream whole (stdin too) */
	hFILE *h = hopen(path, "r");
	if (h && rio_sam_format(h, path)) {
		if (!(f->sam = rio_sam_open(h, path))) { free(f->buf); free(f->path); free(f); return 0; }
		return f;
	}
	if (h && !(f->fp = bgzf_hopen(h, "r"))) hclose_abruptly(h);
	if (!f->fp) {
		const int e = errno;
		rk_set_error("%s: cannot open: %s", path, e ? strerror(e) : "unknown error");
		free(f->buf); free(f->path); free(f);
		errno = e;
		return 0;
	}
	/* BGZF's end-of-file block is checked at the end of the stream (inflate.c), stdin too */
	const int T = rk_tune.read_threads > 0 ? rk_tune.read_threads : rio_threads;
	rio_inf_init(&f->inf, f->fp, T);
	if (T > 1 && bgzf_compression(f->fp) != no_compression) rio_pipe_start(f);
	return f;
}

void rio_close(rio_file_t *f)
{
	if (!f) return;
	if (f->pipe) { rio_pipe_stop(f); f->buf = 0; }  /* buf was one of the pipe's blocks */
	if (f->fp) { bgzf_close(f->fp); rio_inf_free(&f->inf); }
	if (f->fp || f->sam) free(f->buf);
	rio_sam_close(f->sam);
	free(f->line); free(f->name); free(f->path);
	free(f);
}

#define RIO_WIN (1ll << 30)        /* f->beg and f->end are ints: a slice is parsed in windows */

static int64_t rio_window(void)
{
	return rk_tune.read_window > 0 && rk_tune.read_window < RIO_WIN ? rk_tune.read_window : RIO_WIN;
}

/* Next byte without consuming it: -1 at the end, -3 on a corrupt stream. */
static int rio_peek(rio_file_t *f)
{
	if (f->beg < f->end) return f->buf[f->beg];
	if (f->left > 0) {
		/* a mapped slice: the window right after this one; a record or a line spans windows
		 * as it spans the stream's buffers, so a window may end anywhere */
		const int64_t w = f->win > 0 ? f->win : rio_window(), n = f->left < w ? f->left : w;
		if (f->drop) rio_unmap_read(f->buf, f->buf + f->end);   /* the window just parsed is never read again */
		f->buf += f->end; f->beg = 0; f->end = (int)n; f->left -= n; f->n_win++;
		return f->buf[0];
	}
	if (f->eof || !f->fp) return f->err ? -3 : -1;
	if (f->pipe) {
		if (rio_pipe_next(f)) return f->buf[0];
		f->end = 0; f->eof = 1;
		return f->err ? -3 : -1;
	}
	int64_t n = rio_inf_fill(&f->inf, f->buf, RIO_BUF);
	f->beg = 0;
	if (n <= 0) {
		f->end = 0; f->eof = 1; f->err = n < 0 ? f->inf.err : 0;
		return f->err ? -3 : -1;
	}
	f->end = (int)n;
	return f->buf[0];
}


/* One line into f->line without the newline and trailing blanks: its length, -1 at the
 * end (nothing read), -3 corrupt stream, -4 out of memory, -5 longer than cap. */
static int64_t rio_getline(rio_file_t *f, size_t cap)
{
	int c = rio_peek(f);
	if (c < 0) return c;
	f->line_l = 0;
	for (;;) {
		if ((c = rio_peek(f)) == -3) return -3;
		if (c == -1) break;
		uint8_t *s = f->buf + f->beg, *nl = memchr(s, '\n', (size_t)(f->end - f->beg));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(f->end - f->beg);
		if (f->line_l + n > cap) return -5;
		if (f->line_l + n + 1 > f->line_m) {
			size_t m = (f->line_l + n + 1) * 2;
			char *t = realloc(f->line, m);
			if (!t) return -4;
			f->line = t; f->line_m = m;
		}
		memcpy(f->line + f->line_l, s, n);
		f->line_l += n;
		f->beg += (int)n + (nl != 0);
		if (nl) break;
	}
	while (f->line_l && rio_ws(f->line[f->line_l - 1])) f->line_l--;
	f->line[f->line_l] = 0;
	return (int64_t)f->line_l;
}

#define RIO_FAIL(...) do { rio_fail(f, __VA_ARGS__); return RK_EINPUT; } while (0)

static void rio_fail(rio_file_t *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rio_fail(rio_file_t *f, const char *fmt, ...)
{
	char why[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	if (f->rec > 0 && f->name && f->name[0])
		rk_set_error("%s: record %lld (%s): %s", f->path, (long long)(f->rec_base + f->rec), f->name, why);
	else if (f->rec > 0)
		rk_set_error("%s: record %lld: %s", f->path, (long long)(f->rec_base + f->rec), why);
	else
		rk_set_error("%s: %s", f->path, why);
}

/* Errors of the stream itself, common to every read. */
static rk_status_t rio_stream_error(rio_file_t *f, int64_t ret)
{
	if (ret == -3 && f->err == RIO_INF_NOEOF)
		RIO_FAIL("truncated BGZF file: it ends without BGZF's end-of-file block");
	if (ret == -3) RIO_FAIL("corrupt or truncated compressed stream");
	if (ret == -4) { rio_fail(f, "out of memory for a line"); return RK_ERES; }
	if (ret == -5) RIO_FAIL("header line longer than %d bytes: not FASTA/FASTQ", RIO_MAX_HEADER);
	return RK_OK;
}

static rk_status_t rio_grow(void **p, size_t *m, size_t need, size_t elem)
{
	if (need <= *m) return RK_OK;
	size_t nm = *m ? *m : 1024;
	while (nm < need) nm += nm >> 1;
	void *q = rk_realloc_huge(*p, nm * elem);
	if (!q) { rk_set_error("out of memory (%zu bytes)", nm * elem); return RK_ERES; }
	*p = q; *m = nm;
	return RK_OK;
}

static rk_status_t rio_begin_record(rio_reads_t *r, const char *name, size_t nl)
{
	if ((size_t)r->n + 2 > r->m_rec) {
		/* off and name_off share one capacity */
		size_t m1 = r->m_rec, m2 = r->m_rec;
		if (rio_grow((void **)&r->off, &m1, (size_t)r->n + 2, sizeof(uint64_t))) return RK_ERES;
		if (rio_grow((void **)&r->name_off, &m2, m1, sizeof(uint64_t))) return RK_ERES;
		r->m_rec = m1;
	}
	if (r->n == 0) { r->off[0] = 0; r->name_off[0] = 0; }
	uint64_t no = r->name_off[r->n];
	if (rio_grow((void **)&r->names, &r->m_names, no + nl + 1, 1)) return RK_ERES;
	memcpy(r->names + no, name, nl);
	r->names[no + nl] = 0;
	r->name_off[r->n + 1] = no + nl + 1;
	return RK_OK;
}

rk_status_t rio_reads_push(rio_reads_t *r, const char *name, const char *seq, size_t len)
{
	if (rio_begin_record(r, name, strlen(name))) return RK_ERES;
	uint64_t so = r->off[r->n];
	if (rio_grow((void **)&r->seq, &r->m_seq, so + len + 1, 1)) return RK_ERES;
	memcpy(r->seq + so, seq, len);
	r->seq[so + len] = 0;
	r->off[r->n + 1] = so + len + 1;
	r->n++;
	r->n_bases += (int64_t)len;
	return RK_OK;
}

/* Stream one line of symbols: with r, normalized and appended to the open record; without
 * (a quality line), checked to be Phred characters. Trailing blanks are dropped; inner
 * ones are illegal. *len: symbols of the line. */
static rk_status_t rio_stream_line(rio_file_t *f, rio_reads_t *r, uint64_t *len)
{
	uint64_t so = r ? r->off[r->n + 1] : 0, n = 0;
	int blanks = 0, first_blank = 0, c;
	*len = 0;
	while ((c = rio_peek(f)) >= 0) {
		const uint8_t *s = f->buf + f->beg, *e = f->buf + f->end, *nl = memchr(s, '\n', (size_t)(e - s));
		const uint8_t *stop = nl ? nl : e;
		if (r && rio_grow((void **)&r->seq, &r->m_seq, so + n + (uint64_t)(stop - s) + 1, 1)) {
			rio_fail(f, "out of memory for the sequence (%.3g GB so far)", (so + n) / 1e9);
			return RK_ERES;
		}
		/* the common case first: no blank pending, every byte legal, translated in one tight
		 * loop (blanks map to 0 as illegal bytes do); anything else takes the careful loop */
		const uint8_t *p = s;
		if (!blanks) {
			uint8_t bad = 0;
			if (r) {
				char *d = r->seq + so + n;
				bad = f->norm == rio_norm ? rio_norm_upper(s, d, stop - s) : rio_norm_kept(s, d, stop - s);
			} else
				for (int64_t q = 0; q < stop - s; q++) bad |= (uint8_t)(s[q] - '!') > '~' - '!';
			if (!bad) { n += (uint64_t)(stop - s); p = stop; }
		}
		for (; p < stop; p++) {
			uint8_t b = *p;
			if (rio_ws(b)) { if (!blanks++) first_blank = b; continue; }
			if (blanks) RIO_FAIL("illegal character '%c' in %s", first_blank == '\t' ? ' ' : first_blank, r ? "sequence" : "quality line");
			if (r) {
				uint8_t x = f->norm[b];
				if (!x) {
					if (isprint(b)) RIO_FAIL("illegal character '%c' in sequence", b);
					RIO_FAIL("illegal byte 0x%02x in sequence", b);
				}
				r->seq[so + n] = (char)x;
			} else if (b < '!' || b > '~') RIO_FAIL("illegal byte 0x%02x in quality line", b);
			n++;
		}
		f->beg = (int)(stop - f->buf) + (nl != 0);
		if (nl) break;
	}
	if (c == -3) return rio_stream_error(f, -3);
	if (r) r->off[r->n + 1] = so + n;
	*len = n;
	return RK_OK;
}

/* Skip blank lines; the next byte, -1 at the end, -3 on a corrupt stream. */
static int rio_skip_blank(rio_file_t *f)
{
	int c;
	while ((c = rio_peek(f)) >= 0 && (c == '\n' || rio_ws(c))) f->beg++;
	return c;
}

/* A SAM, BAM or CRAM record as a read (sam_in.c decides which are kept and how). */
static rk_status_t rio_sam_record(rio_file_t *f, rio_reads_t *r, int *eof)
{
	rio_sam_rec_t rec = { .n_read = f->rec };
	char why[512];
	rk_status_t st = RK_OK;
	const int got = rio_sam_next(f->sam, f->norm, &rec, why, sizeof why, &st);
	/* at the end the last record read stays named (a truncated file's message names it) */
	if (rec.n_read != f->rec) { free(f->name); f->name = rec.name ? strdup(rec.name) : 0; }
	f->rec = rec.n_read;
	if (got < 0) { rio_fail(f, "%s", why); return st; }
	if (got == 0) {
		*eof = 1;
		if (f->kept == 0 && !f->allow_empty)
			RIO_FAIL(f->rec ? "no reads: every record is secondary or supplementary (--keep-secondary keeps them)"
			                : "empty file: no SAM/BAM/CRAM records");
		return RK_OK;
	}
	f->kept++;
	if (rio_reads_push(r, rec.name, rec.seq, rec.len)) { rio_fail(f, "out of memory"); return RK_ERES; }
	return RK_OK;
}

static rk_status_t rio_read_record(rio_file_t *f, rio_reads_t *r, int *eof)
{
	*eof = 0;
	if (f->sam) return rio_sam_record(f, r, eof);
	int c = rio_skip_blank(f);
	if (c == -3) return rio_stream_error(f, -3);
	if (c == -1) {
		*eof = 1;
		if (f->rec == 0 && !f->allow_empty) RIO_FAIL("empty file: no FASTA/FASTQ records");
		return RK_OK;
	}
	if (c == '@' && f->fasta_only) { f->not_fasta = 1; RIO_FAIL("a FASTQ record in a FASTA slice"); }
	/* the first byte decides, before a possibly endless line is read */
	if (c != '>' && c != '@') {
		if (f->rec == 0) {
			if (isprint(c)) RIO_FAIL("not FASTA or FASTQ: first character '%c' (expected '>' or '@')", c);
			RIO_FAIL("not FASTA or FASTQ: first byte 0x%02x (binary file?)", c);
		}
		RIO_FAIL("unexpected line after this record (expected a '>' or '@' header)");
	}
	int64_t ret = rio_getline(f, RIO_MAX_HEADER);
	f->rec++;
	free(f->name); f->name = 0;
	if (ret < 0) return rio_stream_error(f, ret);
	size_t nl = 1;
	while (nl < f->line_l && !isspace((unsigned char)f->line[nl])) nl++;
	if (!(f->name = strndup(f->line + 1, nl - 1))) { rio_fail(f, "out of memory"); return RK_ERES; }
	if (nl == 1) RIO_FAIL("empty record name");
	for (size_t i = 1; i < nl; i++)
		if (iscntrl((unsigned char)f->line[i])) RIO_FAIL("control byte 0x%02x in the header", (unsigned char)f->line[i]);
	if (rio_begin_record(r, f->line + 1, nl - 1)) return RK_ERES;
	r->off[r->n + 1] = r->off[r->n];
	uint64_t n;
	rk_status_t st;
	if (c == '>') {
		/* sequence lines until the next header; '@' cannot start one (mixed input) */
		while ((c = rio_skip_blank(f)) >= 0 && c != '>' && c != '@')
			if ((st = rio_stream_line(f, r, &n)) != RK_OK) return st;
		if (c == '@' && f->fasta_only) { f->not_fasta = 1; RIO_FAIL("a FASTQ record in a FASTA slice"); }
		if (c == -3) return rio_stream_error(f, -3);
	} else {
		for (;;) {
			c = rio_skip_blank(f);
			if (c == -3) return rio_stream_error(f, -3);
			if (c == -1) RIO_FAIL("truncated FASTQ record: missing '+' line");
			if (c == '+') break;
			if (c == '@' || c == '>') RIO_FAIL("FASTQ record without '+' line");
			if ((st = rio_stream_line(f, r, &n)) != RK_OK) return st;
		}
		if ((ret = rio_getline(f, RIO_MAX_HEADER)) < 0) return rio_stream_error(f, ret);
		uint64_t slen = r->off[r->n + 1] - r->off[r->n], qlen = 0;
		int at = 0, trunc = 0;
		while (qlen < slen) {
			if ((c = rio_peek(f)) < 0) { if (c == -3) return rio_stream_error(f, -3); trunc = 1; break; }
			at = c == '@';
			if ((st = rio_stream_line(f, 0, &n)) != RK_OK) return st;
			if (qlen && at && qlen + n > slen) {
				/* a short quality line, then the next record's header ('@' is also a quality value) */
				RIO_FAIL("quality length %llu differs from sequence length %llu (the next line starts with '@': a new record?)",
				         (unsigned long long)qlen, (unsigned long long)slen);
			}
			qlen += n;
		}
		if (qlen != slen)
			RIO_FAIL("quality length %llu differs from sequence length %llu%s", (unsigned long long)qlen,
			         (unsigned long long)slen, trunc ? " (truncated file?)" : "");
	}
	uint64_t len = r->off[r->n + 1] - r->off[r->n];
	if (len == 0) RIO_FAIL("empty sequence (length 0)");
	if (rio_grow((void **)&r->seq, &r->m_seq, r->off[r->n + 1] + 1, 1)) { rio_fail(f, "out of memory"); return RK_ERES; }
	r->seq[r->off[r->n + 1]] = 0;
	r->off[r->n + 1]++;
	r->n++;
	r->n_bases += (int64_t)len;
	return RK_OK;
}

rk_status_t rio_read_batch(rio_file_t *f, rio_reads_t *r, int64_t max_bases, int *eof)
{
	int64_t start = r->n_bases;
	*eof = 0;
	while (max_bases <= 0 || r->n_bases - start < max_bases) {
		rk_status_t st = rio_read_record(f, r, eof);
		if (st) return st;
		if (*eof) break;
	}
	return RK_OK;
}

rk_status_t rio_read_all(const char *path, rio_reads_t *r)
{
	return rio_read_all_case(path, r, 0);
}

void rio_reads_free(rio_reads_t *r)
{
	if (!r->seq_shared) free(r->seq);
	free(r->off); free(r->names); free(r->name_off);
	memset(r, 0, sizeof *r);
}
