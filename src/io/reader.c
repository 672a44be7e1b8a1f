/* FASTA/FASTQ parser. kseq.h's kstream over BGZF does the buffering and line splitting;
 * the record grammar is ours so that every malformed input gets a precise error. */
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <htslib/bgzf.h>
#include <htslib/kstring.h>
#include <htslib/hts_log.h>
#include "io/rio.h"

typedef struct {
	BGZF *fp;
	int err;
} rio_src_t;

/* bgzf_read() returns -1 on a corrupt/truncated stream; kstream would spin on a negative
 * count, so report it as EOF and remember the error. */
static int rio_src_read(rio_src_t *s, void *buf, int len)
{
	ssize_t n = bgzf_read(s->fp, buf, (size_t)len);
	if (n < 0) { s->err = 1; return 0; }
	return (int)n;
}

#include <htslib/kseq.h>
KSTREAM_INIT(rio_src_t *, rio_src_read, 65536)

struct rio_file_s {
	rio_src_t src;
	kstream_t *ks;
	kstring_t line;
	int pushed;        /* line holds a header read ahead */
	int started;
	int64_t rec;       /* records read so far */
	char *path;
	kstring_t name;
	const uint8_t *norm;  /* rio_norm, or rio_norm_keep with case kept */
};

const uint8_t rio_code[256] = {
	['A'] = 0, ['C'] = 1, ['G'] = 2, ['T'] = 3,
	/* everything else is unknown */
	[0] = 4, [1 ... '@'] = 4, ['B'] = 4, ['D' ... 'F'] = 4, ['H' ... 'S'] = 4,
	['U' ... 255] = 4,
};

/* Normalization: upper case, U->T, '.', '-', '*' kept; 0 marks an illegal byte.
 * rio_norm_keep keeps the case (U->T, u->t) for modes that compare case (hamming -k). */
static uint8_t rio_norm[256], rio_norm_keep[256];

static void rio_norm_init(void)
{
	if (rio_norm['A']) return;
	for (int c = 'A'; c <= 'Z'; c++) {
		rio_norm[c] = rio_norm[c + 32] = (uint8_t)c;
		rio_norm_keep[c] = (uint8_t)c; rio_norm_keep[c + 32] = (uint8_t)(c + 32);
	}
	rio_norm['U'] = rio_norm['u'] = 'T';
	rio_norm_keep['U'] = 'T'; rio_norm_keep['u'] = 't';
	rio_norm['.'] = rio_norm_keep['.'] = '.'; rio_norm['-'] = rio_norm_keep['-'] = '-';
	rio_norm['*'] = rio_norm_keep['*'] = '*';
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
	if (!f) { rk_set_error("out of memory"); return 0; }
	f->path = strdup(path);
	f->norm = rio_norm;
	f->src.fp = bgzf_open(path, "r");
	if (!f->src.fp) {
		rk_set_error("%s: cannot open: %s", path, errno ? strerror(errno) : "unknown error");
		free(f->path); free(f);
		return 0;
	}
	f->ks = ks_init(&f->src);
	return f;
}

void rio_close(rio_file_t *f)
{
	if (!f) return;
	ks_destroy(f->ks);
	bgzf_close(f->src.fp);
	free(f->line.s); free(f->name.s); free(f->path);
	free(f);
}

/* Next line without trailing CR/space; -1 at EOF, -3 on a stream error. */
static int rio_getline(rio_file_t *f)
{
	if (ks_getuntil(f->ks, KS_SEP_LINE, &f->line, 0) < 0)
		return f->src.err ? -3 : -1;
	if (f->src.err) return -3;
	while (f->line.l > 0 && (f->line.s[f->line.l - 1] == '\r' || f->line.s[f->line.l - 1] == ' ' || f->line.s[f->line.l - 1] == '\t'))
		f->line.s[--f->line.l] = 0;
	return (int)f->line.l;
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
	if (f->rec > 0 && f->name.l)
		rk_set_error("%s: record %lld (%s): %s", f->path, (long long)f->rec, f->name.s, why);
	else if (f->rec > 0)
		rk_set_error("%s: record %lld: %s", f->path, (long long)f->rec, why);
	else
		rk_set_error("%s: %s", f->path, why);
}

