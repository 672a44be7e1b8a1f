/* io layer: FASTA/FASTQ input through htslib, output files written atomically. The
 * formatter is fmt.h; each mode's tables are in its own header (rkt_out.h, ham_out.h). */
#ifndef RIO_H
#define RIO_H

#include <stdio.h>
#include <errno.h>
#include <stdint.h>
#include "rktlcs.h"

/* the reads container (rio_reads_t, rio_len, rio_seq, rio_name, rio_code) is core/reads.h:
 * io fills it, algo and gpu compute on it, and neither layer points up to the other */
#include "core/reads.h"

typedef struct rio_file_s rio_file_t;

/* Open a file ("-" = stdin); plain, gzip or BGZF. NULL with rk_error() set and errno saying
 * why on failure (rio_open_status maps it). */
rio_file_t *rio_open(const char *path);
/* A failed open's status: the machine out of memory or descriptors is a resource failure (exit
 * 2), anything else (missing, unreadable) the user's to fix (RK_EIO, exit 1). */
static inline rk_status_t rio_open_status(int e)
{
	return e == ENOMEM || e == EMFILE || e == ENFILE || e == EAGAIN ? RK_ERES : RK_EIO;
}
/* Append records to r until at least max_bases bases were added (0: no limit) or EOF.
 * Returns RK_OK (check r->n for progress), or RK_EINPUT with "FILE: record N (NAME): why". */
rk_status_t rio_read_batch(rio_file_t *f, rio_reads_t *r, int64_t max_bases, int *eof);
void rio_close(rio_file_t *f);
/* Keep the case of letters (U->T and u->t still apply); default: upper-case. */
void rio_keep_case(rio_file_t *f, int keep);

/* SAM, BAM and CRAM input (sam_in.c, detected by content like the rest): CRAM's reference
 * (NULL: htslib's REF_PATH rules; copied), secondary and supplementary records kept, SEQ as
 * stored (reverse-strand records not complemented back). Defaults: NULL, 0, 0. */
void rio_set_sam(const char *reference, int keep_secondary, int as_stored);
/* hamming: a mapped record is an error (its columns are not an alignment's) */
void rio_set_sam_refuse_aligned(int on);

/* Whole file; an empty file (no records) is an error. */
rk_status_t rio_read_all(const char *path, rio_reads_t *r);
rk_status_t rio_read_all_case(const char *path, rio_reads_t *r, int keep_case);
/* Threads for rio_read_all* (default 1): a plain FASTA file of 32 MB or more is then cut at
 * record boundaries and parsed in parallel, with the same result. */
void rio_set_threads(int n);
int rio_get_threads(void);
/* bgzf_out.c: 1 for a name that asks for BGZF (*.gz, *.bgz); a stdio stream writing BGZF to fd
 * (which it owns and closes, also when it fails; fileno is -1), NULL with errno when it cannot
 * be made */
int rio_out_wants_bgzf(const char *path);
/* --compress: every output opened after it is BGZF, stdout too */
void rio_set_compress(int on);
FILE *rio_bgzf_stream(int fd, int threads);
/* the errno of this thread's last failed BGZF write or close (0: none since the stream opened) */
int rio_bgzf_errno(void);

/* What the first 64 KiB of a regular file (plain, gzip or BGZF) say of the whole: bytes
 * (inflated: gzip counted 4x), records and their mean length, by proportion. Returns 0 (and
 * zeros) for stdin, a pipe or an unreadable file; an estimate, never a check (peek.c). */
typedef struct {
	double bytes, records, mean_len;
	int64_t head_bytes;   /* bytes of the whole records in the head */
} rio_peek_t;
int rio_peek_input(const char *path, rio_peek_t *pk);
/* The first record's bases in the same head, up to cap, into seq (not NUL-terminated): their
 * number, 0 where there is none (stdin, a pipe, not FASTA/FASTQ). For estimates only. */
int64_t rio_peek_first(const char *path, char *seq, int64_t cap);
/* The columns where the whole records of the same head differ, A, C, G or T against another
 * of them (an alignment: records of one length; case ignored; N and gaps, a few in every
 * column of a large alignment, are not counted), and in *k how many records that is: -1 where fewer than two whole
 * records, or records of unequal lengths. For estimates only. */
int64_t rio_peek_varying(const char *path, int64_t *k);
/* The rio_peek_* calls share one read of each file's head (the last two files', kept while
 * the file is unchanged; one thread only, before the work starts); this counts the reads, for
 * tests. */
int rio_peek_reads(void);
/* Slices the last rio_read_all* of the calling thread was parsed in (1: one stream), and the
 * windows of at most 1 GiB (rk_tune.read_window) those slices were walked in (0: one stream). */
int rio_read_slices(void);
int64_t rio_read_windows(void);
/* The bytes of symbols those slices moved into place after their parse: 0 where no sequence
 * line ends in blanks (each slice is parsed where it belongs). */
