/* gpu layer, Rkt-LCS (docs/rkt.md, "GPU"): the entry points the driver calls; present only
 * in builds with CUDA. */
#ifndef RGPU_RKT_H
#define RGPU_RKT_H

#ifdef __cplusplus
extern "C" {
#endif

#include "gpu/rgpu.h"
#include "algo/rkt.h"

#ifdef RKTLCS_HAVE_CUDA
/* Longest read the kernels take for this tau (shared-memory bound); longer reads need the
 * CPU backend. */
int32_t rgpu_rkt_max_len(int64_t tau);

/* GPU twin of rkt_candidates: candidates of reads [lo, hi) against all reads of s, with
 * identical results. Device memory is taken in chunks that fit g->mem_limit. */
rk_status_t rgpu_rkt_candidates(const rkt_opt_t *o, const rkt_set_t *s, int64_t lo, int64_t hi,
                                const rgpu_opt_t *g, rkt_cand_t *out, rgpu_stats_t *st);

/* The same, each pair walked from both reads, for the rows of [lo, hi) that rows->claim hands
 * this GPU (others compute the rest): out has hi - lo entries, read lo's first, and only the
 * claimed ones are written. */
rk_status_t rgpu_rkt_candidates_rows(const rkt_opt_t *o, const rkt_set_t *s, int64_t lo, int64_t hi, const rgpu_opt_t *g,
                                     rkt_rows_t *rows, rkt_cand_t *out, rgpu_stats_t *stats);
/* This job's pairs are walked from both reads on the GPU (walk-once does not apply, its
 * memory aside): its reads can be shared out by rows. No device call. */
int rgpu_rkt_walks_twice(const rkt_opt_t *o, const rkt_set_t *s);

/* Walk-once share of a run over several ranks: supports of every read of s from units
 * share, share + nshare, ... of the walk-once plan, as differences between levels, for the
 * ranks to sum (uint32 sums wrap, and wrap back). *S is allocated here and freed by the
 * caller. RK_OK with *S = 0 when walk-once does not apply (reads too long, most starts
 * survive tau, it does not fit the device): then every rank runs rgpu_rkt_candidates. */
rk_status_t rgpu_rkt_supports(const rkt_opt_t *o, const rkt_set_t *s, int share, int nshare, const rgpu_opt_t *g,
                              uint32_t **S, uint64_t *n_S, rgpu_stats_t *st);
/* The same share, its supports kept on the device for the ranks to sum there: *sup = 0
 * (and RK_OK) when walk-once does not apply; else the caller frees it with
 * rgpu_rkt_sup_free. The device is g->device; the calls below use it. */
typedef struct rgpu_rkt_sup_s rgpu_rkt_sup_t;
rk_status_t rgpu_rkt_sup_run(const rkt_opt_t *o, const rkt_set_t *s, int share, int nshare, const rgpu_opt_t *g,
                             rgpu_rkt_sup_t **sup, rgpu_stats_t *st);
void rgpu_rkt_sup_free(rgpu_rkt_sup_t *sup);
/* All its counters to a host buffer allocated here (*S, freed by the caller), through a
 * pinned buffer and n_threads copying threads. */
rk_status_t rgpu_rkt_sup_to_host(rgpu_rkt_sup_t *sup, int n_threads, uint32_t **S, uint64_t *n_S);
/* Between processes on one node (CUDA IPC): export writes RGPU_IPC_BYTES naming the
 * supports; open_peers opens the n handles h[q * RGPU_IPC_BYTES] but its own (self) and
 * adds nothing: on RK_ERES (IPC impossible between these ranks: a message, not fatal)
 * none is open. */
#define RGPU_IPC_BYTES 64
rk_status_t rgpu_rkt_sup_export(const rgpu_rkt_sup_t *sup, unsigned char *h);
rk_status_t rgpu_rkt_sup_open_peers(rgpu_rkt_sup_t *sup, const unsigned char *h, int n, int self);
/* Close what open_peers opened (before the collective after which the peers free theirs). */
void rgpu_rkt_sup_close_peers(rgpu_rkt_sup_t *sup);
/* Counters [off, off + n) of other (in this process), or of every opened peer when other
 * is NULL (then closing them, also on failure: the peers may free theirs once every rank is
 * past this), added to sup's own. */
rk_status_t rgpu_rkt_sup_add(rgpu_rkt_sup_t *sup, const rgpu_rkt_sup_t *other, uint64_t off, uint64_t n);
/* Candidates of reads [lo, hi) from sup's counters (summed by now), computed on the device. */
rk_status_t rgpu_rkt_sup_cands(rgpu_rkt_sup_t *sup, int64_t lo, int64_t hi, rkt_cand_t *out);
/* off[a] = the offset of read at[a]'s supports in S (the counters of reads 0 .. at[a] - 1),
 * at ascending. */
void rgpu_rkt_support_offs(const rkt_set_t *s, int64_t tau, const int64_t *at, int n_at, uint64_t *off);
/* Candidates of reads [lo, hi) from the summed supports of those reads (host). */
void rgpu_rkt_cands_from_supports(const rkt_set_t *s, int64_t tau, int64_t t, const uint32_t *S, int64_t lo,
                                  int64_t hi, rkt_cand_t *out);
#endif

#ifdef __cplusplus
}
#endif

#endif
