/* io layer: Rkt-LCS output (docs/rkt.md, "Output"): the result table with the winner and
 * its occurrences, and the per-read candidates table; TSV or JSON. */
#ifndef RIO_RKT_OUT_H
#define RIO_RKT_OUT_H

#include "io/rio.h"
#include "io/fmt.h"
#include "algo/rkt.h"

typedef struct {
	const char *input;       /* shown in the header comment */
	int64_t k, t, tau;
	int occurrences;         /* add the winner's occurrences */
	rk_fmt_t format;
} rio_rkt_meta_t;

/* win: index of the Rkt-LCS in c, or -1 when no read has a candidate. */
rk_status_t rio_rkt_write_result(rio_out_t *out, const rio_rkt_meta_t *m, const rio_reads_t *r, const rkt_cand_t *c,
                                 int64_t win, const rkt_occ_t *occ, int64_t n_occ);
rk_status_t rio_rkt_write_candidates(rio_out_t *out, const rio_rkt_meta_t *m, const rio_reads_t *r, const rkt_cand_t *c);

#endif
