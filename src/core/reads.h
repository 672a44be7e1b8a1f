/* core: the reads container that io fills and algo, gpu and mpi compute on. It sits below all
 * of them so that every include points down (docs/DEVELOPING.md, "Layers"); its names keep the
 * io prefix of the reader that fills it. io/rio.h reads, frees and pushes them. */
#ifndef RK_READS_H
#define RK_READS_H

#include <stddef.h>
#include <stdint.h>

/* Reads in input order. seq holds the normalized text (upper case, U->T; unknown
 * symbols kept as their upper-case letter or '.', '-', '*'), each read followed by a NUL. */
typedef struct {
	int64_t n, n_bases;
	char *seq;            /* read r: seq + off[r], length len(r) */
	uint64_t *off;        /* n + 1 entries; off[r+1] - off[r] - 1 = length */
	char *names;          /* read r: names + name_off[r], NUL-terminated */
	uint64_t *name_off;   /* n + 1 entries */
	size_t m_seq, m_names, m_rec;
	int seq_shared;       /* seq is a node's shared copy (rmpi): read-only, rio_reads_free leaves it */
} rio_reads_t;

static inline int64_t rio_len(const rio_reads_t *r, int64_t i) { return (int64_t)(r->off[i + 1] - r->off[i] - 1); }
static inline const char *rio_seq(const rio_reads_t *r, int64_t i) { return r->seq + r->off[i]; }
static inline const char *rio_name(const rio_reads_t *r, int64_t i) { return r->names + r->name_off[i]; }

/* 2-bit code of a normalized symbol: A0 C1 G2 T3, anything else 4 (unknown). */
extern const uint8_t rio_code[256];

#endif
