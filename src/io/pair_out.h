/* io layer: the tables of the pairwise modes, lev (docs/lev.md) and lcs (docs/lcs.md): one
 * row per pair, name_a name_b len_a len_b value [ends] [start] [cigar | subsequence path]; TSV, JSON
 * or PAF.
 * Rows are formatted by whichever rank computed them and written by rank 0 in order, so a
 * JSON row starts with ",\n" and the writer drops the comma of the first one. */
#ifndef RIO_PAIR_OUT_H
#define RIO_PAIR_OUT_H

#include "io/fmt.h"
#include "algo/aln.h"

enum { RIO_LEV = 0, RIO_LCS = 1 };

typedef struct {
	int mode;                 /* RIO_LEV, RIO_LCS */
	const char *in_a, *in_b;  /* in_b NULL with --all */
	int64_t k, max_dist;      /* lev -k, --max-dist (-1: none) */
	int path, seq;            /* --path (both), --seq (lcs) */
	rk_fmt_t format;
	int align;                /* lev --mode: 0 global, 1 prefix, 2 infix (lev_mode_t) */
} rio_pair_meta_t;

/* '#' comments and the column header (TSV), or the JSON object's head. */
void rio_pair_head(rio_buf_t *b, const rio_pair_meta_t *m);
/* One pair: val is the distance (lev; -1: beyond -k, written '*') or the LCS length; path
 * (NULL unless --path or --seq) its canonical path; seq_a the symbols of A (for --seq);
 * ends (NULL unless lev --mode prefix|infix) the ends in B and the start of the first.
 * PAF (--format paf, with --path): one line per pair, A the query, B the target. */
void rio_pair_row(rio_buf_t *b, const rio_pair_meta_t *m, const char *name_a, int64_t la, const char *name_b, int64_t lb,
                  const char *seq_a, int64_t val, const aln_path_t *path, const aln_ends_t *ends);
void rio_pair_tail(rio_buf_t *b, const rio_pair_meta_t *m);

#endif
