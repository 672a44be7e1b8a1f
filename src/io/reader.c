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

#define RIO_BUF (1 << 17)          /* bytes read from the stream at a time */
#define RIO_MAX_HEADER (1 << 20)   /* a longer header line is not FASTA/FASTQ */

/* A compressed stream is inflated by a thread of its own (BGZF on several, inflate.c) into a
 * ring of blocks while the parser works on the previous one. */
#define RIO_NBLK 4
#define RIO_BLK (1 << 20)
typedef struct {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint8_t *blk[RIO_NBLK];
	int len[RIO_NBLK];
	int head, count, held, done, err, stop;
} rio_pipe_t;

struct rio_file_s {
	BGZF *fp;                  /* NULL: a slice of memory (buf is not ours) */
	rio_inf_t inf;             /* the stream's inflated blocks (fp set) */
	rio_pipe_t *pipe;          /* a compressed stream inflated ahead, or NULL */
	int fasta_only;            /* a slice of a FASTA file: a '@' header ends the parse */
	int not_fasta;
	uint8_t *buf;
	int beg, end, eof, err;    /* err: the compressed stream is corrupt or truncated (RIO_INF_*) */
	int64_t left;              /* a slice of a mapped file: its bytes after the window buf..end */
	int64_t n_win;             /* windows of the slice parsed so far */
	int64_t win;               /* a slice's window (0: rio_window()) */
	int drop;                  /* a slice's windows already parsed leave memory (MADV_DONTNEED) */
	int allow_empty;           /* a byte range of a file may hold no record */
	int64_t rec_base;          /* records before this slice, for messages */
	char *line;                /* header, '+' and blank lines */
	size_t line_l, line_m;
	int64_t rec;               /* records read so far */
	char *path;
	char *name;                /* current record's name */
	const uint8_t *norm;       /* rio_norm, or rio_norm_keep with case kept */
	rio_sam_t *sam;            /* SAM, BAM or CRAM (sam_in.c): fp is NULL */
	int64_t kept;              /* records of sam kept */
};


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
		if (f->drop) {
			/* the window just parsed is never read again: a rank keeps its range's parsed
			 * symbols, not its mapped bytes too (a page shared with the next window faults in
			 * again from the page cache) */
			const uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)f->buf & ~(pg - 1),
			                b = (uintptr_t)(f->buf + f->end) & ~(pg - 1);
			if (b > a) madvise((void *)a, b - a, MADV_DONTNEED);
		}
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

static int rio_ws(int c) { return c == '\r' || c == ' ' || c == '\t'; }

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

#define RIO_PAR_MIN (32ll << 20)   /* smaller files are parsed by one thread */

static _Thread_local int rio_slices;   /* slices of the last rio_read_all* of this thread */
static _Thread_local int64_t rio_windows;   /* and the windows of those slices */
static _Thread_local int64_t rio_moved;   /* and the bytes moved into place after the parse */
int rio_read_slices(void) { return rio_slices; }
int64_t rio_read_moved(void) { return rio_moved; }
int64_t rio_read_windows(void) { return rio_windows; }

/* A plain FASTA file of RIO_PAR_MIN bytes or more, parsed by several threads: the mapped file
 * is cut at "\n>" (a '>' cannot start a sequence line, so every cut is a record boundary),
 * each slice is parsed on its own and the parts are joined in order. Returns 0 when the file
 * is not such a file (compressed, stdin, small, FASTQ) or any slice fails: the caller then
 * parses it in one stream, which gives the exact error with its record number. A slice is
 * walked in windows of at most 1 GiB that end anywhere, even inside a record (rio_peek), so
 * a record longer than a window never sends a good file to the second, one-stream read.
 * Every slice writes its symbols straight into the one sequence buffer, at the sum of the
 * bounds of the slices before it (rio_slice_bound, a first pass on every thread), so a slice
 * never writes past its own region and, where no sequence line ends in blanks, every slice is
 * already in place; otherwise they are moved down into place in order (memmove, to the left).
 * The symbols are written once and no second buffer is faulted in: the serial move of every
 * slice it replaced is in docs/BENCHMARKS.md. */
static int64_t rio_cut(const uint8_t *base, int64_t size, int part, int parts);

