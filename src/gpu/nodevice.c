/* Built without CUDA: no device is ever usable. */
#include <stdio.h>
#include <string.h>
#include "gpu/rgpu.h"

int rgpu_device_count(void) { return 0; }

rk_status_t rgpu_device_name(int dev, char *buf, int len)
{
	(void)dev;
	snprintf(buf, (size_t)len, "none");
	rk_set_error("this rktlcs was built without CUDA");
	return RK_ERES;
}

void rgpu_opt_init(rgpu_opt_t *g) { memset(g, 0, sizeof *g); }

int32_t rgpu_rkt_max_len(int64_t tau) { (void)tau; return 0; }

rk_status_t rgpu_rkt_candidates(const rkt_opt_t *o, const rkt_set_t *s, int64_t lo, int64_t hi,
                                const rgpu_opt_t *g, rkt_cand_t *out, rgpu_stats_t *st)
{
	(void)o; (void)s; (void)lo; (void)hi; (void)g; (void)out; (void)st;
	rk_set_error("this rktlcs was built without CUDA");
	return RK_ERES;
}

rk_status_t rgpu_ham_block(const rkt_ham_set_t *h, const rkt_ham_opt_t *o, int64_t r0, int64_t r1, const rgpu_opt_t *g,
                           uint32_t *out, int64_t ld, rgpu_stats_t *st)
{
	(void)h; (void)o; (void)r0; (void)r1; (void)g; (void)out; (void)ld; (void)st;
	rk_set_error("this rktlcs was built without CUDA");
	return RK_ERES;
}

rk_status_t rgpu_ham_pairs(const rkt_ham_set_t *h, const rkt_ham_opt_t *o, int64_t r0, int64_t r1, uint32_t maxd,
                           const rgpu_opt_t *g, rkt_ham_pair_t **pairs, int64_t *n_pairs, rgpu_stats_t *st)
{
	(void)h; (void)o; (void)r0; (void)r1; (void)maxd; (void)g; (void)pairs; (void)n_pairs; (void)st;
	rk_set_error("this rktlcs was built without CUDA");
	return RK_ERES;
}
