/* SAM, BAM and CRAM input for the reader (reader.c; sam_in.c): what the three hold is read
 * as the reads as sequenced, the way `samtools fastq` gives them (docs/input.md). */
#ifndef RIO_SAM_H
#define RIO_SAM_H

#include <stddef.h>
#include <stdint.h>
#include "rktlcs.h"

struct hFILE;
typedef struct rio_sam_s rio_sam_t;

/* One record read: name and bases (normalized) stay valid until the next call. */
typedef struct {
	const char *name;   /* QNAME; NULL before the first record or for an unreadable one */
	const char *seq;
	size_t len;
	int64_t n_read;     /* records of the file so far, left-out ones included (for messages) */
} rio_sam_rec_t;

/* 1 if the stream h (not consumed: htslib peeks) holds SAM, BAM or CRAM. */
int rio_sam_format(struct hFILE *h, const char *path);
/* Takes h (closed on failure too); NULL with rk_error() naming the file. */
rio_sam_t *rio_sam_open(struct hFILE *h, const char *path);
/* The next record kept (secondary and supplementary ones are left out, unless
 * rio_set_sam(.., 1, ..)): 1, 0 at the end, or -1 with why (RK_EINPUT: the file is bad,
 * *st set) */
int rio_sam_next(rio_sam_t *s, const uint8_t *norm, rio_sam_rec_t *rec, char *why, size_t why_l, rk_status_t *st);
void rio_sam_close(rio_sam_t *s);

#endif