int64_t rio_read_moved(void);
/* 1 if path is a regular, uncompressed file whose first record is FASTA ('>'). */
int rio_plain_fasta(const char *path);
/* Part `part` of `parts` of such a file: the records that start in its share of the bytes,
 * cut at "\n>" (a record straddling a cut belongs to the part where it starts). The range is
 * mapped and walked in windows that leave memory once parsed, so a part holds its parsed
 * records, not its raw bytes as well. A part may hold no record. An error names the record
 * as rec_base + its number in the part; on RK_EINPUT r->n is the good records before the bad
 * one (the caller frees r in any case). *not_fasta: a '@' record was met (FASTQ: read it as
 * one stream). */
rk_status_t rio_read_range(const char *path, int part, int parts, int keep_case, int64_t rec_base, rio_reads_t *r,
                           int *not_fasta);
void rio_reads_free(rio_reads_t *r);
/* Append one read (already normalized) - used to build read sets in memory. */
rk_status_t rio_reads_push(rio_reads_t *r, const char *name, const char *seq, size_t len);

/* ---- outputs (docs/DEVELOPING.md, "Outputs") ----
 * An output never destroys anything, and no death leaves a file behind. What the path IS
 * decides (stat), never its spelling:
 * - a regular file, or a new name, is written to an unnamed file in the same directory
 *   (O_TMPFILE; a symlink is followed: its target is what gets replaced, the link stays).
 *   It gets a name (.NAME.rktlcs-XXXXXX, linkat) only when every output of the run has
 *   been written, and is renamed over the target at once. Where the file system refuses
 *   O_TMPFILE the temporary is named from the start (mkostemp), as before;
 * - a path that is one of this process's open descriptors (/dev/stdout, /dev/stderr,
 *   /dev/fd/N, /proc/self/fd/N) is written through that descriptor, so the shell's `>>`
 *   appends and `>` has truncated, whatever the descriptor is;
 * - anything else that exists and is not a regular file (a device such as /dev/null or
 *   /dev/full, a FIFO, a socket, or a symlink to one) is written in place;
 * - NULL or "-" is stdout.
 * Write and close errors are checked: a full disk (or a file-size limit) is RK_ERES (exit
 * 2), anything else RK_EIO. While a temporary has a name it is registered, so that a fatal
 * signal or an abnormal exit removes it (rio_cleanup_install). */
typedef struct {
	FILE *fp;
	int fd;         /* fp's descriptor (fp may be a BGZF stream, whose fileno is -1) */
	int bgzf;       /* fp is a BGZF stream (rio_bgzf_stream) */
	char *path;     /* as given, for messages; NULL for stdout */
	char *target;   /* what is replaced: path with symlinks resolved */
	char *tmp;      /* the temporary's name (named now, or once linked), NULL when written in place */
	int unnamed;    /* the temporary is an O_TMPFILE not yet linked as tmp */
	int slot;       /* the temporary's place in the cleanup registry, 0 if none */
} rio_out_t;

/* Before any work: every output (NULL or "-" = stdout, skipped) can be written (its
 * directory exists and is writable, it is not a directory), no output is an input (the
 * same file, through any link) and no two outputs are the same. RK_EINPUT or RK_EIO with
 * rk_error() naming the file. */
rk_status_t rio_out_check(const char *const *outs, int n_out, const char *const *ins, int n_in);

/* Open for writing (the temporary, or the file in place); o->fp is ready. A path ending in
 * .gz or .bgz is written as BGZF (bgzf_out.c) on the readers' thread count (rio_set_threads). */
rk_status_t rio_out_open(rio_out_t *o, const char *path);
/* The output's name for messages: its path, or "stdout". */
static inline const char *rio_out_name(const rio_out_t *o) { return o->path ? o->path : "stdout"; }
/* Flush and close: every write error surfaces here; an unnamed temporary gets its name
 * (o->tmp) first. After it, o->fp is NULL. */
rk_status_t rio_out_close(rio_out_t *o);
/* Close (if not yet) and rename the temporary over the target. */
rk_status_t rio_out_commit(rio_out_t *o);
/* All or none: close every output, then rename them all; on any failure remove every
 * temporary and return the first error. */
rk_status_t rio_out_commit_all(rio_out_t *const *outs, int n);
/* Close and remove the temporary (an output written in place keeps what it got). */
void rio_out_abort(rio_out_t *o);

/* Signal handlers (INT, TERM, HUP, PIPE, XFSZ) and an exit hook that remove registered
 * temporaries and end with a one-line message: 128 + the signal (2 for SIGXFSZ, a size
 * limit), or 2 when a library ends the process (libgomp on a failed thread creation).
 * rio_cleanup_normal_exit() is called by main just before it returns. */
void rio_cleanup_install(void);
void rio_cleanup_normal_exit(void);
/* From now on a fatal signal removes the temporaries silently: the job has agreed to fail
 * and one rank has said why, so mpirun's SIGTERM to the ranks still running adds no line. */
void rio_cleanup_quiet(void);

#endif
