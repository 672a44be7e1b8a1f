/* Internal to the gpu layer: Rkt-LCS with each unordered pair of owned reads walked once
 * (rkt_kern.h, "Walk-once"), called by rgpu_rkt_candidates before its walk-twice plan. */
#ifndef RGPU_RKT_ONCE_H
#define RGPU_RKT_ONCE_H

#include "gpu/rgpu_rt.h"
#include "gpu/rkt_pack.h"
#include "algo/rkt.h"

/* A call's supports left on the device (rg_once_run with keep): n_S counters of reads
 * lo .. hi - 1 (nr of them) at reads[r].soff, and the reads' table. Freed by the owner of
 * the keep (rgpu_rkt_sup_free). */
typedef struct {
	uint32_t *S;
	rg_read_t *reads;
	int64_t nr;
	uint64_t n_S;
} rg_okeep_t;

/* Candidates of reads [lo, hi) into out, when the whole call fits the budget at once (every
 * owned read's counters, all j-set rows, the warps' tables); *ran = 0 and RK_OK when it does
 * not (or walk-once does not pay, or RKTLCS_RKT_GPU_TWICE is set): the caller then walks each
 * pair from both reads. Only units share, share + nshare, ... are walked (nshare 1: all).
 * With keep, the support differences and the reads' table stay on the device in *keep
 * (the caller frees them) instead of candidates going to out.
 * Frees what else it allocates. */
/* Warps per block of a walk-once launch for this job; 0 when walk-once does not apply (long
 * reads, most starts survive tau, forced off), whatever the memory budget. */
int rg_once_warps(const rkt_opt_t *o, const rkt_set_t *s);

rk_status_t rg_once_run(const rkt_opt_t *o, const rkt_set_t *s, int64_t lo, int64_t hi, const rg_pack_t *pk, rgpu_rt_t *rt,
                        int share, int nshare, rkt_cand_t *out, rg_okeep_t *keep, int *ran);

#endif
