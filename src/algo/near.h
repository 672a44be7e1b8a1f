/* algo layer: the candidate filter of `lev --all --max-dist D` (docs/lev.md, "--all").
 *
 * Pigeonhole rule: cut a read j into D + 1 disjoint segments of q_j = len_j / (D + 1) symbols
 * (the rest of the read is not used). An alignment of j with i at edit distance <= D touches
 * at most D of them, so one segment, at offset o in j, appears exactly in i at some p with
 * |p - o| <= D (the indels before it shift it by at most D). Pairs with no such occurrence,
 * or with lengths more than D apart, are further than D and are never computed. The filter
 * is exact: every pair within D is a candidate; candidates are then computed as usual.
 *
 * Symbols are compared as stored (the reader's normalised form: upper case, U as T, unknown
 * letters kept, so N matches only N, as in the distance). A read with q_j < ALN_NEAR_QMIN
 * (too short to cut usefully) is a candidate of every read whose length is within D.
 *
 * When the segments get short (72 bp at D >= 8), the approximate-seed filter of near_apx.h
 * takes over: fewer, longer pieces found with up to one edit each, and a score. Which one
 * runs, or none (every pair computed), is aln_near_plan's cost model. */
#ifndef ALN_NEAR_H
#define ALN_NEAR_H

#include <stdint.h>
#include "rktlcs.h"

#define ALN_NEAR_QMIN 8
#define ALN_NEAR_FULL (-2)    /* plans: every pair computed, */
#define ALN_NEAR_EXACT (-1)   /* ... exact segments (pigeonhole), k > 0: k approximate pieces */

typedef struct aln_near_s aln_near_t;

/* The processes that share the work of aln_near_choose and aln_near_costs: this one is part
 * of parts; sum(ctx, x, m) adds x[0 .. m) across them in place (every one gets the same sums);
 * bcast(ctx, buf, bytes, root), where given, copies root's buf to every member's. A null
 * team: this process alone. */
typedef struct {
	void (*sum)(void *ctx, double *x, int64_t m);
	void *ctx;
	int part, parts;
	void (*bcast)(void *ctx, void *buf, int64_t bytes, int root);
} aln_near_team_t;

/* The cheapest plan for reads seq[0 .. n) (lengths len) at distance d, when computing a pair
 * costs pair_ns nanoseconds on one thread: ALN_NEAR_FULL (*f = 0), ALN_NEAR_EXACT or k > 0
 * (near_apx.h), with *f its index. Each plan is built and its candidates and index reads
 * counted on sample rows (the same result on every member: no clock). In a team, each member
 * builds and samples its share of the approximate plans, all at once (the exact one: every member, each
 * a share of its rows), and the one chosen is sent to the others with bcast (built by each
 * where there is none). est gets the estimates (ns, one thread) of every pair, exact segments and the
 * best k (HUGE_VAL: not possible). par: 1 where pairs and filter share the same threads (the
 * CPU); where pair_ns is a GPU's whole rate, the host threads the filter runs on, its
 * estimates divided by them. threads: the threads this process may build and sample on (the
 * plans built side by side; the choice the same on any number). Collective over the team. */
int aln_near_choose(aln_near_t **f, int64_t n, const char *const *seq, const int64_t *len, int64_t d, double pair_ns,
                    double par, int threads, const aln_near_team_t *team, double est[3]);

/* Index reads seq[0 .. n) (lengths len) for distance d >= 0 with plan kind (ALN_NEAR_EXACT
 * or k > 0). The arrays must outlive the index; free it with aln_near_free. RK_ERES when
 * out of memory. */
rk_status_t aln_near_build(aln_near_t **f, int64_t n, const char *const *seq, const int64_t *len, int64_t d, int kind);
void aln_near_free(aln_near_t *f);

/* Scratch of one thread: aln_near_scratch gives a zeroed one sized for the index (the
 * caller frees it with free()). */
typedef struct { int64_t *mark, hits; } aln_near_scr_t;
rk_status_t aln_near_scratch(const aln_near_t *f, aln_near_scr_t *s);

/* The reads j > i that may be within d of read i, ascending, into js (room for n - i
 * entries); returns how many. */
int64_t aln_near_cands(const aln_near_t *f, int64_t i, int64_t *js, aln_near_scr_t *s);

/* The same for rows [r0, r1) on n_threads threads: off[r - r0] .. off[r - r0 + 1] index the
 * candidates of row r in *js. *off and *js are allocated here and freed by the caller (also
 * on error). RK_ERES when out of memory. */
rk_status_t aln_near_rows(const aln_near_t *f, int64_t r0, int64_t r1, int n_threads, int64_t **off, int64_t **js);

/* The cost of each row r in [0, n) of the index (pairs j > r), cost[r], in ns: measured on
 * sample rows (candidates and index entries read; those aln_near_choose measured at the same
 * pair_ns are not measured again), interpolated between them. The same on every team member;
 * collective over the team. RK_ERES when out of memory. */
rk_status_t aln_near_costs(aln_near_t *f, double pair_ns, const aln_near_team_t *team, double *cost);

#endif
