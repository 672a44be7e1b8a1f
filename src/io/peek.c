/* A look at the head of an input, for estimates made before it is read (rio.h): the cost
 * model of --backend auto decides from it whether a GPU context is worth starting while MPI
 * starts and the input is read. Never an error: an input that cannot be peeked at is left
 * to the reader to report. */
#include <string.h>
#include <sys/stat.h>
#include <htslib/bgzf.h>
#include <htslib/hts_log.h>
#include "io/rio.h"

#define PEEK_BYTES 65536

/* The heads last read, one for each of the (at most two) inputs: the guesses before MPI ask
 * for one input's head up to four times (records, varying columns, first record). Kept while
 * the file's identity, size and mtime are the same. */
typedef struct {
	char path[4096];
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	ssize_t n;
	int packed;
	char buf[PEEK_BYTES];
} peek_head_t;
static peek_head_t heads[2];
static int head_next, head_reads;

int rio_peek_reads(void) { return head_reads; }

/* SAM, BAM or CRAM: records of no line structure ours, so no estimate is made from the head
 * (a SAM header line is "@XY<TAB>", a headerless SAM line has ten tabs or more) */
static int peek_is_sam(const char *b, ssize_t n)
{
	if (n >= 4 && (!memcmp(b, "BAM\1", 4) || !memcmp(b, "CRAM", 4))) return 1;
	if (n >= 4 && b[0] == '@' && b[3] == '\t') return 1;
	int tabs = 0;
	for (ssize_t i = 0; i < n && b[i] != '\n'; i++) tabs += b[i] == '\t';
	return tabs >= 10;
}

/* The first PEEK_BYTES (inflated) of a regular file (*buf, kept here): their number (<= 0:
 * none), its size in *size and whether it is compressed in *packed. */
static ssize_t peek_head(const char *path, const char **buf, double *size, int *packed)
{
	struct stat sb;
	if (!path || !strcmp(path, "-") || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || strlen(path) >= sizeof heads[0].path) return 0;
	peek_head_t *h = 0;
	for (int i = 0; i < 2 && !h; i++)
		if (heads[i].n > 0 && !strcmp(heads[i].path, path) && heads[i].dev == sb.st_dev && heads[i].ino == sb.st_ino &&
		    heads[i].size == sb.st_size && heads[i].mtime.tv_sec == sb.st_mtim.tv_sec && heads[i].mtime.tv_nsec == sb.st_mtim.tv_nsec)
			h = &heads[i];
	if (!h) {
		hts_set_log_level(HTS_LOG_OFF);  /* a damaged input is the reader's to report, in one line */
		BGZF *fp = bgzf_open(path, "r");
		if (!fp) return 0;
		head_reads++;
		h = &heads[head_next];
		head_next ^= 1;
		h->n = 0;
		strcpy(h->path, path);
		h->dev = sb.st_dev; h->ino = sb.st_ino; h->size = sb.st_size; h->mtime = sb.st_mtim;
		h->packed = bgzf_compression(fp) != 0;
		h->n = bgzf_read(fp, h->buf, PEEK_BYTES);
		bgzf_close(fp);
	}
	*buf = h->buf;
	*packed = h->packed;
	*size = (double)sb.st_size;
	return peek_is_sam(h->buf, h->n) ? 0 : h->n;
}

int rio_peek_input(const char *path, rio_peek_t *pk)
{
	memset(pk, 0, sizeof *pk);
	const char *buf = 0;
	double size = 0;
	int packed = 0;
	const ssize_t n = peek_head(path, &buf, &size, &packed);
	if (n <= 0) return 0;
	/* records and bases of the complete records in the head (FASTQ: 4 lines a record) */
	int64_t recs = 0, bases = 0, line = 0, cur = 0, end = 0;
	const int fq = buf[0] == '@';
	for (ssize_t i = 0; i < n; i++) {
		if (buf[i] != '\n') continue;
		const int64_t len = i - end - (i > end && buf[i - 1] == '\r');
		const char c0 = buf[end];
		if (fq ? line % 4 == 0 : c0 == '>') { bases += cur; recs += line > 0; cur = 0; pk->head_bytes = end; }
		else if (fq ? line % 4 == 1 : 1) cur += len;
		line++;
		end = i + 1;
	}
	pk->bytes = size * (packed ? 4 : 1);  /* gzip of DNA: about 4x */
	if (recs == 0) {  /* no whole record in the head: one long record */
		pk->records = 1;
		pk->mean_len = pk->bytes;
		return 1;
	}
	pk->records = pk->bytes * (double)recs / (double)pk->head_bytes;
	pk->mean_len = (double)bases / (double)recs;
	return 1;
}

int64_t rio_peek_varying(const char *path, int64_t *k)
{
	static char seq[2][PEEK_BYTES];
	static unsigned char var[PEEK_BYTES];
	const char *buf = 0;
	double size = 0;
	int packed = 0;
	const ssize_t n = peek_head(path, &buf, &size, &packed);
	*k = 0;
	if (n <= 0 || buf[0] != '>') return -1;   /* FASTA alignments only */
	/* each whole record's bases into seq[1], compared with the first's (seq[0]) */
	int64_t len = -1, m = 0, cur = 0, d = 0;
	memset(var, 0, sizeof var);
	/* the file's end ends its last record when the head holds the whole file */
	const ssize_t end = n < PEEK_BYTES ? n + 1 : n;
	for (ssize_t i = 0, hdr = 1; i < end; i++) {
		const char c = i < n ? buf[i] : '>';
		if (hdr) { hdr = c != '\n'; continue; }
		if (c == '>') {
			if (*k == 0) len = m;
			else if (m != len) return -1;
			else
				for (int64_t j = 0; j < m; j++) {
					const int u = seq[cur][j] | 0x20, v = seq[0][j] | 0x20;
					const int x = u != v && strchr("acgt", u) && strchr("acgt", v);
					d += x && !var[j];
					var[j] |= (unsigned char)x;
				}
			++*k;
			m = 0;
			cur = 1;
			hdr = 1;
		} else if (c != '\n' && c != '\r' && m < PEEK_BYTES) seq[cur][m++] = c;
	}
	return *k >= 2 ? d : -1;
}

int64_t rio_peek_first(const char *path, char *seq, int64_t cap)
{
	const char *buf = 0;
	double size = 0;
	int packed = 0;
	const ssize_t n = cap > 0 ? peek_head(path, &buf, &size, &packed) : 0;
	if (n <= 0 || (buf[0] != '>' && buf[0] != '@')) return 0;
	/* the sequence lines after the header, up to the next record (FASTQ: its one line) */
	ssize_t i = 0;
	while (i < n && buf[i] != '\n') i++;
	int64_t m = 0;
	for (i++; i < n && m < cap; i++) {
		const char c = buf[i];
		if (c == '>' || (buf[0] == '@' && c == '+')) break;
		if (c == '\n' && buf[0] == '@') break;
		if (c != '\n' && c != '\r') seq[m++] = c;
	}
	return m;
}