/* What the parse of bytes [lo, hi) can write at most: a header line's NUL, every byte of a
 * sequence line (its symbols, and the blanks the fast path writes and then drops). Each slice
 * is parsed at the sum of the slices' bounds before it, so the slices need no move into place
 * when no line has blanks; the move (to the left, in order) closes the gaps of those that do. */
static int64_t rio_slice_bound(const uint8_t *b, int64_t lo, int64_t hi, int drop)
{
	int64_t at = lo, bound = 0, freed = lo;
	while (at < hi) {
		const uint8_t *nl = memchr(b + at, '\n', (size_t)(hi - at));
		const int64_t e = nl ? (int64_t)(nl - b) : hi;
		bound += b[at] == '>' ? 1 : e - at;
		at = e + 1;
		if (drop && at - freed >= (32ll << 20)) {   /* a rank's range leaves memory as its parse does */
			const uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), a = ((uintptr_t)(b + freed) + pg - 1) & ~(pg - 1),
			                z = (uintptr_t)(b + at) & ~(pg - 1);
			if (z > a) madvise((void *)a, z - a, MADV_DONTNEED);
			freed = at;
		}
	}
	return bound;
}

static int rio_read_parallel(const char *path, rio_reads_t *r, int keep_case, int nth, int which, int parts)
{
	if (nth < 2 || !strcmp(path, "-")) return 0;
	double tm[4] = { 0, 0, 0, 0 };   /* -v: mapped, cut and bounded, parsed, moved into place, indexed */
	tm[0] = rk_realtime();
	rio_norm_init();   /* the slices' rio_file_t are not made by rio_open */
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) return 0;
	struct stat sb;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_size < RIO_PAR_MIN) { close(fd); return 0; }
	const int64_t size = sb.st_size;
	const uint8_t *base = mmap(0, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (base == MAP_FAILED) return 0;
	/* part `which` of parts (rio_read_range): the slices cut this part's bytes [lo, hi) */
	const int64_t lo = rio_cut(base, size, which, parts), hi = rio_cut(base, size, which + 1, parts);
	int64_t p0 = lo;
	while (p0 < hi && (base[p0] == '\n' || rio_ws(base[p0]))) p0++;
	if (p0 >= hi || base[p0] != '>' || hi - lo < RIO_PAR_MIN) { munmap((void *)base, (size_t)size); return 0; }
	int T = nth;
	if (T > (hi - lo) / (8ll << 20)) T = (int)((hi - lo) / (8ll << 20));
	if (T < 2) { munmap((void *)base, (size_t)size); return 0; }
	int64_t *cut = malloc(sizeof(int64_t) * (size_t)(T + 1));
	rio_reads_t *part = calloc((size_t)T, sizeof *part);
	char *seq = rk_malloc_huge((size_t)(hi - p0 + 1));
	int ok = cut && part && seq;
	if (ok) {
		cut[0] = p0;
		for (int t = 1; t < T; t++) {
			int64_t p = lo + (hi - lo) * t / T;
			if (p < cut[t - 1]) p = cut[t - 1];
			const uint8_t *q = p < hi ? memmem(base + p, (size_t)(hi - p), "\n>", 2) : 0;
			cut[t] = q ? (int64_t)(q - base) + 1 : hi;
		}
		cut[T] = hi;
	}
	int fail = !ok;
	int64_t n_win = 0, moved = 0, *at = ok ? malloc(sizeof(int64_t) * (size_t)(T + 1)) : 0;
	if (!at) fail = 1;
	else {
#pragma omp parallel for num_threads(T) schedule(static, 1)
		for (int t = 0; t < T; t++) at[t + 1] = rio_slice_bound(base, cut[t], cut[t + 1], parts > 1);
		at[0] = 0;
		for (int t = 0; t < T; t++) at[t + 1] += at[t];
	}
	tm[1] = rk_realtime();
#pragma omp parallel for num_threads(T) schedule(static, 1)
	for (int t = 0; t < T; t++) {
		if (fail || cut[t] >= cut[t + 1]) continue;
		rio_file_t *f = calloc(1, sizeof *f);
		if (!f || !(f->path = strdup(path))) {
			free(f);
#pragma omp atomic write
			fail = 1;
			continue;
		}
		/* the slice can exceed an int: rio_peek moves through it window by window */
		f->buf = (uint8_t *)base + cut[t];
		f->left = cut[t + 1] - cut[t];
		f->eof = 1;   /* no stream behind the windows */
		f->fasta_only = 1;
		f->norm = keep_case ? rio_norm_keep : rio_norm;
		if (parts > 1) { f->win = 32ll << 20; f->drop = 1; }   /* a rank's range: as rio_read_range */
		int eof = 0;
		/* the slice's own region of the shared buffer; a capacity no request reaches, so that
		 * it is never reallocated (the bound is rio_slice_bound's) */
		part[t].seq = seq + at[t];
		part[t].m_seq = (size_t)1 << 62;
		rk_status_t st = rio_read_batch(f, &part[t], 0, &eof);
#pragma omp atomic update
		n_win += f->n_win;
		if (st) {
#pragma omp atomic write
			fail = 1;
		}
		f->buf = 0;
		rio_close(f);
	}
	munmap((void *)base, (size_t)size);
	tm[2] = rk_realtime();
	/* join the parts in order */
	int64_t n = 0, nb = 0;
	uint64_t sl = 0, nl = 0;
	for (int t = 0; t < T && !fail; t++) {
		if (!part[t].n) continue;
		n += part[t].n; nb += part[t].n_bases;
		sl += part[t].off[part[t].n]; nl += part[t].name_off[part[t].n];
	}
	if (!fail) {
		memset(r, 0, sizeof *r);
		r->names = rk_malloc_huge(nl ? nl : 1);
		r->off = rk_malloc_huge(sizeof(uint64_t) * (size_t)(n + 1)); r->name_off = rk_malloc_huge(sizeof(uint64_t) * (size_t)(n + 1));
		if (!r->names || !r->off || !r->name_off) { rio_reads_free(r); fail = 1; }
	}
	if (!fail) {
		r->n = n; r->n_bases = nb; r->m_names = nl ? nl : 1; r->m_rec = (size_t)n + 1;
		int64_t *rec0 = malloc(sizeof(int64_t) * (size_t)(T + 1));
		uint64_t *s0 = malloc(sizeof(uint64_t) * (size_t)(T + 1)), *n0 = malloc(sizeof(uint64_t) * (size_t)(T + 1));
		if (!rec0 || !s0 || !n0) { rio_reads_free(r); fail = 1; }
		else {
			rec0[0] = 0; s0[0] = 0; n0[0] = 0;
			for (int t = 0; t < T; t++) {
				rec0[t + 1] = rec0[t] + part[t].n;
				s0[t + 1] = s0[t] + (part[t].n ? part[t].off[part[t].n] : 0);
				n0[t + 1] = n0[t] + (part[t].n ? part[t].name_off[part[t].n] : 0);
			}
			/* in order: slice t moves left over bytes slices < t no longer need */
			for (int t = 1; t < T; t++)
				if (part[t].n && seq + s0[t] != part[t].seq) {
					memmove(seq + s0[t], part[t].seq, part[t].off[part[t].n]);
					moved += (int64_t)part[t].off[part[t].n];
				}
			tm[3] = rk_realtime();
#pragma omp parallel for num_threads(T) schedule(static, 1)
			for (int t = 0; t < T; t++) {
				const rio_reads_t *p = &part[t];
				if (!p->n) continue;
				memcpy(r->names + n0[t], p->names, p->name_off[p->n]);
				for (int64_t i = 0; i < p->n; i++) {
					r->off[rec0[t] + i] = s0[t] + p->off[i];
					r->name_off[rec0[t] + i] = n0[t] + p->name_off[i];
				}
			}
			r->off[n] = sl; r->name_off[n] = nl;
			/* the unused tail (headers, newlines) goes back */
			char *q = realloc(seq, sl ? sl : 1);
			r->seq = q ? q : seq;
			r->m_seq = sl ? sl : 1;
			seq = 0;
		}
		free(rec0); free(s0); free(n0);
	}
	for (int t = 0; part && t < T; t++) {
		part[t].seq = 0;   /* a region of seq, not its own */
		rio_reads_free(&part[t]);
	}
	free(part); free(cut); free(seq); free(at);
	if (!fail) {
		rio_slices = T; rio_windows = n_win; rio_moved = moved;
		rk_debug("%s: %d slices: mapped, cut and bounded %.3f s, parsed %.3f s, moved into place %.3f s, indexed %.3f s", path, T,
		         tm[1] - tm[0], tm[2] - tm[1], tm[3] - tm[2], rk_realtime() - tm[3]);
	} else {
		/* the one-stream read that follows sets the message of a bad file; a good one (a FASTQ
		 * record among FASTA ones) must not keep a slice's, whose record number is the slice's */
		rk_clear_error();
		rk_debug("%s: parsing in slices failed; parsing it again as one stream", path);
	}
	return !fail;
}

