/* Large plain FASTA files parsed by several threads, and the byte ranges of one that ranks
 * read (rio_read_range): the mapped file cut at record boundaries, each slice parsed with the
 * reader's own parse (reader.c) into its region of one sequence buffer. */
#define _GNU_SOURCE  /* memmem */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <omp.h>
#include "io/rio.h"
#include "io/rio_file.h"

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
			rio_unmap_read(b + freed, b + (at < hi ? at : hi));
			freed = at;
		}
	}
	return bound;
}

/* The parsed slices as one set of reads in r, in order: the symbols moved into place where a
 * slice is not (*moved: bytes), the names and offsets gathered on T threads; r takes *seqp.
 * Returns 1 when out of memory (r is then empty). */
static int rio_join_slices(rio_reads_t *r, const rio_reads_t *part, int T, char **seqp, int64_t *moved, double *t_moved)
{
	int64_t n = 0, nb = 0;
	uint64_t sl = 0, nl = 0;
	for (int t = 0; t < T; t++) {
		if (!part[t].n) continue;
		n += part[t].n; nb += part[t].n_bases;
		sl += part[t].off[part[t].n]; nl += part[t].name_off[part[t].n];
	}
	memset(r, 0, sizeof *r);
	r->names = rk_malloc_huge(nl ? nl : 1);
	r->off = rk_malloc_huge(sizeof(uint64_t) * (size_t)(n + 1)); r->name_off = rk_malloc_huge(sizeof(uint64_t) * (size_t)(n + 1));
	int64_t *rec0 = malloc(sizeof(int64_t) * (size_t)(T + 1));
	uint64_t *s0 = malloc(sizeof(uint64_t) * (size_t)(T + 1)), *n0 = malloc(sizeof(uint64_t) * (size_t)(T + 1));
	if (!r->names || !r->off || !r->name_off || !rec0 || !s0 || !n0) {
		rio_reads_free(r);
		free(rec0); free(s0); free(n0);
		return 1;
	}
	r->n = n; r->n_bases = nb; r->m_names = nl ? nl : 1; r->m_rec = (size_t)n + 1;
	rec0[0] = 0; s0[0] = 0; n0[0] = 0;
	for (int t = 0; t < T; t++) {
		rec0[t + 1] = rec0[t] + part[t].n;
		s0[t + 1] = s0[t] + (part[t].n ? part[t].off[part[t].n] : 0);
		n0[t + 1] = n0[t] + (part[t].n ? part[t].name_off[part[t].n] : 0);
	}
	/* in order: slice t moves left over bytes slices < t no longer need */
	for (int t = 1; t < T; t++)
		if (part[t].n && *seqp + s0[t] != part[t].seq) {
			memmove(*seqp + s0[t], part[t].seq, part[t].off[part[t].n]);
			*moved += (int64_t)part[t].off[part[t].n];
		}
	*t_moved = rk_realtime();
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
	char *q = realloc(*seqp, sl ? sl : 1);
	r->seq = q ? q : *seqp;
	r->m_seq = sl ? sl : 1;
	*seqp = 0;
	free(rec0); free(s0); free(n0);
	return 0;
}

static int rio_read_parallel(const char *path, rio_reads_t *r, int keep_case, int nth, int which, int parts)
{
	if (nth < 2 || !strcmp(path, "-")) return 0;
	double tm[4] = { 0, 0, 0, 0 };   /* -v: mapped, cut and bounded, parsed, moved into place, indexed */
	tm[0] = rk_realtime();
	const uint8_t *norm = rio_norm_table(keep_case);   /* the slices' rio_file_t are not made by rio_open */
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
		f->norm = norm;
		if (parts > 1) { f->win = 32ll << 20; f->drop = 1; }   /* a rank's range: as rio_read_range */
		int eof = 0;
		/* the slice's own region of the shared buffer; a capacity no request reaches, so that
		 * it is never reallocated (the bound is rio_slice_bound's). Parsed into a copy on this
		 * thread's stack: the parts share cache lines, and every record writes its part. */
		rio_reads_t loc = part[t];
		loc.seq = seq + at[t];
		loc.m_seq = (size_t)1 << 62;
		rk_status_t st = rio_read_batch(f, &loc, 0, &eof);
		part[t] = loc;
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
	if (!fail) fail = rio_join_slices(r, part, T, &seq, &moved, &tm[3]);
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
	if (rio_read_parallel(path, r, keep_case, rio_get_threads(), 0, 1)) return RK_OK;
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
	if (rio_read_parallel(path, r, keep_case, rio_get_threads(), part, parts)) return RK_OK;
	const uint8_t *norm = rio_norm_table(keep_case);
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
		f->norm = norm;
		int eof = 0;
		st = rio_read_batch(f, r, 0, &eof);
		*not_fasta = f->not_fasta;
		f->buf = 0;
		rio_close(f);
	}
	munmap(base, (size_t)size);
	return st;
}