static rk_status_t rio_grow(void **p, size_t *m, size_t need, size_t elem)
{
	if (need <= *m) return RK_OK;
	size_t nm = *m ? *m : 1024;
	while (nm < need) nm += nm >> 1;
	void *q = realloc(*p, nm * elem);
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

/* Append the normalized symbols of the current line to the open record. */
static rk_status_t rio_add_seq(rio_file_t *f, rio_reads_t *r)
{
	uint64_t so = r->off[r->n + 1];
	size_t l = f->line.l;
	if (rio_grow((void **)&r->seq, &r->m_seq, so + l + 1, 1)) return RK_ERES;
	const uint8_t *s = (const uint8_t *)f->line.s;
	char *d = r->seq + so;
	for (size_t i = 0; i < l; i++) {
		uint8_t c = f->norm[s[i]];
		if (!c) {
			if (isprint(s[i])) RIO_FAIL("illegal character '%c' in sequence", s[i]);
			RIO_FAIL("illegal byte 0x%02x in sequence", s[i]);
		}
		d[i] = (char)c;
	}
	r->off[r->n + 1] = so + l;
	return RK_OK;
}

static rk_status_t rio_read_record(rio_file_t *f, rio_reads_t *r, int *eof)
{
	int ret;
	*eof = 0;
	if (!f->pushed) {
		do ret = rio_getline(f); while (ret == 0);
		if (ret == -3) RIO_FAIL("corrupt or truncated compressed stream");
		if (ret == -1) {
			*eof = 1;
			if (f->rec == 0) { f->rec = 0; RIO_FAIL("empty file: no FASTA/FASTQ records"); }
			return RK_OK;
		}
	}
	f->pushed = 0;
	char h = f->line.s[0];
	if (h != '>' && h != '@') {
		if (f->rec == 0) {
			unsigned char c = (unsigned char)h;
			if (isprint(c)) RIO_FAIL("not FASTA or FASTQ: first character '%c' (expected '>' or '@')", c);
			RIO_FAIL("not FASTA or FASTQ: first byte 0x%02x (binary file?)", c);
		}
		RIO_FAIL("unexpected line after this record (expected a '>' or '@' header)");
	}
	f->rec++;
	size_t nl = 1;
	while (nl < f->line.l && !isspace((unsigned char)f->line.s[nl])) nl++;
	f->name.l = 0;
	kputsn(f->line.s + 1, nl - 1, &f->name);
	if (nl == 1) RIO_FAIL("empty record name");
	for (size_t i = 1; i < nl; i++)
		if (iscntrl((unsigned char)f->line.s[i])) RIO_FAIL("control byte 0x%02x in the header", (unsigned char)f->line.s[i]);
	if (rio_begin_record(r, f->line.s + 1, nl - 1)) return RK_ERES;
	r->off[r->n + 1] = r->off[r->n];

	if (h == '>') {
		for (;;) {
			ret = rio_getline(f);
			if (ret == -3) RIO_FAIL("corrupt or truncated compressed stream");
			if (ret == -1) break;
			if (ret == 0) continue;
			if (f->line.s[0] == '>' || f->line.s[0] == '@') {
				/* '@' cannot start a sequence line: treat it as the next header (mixed input) */
				f->pushed = 1;
				break;
			}
			rk_status_t st = rio_add_seq(f, r);
			if (st) return st;
		}
	} else {
		for (;;) {
			ret = rio_getline(f);
			if (ret == -3) RIO_FAIL("corrupt or truncated compressed stream");
			if (ret == -1) RIO_FAIL("truncated FASTQ record: missing '+' line");
			if (f->line.s[0] == '+') break;
			if (f->line.s[0] == '@' || f->line.s[0] == '>') RIO_FAIL("FASTQ record without '+' line");
			rk_status_t st = rio_add_seq(f, r);
			if (st) return st;
		}
		uint64_t slen = r->off[r->n + 1] - r->off[r->n];
		uint64_t qlen = 0;
		while (qlen < slen) {
			ret = rio_getline(f);
			if (ret == -3) RIO_FAIL("corrupt or truncated compressed stream");
			if (ret == -1) break;
			for (int i = 0; i < ret; i++)
				if (f->line.s[i] < '!' || f->line.s[i] > '~')
					RIO_FAIL("illegal byte 0x%02x in quality line", (unsigned char)f->line.s[i]);
			qlen += (uint64_t)ret;
		}
		if (qlen != slen)
			RIO_FAIL("quality length %llu differs from sequence length %llu%s", (unsigned long long)qlen,
				(unsigned long long)slen, ret == -1 ? " (truncated file?)" : "");
	}
	uint64_t len = r->off[r->n + 1] - r->off[r->n];
	if (len == 0) RIO_FAIL("empty sequence (length 0)");
	if (rio_grow((void **)&r->seq, &r->m_seq, r->off[r->n + 1] + 1, 1)) return RK_ERES;
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

rk_status_t rio_read_all_case(const char *path, rio_reads_t *r, int keep_case)
{
	int eof = 0;
	memset(r, 0, sizeof *r);
	rio_file_t *f = rio_open(path);
	if (!f) return RK_EIO;
	rio_keep_case(f, keep_case);
	rk_status_t st = rio_read_batch(f, r, 0, &eof);
	rio_close(f);
	if (st) rio_reads_free(r);
	return st;
}

void rio_reads_free(rio_reads_t *r)
{
	free(r->seq); free(r->off); free(r->names); free(r->name_off);
	memset(r, 0, sizeof *r);
}