rk_status_t rio_read_all_case(const char *path, rio_reads_t *r, int keep_case)
{
	int eof = 0;
	memset(r, 0, sizeof *r);
	rio_slices = 1; rio_windows = 0; rio_moved = 0;
	if (rio_read_parallel(path, r, keep_case, rio_threads, 0, 1)) return RK_OK;
	rio_file_t *f = rio_open(path);
	if (!f) return rio_open_status(errno);
	rio_keep_case(f, keep_case);
	rk_status_t st = rio_read_batch(f, r, 0, &eof);
	rio_close(f);
	if (st) rio_reads_free(r);
	return st;
}

int rio_plain_fasta(const char *path)
{
	if (!strcmp(path, "-")) return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) return 0;
	struct stat sb;
	uint8_t b[4096];
	ssize_t n = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ? read(fd, b, sizeof b) : -1;
	close(fd);
	if (n < 2 || (b[0] == 0x1f && b[1] == 0x8b)) return 0;   /* gzip and BGZF start so */
	ssize_t p = 0;
	while (p < n && (b[p] == '\n' || rio_ws(b[p]))) p++;
	return p < n && b[p] == '>';
}

/* Where part `part` of `parts` of a FASTA file starts: the first "\n>" at or after its even
 * share of the bytes (the byte after the '\n'), so that both neighbours compute one cut. */
