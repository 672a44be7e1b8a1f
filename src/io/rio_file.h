/* io layer, private to the reader: the state of one parse (reader.c), which the slices of a
 * large FASTA file (read_slices.c) also make, one for each slice of the mapped file. */
#ifndef RIO_FILE_H
#define RIO_FILE_H

#include <htslib/bgzf.h>
#include "io/rio.h"
#include "io/rio_sam.h"
#include "io/inflate.h"

typedef struct rio_pipe_s rio_pipe_t;   /* a compressed stream inflated ahead (reader.c) */

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

static inline int rio_ws(int c) { return c == '\r' || c == ' ' || c == '\t'; }
/* Bytes [from, to) of a mapped file, read: their whole pages leave memory, so a rank keeps its
 * range's parsed symbols, not its mapped bytes too (a page shared with what follows faults in
 * again from the page cache). */
void rio_unmap_read(const uint8_t *from, const uint8_t *to);
/* the normalization table, a byte at a time (made on the first call: call it before threads) */
const uint8_t *rio_norm_table(int keep_case);

#endif