static int64_t rio_cut(const uint8_t *base, int64_t size, int part, int parts)
{
	if (part <= 0) return 0;
	if (part >= parts) return size;
	const int64_t p = (int64_t)((double)size * part / parts);
	const uint8_t *q = p < size ? memmem(base + p, (size_t)(size - p), "\n>", 2) : 0;
	return q ? (int64_t)(q - base) + 1 : size;
}

rk_status_t rio_read_range(const char *path, int part, int parts, int keep_case, int64_t rec_base, rio_reads_t *r,
                           int *not_fasta)
{
	memset(r, 0, sizeof *r);
	*not_fasta = 0;
	/* a large range with several threads: in slices (a bad record: the one stream below names it) */
	rio_slices = 1; rio_windows = 0; rio_moved = 0;
	if (rio_read_parallel(path, r, keep_case, rio_threads, part, parts)) return RK_OK;
	rio_norm_init();
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		const int e = fd < 0 ? errno : 0;
		rk_set_error("%s: cannot open: %s", path, fd < 0 ? strerror(e) : "not a regular file");
		if (fd >= 0) close(fd);
		return rio_open_status(e);
	}
	const int64_t size = sb.st_size;
	if (size == 0) { close(fd); return RK_OK; }
	uint8_t *base = mmap(0, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (base == MAP_FAILED) { const int e = errno; rk_set_error("%s: cannot map: %s", path, strerror(e)); return rio_open_status(e); }
	const int64_t beg = rio_cut(base, size, part, parts), end = rio_cut(base, size, part + 1, parts);
	rk_status_t st = RK_OK;
	if (beg < end) {
		rio_file_t *f = calloc(1, sizeof *f);
		if (!f || !(f->path = strdup(path))) { free(f); munmap(base, (size_t)size); rk_set_error("out of memory"); return RK_ERES; }
		f->buf = base + beg;
		f->left = end - beg;
		f->eof = 1;
		f->fasta_only = 1;
		f->allow_empty = 1;
		f->rec_base = rec_base;
		f->win = 32ll << 20;
		f->drop = 1;
		f->norm = keep_case ? rio_norm_keep : rio_norm;
		int eof = 0;
		st = rio_read_batch(f, r, 0, &eof);
		*not_fasta = f->not_fasta;
		f->buf = 0;
		rio_close(f);
	}
	munmap(base, (size_t)size);
	return st;
}

void rio_reads_free(rio_reads_t *r)
{
	if (!r->seq_shared) free(r->seq);
	free(r->off); free(r->names); free(r->name_off);
	memset(r, 0, sizeof *r);
}
